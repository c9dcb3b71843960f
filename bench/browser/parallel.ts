// Browser benchmark of parallel parsing (`npm run bench:browser -- --parallel`): navigation →
// drawn for generated perf script recordings opened as `flameview FILE` opens them: the app and
// the file served by the real server (src/server/app.ts, `#profile=/api/local/<token>/<name>`).
// With part workers (the server takes byte ranges, so each part worker fetches its own range)
// against one worker (a second server instance with ranges off, as FLAMEVIEW_WORKERS=1 gives),
// alternating in one run, medians. Each row counts the ranged requests, which show the split,
// and records the peak memory (PSS) of this Chromium's renderer processes (the page, the profile
// worker and the part workers are threads of the renderer), sampled every 50 ms from /proc, and
// the CPU time of the renderer, the rest of Chromium and this process (the servers) per load.
//
//   npx tsx bench/browser/run.ts --parallel [--sizes 200,1000] [--runs 3] [--port 4217] [--no-build] [--min-part-mb N]
//
// Inputs come from bench/generate.ts (FLAMEVIEW_BENCH_DATA moves them, e.g. to /tmp). Results go
// to bench/results/browser-parallel.json.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { ensureInput, parseList } from '../generate';
import { buildApp, localFilePath, type LocalFile } from '../../src/server/app';
import { listen } from '../../src/server/lifecycle';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** The real server in open mode on `port`, serving `files`; counts the ranged requests. */
async function appServer(distDir: string, files: string[], ranges: boolean, port: number) {
  const local = new Map<string, LocalFile>();
  const paths = new Map<string, string>();
  for (const file of files) {
    const token = randomBytes(16).toString('hex');
    local.set(token, { path: file, name: basename(file) });
    paths.set(file, localFilePath(token, basename(file)));
  }
  const app = await buildApp({ distDir, localFiles: local, localRanges: ranges });
  let ranged = 0;
  app.addHook('onRequest', async (request) => {
    if (request.headers.range) ranged++;
  });
  const base = await listen(app, '127.0.0.1', port);
  // --min-part-mb N splits smaller files than the app would (its ?min-part-bytes=, for tests).
  const minPart = arg('--min-part-mb');
  const query = minPart ? `?min-part-bytes=${Math.round(Number(minPart) * 1024 * 1024)}` : '';
  return { url: (file: string) => `${base}/${query}#profile=${paths.get(file)}`, ranged: () => ranged, close: () => app.close() };
}

/** CPU time (ms) of this Chromium's processes, renderers apart from the rest, and of this process. */
function cpuNow(browserPid: number): { renderer: number; chromium: number; node: number } {
  const t = { renderer: 0, chromium: 0, node: 0 };
  for (const { pid, cmdline } of ourProcesses(browserPid)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(f[11]) + Number(f[12])) * 10;
      if (cmdline.includes('--type=renderer')) t.renderer += ms;
      else t.chromium += ms;
    } catch {
      // the process ended
    }
  }
  const u = process.cpuUsage();
  t.node = (u.user + u.system) / 1000;
  return t;
}

/** This process's descendants (Playwright starts Chromium as a child), with their command lines. */
function ourProcesses(browserPid: number): { pid: number; cmdline: string }[] {
  const parent = new Map<number, number>();
  const cmd = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      cmd.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8'));
    } catch {
      // the process ended
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = parent.get(pid) ?? 0, hops = 0; p > 1 && hops < 16; p = parent.get(p) ?? 0, hops++) if (p === browserPid) return true;
    return false;
  };
  return [...cmd].filter(([pid]) => ours(pid)).map(([pid, cmdline]) => ({ pid, cmdline }));
}

/**
 * Memory (MB) of this browser's renderer processes (other sessions on the machine run Chromium
 * too), summed as PSS, so pages shared between processes (the binary, V8's snapshot) count once;
 * the page, its profile worker and part workers are threads of its renderer.
 */
function rendererMB(browserPid: number): number {
  let kb = 0;
  for (const { pid, cmdline } of ourProcesses(browserPid)) {
    if (!cmdline.includes('--type=renderer')) continue;
    try {
      const m = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch {
      // the process ended
    }
  }
  return kb / 1024;
}

interface Load {
  ms: number;
  peakMB: number;
  ranged: number;
  /** CPU ms during the load: the renderer, the rest of Chromium, this process (servers, Playwright, sampler). */
  cpu: { renderer: number; chromium: number; node: number };
}

async function load(browser: Browser, browserPid: number, url: string, name: string): Promise<Omit<Load, 'ranged'>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto('about:blank');
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rendererMB(browserPid))), 50);
  const before = cpuNow(browserPid);
  const started = Date.now();
  await page.goto(url);
  await page.waitForFunction(
    (n) => document.title.startsWith(n + ' ·') && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false',
    name,
    { timeout: 600_000, polling: 50 },
  );
  const ms = Date.now() - started;
  const after = cpuNow(browserPid);
  clearInterval(sampler);
  peak = Math.max(peak, rendererMB(browserPid));
  await context.close();
  const cpu = { renderer: after.renderer - before.renderer, chromium: after.chromium - before.chromium, node: Math.round(after.node - before.node) };
  return { ms, peakMB: peak, cpu };
}

export async function runParallelBench(): Promise<void> {
  const sizes = parseList(arg('--sizes'), ['200', '1000']).map(Number);
  const runs = Number(arg('--runs') ?? 3);
  const port = Number(arg('--port') ?? 4217);
  const outDir = join(ROOT, 'node_modules', '.cache', `flameview-bench-${port}`);
  if (!process.argv.includes('--no-build')) {
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const inputs = [];
  for (const size of sizes) inputs.push(await ensureInput('perf', size, 1, (m) => console.error(m)));
  const ranged = await appServer(outDir, inputs, true, port);
  const whole = await appServer(outDir, inputs, false, port + 1);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  // Playwright starts Chromium as a child of this process.
  const browserPid = process.pid;
  const loadBefore = loadavg();
  const rows = [];
  try {
    for (const path of inputs) {
      const name = basename(path);
      const one: Load[] = [];
      const parts: Load[] = [];
      const timed = async (server: typeof ranged): Promise<Load> => {
        const before = server.ranged();
        const m = await load(browser, browserPid, server.url(path), name);
        return { ...m, ranged: server.ranged() - before };
      };
      const cpuText = (l: Load) => `cpu ${l.cpu.renderer} renderer + ${l.cpu.chromium} chromium + ${l.cpu.node} node`;
      for (let r = 0; r < runs; r++) {
        one.push(await timed(whole));
        parts.push(await timed(ranged));
        const l = loadavg()[0].toFixed(1);
        console.log(`  ${name} run ${r + 1}: one worker ${one[r].ms} ms (${one[r].peakMB.toFixed(0)} MB, ${cpuText(one[r])}), parts ${parts[r].ms} ms (${parts[r].peakMB.toFixed(0)} MB, ${cpuText(parts[r])}, ${parts[r].ranged} ranged requests); load ${l}`);
      }
      rows.push({
        input: name,
        bytes: statSync(path).size,
        oneWorkerMs: median(one.map((x) => x.ms)),
        partsMs: median(parts.map((x) => x.ms)),
        speedup: median(one.map((x) => x.ms)) / median(parts.map((x) => x.ms)),
        oneWorkerPeakMB: median(one.map((x) => x.peakMB)),
        partsPeakMB: median(parts.map((x) => x.peakMB)),
        oneWorkerRendererCpuMs: median(one.map((x) => x.cpu.renderer)),
        partsRendererCpuMs: median(parts.map((x) => x.cpu.renderer)),
        all: { one, parts },
      });
    }
  } finally {
    await browser.close();
    await ranged.close();
    await whole.close();
  }
  console.log(`\nnavigation → drawn (flameview FILE's link), medians of ${runs}; one worker = the server takes no ranges; parts = one part worker per core (${cpus().length} cores) when the file is large enough`);
  console.log('input                                  MB  one worker ms  parts ms  speed-up  peak renderer MB (one / parts)  renderer cpu ms (one / parts)');
  for (const r of rows) {
    console.log(
      `${r.input.padEnd(36)} ${(r.bytes / 1e6).toFixed(0).padStart(5)}  ${String(r.oneWorkerMs).padStart(13)}  ${String(r.partsMs).padStart(8)}  ${r.speedup.toFixed(2).padStart(7)}×  ${`${r.oneWorkerPeakMB.toFixed(0)} / ${r.partsPeakMB.toFixed(0)}`.padStart(30)}  ${`${r.oneWorkerRendererCpuMs} / ${r.partsRendererCpuMs}`.padStart(28)}`,
    );
  }
  const loadAfter = loadavg();
  console.log(`load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}`);
  const out = join(ROOT, 'bench', 'results', 'browser-parallel.json');
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, loadBefore, loadAfter, runs, rows }, null, 2) + '\n');
  console.log(`wrote ${out}`);
}
