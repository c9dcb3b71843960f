// Per-function weights of one tree (self, and total counted once per sample under recursion)
// and each run's share of every function (group compare, views/group-deltas.ts). Apart from the
// diff, so that the profile worker's snapshot (views/snapshot.ts), which the page imports, builds
// the runs' share tables without bringing the diff onto the main thread.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';

export interface FunctionWeights {
  /** Per string index of the side's table (only the ones used as frame names are non-zero). */
  self: Float64Array;
  total: Float64Array;
  seen: Uint8Array;
}

export function functionWeights(tree: CallTree, frames: FrameTable, samples: boolean): FunctionWeights {
  const size = frames.strings.length;
  const self = new Float64Array(size);
  const total = new Float64Array(size);
  const seen = new Uint8Array(size);
  const onStack = new Int32Array(size);
  const selfW = samples ? tree.selfSamples : tree.selfWeight;
  const totalW = samples ? tree.totalSamples : tree.totalWeight;
  // Open ancestors of the current node, outermost first (the root is never pushed).
  const open = new Int32Array(tree.maxDepth + 1);
  let top = 0;
  for (let n = 1; n < tree.nodeCount; n++) {
    while (top > 0 && tree.end[open[top - 1]] <= n) onStack[frames.name[tree.frame[open[--top]]]]--;
    const s = frames.name[tree.frame[n]];
    seen[s] = 1;
    self[s] += selfW[n];
    if (onStack[s] === 0) total[s] += totalW[n];
    onStack[s]++;
    open[top++] = n;
  }
  return { self, total, seen };
}

/**
 * Each run's share of every function, in percent of the run's total: one row per run, one column
 * per name, 0 where the run lacks the function. Small (runs × functions), so the page's profile
 * worker keeps one per summed recording and the compare worker judges noise without the runs.
 */
export interface ShareTable {
  names: readonly string[];
  runs: number;
  /** run r, function f at [r * names.length + f]. */
  self: Float64Array;
  total: Float64Array;
}

/** The share table of the runs: each normalised by its own total (samples: by sample counts). */
export function shareTable(runs: readonly { tree: CallTree; frames: FrameTable }[], samples = false): ShareTable {
  const column = new Map<string, number>();
  const perRun = runs.map((run) => {
    const w = functionWeights(run.tree, run.frames, samples);
    const root = samples ? run.tree.totalSamples[0] : run.tree.totalWeight[0];
    const cells: [number, number, number][] = [];
    for (let s = 0; s < w.seen.length; s++) {
      if (!w.seen[s]) continue;
      const name = run.frames.strings[s];
      let f = column.get(name);
      if (f === undefined) column.set(name, (f = column.size));
      cells.push([f, root > 0 ? (100 * w.self[s]) / root : 0, root > 0 ? (100 * w.total[s]) / root : 0]);
    }
    return cells;
  });
  const n = column.size;
  const self = new Float64Array(runs.length * n);
  const total = new Float64Array(runs.length * n);
  perRun.forEach((cells, r) => {
    for (const [f, sh, tot] of cells) {
      self[r * n + f] = sh;
      total[r * n + f] = tot;
    }
  });
  return { names: [...column.keys()], runs: runs.length, self, total };
}
