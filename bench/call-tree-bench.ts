// Main-thread cost of the call tree panel's model on a generated 1,000,000-node tree
// (src/core/query/call-tree-rows.ts): the display order (children heaviest first, once per tree),
// the rows of the initial expansion, and expand-all (`*`) of the root's subtree (the mask fill
// plus the flattening into rows: every node a row) and of the heaviest child's subtree.
//
//   npx tsx bench/call-tree-bench.ts [--nodes 1000000] [--runs 7] [--seed 1]
//
// Wall-clock and process-CPU medians of `runs` after one warm-up (CPU time is less sensitive to
// other load on a shared machine); a fresh tree object per order run defeats the memo.

import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { displayOrder, expandAllBelow, initialExpansion, visibleRows } from '../src/core/query/call-tree-rows';
import type { CallTree } from '../src/core/model/call-tree';
import { Rng } from './prng';
import { median, syntheticTree } from './synthetic-tree';

const { values } = parseArgs({
  options: { nodes: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '7' }, seed: { type: 'string', default: '1' } },
});
const RUNS = Number(values.runs);
const { tree } = syntheticTree(Number(values.nodes), new Rng(Number(values.seed)));

const cpu: Record<string, number[]> = { order: [], initialRows: [], expandAllRoot: [], expandAllChild: [] };
let lastCpu = 0;
const time = (f: () => void): number => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const c = process.cpuUsage(c0);
  lastCpu = (c.user + c.system) / 1000;
  return performance.now() - t0;
};
const figures: Record<string, number[]> = { order: [], initialRows: [], expandAllRoot: [], expandAllChild: [] };
const shown = { initial: 0, root: 0, child: 0 };
const child = (order: Int32Array) => order[1];
for (let i = 0; i <= RUNS; i++) {
  const copy: CallTree = { ...tree };
  let order: Int32Array = new Int32Array(0);
  const t = { order: time(() => (order = displayOrder(copy))) } as Record<string, number>;
  const c = { order: lastCpu } as Record<string, number>;
  let expanded: Uint8Array = new Uint8Array(0);
  t.initialRows = time(() => {
    expanded = initialExpansion(copy, order);
    shown.initial = visibleRows(copy, order, expanded).length;
  });
  c.initialRows = lastCpu;
  t.expandAllRoot = time(() => (shown.root = visibleRows(copy, order, expandAllBelow(copy, expanded, 0)).length));
  c.expandAllRoot = lastCpu;
  const heavy = child(order);
  t.expandAllChild = time(() => (shown.child = visibleRows(copy, order, expandAllBelow(copy, expanded, heavy)).length));
  c.expandAllChild = lastCpu;
  if (i === 0) continue;
  for (const k of Object.keys(figures)) {
    figures[k].push(t[k]);
    cpu[k].push(c[k]);
  }
}
console.log(`tree: ${tree.nodeCount.toLocaleString('en-US')} nodes (max depth ${tree.maxDepth}); rows: initial ${shown.initial}, expand-all root ${shown.root}, expand-all heaviest child ${shown.child}`);
console.log(`load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (const [k, xs] of Object.entries(figures)) {
  console.log(`${k.padEnd(16)} wall median ${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)})  CPU median ${median(cpu[k]).toFixed(1)} ms (min ${Math.min(...cpu[k]).toFixed(1)})`);
}
