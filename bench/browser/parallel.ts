// Browser benchmark of parallel parsing (`npm run bench:browser -- --parallel`): time to drawn for
// generated perf script recordings opened as a user opens them: navigation to the link of
// `flameview --no-open FILE` (its own process, from the sources, serving the bench's build of the
// app), and the same file chosen in "Open file" on an open page (no network). The default (part workers when the file is large enough: the server takes byte
// ranges, each part worker fetches its own) against FLAMEVIEW_WORKERS=1 (no ranges: one worker),
// alternating in one run, medians. Each row counts the part workers the page started, the peak
// resident memory of the renderer (the page, the profile worker and the part workers are its
// threads) and the CPU time of the renderer, the rest of Chromium and the server per load.
//
//   npx tsx bench/browser/run.ts --parallel [--sizes 200,1000] [--runs 3] [--port 4217] [--no-build] [--min-part-mb N] [--dist DIR]
//
// Inputs come from bench/generate.ts (FLAMEVIEW_BENCH_DATA moves them, e.g. to /tmp). Results go
// to bench/results/browser-parallel.json.

import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { ensureInput, parseList } from '../generate';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * `flameview --no-open FILE…` from the sources, serving the bench's build, as a user's terminal
 * runs it (its own process), with --raw: the page parses the file (what this bench measures);
 * FLAMEVIEW_WORKERS=1 makes it serve no byte ranges (one parser).
 */
async function flameviewServer(distDir: string, file: string, workers: number, port: number) {
  const child = spawn(join(ROOT, 'bin', 'flameview'), ['--no-open', '--raw', '--port', String(port), file], {
    env: { ...process.env, FLAMEVIEW_DIST: distDir, FLAMEVIEW_FROM_SOURCE: '1', FLAMEVIEW_WORKERS: String(workers) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => resolve(String(d).trim()));
    child.on('exit', (code) => reject(new Error(`flameview exited (${code}) before printing its link`)));
  });
  // --min-part-mb N splits smaller files than the app would (its ?min-part-bytes=, for tests).
  const minPart = arg('--min-part-mb');
  const query = minPart ? `?min-part-bytes=${Math.round(Number(minPart) * 1024 * 1024)}` : '';
  const u = new URL(url);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `${u.origin}/${query}${u.hash}`,
    pid: child.pid!,
    close: () => {
      child.kill();
      return exited;
    },
  };
}

/** Chromium's processes (the browser process Playwright started, and its descendants) now. */
interface ChromiumProcess {
  pid: number;
  renderer: boolean;
  /** User + system CPU so far, ms. */
  cpuMs: number;
}

function chromiumProcesses(): Map<number, ChromiumProcess> {
  const parent = new Map<number, number>();
  const info = new Map<number, { cmdline: string; cpuMs: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(entry), Number(f[1]));
      info.set(Number(entry), { cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8'), cpuMs: (Number(f[11]) + Number(f[12])) * 10 });
    } catch {
      // the process ended
    }
  }
  // The browser process: a child of this one started with Playwright's pipe (the flameview
  // servers are children of this process too, and are counted apart).
  const roots = [...info].filter(([pid, i]) => parent.get(pid) === process.pid && i.cmdline.includes('--remote-debugging-pipe')).map(([pid]) => pid);
  const within = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 16; p = parent.get(p) ?? 0, hops++) if (roots.includes(p)) return true;
    return false;
  };
  const out = new Map<number, ChromiumProcess>();
  for (const [pid, i] of info) if (within(pid)) out.set(pid, { pid, renderer: i.cmdline.includes('--type=renderer'), cpuMs: i.cpuMs });
  return out;
}

/** CPU ms Chromium's processes used between two readings, per process (one that ended early is not counted: it was idle). */
function chromiumCpu(before: Map<number, ChromiumProcess>, after: Map<number, ChromiumProcess>): { renderer: number; chromium: number } {
  const t = { renderer: 0, chromium: 0 };
  for (const [pid, p] of after) {
    const used = p.cpuMs - (before.get(pid)?.cpuMs ?? 0);
    if (p.renderer) t.renderer += used;
    else t.chromium += used;
  }
  return t;
}

/**
 * Peak memory (MB) of the renderer processes started during a load (each load has its own
 * context, so its own renderer; the page, its profile worker and part workers are threads of it):
 * the largest VmHWM, the kernel's high-water mark of a resident set, read once at the end.
 * Resident pages shared with other processes (the binary) count too, so it overstates a little.
 * Not sampled: reading smaps_rollup of a 300 MB renderer every 50 ms cost ~4 ms of CPU a read, on
 * the cores being measured.
 */
function rendererPeakMB(before: Map<number, ChromiumProcess>, after: Map<number, ChromiumProcess>): number {
  let kb = 0;
  for (const p of after.values()) {
    if (!p.renderer || before.has(p.pid)) continue;
    try {
      const m = /^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'));
      if (m) kb = Math.max(kb, Number(m[1]));
    } catch {
      // the process ended
    }
  }
  return kb / 1024;
}

interface Load {
  ms: number;
  peakMB: number;
  /** Part workers the page started (their scripts' requests): 0 when one worker read the file. */
  partWorkers: number;
  /** CPU ms during the load: the renderer, the rest of Chromium, the flameview server. */
  cpu: { renderer: number; chromium: number; server: number };
}

function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** `?min-part-bytes=` past any file: the page reads a dropped file with one worker. */
const NO_SPLIT = '?min-part-bytes=1099511627776';

/**
 * One load from navigation to drawn of `server`'s link; or, with `file`, from choosing that file
 * in "Open file" on a page that shows the demo (no network: each part worker reads its own
 * Blob.slice()), one worker unless `split`.
 */
async function load(browser: Browser, server: { url: string; pid: number }, name: string, file?: { path: string; split: boolean }): Promise<Load> {
  const existing = chromiumProcesses();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  let partWorkers = 0;
  context.on('request', (r) => void (r.url().includes('part.worker') && partWorkers++));
  const page = await context.newPage();
  const drawn = (n: string) =>
    page.waitForFunction(
      (n) => document.title.startsWith(n + ' ·') && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false',
      n,
      { timeout: 600_000, polling: 50 },
    );
  if (file) {
    const u = new URL(server.url);
    await page.goto(`${u.origin}/${file.split ? u.search : NO_SPLIT}`);
    await drawn('rust-toyc.perf-script.txt');
  } else await page.goto('about:blank');
  const before = chromiumProcesses();
  const serverBefore = processCpuMs(server.pid);
  const started = Date.now();
  if (file) await page.getByLabel('Open file').setInputFiles(file.path);
  else await page.goto(server.url);
  await drawn(name);
  const ms = Date.now() - started;
  const after = chromiumProcesses();
  const cpu = { ...chromiumCpu(before, after), server: processCpuMs(server.pid) - serverBefore };
  const peak = rendererPeakMB(existing, after);
  await context.close();
  return { ms, peakMB: peak, partWorkers, cpu };
}

export async function runParallelBench(): Promise<void> {
  const sizes = parseList(arg('--sizes'), ['200', '1000']).map(Number);
  const runs = Number(arg('--runs') ?? 3);
  const port = Number(arg('--port') ?? 4217);
  // --dist DIR serves an app built elsewhere (an older commit's, for a before/after run).
  const outDir = arg('--dist') ?? join(ROOT, 'node_modules', '.cache', `flameview-bench-${port}`);
  if (!process.argv.includes('--no-build') && !arg('--dist')) {
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const inputs = [];
  for (const size of sizes) inputs.push(await ensureInput('perf', size, 1, (m) => console.error(m)));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  const loadBefore = loadavg();
  const rows = [];
  try {
    for (const path of inputs) {
      const name = basename(path);
      const split = await flameviewServer(outDir, path, navigatorCores(), port);
      const whole = await flameviewServer(outDir, path, 1, port + 1);
      const cpuText = (l: Load) => `cpu ${l.cpu.renderer} renderer + ${l.cpu.chromium} chromium + ${l.cpu.server} server`;
      try {
        for (const via of ['link', 'file'] as const) {
          const one: Load[] = [];
          const parts: Load[] = [];
          const run = (parallel: boolean) => load(browser, parallel ? split : whole, name, via === 'file' ? { path, split: parallel } : undefined);
          for (let r = 0; r < runs; r++) {
            // Alternate which goes first: the second load of a pair ran ~10 % faster even when both
            // read with one worker.
            if (r % 2 === 0) {
              one.push(await run(false));
              parts.push(await run(true));
            } else {
              parts.push(await run(true));
              one.push(await run(false));
            }
            const l = loadavg()[0].toFixed(1);
            console.log(`  ${name} by ${via} run ${r + 1}: one worker ${one[r].ms} ms (${one[r].peakMB.toFixed(0)} MB, ${cpuText(one[r])}), parts ${parts[r].ms} ms (${parts[r].peakMB.toFixed(0)} MB, ${cpuText(parts[r])}, ${parts[r].partWorkers} part workers); load ${l}`);
          }
          rows.push({
            input: name,
            via,
            bytes: statSync(path).size,
            oneWorkerMs: median(one.map((x) => x.ms)),
            partsMs: median(parts.map((x) => x.ms)),
            speedup: median(one.map((x) => x.ms)) / median(parts.map((x) => x.ms)),
            partWorkers: median(parts.map((x) => x.partWorkers)),
            oneWorkerPeakMB: median(one.map((x) => x.peakMB)),
            partsPeakMB: median(parts.map((x) => x.peakMB)),
            oneWorkerRendererCpuMs: median(one.map((x) => x.cpu.renderer)),
            partsRendererCpuMs: median(parts.map((x) => x.cpu.renderer)),
            all: { one, parts },
          });
        }
      } finally {
        await Promise.all([split.close(), whole.close()]);
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`\nto drawn, medians of ${runs}: by link = navigation to flameview FILE's link (one worker: FLAMEVIEW_WORKERS=1, no ranges); by file = "Open file" on an open page (one worker: ${NO_SPLIT}); parts = the default: one part worker per core (${cpus().length} cores) when the file is large enough`);
  console.log('input                                  MB   via  one worker ms  parts ms  speed-up  part workers  peak renderer RSS MB (one / parts)  renderer cpu ms (one / parts)');
  for (const r of rows) {
    console.log(
      `${r.input.padEnd(36)} ${(r.bytes / 1e6).toFixed(0).padStart(5)}  ${r.via.padStart(4)}  ${String(r.oneWorkerMs).padStart(13)}  ${String(r.partsMs).padStart(8)}  ${r.speedup.toFixed(2).padStart(7)}×  ${String(r.partWorkers).padStart(12)}  ${`${r.oneWorkerPeakMB.toFixed(0)} / ${r.partsPeakMB.toFixed(0)}`.padStart(34)}  ${`${r.oneWorkerRendererCpuMs} / ${r.partsRendererCpuMs}`.padStart(29)}`,
    );
  }
  const loadAfter = loadavg();
  console.log(`load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}`);
  const out = join(ROOT, 'bench', 'results', 'browser-parallel.json');
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, loadBefore, loadAfter, runs, rows }, null, 2) + '\n');
  console.log(`wrote ${out}`);
}

/** What the page's navigator.hardwareConcurrency says here: the cores (the server's own FLAMEVIEW_WORKERS must not say 1). */
function navigatorCores(): number {
  return Math.max(2, cpus().length);
}
