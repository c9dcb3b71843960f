// One measurement in a fresh process (spawned by bench/run.ts), so peak RSS belongs to one input.
//
//   node --import tsx bench/measure.ts engine|bare FILE [WORKERS]
//   (bench/run.ts runs it bundled, beside a bundled parse worker: see there)
//
// engine: file → loadProfile → makeSnapshot (function view derived), i.e. a call tree with both
// views ready. bare: read the same file and count '\n' bytes, the floor any streaming parser in
// Node sits on. Both read the file as the CLI does (src/cli/read-ahead.ts: 1 MiB chunks, four
// reads in flight). Prints one JSON line on stdout. WORKERS > 1: the engine parses the file in
// that many parts on worker threads (src/cli/parallel-load.ts), as the CLI does on a large file.

import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { readAhead } from '../src/node/read-ahead';
import { loadProfile } from '../src/core/import/load';
import { loadFileInParts } from '../src/cli/parallel-load';
import { makeSnapshot } from '../src/core/views/snapshot';
import { threadCpuMs } from '../src/cli/thread-cpu';
import type { SplitOptions } from '../src/core/parallel/split';

export interface Measurement {
  mode: 'engine' | 'bare';
  bytes: number;
  ms: number;
  /** CPU time of the whole process (all threads, incl. GC helpers) over the same span. */
  cpuMs: number;
  /** engine: time to the Profile, and the rest (function view + snapshot). */
  loadMs?: number;
  viewsMs?: number;
  /** Peak resident set size of the whole process, and its size before the work started. */
  maxRssMB: number;
  startRssMB: number;
  newlines?: number;
  samples?: number;
  inlineNodes?: number;
  /** Nodes of the line tree (Profile.lines), when the recording has source lines. */
  lineNodes?: number;
  functionNodes?: number;
  frames?: number;
  maxDepth?: number;
  skippedLines?: number;
  warnings?: number;
  /** Parallel parsing: parts read, ms until the last part arrived, ms of the merge. */
  parts?: number;
  partsMs?: number;
  mergeMs?: number;
  /** CPU time of the main thread, of each part's worker thread, of the merge (main thread). */
  mainCpuMs?: number;
  partCpuMs?: number[];
  mergeCpuMs?: number;
}

async function bare(path: string): Promise<Partial<Measurement>> {
  let newlines = 0;
  let bytes = 0;
  for await (const chunk of readAhead(await open(path, 'r')) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) newlines++;
  }
  return { bytes, newlines };
}

async function engine(path: string, started: number, workers: number, event?: string): Promise<Partial<Measurement>> {
  const bytes = statSync(path).size;
  const timings: NonNullable<SplitOptions['timings']> = { parts: 1, partsMs: 0, mergeMs: 0, cpuClock: threadCpuMs };
  const inParts = workers > 1 ? await loadFileInParts(path, bytes, { source: path, timings }, workers) : null;
  const profile = inParts ?? (await loadProfile(readAhead(await open(path, 'r')), { source: path, event }));
  const loaded = performance.now();
  const snapshot = makeSnapshot(profile);
  return {
    bytes,
    loadMs: loaded - started,
    viewsMs: performance.now() - loaded,
    samples: profile.meta.samples,
    inlineNodes: snapshot.inline.nodeCount,
    lineNodes: profile.lines?.tree.nodeCount,
    functionNodes: snapshot.functions?.nodeCount ?? snapshot.inline.nodeCount,
    frames: snapshot.frames.count,
    maxDepth: snapshot.inline.maxDepth,
    skippedLines: profile.meta.skippedLines,
    warnings: profile.meta.warnings.length,
    parts: timings.parts,
    partsMs: timings.partsMs,
    mergeMs: timings.mergeMs,
    ...(inParts ? { partCpuMs: timings.partCpuMs, mergeCpuMs: timings.mergeCpuMs } : {}),
  };
}

async function main(): Promise<void> {
  // event: the one to read (empty: the importer's choice), e.g. wall for perf-sched.
  const [mode, path, workers, event] = process.argv.slice(2);
  if ((mode !== 'engine' && mode !== 'bare') || !path) throw new Error('usage: measure.ts engine|bare FILE');
  const startRssMB = process.memoryUsage().rss / 2 ** 20;
  const cpu0 = process.cpuUsage();
  const main0 = threadCpuMs();
  const started = performance.now();
  const result = mode === 'bare' ? await bare(path) : await engine(path, started, Number(workers ?? 1), event || undefined);
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const mainCpuMs = threadCpuMs() - main0;
  const m: Measurement = { mode, bytes: 0, ...result, ms, cpuMs, mainCpuMs, maxRssMB: process.resourceUsage().maxRSS / 1024, startRssMB };
  process.stdout.write(JSON.stringify(m) + '\n');
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
