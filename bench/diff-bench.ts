// Benchmark of the differential view's engine: the diff of two 100,000-node call trees.
//
//   npx tsx bench/diff-bench.ts [--nodes 100000] [--runs 5] [--seed 1]
//
// A is a random tree grown like a profile (deep chains, hot frames recurring under many parents,
// a Zipf-like frame pool). B is derived from A the way a second recording differs from the first:
// ~0.3 % of subtrees gone (whole chains below them go too), ~5 % new children with new names, every weight rescaled, and its frame
// table numbered in a different order (so matching has to go by name, not by index).
// Prints the median of the runs for diffTrees alone (the budget: under 200 ms of CPU time) and for what the
// UI computes when a comparison opens (diffTrees + deltaColumn + functionDeltas) and on a
// normalisation switch. `node --single-threaded --expose-gc --import tsx bench/diff-bench.ts`
// keeps GC threads out of the CPU figure and collects between runs.

import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { FrameTableBuilder, frameName, type FrameTable } from '../src/core/model/frame-table';
import { TreeBuilder } from '../src/core/model/tree-builder';
import type { CallTree } from '../src/core/model/call-tree';
import { deltaColumn, diffTrees, type DiffSide } from '../src/core/views/diff';
import { functionDeltas } from '../src/core/views/function-deltas';
import { Rng } from './prng';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
  },
});
const NODES = Number(values.nodes);
const RUNS = Number(values.runs);
const rng = new Rng(Number(values.seed));

function buildA(target: number): DiffSide {
  const frames = new FrameTableBuilder();
  const pool = Math.max(100, Math.round(target / 5));
  const ids = new Int32Array(pool);
  for (let i = 0; i < pool; i++) ids[i] = frames.intern(`crate::module${i % 97}::function_${i}`, rng.float() < 0.6 ? 1 : 0);
  const builder = new TreeBuilder();
  let last = 0;
  while (builder.nodeCount < target) {
    // Mostly deepen the latest node (stacks are chains); sometimes branch from any node.
    const parent = rng.float() < 0.75 ? last : Math.floor(rng.float() * builder.nodeCount);
    const frame = ids[Math.floor(pool * rng.float() ** 3)];
    last = builder.child(parent, frame);
    builder.addSelf(last, 1 + Math.floor(rng.float() * 1000), 1);
  }
  const table = frames.finish();
  return { tree: builder.finish(table).tree, frames: table };
}

function deriveB(a: DiffSide): DiffSide {
  const frames = new FrameTableBuilder();
  // New names first, so B's frame indices differ from A's for every shared frame.
  for (let i = 0; i < 500; i++) frames.intern(`crate::new::function_${i}`, 0);
  const { tree } = a;
  const builder = new TreeBuilder();
  const mapped = new Int32Array(tree.nodeCount).fill(-1);
  mapped[0] = 0;
  for (let n = 1; n < tree.nodeCount; n++) {
    const p = mapped[tree.parent[n]];
    if (p < 0 || rng.float() < 0.003) continue; // gone, with its subtree
    const f = tree.frame[n];
    const node = builder.child(p, frames.intern(frameName(a.frames, f), a.frames.flags[f]));
    mapped[n] = node;
    builder.addSelf(node, Math.round(tree.selfWeight[n] * (0.5 + rng.float() * 1.5)), tree.selfSamples[n]);
    if (rng.float() < 0.05) {
      const extra = builder.child(node, frames.intern(`crate::new::function_${Math.floor(rng.float() * 500)}`, 0));
      builder.addSelf(extra, 500, 1);
    }
  }
  const table = frames.finish();
  return { tree: builder.finish(table).tree, frames: table };
}

/** New identities for the same columns, so the memos (diff, frame mapping) do not answer. */
const fresh = (s: DiffSide): DiffSide => ({ tree: { ...s.tree } as CallTree, frames: { ...s.frames } as FrameTable });

function median(xs: number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

const a = buildA(NODES);
const b = deriveB(a);
const diffTimes: number[] = [];
const diffCpu: number[] = [];
const allTimes: number[] = [];
const switchTimes: number[] = [];
let check = '';
// One untimed warm-up run (JIT), then the measured runs.
for (let r = -1; r < RUNS; r++) {
  const fa = fresh(a);
  const fb = fresh(b);
  // With node --expose-gc, start each run without the previous run's garbage.
  (globalThis as { gc?: () => void }).gc?.();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const d = diffTrees(fa, fb);
  const t1 = performance.now();
  const cpu = process.cpuUsage(c0);
  const col = deltaColumn(d, 'total');
  const rows = functionDeltas(fa, fb);
  const t2 = performance.now();
  // A normalisation switch: the diff and the per-function weights are memoised.
  deltaColumn(diffTrees(fa, fb), 'total', { norm: 'abs' });
  functionDeltas(fa, fb, { norm: 'abs' });
  const t3 = performance.now();
  if (r < 0) continue;
  switchTimes.push(t3 - t2);
  diffTimes.push(t1 - t0);
  diffCpu.push((cpu.user + cpu.system) / 1000);
  allTimes.push(t2 - t0);
  check = `matched ${d.match.filter((m) => m >= 0).length}, only in A ${d.onlyInA.length}, only in B ${d.onlyInB.length}, functions ${rows.length}, max |Δ| ${col.maxAbs.toFixed(3)} pp`;
}
const fmt = (xs: number[]) => xs.map((t) => t.toFixed(1)).join(', ');
console.log(`trees: A ${a.tree.nodeCount} nodes / ${a.frames.count} frames, B ${b.tree.nodeCount} nodes / ${b.frames.count} frames; ${check}`);
console.log(
  `diffTrees: median ${median(diffTimes).toFixed(1)} ms wall (min ${Math.min(...diffTimes).toFixed(1)}), ${median(diffCpu).toFixed(1)} ms CPU (min ${Math.min(...diffCpu).toFixed(1)}), of ${RUNS} runs (wall ${fmt(diffTimes)})`,
);
console.log(`diffTrees + deltaColumn + functionDeltas: median ${median(allTimes).toFixed(1)} ms wall (${fmt(allTimes)})`);
console.log(`normalisation switch (deltaColumn + functionDeltas, memoised diff and weights): median ${median(switchTimes).toFixed(1)} ms wall`);
// The budget is judged on CPU time: on a shared machine other processes stretch the wall clock
// (the load average is printed beside the figures), not what the diff costs.
const budget = 200;
console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; budget ${budget} ms: ${median(diffCpu) < budget ? 'ok' : 'MISS'} (median CPU)`);
if (median(diffCpu) >= budget) {
  console.log(`OVER BUDGET: the diff must take under ${budget} ms`);
  process.exitCode = 1;
}
