// The merge of parallel parsing on one core: a generated recording is cut into N parts (as the
// split cuts it), each part parsed in this thread one after the other, then the N partial
// profiles are merged (src/core/parallel/merge.ts), several times. Reports the parts' parse time,
// the merge time (median) and the merge's share of a load on N cores, where the parts would be
// parsed side by side: merge / (slowest part + merge). The machine is shared: the same share by
// the thread's CPU time (/proc/thread-self/stat) is printed beside the one by wall time.
//
//   npx tsx bench/merge-bench.ts [--format perf|folded] [--size 200] [--parts 8] [--runs 5]

import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { loadPart, probeSplit } from '../src/core/import/load';
import { mergeParts } from '../src/core/parallel/merge';
import { findCuts, importerFor } from '../src/core/parallel/split';
import { chunked } from '../src/core/testing/split-parts';
import { ensureInput, type BenchFormat } from './generate';
import { threadCpuMs } from '../src/cli/thread-cpu';
import { loadavg } from 'node:os';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

async function main(): Promise<void> {
  const format = arg('--format', 'perf') as BenchFormat;
  const size = Number(arg('--size', '200'));
  const n = Number(arg('--parts', '8'));
  const runs = Number(arg('--runs', '5'));
  const path = await ensureInput(format, size, 1, console.log);
  const bytes = new Uint8Array(await readFile(path));
  const probe = probeSplit(bytes.subarray(0, 256 * 1024), false)!;
  const source = { size: bytes.length, read: async (s: number, e: number) => bytes.subarray(s, e) };
  const cuts = (await findCuts(source, n, format === 'perf' ? 'blank-line' : 'line'))!;
  const importer = importerFor(probe.importer.format);
  const parts = [];
  const parseMs: number[] = [];
  const parseCpuMs: number[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const t = performance.now();
    const c = threadCpuMs();
    parts.push(await loadPart(chunked(bytes.subarray(cuts[i], cuts[i + 1]), 1 << 20), importer, { partContext: i === 0 ? undefined : probe.context }));
    parseMs.push(performance.now() - t);
    parseCpuMs.push(threadCpuMs() - c);
  }
  const mergeMs: number[] = [];
  const mergeCpuMs: number[] = [];
  let nodes = 0;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    const cpu = threadCpuMs();
    const profile = mergeParts(parts, importer)!;
    mergeMs.push(performance.now() - t);
    mergeCpuMs.push(threadCpuMs() - cpu);
    nodes = profile.tree.nodeCount;
  }
  const m = median(mergeMs);
  const slowest = Math.max(...parseMs);
  const partNodes = parts.reduce((s, p) => s + p.tree.nodeCount, 0);
  console.log(`${format} ${size} MB in ${parts.length} parts: parse ${parseMs.map((x) => x.toFixed(0)).join(' + ')} ms (sum ${parseMs.reduce((a, b) => a + b, 0).toFixed(0)} ms)`);
  console.log(`merge: median ${m.toFixed(1)} ms of ${runs} (${mergeMs.map((x) => x.toFixed(0)).join(', ')}), CPU ${median(mergeCpuMs).toFixed(1)} ms; ${partNodes} part nodes → ${nodes} nodes`);
  console.log(`merge share on ${parts.length} cores: ${m.toFixed(0)} / (${slowest.toFixed(0)} + ${m.toFixed(0)}) = ${((100 * m) / (slowest + m)).toFixed(1)} %`);
  const slowestCpu = Math.max(...parseCpuMs);
  const mc = median(mergeCpuMs);
  console.log(`by thread CPU time: parse ${parseCpuMs.map((x) => x.toFixed(0)).join(' + ')} ms; merge ${mc.toFixed(0)} / (${slowestCpu.toFixed(0)} + ${mc.toFixed(0)}) = ${((100 * mc) / (slowestCpu + mc)).toFixed(1)} %`);
  const late = parts.map((p) => (p.meta as { late?: { deferred: { count: number } } }).late?.deferred.count ?? 0);
  console.log(`samples kept aside by the parts: ${late.join(' + ')}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
