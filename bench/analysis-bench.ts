// Main-thread cost of opening the function table and the callers/callees of a function on a
// 1,000,000-node tree: before (computed on the main thread: functionTable, calleesTree,
// callersTree) and after (computed by the analysis worker, columns back by transfer; the main
// thread only receives the message and puts the result in the store).
//
//   npx tsx bench/analysis-bench.ts [--nodes 1000000] [--runs 5] [--seed 1]
//
// "main CPU ms" before = process CPU of the synchronous computation (one thread). "main longest
// task ms" after = the longest gap of a 1 ms main-thread ticker while the request is in flight
// (what the page would see as its longest task), with the worker's own time and the round trip.
// Medians of `runs` after one warm-up. The synthetic tree comes from bench/synthetic-tree.ts.

import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { functionTable, sortRows } from '../src/core/views/function-table';
import { callersCalleesOf, callersCalleesPair } from '../src/core/query/callers-callees';
import { tableFor } from '../src/core/query/table-model';
import { useStore } from '../src/store/store';
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
const table0 = functionTable(tree, frames);
const hot = frames.strings[table0.name[sortRows(table0, frames, { by: 'total' })[1]]];
console.log(`tree: ${tree.nodeCount} nodes, ${frames.count} frames; function = ${hot}; load ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);

// Before: on the main thread (a fresh tree object per run defeats the memo).
const before = { table: [] as number[], sandwich: [] as number[] };
for (let i = 0; i <= RUNS; i++) {
  let c = process.cpuUsage();
  tableFor({ ...tree }, frames);
  const t = cpuMs(process.cpuUsage(c));
  c = process.cpuUsage();
  callersCalleesOf({ ...tree }, frames, hot);
  const s = cpuMs(process.cpuUsage(c));
  if (i > 0) {
    before.table.push(t);
    before.sandwich.push(s);
  }
}

// After: in a worker.
const worker = new Worker(new URL('./analysis-bench-worker.mjs', import.meta.url));
const next = () => new Promise<{ type: string; reply?: any }>((resolve) => worker.once('message', resolve));
worker.postMessage({ type: 'base', tree, frames });
await next();
async function timed(msg: object, apply: (reply: any) => void): Promise<{ longest: number; roundTrip: number; worker: number }> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  worker.postMessage(msg);
  const r = await next();
  const a0 = performance.now();
  apply(r.reply);
  longest = Math.max(longest, performance.now() - a0, a0 - last);
  const roundTrip = performance.now() - t0;
  clearInterval(ticker);
  return { longest, roundTrip, worker: r.reply.ms };
}
const after = { table: [] as ReturnType<typeof timed> extends Promise<infer T> ? T[] : never, sandwich: [] as any[] };
for (let i = 0; i <= RUNS; i++) {
  const t = await timed({ type: 'table' }, (reply) => useStore.getState().setAnalysisResults({ table: { tree, reversed: false, table: reply.table } }));
  const s = await timed({ type: 'sandwich', name: hot }, (reply) =>
    useStore.getState().setAnalysisResults({ callersCalleesTrees: { tree, name: hot, reversed: false, trees: callersCalleesPair(reply.callers, reply.callees) } }),
  );
  if (i > 0) {
    after.table.push(t);
    after.sandwich.push(s);
  }
}
await worker.terminate();
const f = (x: number) => x.toFixed(1).padStart(7);
for (const k of ['table', 'sandwich'] as const) {
  const a = after[k] as { longest: number; roundTrip: number; worker: number }[];
  console.log(
    `${k.padEnd(9)} before: main CPU ms ${f(median(before[k]))}   after: main longest task ms ${f(median(a.map((x) => x.longest)))}, worker ms ${f(median(a.map((x) => x.worker)))}, round trip ms ${f(median(a.map((x) => x.roundTrip)))}`,
  );
}
