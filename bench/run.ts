// `npm run bench`: end-to-end engine throughput and peak memory on generated inputs, beside a
// bare read-and-count-newlines pass over the same file.
//
//   npm run bench [-- --quick] [--runs N] [--sizes 5,50,200,1000] [--formats perf,folded]
//                 [--seed N] [--cpu-prof] [--no-thp] [--workers N] [--from-source]
//
// --workers N adds, in each run beside the one-parser engine, the engine parsing the file in N
// parts on worker threads (src/cli/parallel-load.ts): its time, throughput, speed-up over the
// one-parser run of the same round, merge time and peak RSS.
// Every measurement runs in a fresh `node --import tsx bench/measure.ts` process, so each peak
// RSS belongs to one input. Figures are medians of N runs (default 3); MB = 10^6 bytes. Results
// go to the terminal and to bench/results/latest.json. --cpu-prof adds one extra engine run per
// input under `node --cpu-prof` (profiles in bench/data/cpu-profiles/, which git ignores;
// summarise one with `npx tsx bench/cpu-summary.ts FILE`).

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATA_DIR, ensureInput, MB, parseList, type BenchFormat } from './generate';
import type { Measurement } from './measure';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(ROOT, 'bench', 'results');

/**
 * The glibc setting bin/flameview runs the CLI with (transparent huge pages for malloc: see the
 * wrapper's comment); --no-thp measures without it.
 */
const CLI_TUNABLES = 'glibc.malloc.hugetlb=1';
const THP = !process.argv.includes('--no-thp');

/** Targets from issue 2 ("Performance"). */
const TARGET_MBPS: Record<BenchFormat, number> = { perf: 250, folded: 400, 'perf-sched': 250 };
/** The event each format is read with: perf-sched's Wall clock pairs every switch (issue 27). */
const EVENT: Partial<Record<BenchFormat, string>> = { 'perf-sched': 'wall' };
const TARGET_RSS_MB = 600;
const RSS_TARGET_INPUT = { format: 'perf' as BenchFormat, sizeMB: 1000 };

interface Row {
  format: BenchFormat;
  sizeMB: number;
  path: string;
  bytes: number;
  runs: number;
  engineSeconds: number;
  engineMBps: number;
  /** Bytes per CPU-second of the engine process: less sensitive to other load on the machine. */
  engineCpuMBps: number;
  loadSeconds: number;
  viewsSeconds: number;
  peakRssMB: number;
  startRssMB: number;
  bareMBps: number;
  bareCpuMBps: number;
  /** engine throughput / bare throughput, by wall time and by CPU time. */
  ratio: number;
  cpuRatio: number;
  samples: number;
  inlineNodes: number;
  functionNodes: number;
  frames: number;
  maxDepth: number;
  skippedLines: number;
  targetMBps: number;
  meetsThroughput: boolean;
  rssTargetMB?: number;
  meetsRss?: boolean;
  parallel?: {
    workers: number;
    seconds: number;
    MBps: number;
    /** One-parser seconds / N-worker seconds, medians of the same rounds. */
    speedup: number;
    parts: number;
    mergeMs: number;
    /** Merge time / whole time. */
    mergeShare: number;
    peakRssMB: number;
    /** CPU seconds of the whole process (all threads), one parser and N workers. */
    oneCpuSeconds: number;
    cpuSeconds: number;
    /** CPU seconds of the main thread without the first part it parses itself, and of the slowest part. */
    mainCpuSeconds: number;
    slowestPartCpuSeconds: number;
    mergeCpuMs: number;
    /**
     * What wall time would show on idle cores, from CPU times (median of the rounds): a load
     * takes at least its critical path (main thread's own work, plus the slowest part when split)
     * and at least its whole CPU time spread over the cores; the ratio of those bounds.
     */
    cpuSpeedup: number;
  };
  all: { engine: Measurement[]; bare: Measurement[]; parallel?: Measurement[] };
}

/** The least wall time a load could take on idle cores, from its CPU times (see cpuSpeedup). */
function idleBound(m: Measurement): number {
  const critical = mainOwnCpuMs(m) + (m.partCpuMs ? Math.max(...m.partCpuMs) : 0);
  return Math.max(critical, m.cpuMs / cpus().length);
}

/** The main thread's CPU without the first part, which it parses itself when split (partCpuMs[0]). */
function mainOwnCpuMs(m: Measurement): number {
  return (m.mainCpuMs ?? NaN) - (m.partCpuMs?.[0] ?? 0);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * measure.ts and the parse worker bundled with esbuild, as the CLI ships (dist/node/): from the
 * sources every worker thread would compile the TypeScript core under tsx first (over a second
 * of CPU each), which is not what a user's load pays. --from-source measures through tsx.
 */
const FROM_SOURCE = process.argv.includes('--from-source');
const BUNDLE_DIR = join(ROOT, 'node_modules', '.cache', 'flameview-bench-node');

async function bundleMeasure(): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: ROOT,
    entryPoints: [
      { in: 'bench/measure.ts', out: 'measure' },
      { in: 'src/cli/parse-worker.ts', out: 'parse-worker' },
    ],
    outdir: BUNDLE_DIR,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
}

function measure(mode: 'engine' | 'bare', path: string, cpuProfDir?: string, workers = 1, event = ''): Promise<Measurement> {
  const args = FROM_SOURCE ? ['--import', 'tsx'] : [];
  if (cpuProfDir) args.push('--cpu-prof', '--cpu-prof-dir', cpuProfDir);
  args.push(FROM_SOURCE ? join(ROOT, 'bench', 'measure.ts') : join(BUNDLE_DIR, 'measure.mjs'), mode, path, String(workers), event);
  return new Promise((resolve, reject) => {
    const env = THP ? { ...process.env, GLIBC_TUNABLES: CLI_TUNABLES } : process.env;
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop()!) as Measurement);
      else reject(new Error(`${mode} ${path}: exit ${code ?? signal}: ${err.trim().slice(-2000)}`));
    });
  });
}

function parseArgs(argv: string[]) {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  return {
    sizes: parseList(arg('--sizes'), quick ? ['5', '50'] : ['5', '50', '200', '1000']).map(Number),
    formats: parseList(arg('--formats'), ['perf', 'folded']) as BenchFormat[],
    runs: Math.max(1, Number(arg('--runs') ?? 3)),
    seed: Number(arg('--seed') ?? 1),
    cpuProf: argv.includes('--cpu-prof'),
    workers: Math.max(0, Number(arg('--workers') ?? 0)),
  };
}

const fmt = (x: number, d = 0): string => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

function table(rows: Row[]): string {
  const head = ['input', 'MB', 'engine s', 'MB/s', 'target', 'MB/cpu-s', 'peak RSS MB', 'bare MB/s', 'bare MB/cpu-s', 'engine/bare', '(cpu)', 'samples', 'nodes inline/fn', 'frames'];
  const body = rows.map((r) => [
    r.format,
    fmt(r.bytes / MB, 1),
    fmt(r.engineSeconds, 2),
    fmt(r.engineMBps, 0),
    `≥${r.targetMBps} ${r.meetsThroughput ? 'ok' : 'MISS'}`,
    fmt(r.engineCpuMBps, 0),
    fmt(r.peakRssMB, 0) + (r.rssTargetMB ? ` (<${r.rssTargetMB} ${r.meetsRss ? 'ok' : 'MISS'})` : ''),
    fmt(r.bareMBps, 0),
    fmt(r.bareCpuMBps, 0),
    fmt(r.ratio, 2),
    fmt(r.cpuRatio, 2),
    fmt(r.samples),
    `${fmt(r.inlineNodes)}/${fmt(r.functionNodes)}`,
    fmt(r.frames),
  ]);
  return renderTable(head, body);
}

/** Columns padded to their widest cell, the first left-aligned, with a rule under the head. */
function renderTable(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), line(widths.map((w) => '─'.repeat(w))), ...body.map(line)].join('\n');
}

function parallelTable(rows: Row[]): string {
  const head = ['input', 'MB', '1 parser s', 'workers', 'parts', 's', 'MB/s', 'speed-up', 'merge ms', 'merge share', 'peak RSS MB', 'cpu s 1/N', 'main+slowest part cpu s', 'merge cpu ms', 'cpu speed-up'];
  const body = rows.filter((r) => r.parallel).map((r) => {
    const p = r.parallel!;
    return [
      r.format,
      fmt(r.bytes / MB, 1),
      fmt(r.engineSeconds, 2),
      String(p.workers),
      String(p.parts),
      fmt(p.seconds, 2),
      fmt(p.MBps, 0),
      `${fmt(p.speedup, 2)}×`,
      fmt(p.mergeMs, 0),
      `${fmt(p.mergeShare * 100, 1)} %`,
      fmt(p.peakRssMB, 0),
      `${fmt(p.oneCpuSeconds, 2)}/${fmt(p.cpuSeconds, 2)}`,
      `${fmt(p.mainCpuSeconds, 2)}+${fmt(p.slowestPartCpuSeconds, 2)}`,
      fmt(p.mergeCpuMs, 0),
      `${fmt(p.cpuSpeedup, 2)}×`,
    ];
  });
  return renderTable(head, body);
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  if (!FROM_SOURCE) await bundleMeasure();
  const loadBefore = loadavg();
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}; load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')}`);
  console.log(`runs per input: ${opts.runs} (medians), each in a fresh process; MB = 10^6 bytes\n`);
  const rows: Row[] = [];
  const cpuDir = join(DATA_DIR, 'cpu-profiles');
  if (opts.cpuProf) mkdirSync(cpuDir, { recursive: true });
  for (const format of opts.formats) {
    for (const sizeMB of opts.sizes) {
      const path = await ensureInput(format, sizeMB, opts.seed, (m) => console.log(m));
      const engine: Measurement[] = [];
      const bare: Measurement[] = [];
      const parallel: Measurement[] = [];
      for (let r = 0; r < opts.runs; r++) {
        bare.push(await measure('bare', path));
        engine.push(await measure('engine', path, undefined, 1, EVENT[format]));
        const e = engine[engine.length - 1];
        const b = bare[bare.length - 1];
        let line = `  ${format} ${sizeMB} MB run ${r + 1}: engine ${(e.ms / 1000).toFixed(2)} s (${fmt(e.bytes / MB / (e.ms / 1000))} MB/s, ${fmt(e.maxRssMB)} MB RSS), bare ${fmt(b.bytes / MB / (b.ms / 1000))} MB/s`;
        if (opts.workers > 1) {
          const p = await measure('engine', path, undefined, opts.workers);
          parallel.push(p);
          const parts = (p.partCpuMs ?? []).map((c) => fmt(c)).join('/');
          line += `; ${opts.workers} workers ${(p.ms / 1000).toFixed(2)} s (${p.parts} parts, merge ${fmt(p.mergeMs ?? 0)} ms, ${fmt(p.maxRssMB)} MB RSS); cpu ms: 1 parser ${fmt(e.cpuMs)} (main ${fmt(e.mainCpuMs ?? NaN)}), ${opts.workers} workers ${fmt(p.cpuMs)} (main ${fmt(p.mainCpuMs ?? NaN)} with the first part, parts ${parts}, merge ${fmt(p.mergeCpuMs ?? NaN)}); load ${loadavg()[0].toFixed(1)}`;
        }
        console.log(line);
      }
      if (opts.cpuProf) {
        await measure('engine', path, cpuDir);
        console.log(`  cpu profile written to ${cpuDir}`);
      }
      const e0 = engine[0];
      const engineSeconds = median(engine.map((m) => m.ms)) / 1000;
      const bareSeconds = median(bare.map((m) => m.ms)) / 1000;
      const engineMBps = e0.bytes / MB / engineSeconds;
      const engineCpuMBps = e0.bytes / MB / (median(engine.map((m) => m.cpuMs)) / 1000);
      const bareCpuMBps = e0.bytes / MB / (median(bare.map((m) => m.cpuMs)) / 1000);
      const bareMBps = e0.bytes / MB / bareSeconds;
      const row: Row = {
        format,
        sizeMB,
        path,
        bytes: e0.bytes,
        runs: opts.runs,
        engineSeconds,
        engineMBps,
        engineCpuMBps,
        loadSeconds: median(engine.map((m) => m.loadMs ?? 0)) / 1000,
        viewsSeconds: median(engine.map((m) => m.viewsMs ?? 0)) / 1000,
        peakRssMB: median(engine.map((m) => m.maxRssMB)),
        startRssMB: median(engine.map((m) => m.startRssMB)),
        bareMBps,
        bareCpuMBps,
        ratio: engineMBps / bareMBps,
        cpuRatio: engineCpuMBps / bareCpuMBps,
        samples: e0.samples ?? 0,
        inlineNodes: e0.inlineNodes ?? 0,
        functionNodes: e0.functionNodes ?? 0,
        frames: e0.frames ?? 0,
        maxDepth: e0.maxDepth ?? 0,
        skippedLines: e0.skippedLines ?? 0,
        targetMBps: TARGET_MBPS[format],
        meetsThroughput: engineMBps >= TARGET_MBPS[format],
        all: { engine, bare, parallel: parallel.length > 0 ? parallel : undefined },
      };
      if (parallel.length > 0) {
        const seconds = median(parallel.map((m) => m.ms)) / 1000;
        row.parallel = {
          workers: opts.workers,
          seconds,
          MBps: e0.bytes / MB / seconds,
          speedup: engineSeconds / seconds,
          parts: parallel[0].parts ?? 1,
          mergeMs: median(parallel.map((m) => m.mergeMs ?? 0)),
          mergeShare: median(parallel.map((m) => (m.mergeMs ?? 0) / m.ms)),
          peakRssMB: median(parallel.map((m) => m.maxRssMB)),
          oneCpuSeconds: median(engine.map((m) => m.cpuMs)) / 1000,
          cpuSeconds: median(parallel.map((m) => m.cpuMs)) / 1000,
          mainCpuSeconds: median(parallel.map(mainOwnCpuMs)) / 1000,
          slowestPartCpuSeconds: median(parallel.map((m) => Math.max(...(m.partCpuMs ?? [NaN])))) / 1000,
          mergeCpuMs: median(parallel.map((m) => m.mergeCpuMs ?? NaN)),
          cpuSpeedup: median(parallel.map((m, i) => idleBound(engine[i]) / idleBound(m))),
        };
      }
      if (format === RSS_TARGET_INPUT.format && sizeMB === RSS_TARGET_INPUT.sizeMB) {
        row.rssTargetMB = TARGET_RSS_MB;
        row.meetsRss = row.peakRssMB < TARGET_RSS_MB;
      }
      rows.push(row);
    }
  }
  const loadAfter = loadavg();
  console.log('\n' + table(rows));
  if (rows.some((r) => r.parallel)) console.log('\n' + parallelTable(rows));
  console.log(`\nengine = file → loadProfile → makeSnapshot (call tree + function view); bare = the same reader (src/cli/read-ahead.ts) + Buffer.indexOf(10) loop.`);
  console.log(THP ? `both run as bin/flameview runs the CLI, with GLIBC_TUNABLES=${CLI_TUNABLES} (--no-thp: without).` : 'run without the GLIBC_TUNABLES setting of bin/flameview (--no-thp).');
  console.log(`MB/s is wall-clock (what the targets mean); MB/cpu-s divides by the process's CPU time instead, which other load on the machine disturbs less.`);
  console.log(`peak RSS is the whole child process (${FROM_SOURCE ? 'node + tsx' : 'node + the bundled engine'} start at about ${fmt(median(rows.map((r) => r.startRssMB)))} MB).`);
  if (rows.some((r) => r.parallel)) {
    console.log(`cpu speed-up: the ratio of the least wall times idle cores would allow, each max(main-thread CPU [without its own part, + the slowest part's CPU], process CPU / ${cpus().length} cores).`);
  }
  console.log(`load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')} (2 cores shared with other work).`);
  mkdirSync(RESULTS, { recursive: true });
  const out = join(RESULTS, 'latest.json');
  writeFileSync(
    out,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model,
        loadBefore,
        loadAfter,
        options: opts,
        glibcTunables: THP ? CLI_TUNABLES : null,
        targets: { mbps: TARGET_MBPS, peakRssMB: { ...RSS_TARGET_INPUT, below: TARGET_RSS_MB } },
        rows: rows.map((r) => ({ ...r, path: r.path.startsWith(ROOT) ? r.path.slice(ROOT.length) : r.path })),
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`wrote ${out}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
