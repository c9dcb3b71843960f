// Per-function comparison of two runs: the table of the functions whose weight changed most.
//
// Invariants:
// - a function is a frame name; flags are ignored, so an inlined `foo` and a physical `foo`
//   are one function (the name is what search and the table show).
// - self = the sum of self weights over every call site; total = the weight of the samples
//   that have the function anywhere on their stack, so recursion is counted once (a node adds
//   its total only when no ancestor has the same name).
// - every function with a node in A or B has one row; status says whether it is in both runs,
//   only in B ('new') or only in A ('gone').
// - rows are sorted by |self Δ|, then |total Δ|, then name; iterative walk, O(nodes + names).

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { compare, type Compared, type DeltaOptions, type DiffSide } from './diff';

export interface FunctionDelta {
  name: string;
  status: 'both' | 'new' | 'gone';
  self: Compared;
  total: Compared;
}

interface FunctionWeights {
  /** Per string index of the side's table (only the ones used as frame names are non-zero). */
  self: Float64Array;
  total: Float64Array;
  seen: Uint8Array;
}

function functionWeights(tree: CallTree, frames: FrameTable, samples: boolean): FunctionWeights {
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

/** One row per function name of A or B, heaviest change of self weight first. */
export function functionDeltas(a: DiffSide, b: DiffSide, options: DeltaOptions = {}): FunctionDelta[] {
  const norm = options.norm ?? 'pct';
  const samples = (options.weight ?? 'period') === 'samples';
  const wa = functionWeights(a.tree, a.frames, samples);
  const wb = functionWeights(b.tree, b.frames, samples);
  const totalA = samples ? a.tree.totalSamples[0] : a.tree.totalWeight[0];
  const totalB = samples ? b.tree.totalSamples[0] : b.tree.totalWeight[0];

  const bIndex = new Map<string, number>();
  for (let s = 0; s < wb.seen.length; s++) if (wb.seen[s]) bIndex.set(b.frames.strings[s], s);

  const rows: FunctionDelta[] = [];
  const matchedB = new Uint8Array(wb.seen.length);
  for (let s = 0; s < wa.seen.length; s++) {
    if (!wa.seen[s]) continue;
    const name = a.frames.strings[s];
    const t = bIndex.get(name);
    if (t === undefined) {
      rows.push(row(name, 'gone', wa.self[s], 0, wa.total[s], 0));
    } else {
      matchedB[t] = 1;
      rows.push(row(name, 'both', wa.self[s], wb.self[t], wa.total[s], wb.total[t]));
    }
  }
  for (let t = 0; t < wb.seen.length; t++) {
    if (wb.seen[t] && !matchedB[t]) rows.push(row(b.frames.strings[t], 'new', 0, wb.self[t], 0, wb.total[t]));
  }
  // Sort an index by precomputed keys: cheaper than a comparator reaching into row objects.
  const selfKey = new Float64Array(rows.length);
  const totalKey = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    selfKey[i] = Math.abs(rows[i].self.delta);
    totalKey[i] = Math.abs(rows[i].total.delta);
  }
  const order = Array.from({ length: rows.length }, (_, i) => i);
  order.sort((x, y) => selfKey[y] - selfKey[x] || totalKey[y] - totalKey[x] || (rows[x].name < rows[y].name ? -1 : rows[x].name > rows[y].name ? 1 : 0));
  return order.map((i) => rows[i]);

  function row(name: string, status: FunctionDelta['status'], selfA: number, selfB: number, totA: number, totB: number): FunctionDelta {
    return {
      name,
      status,
      self: compare(selfA, selfB, totalA, totalB, norm),
      total: compare(totA, totB, totalA, totalB, norm),
    };
  }
}
