// The browser benchmark: the built app in Debian Chromium, driven by Playwright.
//
//   npx tsx bench/browser/run.ts [--sizes 200] [--no-build] [--skip-fixtures] [--runs N]
//                                [--compare [--compare-runs N] | --only-compare]
//                                [--wide 600000] [--only SUBSTRING] [--port 4191]
//   npx tsx bench/browser/run.ts --parallel [--sizes 200,1000] [--runs 3]   (see ./parallel.ts)
//   npx tsx bench/browser/run.ts --share [--size 200] [--runs 3]   (shared links, Share, flameview FILE: ./share.ts)
//   npx tsx bench/browser/run.ts --small [--runs 5] [--speedscope DIR] [--firefox-profiler DIR]   (small recordings: ./small.ts)
//
// For each input it reports
// - navigation → drawn: `#profile=<url>` (the file served with Content-Length by a local server)
//   until the flame graph's aria-busy turns "false" with the recording open, and the split of that
//   time (worker answer, commit, first draw) from the app's performance marks;
// - file input → drawn: the same file through "Open file" on an open page;
// - the longest main-thread task during the load (PerformanceObserver 'longtask');
// - the view toggle (click → drawn), median of a few;
// - per-frame work while zooming (wheel zoom and click-zoom animations): the time spent in our
//   rAF callbacks plus wheel/pointer handlers for each animation frame, p50 and p95 (not the frame
//   interval, which the browser fixes at ~16.7 ms).
// With --compare (or --only-compare, which skips the rows above), for each size: opening a
// comparison of two different generated recordings of that size (seeds 1 and 2) against opening
// one, both from navigation: `#profile=A` until the flame graph is drawn, and
// `#profile=A&compare=B` until the baseline and comparison graphs are both drawn (B loads in its
// own worker, in parallel). Alternating single/comparison runs, medians and the ratio (target:
// at most 2.2). Off by default: each run reads 600 MB.
// Results print as a table and go to bench/results/browser-latest.json (--only-compare updates
// only its `compare` part).
//
// Generated inputs come from bench/generate.ts (cached in bench/data, gitignored); --wide N (default
// 600000, 0 to skip) adds a folded input whose tree has ~N nodes (bench/wide-tree.ts) for the zoom
// figure on a very large tree; --only keeps the inputs whose name contains SUBSTRING. The app is
// built into node_modules/.cache/flameview-bench-PORT (not dist/, which others may be serving).

import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { preview } from 'vite';
import { ensureInput, parseList } from '../generate';
import { ensureWideInput } from '../wide-tree';
import { traceMainThread } from '../../e2e/helpers';
import { INIT_SCRIPT, type PageProbe } from './probe';
import { traceFrameCpu } from './frame-cpu';
import { measureCompare, printCompare, type CompareRow } from './compare';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RESULTS = join(ROOT, 'bench', 'results');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const FIXTURES = ['rust-toyc.perf-script.txt', 'sqlite.perf-script.txt', 'rust-toyc.run-b.perf-script.txt', 'rust-toyc.folded'];

interface Row {
  input: string;
  bytes: number;
  nodes: number;
  navToDrawnMs: number;
  workerMs: number;
  commitMs: number;
  firstDrawMs: number;
  fileToDrawnMs: number;
  /** Longest main-thread task during the file-input load, by CPU time and by wall time. */
  longestTaskCpuMs: number;
  longestTaskWallMs: number;
  /** 'longtask' entries (wall time > 50 ms) during the navigation load. */
  longTasksNav: number;
  toggleMs: number | null;
  frameP50Ms: number | null;
  frameP95Ms: number | null;
  /** The same frames by main-thread CPU time (Chromium trace), which a loaded machine inflates far less. */
  frameCpuP50Ms: number | null;
  frameCpuP95Ms: number | null;
  frames: number;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function serveFiles(files: Map<string, string>): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1).split('?')[0]);
    const file = files.get(name);
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(statSync(file).size) });
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    resolve({ server, origin: `http://127.0.0.1:${port}` });
  }));
}

async function probe(page: Page): Promise<Omit<PageProbe, 'reset'>> {
  return page.evaluate(() => {
    const p = (window as unknown as { __probe: PageProbe }).__probe;
    return { longTasks: p.longTasks, drawn: p.drawn, graphsDrawn: p.graphsDrawn, marks: p.marks, frameWork: p.frameWork };
  });
}

async function waitDrawn(page: Page, name: string, timeout = 180_000): Promise<void> {
  await page.waitForFunction(
    (n) => document.title.startsWith(n + ' ·') && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false',
    name,
    { timeout, polling: 50 },
  );
}

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const median = (values: number[]) => percentile(values, 50);

async function measureToggle(page: Page): Promise<number | null> {
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const label = i % 2 === 0 ? 'Inline frames' : 'Functions';
    const button = page.getByRole('button', { name: label, exact: true });
    if ((await button.count()) === 0 || !(await button.isEnabled())) return null;
    const ms = await page.evaluate(async (name) => {
      const b = [...document.querySelectorAll('button')].find((x) => x.textContent?.trim() === name)!;
      const container = document.querySelector('[aria-label="Flame graph"]')!;
      const t0 = performance.now();
      b.click();
      // Drawn: aria-busy is "false" again after the click's frame.
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        if (container.getAttribute('aria-busy') === 'false') return performance.now() - t0;
      }
    }, label);
    times.push(ms);
  }
  return median(times);
}

async function measureZoom(page: Page): Promise<{ frames: number[]; cpu: number[] }> {
  const box = await page.locator('[aria-label="Flame graph"]').boundingBox();
  if (!box) return { frames: [], cpu: [] };
  await page.evaluate(() => (window as unknown as { __probe: PageProbe }).__probe.frameWork.splice(0));
  // Wall time untraced (tracing adds overhead to each frame), then the same gestures traced for CPU.
  await zoomAround(page, box);
  const frames = await page.evaluate(() => [...(window as unknown as { __probe: { frameWorkFlushed: number[] } }).__probe.frameWorkFlushed]);
  const cpu = await traceFrameCpu(page, () => zoomAround(page, box));
  return { frames, cpu };
}

async function zoomAround(page: Page, box: { x: number; y: number; width: number; height: number }): Promise<void> {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height * 0.75;
  await page.mouse.move(cx, cy);
  for (let i = 0; i < 40; i++) {
    await page.mouse.wheel(0, i < 20 ? -120 : 120);
    await page.waitForTimeout(16);
  }
  // Click-zoom animations: click a few frames low in the graph, then reset with Escape.
  for (let i = 0; i < 4; i++) {
    await page.mouse.click(box.x + box.width * (0.2 + i * 0.2), box.y + box.height - 40);
    await page.waitForTimeout(320);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(320);
  }
}

async function run(): Promise<void> {
  const sizes = parseList(arg('--sizes'), ['200']).map(Number);
  const runs = Number(arg('--runs') ?? 1);
  const onlyCompare = process.argv.includes('--only-compare');
  const withCompare = onlyCompare || process.argv.includes('--compare');
  const compareRuns = Number(arg('--compare-runs') ?? 3);
  const port = Number(arg('--port') ?? 4191);
  const OUT_DIR = `node_modules/.cache/flameview-bench-${port}`;
  if (!process.argv.includes('--no-build')) {
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', OUT_DIR, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const inputs: { name: string; path: string }[] = [];
  if (!onlyCompare && !process.argv.includes('--skip-fixtures')) for (const f of FIXTURES) inputs.push({ name: f, path: join(ROOT, 'fixtures', f) });
  const pairs: { a: { name: string; path: string }; b: { name: string; path: string } }[] = [];
  for (const size of sizes) {
    const path = await ensureInput('perf', size, 1, (m) => console.error(m));
    if (!onlyCompare) inputs.push({ name: basename(path), path });
    if (withCompare) {
      const other = await ensureInput('perf', size, 2, (m) => console.error(m));
      pairs.push({ a: { name: basename(path), path }, b: { name: basename(other), path: other } });
    }
  }
  const wide = Number(arg('--wide') ?? 600_000);
  if (wide > 0 && !onlyCompare) {
    const path = await ensureWideInput(wide, 1, (m) => console.error(m));
    inputs.push({ name: basename(path), path });
  }
  const only = arg('--only');
  if (only) inputs.splice(0, inputs.length, ...inputs.filter((i) => i.name.includes(only)));
  const files = new Map([...inputs, ...pairs.flatMap((p) => [p.a, p.b])].map((i) => [i.name, i.path]));
  const data = await serveFiles(files);
  const app = await preview({ root: ROOT, logLevel: 'warn', build: { outDir: OUT_DIR }, preview: { port, strictPort: false, open: false } });
  const appUrl = app.resolvedUrls?.local[0] ?? `http://localhost:${port}/`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  const rows: Row[] = [];
  const compareRows: CompareRow[] = [];
  try {
    for (const input of inputs) {
      for (let r = 0; r < runs; r++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        await context.addInitScript(INIT_SCRIPT);
        const page = await context.newPage();
        const url = `${appUrl}#profile=${encodeURIComponent(`${data.origin}/${input.name}`)}`;
        await page.goto(url);
        await waitDrawn(page, input.name);
        const nav = await probe(page);
        const drawnAt = nav.drawn.find((d) => d.title.startsWith(input.name + ' ·'))?.t ?? NaN;
        const mark = (n: string) => nav.marks.filter((m) => m.name === n).at(-1)?.t ?? NaN;
        const open = mark('flameview:open');
        const received = mark('flameview:received');
        const committed = mark('flameview:committed');
        const duringLoad = nav.longTasks.filter((t) => t.start >= open - 1 && t.start <= drawnAt);
        const nodes = await page.evaluate(() => {
          const s = (window as unknown as { flameview: { store: { getState(): { recordings: { a: { snapshot: { inline: { nodeCount: number } } | null } } } } } }).flameview.store.getState();
          return s.recordings.a.snapshot?.inline.nodeCount ?? 0;
        });
        const toggleMs = await measureToggle(page);
        const { frames, cpu: frameCpu } = await measureZoom(page);
        console.error(`${input.name}: ${nodes} nodes, drawn ${drawnAt.toFixed(0)} ms after navigation; zoom frame p50 ${percentile(frames, 50)?.toFixed(2)} ms, p95 ${percentile(frames, 95)?.toFixed(2)} ms (${frames.length} frames); by CPU p50 ${percentile(frameCpu, 50)?.toFixed(2)} ms, p95 ${percentile(frameCpu, 95)?.toFixed(2)} ms`);

        // The same file through the file input, on a page that already shows the demo, under a
        // Chromium trace: main-thread tasks by CPU time (wall time includes waiting for a core).
        await page.goto(appUrl);
        await waitDrawn(page, 'rust-toyc.perf-script.txt');
        await page.evaluate(() => (window as unknown as { __probe: PageProbe }).__probe.reset());
        const tasks = await traceMainThread(page, async () => {
          await page.getByLabel('Open file').setInputFiles(input.path);
          await waitDrawn(page, input.name);
        });
        const fp = await probe(page);
        const fOpen = fp.marks.filter((m) => m.name === 'flameview:open').at(-1)?.t ?? NaN;
        const fDrawn = fp.drawn.find((d) => d.title.startsWith(input.name + ' ·') && d.t >= fOpen)?.t ?? NaN;

        rows.push({
          input: input.name,
          bytes: statSync(input.path).size,
          nodes,
          navToDrawnMs: drawnAt,
          workerMs: received - open,
          commitMs: committed - received,
          firstDrawMs: drawnAt - committed,
          fileToDrawnMs: fDrawn - fOpen,
          longestTaskCpuMs: tasks.longestCpuMs,
          longestTaskWallMs: tasks.longestWallMs,
          longTasksNav: duringLoad.length,
          toggleMs,
          frameP50Ms: percentile(frames, 50),
          frameP95Ms: percentile(frames, 95),
          frameCpuP50Ms: percentile(frameCpu, 50),
          frameCpuP95Ms: percentile(frameCpu, 95),
          frames: frames.length,
        });
        console.error(`${input.name}: drawn ${drawnAt.toFixed(0)} ms after navigation`);
        await context.close();
      }
    }
    for (const pair of pairs) compareRows.push(await measureCompare(browser, appUrl, data.origin, pair, compareRuns, INIT_SCRIPT));
  } finally {
    await browser.close();
    await new Promise<void>((r) => app.httpServer.close(() => r()));
    data.server.close();
  }
  mkdirSync(RESULTS, { recursive: true });
  const env = { cpus: cpus().length, cpu: cpus()[0]?.model, loadavg: loadavg(), date: new Date().toISOString() };
  const file = join(RESULTS, 'browser-latest.json');
  if (!onlyCompare) print(rows);
  if (withCompare) printCompare(compareRows);
  if (onlyCompare) {
    // Keep the other rows (and the conditions they were measured in); replace the comparison.
    const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    writeFileSync(file, JSON.stringify({ ...previous, compare: { env, rows: compareRows } }, null, 2));
  } else {
    writeFileSync(file, JSON.stringify({ env, rows, ...(withCompare ? { compare: { env, rows: compareRows } } : {}) }, null, 2));
  }
}

function print(rows: Row[]): void {
  const f = (v: number | null, d = 0) => (v === null || Number.isNaN(v) ? '–' : v.toFixed(d));
  const head = ['input', 'MB', 'nodes', 'nav→drawn', 'worker', 'commit', 'draw', 'file→drawn*', 'longest task cpu/wall', 'toggle', 'frame p50', 'frame p95', 'frame cpu p50/p95'];
  const lines = rows.map((r) => [
    r.input,
    (r.bytes / 1e6).toFixed(1),
    String(r.nodes),
    f(r.navToDrawnMs),
    f(r.workerMs),
    f(r.commitMs),
    f(r.firstDrawMs),
    f(r.fileToDrawnMs),
    `${f(r.longestTaskCpuMs, 1)} / ${f(r.longestTaskWallMs)}`,
    f(r.toggleMs, 1),
    f(r.frameP50Ms, 2),
    f(r.frameP95Ms, 2),
    `${f(r.frameCpuP50Ms, 2)} / ${f(r.frameCpuP95Ms, 2)}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(fmt(head));
  for (const l of lines) console.log(fmt(l));
  console.log('times in ms; MB = 10^6 bytes; *file→drawn is measured under a Chromium trace (slower);');
  console.log('longest task = longest main-thread task during the file-input load, CPU time / wall time');
  console.log('targets: 200 MB perf script drawn < 2500 ms; frame p95 < 8 ms; toggle < 150 ms; no task > 50 ms during load');
}

// --parallel: navigation → drawn with part workers against one worker (./parallel.ts).
(process.argv.includes('--parallel')
  ? import('./parallel').then((m) => m.runParallelBench())
  : process.argv.includes('--share')
    ? import('./share').then((m) => m.runShareBench())
    : process.argv.includes('--small')
      ? import('./small').then((m) => m.runSmallBench())
      : run()).catch((e) => {
  console.error(e);
  process.exit(1);
});
