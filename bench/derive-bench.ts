// End-to-end cost of a transform on a 1,000,000-node tree as the viewer pays it: the base trees
// cross to a worker once (structured clone), each derivation runs there (derive(): time range,
// transforms, reversed), the result's columns come back by transfer, and the main thread maps
// the zoom and the selection onto the new tree and swaps it into the store (applyDerived).
//
//   npx tsx bench/derive-bench.ts [--nodes 1000000] [--runs 5] [--seed 1]
//
// Columns: worker ms (derive() inside the worker, wall), round trip ms (post → result back on
// the main thread: derive + transfer + message hops), process CPU ms over the round trip (the
// main thread is idle while it waits, so this is ≈ the worker's CPU), and main ms: the main
// thread's share (node mapping + store update), wall and CPU. Medians of `runs` after one
// warm-up. The synthetic tree is grown as in bench/transform-bench.ts.

import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { mapShownNodes, type ShownTree } from '../src/core/query/transform-node-map';
import type { CallTree } from '../src/core/model/call-tree';
import type { ProfileSnapshot } from '../src/core/views/snapshot';
import { copyTree, treeColumns, type DeriveInput, type DeriveRequest } from '../src/core/views/derive';
import { functionTable, sortRows } from '../src/core/views/function-table';
import type { Transform } from '../src/core/views/transforms';
import { useStore } from '../src/store/store';
import { withPanes } from '../src/store/pane';
import { Rng } from './prng';
import { median, syntheticTree } from './synthetic-tree';

const { values } = parseArgs({
  options: { nodes: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '5' }, seed: { type: 'string', default: '1' } },
});
const NODES = Number(values.nodes);
const RUNS = Number(values.runs);
const rng = new Rng(Number(values.seed));

const build = (target: number) => syntheticTree(target, rng);

const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

const { tree, frames } = build(NODES);
const table = functionTable(tree, frames);
const hot = frames.strings[table.name[sortRows(table, frames, { by: 'total' })[1]]];
const mid = frames.strings[table.name[sortRows(table, frames, { by: 'self' })[5]]];
// A deep node of the hot function: the zoom and the selection to carry over.
let deep = 0;
for (let i = 1; i < tree.nodeCount; i++) if (frames.strings[frames.name[tree.frame[i]]] === hot && tree.depth[i] > tree.depth[deep]) deep = i;
const zoomAt = tree.parent[deep] > 0 ? tree.parent[deep] : deep;
console.log(`tree: ${tree.nodeCount} nodes, ${frames.count} frames; HOT = ${hot}, MID = ${mid}; load ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);

const worker = new Worker(new URL('./derive-bench-worker.mjs', import.meta.url));
worker.on('error', (e) => {
  console.error('worker failed:', e);
  process.exit(1);
});
const next = () => new Promise<{ type: string; tree?: CallTree; toNew?: Int32Array | null; ms?: number }>((resolve) => worker.once('message', resolve));

const input: DeriveInput = { frames, inline: tree, functions: null, toFunction: null, samples: null };
// Warm the worker up (tsx boot) so the figures below are the crossing alone.
worker.postMessage({ type: 'base', input: null });
await next();
// As workerBackend does: copy the columns (the page keeps drawing its own) and transfer the copies.
const cc = process.cpuUsage();
let t0 = performance.now();
const copy = { ...input, inline: copyTree(tree) };
worker.postMessage({ type: 'base', input: copy }, treeColumns(copy.inline));
const cloneMs = performance.now() - t0;
const cloneCpu = cpuMs(process.cpuUsage(cc));
await next();
console.log(`base to the worker: copy + postMessage ${cloneMs.toFixed(0)} ms (${cloneCpu.toFixed(0)} ms CPU) on the main thread, ready after ${(performance.now() - t0).toFixed(0)} ms`);

const snapshot = { frames, inline: tree, functions: null, toFunction: null, toInline: null, samples: null, meta: {} } as unknown as ProfileSnapshot;
const baseShown: ShownTree = { tree, inputKey: 'base', input: tree, toNew: null };

const cases: [string, Transform[], boolean][] = [
  ['focus:HOT', [{ kind: 'focus', name: hot }], false],
  ['merge:MID', [{ kind: 'merge', name: mid }], false],
  ['rec (all)', [{ kind: 'direct-rec', name: null }], false],
  ['hide:kernel', [{ kind: 'hide', what: 'kernel' }], false],
  ['hide:unknown', [{ kind: 'hide', what: 'unknown' }], false],
  ['reversed', [], true],
  ['hide:kernel + reversed', [{ kind: 'hide', what: 'kernel' }], true],
];

console.log('case'.padEnd(26) + 'worker ms'.padStart(10) + 'round trip'.padStart(11) + 'cpu ms'.padStart(8) + 'main ms'.padStart(9) + 'main cpu'.padStart(9) + 'undo main'.padStart(10) + '  nodes');
for (const [name, transforms, reversed] of cases) {
  if (reversed && tree.nodeCount > 200_000) {
    // This synthetic tree gives every node self weight on deep chains: its reversed tree has
    // O(sum of depths) nodes (3.9 M for 100 k nodes). Measure it with --nodes 100000.
    console.log(`${name.padEnd(26)}skipped above 200,000 nodes (see the comment)`);
    continue;
  }
  const request: DeriveRequest = { view: 'inline', transforms, reversed, range: null };
  const fig = { worker: [] as number[], trip: [] as number[], cpu: [] as number[], main: [] as number[], mainCpu: [] as number[], undo: [] as number[] };
  let nodes = 0;
  for (let run = 0; run <= RUNS; run++) {
    useStore.setState({ recordings: { ...useStore.getState().recordings, a: { ...useStore.getState().recordings.a, snapshot } }, view: 'inline', derived: null, panes: withPanes(useStore.getState().panes, { main: { zoomNode: zoomAt, selectedNode: deep } }) });
    (globalThis as { gc?: () => void }).gc?.();
    const c0 = process.cpuUsage();
    t0 = performance.now();
    worker.postMessage({ type: 'derive', request });
    const reply = await next();
    const trip = performance.now() - t0;
    const cpu = cpuMs(process.cpuUsage(c0));
    // The main thread's share: what derive-controller's show() does.
    const c1 = process.cpuUsage();
    const t1 = performance.now();
    const s = useStore.getState();
    const shown: ShownTree = { tree: reply.tree!, inputKey: 'base', input: tree, toNew: reply.toNew ?? 'none' };
    const [z, sel] = mapShownNodes(frames, baseShown, [s.panes.main.zoomNode, s.panes.main.selectedNode], shown);
    s.applyDerived({ snapshot, view: 'inline', transforms, reversed, range: null, tree: reply.tree!, toNew: reply.toNew ?? null, ranged: false }, { zoomNode: z, selectedNode: sel });
    const main = performance.now() - t1;
    const mainCpu = cpuMs(process.cpuUsage(c1));
    // Undo back to the base tree: the selection goes back through the heaviest preimage.
    const t2 = performance.now();
    const after = useStore.getState();
    const [zb, sb] = mapShownNodes(frames, shown, [after.panes.main.zoomNode, after.panes.main.selectedNode], baseShown);
    after.applyDerived(null, { zoomNode: zb, selectedNode: sb });
    const undo = performance.now() - t2;
    nodes = reply.tree!.nodeCount;
    if (run === 0) continue; // warm-up
    fig.worker.push(reply.ms!);
    fig.trip.push(trip);
    fig.cpu.push(cpu);
    fig.main.push(main);
    fig.mainCpu.push(mainCpu);
    fig.undo.push(undo);
  }
  console.log(
    name.padEnd(26) +
      median(fig.worker).toFixed(0).padStart(10) +
      median(fig.trip).toFixed(0).padStart(11) +
      median(fig.cpu).toFixed(0).padStart(8) +
      median(fig.main).toFixed(1).padStart(9) +
      median(fig.mainCpu).toFixed(1).padStart(9) +
      median(fig.undo).toFixed(1).padStart(10) +
      `  ${nodes}`,
  );
}
await worker.terminate();
process.exit(0);
