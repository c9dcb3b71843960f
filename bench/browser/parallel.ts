// Browser benchmark of parallel parsing (`npm run bench:browser -- --parallel`): navigation →
// drawn for `#profile=<url>` of generated perf script recordings, with part workers (the data
// server takes byte ranges, so each part worker fetches its own range) against one worker (the
// same file at /norange/, where the server does not), alternating in one run, medians. The page
// splits only bin/flameview's own files (same origin, /api/local/), so the app's server proxies
// /api/local/ to the data server; each row counts the ranged requests, which show the split. Also the
// peak memory (PSS) of this Chromium's renderer processes (the page, the profile worker and the
// part workers are threads of the renderer), sampled every 50 ms from /proc during each load.
//
//   npx tsx bench/browser/run.ts --parallel [--sizes 200,1000] [--runs 3] [--port 4217] [--no-build]
//
// Inputs come from bench/generate.ts (FLAMEVIEW_BENCH_DATA moves them, e.g. to /tmp). Results go
// to bench/results/browser-parallel.json.

import { spawnSync } from 'node:child_process';
import { createReadStream, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { preview } from 'vite';
import { ensureInput, parseList } from '../generate';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Serves the files by name; /norange/NAME ignores Range (one worker), NAME honours it. */
function dataServer(files: Map<string, string>): Promise<{ origin: string; ranged: () => number; close(): void }> {
  let ranged = 0;
  const server = createServer((req, res) => {
    if (req.headers.range) ranged++;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'Range');
    res.setHeader('Access-Control-Expose-Headers', 'Accept-Ranges, Content-Range, Content-Length');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const path = (req.url ?? '/').split('?')[0];
    const ranges = !path.startsWith('/norange/');
    const file = files.get(decodeURIComponent(path.replace(/^\/(norange\/)?/, '')));
    if (!file) return void res.writeHead(404).end('not found');
    const size = statSync(file).size;
    if (ranges) res.setHeader('Accept-Ranges', 'bytes');
    if (req.method === 'HEAD') return void res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(size) }).end();
    const m = ranges ? /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '') : null;
    if (m) {
      const start = Number(m[1]);
      const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
      res.writeHead(206, { 'Content-Type': 'text/plain', 'Content-Length': String(end - start + 1), 'Content-Range': `bytes ${start}-${end}/${size}` });
      return void createReadStream(file, { start, end, highWaterMark: 1 << 20 }).pipe(res);
    }
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(size) });
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ origin: `http://127.0.0.1:${port}`, ranged: () => ranged, close: () => server.close() });
    }),
  );
}

/**
 * Memory (MB) of this browser's renderer processes (descendants of `browserPid`: other sessions
 * on the machine run Chromium too), summed as PSS, so pages shared between processes (the
 * binary, V8's snapshot) count once; the page, its profile worker and part workers are threads
 * of its renderer.
 */
function rendererMB(browserPid: number): number {
  const parent = new Map<number, number>();
  const renderers: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--type=renderer')) renderers.push(Number(entry));
    } catch {
      // the process ended
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 16; p = parent.get(p) ?? 0, hops++) if (p === browserPid) return true;
    return false;
  };
  let kb = 0;
  for (const pid of renderers.filter(ours)) {
    try {
      const m = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch {
      // the process ended
    }
  }
  return kb / 1024;
}

async function load(browser: Browser, browserPid: number, url: string, name: string): Promise<{ ms: number; peakMB: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto('about:blank');
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rendererMB(browserPid))), 50);
  const started = Date.now();
  await page.goto(url);
  await page.waitForFunction(
    (n) => document.title.startsWith(n + ' ·') && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false',
    name,
    { timeout: 600_000, polling: 50 },
  );
  const ms = Date.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rendererMB(browserPid));
  await context.close();
  return { ms, peakMB: peak };
}

export async function runParallelBench(): Promise<void> {
  const sizes = parseList(arg('--sizes'), ['200', '1000']).map(Number);
  const runs = Number(arg('--runs') ?? 3);
  const port = Number(arg('--port') ?? 4217);
  const outDir = `node_modules/.cache/flameview-bench-${port}`;
  if (!process.argv.includes('--no-build')) {
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const inputs = [];
  for (const size of sizes) inputs.push(await ensureInput('perf', size, 1, (m) => console.error(m)));
  const data = await dataServer(new Map(inputs.map((p) => [basename(p), p])));
  const proxy = { '/api/local': { target: data.origin, rewrite: (p: string) => p.replace(/^\/api\/local/, '') } };
  const app = await preview({ root: ROOT, logLevel: 'warn', build: { outDir }, preview: { port, strictPort: false, open: false, proxy } });
  const appUrl = app.resolvedUrls?.local[0] ?? `http://localhost:${port}/`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  // Playwright starts Chromium as a child of this process.
  const browserPid = process.pid;
  const loadBefore = loadavg();
  const rows = [];
  try {
    for (const path of inputs) {
      const name = basename(path);
      const one: { ms: number; peakMB: number; ranged: number }[] = [];
      const parts: { ms: number; peakMB: number; ranged: number }[] = [];
      const local = new URL('api/local/', appUrl).href;
      const timed = async (url: string) => {
        const before = data.ranged();
        const m = await load(browser, browserPid, `${appUrl}#profile=${encodeURIComponent(url)}`, name);
        return { ...m, ranged: data.ranged() - before };
      };
      for (let r = 0; r < runs; r++) {
        one.push(await timed(`${local}norange/${name}`));
        parts.push(await timed(`${local}${name}`));
        const l = loadavg()[0].toFixed(1);
        console.log(`  ${name} run ${r + 1}: one worker ${one[r].ms} ms (${one[r].peakMB.toFixed(0)} MB), parts ${parts[r].ms} ms (${parts[r].peakMB.toFixed(0)} MB, ${parts[r].ranged} ranged requests); load ${l}`);
      }
      rows.push({
        input: name,
        bytes: statSync(path).size,
        oneWorkerMs: median(one.map((x) => x.ms)),
        partsMs: median(parts.map((x) => x.ms)),
        speedup: median(one.map((x) => x.ms)) / median(parts.map((x) => x.ms)),
        oneWorkerPeakMB: median(one.map((x) => x.peakMB)),
        partsPeakMB: median(parts.map((x) => x.peakMB)),
        all: { one, parts },
      });
    }
  } finally {
    await browser.close();
    app.httpServer.close();
    data.close();
  }
  console.log(`\nnavigation → drawn (#profile=URL), medians of ${runs}; one worker = the server ignores Range; parts = one part worker per core (${cpus().length} cores)`);
  console.log('input                                  MB  one worker ms  parts ms  speed-up  peak renderer MB (one / parts)');
  for (const r of rows) {
    console.log(`${r.input.padEnd(36)} ${(r.bytes / 1e6).toFixed(0).padStart(5)}  ${String(r.oneWorkerMs).padStart(13)}  ${String(r.partsMs).padStart(8)}  ${r.speedup.toFixed(2).padStart(7)}×  ${r.oneWorkerPeakMB.toFixed(0)} / ${r.partsPeakMB.toFixed(0)}`);
  }
  const loadAfter = loadavg();
  console.log(`load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}`);
  const out = join(ROOT, 'bench', 'results', 'browser-parallel.json');
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, loadBefore, loadAfter, runs, rows }, null, 2) + '\n');
  console.log(`wrote ${out}`);
}
