// Time-order chart cost on big recordings: the stack chart model (boxes + rows) and treeForRange
// for N samples over a real tree (a fixture), leaves drawn at random (the worst case: no shared
// prefix runs) or in runs of 20 (closer to a real recording). CPU time of this process.
//
//   npx tsx bench/time-order-bench.ts [--samples 1000000] [--file fixtures/sqlite.perf-script.txt]

import { readFileSync } from 'node:fs';
import { loadProfileFromText } from '../src/core/import/load';
import { treeForRange } from '../src/core/views/time-order';
import { type SampleColumns } from '../src/core/model/sample-column';
import { buildModel } from '../src/render/stack-chart-model';
import { Rng } from './prng';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const N = Number(arg('samples', '1000000'));
const file = arg('file', 'fixtures/sqlite.perf-script.txt');

const profile = await loadProfileFromText(readFileSync(file));
const tree = profile.tree;
const leaves: number[] = [];
for (let n = 1; n < tree.nodeCount; n++) if (tree.selfSamples[n] > 0) leaves.push(n);
const rng = new Rng(1);
const rand = () => rng.u32() / 2 ** 32;

function columns(run: number): SampleColumns {
  const leaf = new Int32Array(N);
  const time = new Float64Array(N);
  let cur = leaves[0];
  for (let i = 0; i < N; i++) {
    if (i % run === 0) cur = leaves[Math.floor(rand() * leaves.length)];
    leaf[i] = cur;
    time[i] = 1000 + i * 0.001;
  }
  return { count: N, leaf, time, weight: new Float64Array(N).fill(1e6) };
}

function cpu<T>(f: () => T): [T, number] {
  const a = process.cpuUsage();
  const r = f();
  const b = process.cpuUsage(a);
  return [r, (b.user + b.system) / 1000];
}

console.log(`${file}: ${tree.nodeCount} nodes, max depth ${tree.maxDepth}; ${N} samples`);
for (const run of [1, 20]) {
  const s = columns(run);
  for (let rep = 0; rep < 3; rep++) {
    const [m, ms] = cpu(() => buildModel(tree, s));
    const [, rangeMs] = cpu(() => treeForRange(tree, profile.frames, s, 1000 + N * 0.00025, 1000 + N * 0.00075));
    const mb = (m.chart.count * 24 + m.rowBoxes.length * 4) / 1e6;
    console.log(`runs of ${run}: ${m.chart.count} boxes (${mb.toFixed(0)} MB), model ${ms.toFixed(0)} ms CPU; treeForRange (half) ${rangeMs.toFixed(0)} ms CPU`);
  }
}
