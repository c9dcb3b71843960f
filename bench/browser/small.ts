// Small recordings, the common case: navigation → graph drawn for flameview and, when given built
// locally by path, speedscope and the Firefox Profiler, in a fresh Chromium per run.
//
//   npm run bench:browser -- --small [--runs 5] [--source FILE] [--sizes 0.1,1.6,16]
//                            [--speedscope DIR] [--firefox-profiler DIR] [--dist DIR] [--before DIR]
//                            [--trace DIR] [--floor] [--returning] [--playwright]
//
// Each first visit is timed in a Chromium driven over its DevTools pipe (pipe-browser.ts), not by
// Playwright, which holds each worker a page starts until its client has attached to it (~10 ms
// per worker here; speedscope starts none, flameview's first picture waits on one).
// `--playwright` times with Playwright as before; `--trace` and `--returning` always use it.
// "Drawn" is the end of the first frame that shows the condition holding, checked after each
// frame has rendered (waitScript), whether a viewer draws in a task or in an animation frame.
// - Inputs: the first 100 kB, 1.6 MB and 16 MB of a real `perf script` (`--source`, by default
//   bench/data/gxx.perf-script.txt, which bench/record-small.sh records from g++), each cut at a
//   sample boundary, written to bench/data/small-<size>.perf-script.txt and served by a local
//   server with Content-Length and CORS.
// - flameview: this worktree's app built into node_modules/.cache/flameview-small (or `--dist DIR`,
//   another build), opened at `#profile=<url>`; drawn when the flame graph's aria-busy is "false"
//   with the recording's name in the title. `--before DIR` runs another build of flameview (e.g.
//   main's) as one more viewer, alternating with this one: a before/after in one run.
// - speedscope (`--speedscope DIR`: the `dist/release` folder of its npm package) at
//   `#profileURL=<url>`; drawn when, its title naming the recording, it has made a WebGL draw to
//   the screen over at least half its canvas's height (its flame chart, not its minimap).
// - the Firefox Profiler (`--firefox-profiler DIR`: its built `dist/`) at `/from-url/<url>/`;
//   drawn when the call tree has rows (the view it opens on).
// - `--floor`: two pages written by this bench, the least a viewer in the page can do, to read the
//   other figures against: `floor-fetch` fetches the recording whole and fills one rectangle;
//   `floor-fold` also folds its stacks (one pass over the text, a Map from stack to count, as
//   flamegraph.pl's stackcollapse does) and draws the first three levels. Inline scripts, nothing
//   else loaded: what is left is the browser's start, the fetch and a cold JIT.
// - `--returning`: a returning visitor instead of a first visit. Each run is a fresh Chromium
//   profile that opens the link twice (not timed; the second visit lets Chromium store V8's code
//   cache beside the cached scripts), closes the browser and times the third visit in a new one. The apps' files but index.html are
//   served as a static host serves hashed assets (`max-age=31536000, immutable`); the recording
//   and index.html are never cached.
// Each viewer's app is served as static files by one server (paths not found fall back to
// index.html, as the Firefox Profiler's routes need). Runs alternate between the viewers so a
// change in the machine's load hits all of them; each prints its median of `--runs` (default 5).
// `--trace DIR` also writes one Chromium trace per viewer and size (load it in the Performance
// panel) from an extra run, not counted.
// Each flameview build's own marks are printed too (open, received, committed: medians), so a
// change shows where it moved the time. Results go to bench/results/browser-small.json.

import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, openSync, readSync, closeSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { DATA_DIR, parseList } from '../generate';
import { PipeBrowser } from './pipe-browser';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain',
};

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The first `bytes` of `source`, ended at the blank line that closes a sample (perf script). */
function cutInput(source: string, mb: number): string {
  const out = join(DATA_DIR, `small-${mb}MB.perf-script.txt`);
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(source).mtimeMs) return out;
  const want = Math.round(mb * 1_000_000);
  if (statSync(source).size < want) throw new Error(`${source} has fewer than ${want} bytes: record a longer run (bench/record-small.sh)`);
  const fd = openSync(source, 'r');
  const buf = Buffer.alloc(want + 64 * 1024);
  const n = readSync(fd, buf, 0, buf.length, 0);
  closeSync(fd);
  const end = buf.subarray(0, n).indexOf('\n\n', want);
  if (end < 0) throw new Error(`${source}: no sample boundary within 64 kB after byte ${want}`);
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(out, buf.subarray(0, end + 2));
  return out;
}

/** One static server for the data (under /data/) and each viewer's app (under /<viewer>/). */
function serve(data: Map<string, string>, apps: Map<string, string>, cacheAssets: boolean): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    res.setHeader('Access-Control-Allow-Origin', '*');
    const [, top, ...rest] = path.split('/');
    const send = (file: string) => {
      const cache = cacheAssets && top !== 'data' && !file.endsWith('.html') ? 'public, max-age=31536000, immutable' : 'no-store';
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': String(statSync(file).size), 'Cache-Control': cache });
      createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
    };
    if (top === 'data' && data.has(rest.join('/'))) return send(data.get(rest.join('/'))!);
    const dir = apps.get(top);
    if (!dir) return void res.writeHead(404).end('not found');
    const file = normalize(join(dir, ...rest));
    if (!file.startsWith(dir + sep) && file !== dir) return void res.writeHead(403).end();
    if (existsSync(file) && statSync(file).isFile()) return send(file);
    // An app route (the Firefox Profiler's /from-url/…) or a folder: the app's page.
    return send(join(dir, 'index.html'));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => {
    const a = server.address();
    done({ server, origin: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}` });
  }));
}

interface Viewer {
  name: string;
  url(app: string, data: string): string;
  /** Runs in the page: true once the recording named `name` is drawn. */
  drawn: string;
  /** Runs in the page: true once the viewer takes input too (flameview's app, after its first picture). */
  ready?: string;
}

/** flameview, this build or another (`--before`), linked the same way. */
function flameviewBuild(name: string): Viewer {
  return {
    name,
    url: (app, data) => `${app}/#profile=${encodeURIComponent(data)}`,
    // The first picture (src/first-picture.ts) or the app's graph, whichever is drawn first.
    drawn: `document.title.startsWith(NAME + ' ·') && [...document.querySelectorAll('[aria-label="Flame graph"], [data-first-picture]')].some((e) => e.getAttribute('aria-busy') === 'false')`,
    ready: `document.title.startsWith(NAME + ' ·') && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false'`,
  };
}

/** A floor page (`--floor`), linked as flameview is. */
function floorViewer(name: string): Viewer {
  return { ...flameviewBuild(name), drawn: `document.title === NAME && document.body.dataset.drawn === '1'`, ready: undefined };
}

/**
 * The floor pages' one script (see `--floor`): fetch the linked recording, fold it when `fold`,
 * fill the canvas, set the title. Plain JS in the HTML, so no bundle stands between navigation
 * and the fetch.
 */
function floorPage(fold: boolean): string {
  const script = `
const url = decodeURIComponent(location.hash.slice('#profile='.length));
const canvas = document.querySelector('canvas');
canvas.width = innerWidth; canvas.height = innerHeight;
const ctx = canvas.getContext('2d');
fetch(url).then((r) => r.text()).then((text) => {
  ${fold ? `const stacks = new Map();
  let frames = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (line === '') {
      if (frames.length) { const k = frames.reverse().join(';'); stacks.set(k, (stacks.get(k) || 0) + 1); frames = []; }
    } else if (line.charCodeAt(0) === 9) {
      const m = /^\\s*[0-9a-f]+ (.*?)(?:\\+0x[0-9a-f]+)? \\(/.exec(line);
      frames.push(m ? m[1] : line.trim());
    }
  }
  let total = 0;
  for (const n of stacks.values()) total += n;
  const levels = [new Map(), new Map(), new Map()];
  for (const [k, n] of stacks) { const f = k.split(';'); for (let d = 0; d < 3 && d < f.length; d++) { const key = f.slice(0, d + 1).join(';'); levels[d].set(key, (levels[d].get(key) || 0) + n); } }
  for (let d = 0; d < 3; d++) {
    let x = 0;
    for (const [key, n] of [...levels[d]].sort()) {
      const w = (n / total) * canvas.width;
      ctx.fillStyle = 'hsl(' + (key.length * 37) % 60 + ',80%,60%)';
      ctx.fillRect(x, canvas.height - (d + 1) * 18, Math.max(0, w - 1), 17);
      if (w > 40) { ctx.fillStyle = '#000'; ctx.fillText(key.slice(key.lastIndexOf(';') + 1), x + 2, canvas.height - d * 18 - 5, w - 4); }
      x += w;
    }
  }` : `ctx.fillStyle = 'orange';
  ctx.fillRect(0, canvas.height - 18, canvas.width * Math.min(1, text.length / 1e6), 17);`}
  document.title = url.slice(url.lastIndexOf('/') + 1);
  document.body.dataset.drawn = '1';
});`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>floor</title><style>html,body{margin:0;height:100%}canvas{display:block;width:100%;height:100%}</style></head><body><canvas></canvas><script>${script}</script></body></html>\n`;
}

const VIEWERS: Record<string, Viewer> = {
  flameview: flameviewBuild('flameview'),
  speedscope: {
    name: 'speedscope',
    url: (app, data) => `${app}/index.html#profileURL=${encodeURIComponent(data)}`,
    // Its title names the recording, then later animation frames draw with WebGL: its minimap
    // first (the bottom 102 px), its flame chart a frame later. Drawn once a WebGL draw to the
    // screen over at least half the canvas's height was made under that title (waitScript).
    drawn: `window.__bench_glDrawn === true && [...document.querySelectorAll('canvas')].some((c) => c.width > 0 && c.height > 0)`,
  },
  'flameview-before': flameviewBuild('flameview-before'),
  'floor-fetch': floorViewer('floor-fetch'),
  'floor-fold': floorViewer('floor-fold'),
  'firefox-profiler': {
    name: 'firefox-profiler',
    url: (app, data) => `${app}/from-url/${encodeURIComponent(data)}/`,
    drawn: `document.querySelectorAll('.treeViewRow').length > 0`,
  },
};

/** Visits before the timed one: 0 for a first visit, 2 for `--returning` (see the header). */
const WARM_VISITS = process.argv.includes('--returning') ? 2 : 0;

type RunResult = { ms: number; readyMs: number | null; marks: Record<string, number> };

const MARKS = `Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]))`;

/** How long a viewer may take before its run fails. */
const DRAW_TIMEOUT_MS = 120_000;

/**
 * Page-side text run before the page's own scripts: `window.__bench_<key>` becomes a promise of
 * the time `waits[key]` (a condition, NAME the recording's name) is first seen holding after a
 * frame has rendered. It is checked in a task posted from each animation frame, which runs after
 * that frame's callbacks, style, layout and paint: a graph drawn in a task and one drawn in an
 * animation-frame callback are timed alike, at the frame that shows them. (Checking in the frame's
 * own callback, as Playwright's 'raf' polling does, timed a graph drawn in a later callback of that
 * frame one frame late.)
 */
export function waitScript(waits: Record<string, string>, name: string): string {
  // window.__bench_glDrawn: a WebGL draw to the screen (no framebuffer bound) over at least half
  // the canvas's height was made while the title named the recording. A WebGL canvas's pixels
  // cannot be read back, so its draw calls say when it was drawn.
  const gl = `for (const proto of [window.WebGLRenderingContext, window.WebGL2RenderingContext].filter(Boolean).map((c) => c.prototype)) {
  const bind = proto.bindFramebuffer;
  const viewport = proto.viewport;
  proto.bindFramebuffer = function (target, framebuffer) {
    this.__benchOffscreen = !!framebuffer;
    return bind.call(this, target, framebuffer);
  };
  proto.viewport = function (x, y, width, height) {
    this.__benchHeight = height;
    return viewport.call(this, x, y, width, height);
  };
  for (const method of ['drawArrays', 'drawElements']) {
    const draw = proto[method];
    proto[method] = function (...args) {
      const tall = (this.__benchHeight ?? this.drawingBufferHeight) > this.drawingBufferHeight / 2;
      if (!this.__benchOffscreen && tall && document.title.includes(${JSON.stringify(name)})) window.__bench_glDrawn = true;
      return draw.apply(this, args);
    };
  }
}`;
  return [gl, ...Object.entries(waits)
    .map(
      ([key, cond]) => `window.__bench_${key} = new Promise((resolve) => {
  const holds = new Function('NAME', 'return ' + ${JSON.stringify(cond)});
  const channel = new MessageChannel();
  const afterFrame = () => channel.port2.postMessage(null);
  channel.port1.onmessage = () => {
    let ok = false;
    try { ok = holds(${JSON.stringify(name)}); } catch {}
    if (ok) resolve(performance.now());
    else requestAnimationFrame(afterFrame);
  };
  requestAnimationFrame(afterFrame);
});`,
    )].join('\n');
}

/** `promise`, or `why` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, why: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([promise, new Promise<never>((_, fail) => (timer = setTimeout(() => fail(why()), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * The time waitScript's promise for `key` resolved with, asked again until the new document has
 * it; fails after `timeoutMs` (a page that never answers included) and at once on any error but a
 * document going away (the browser gone, a crash).
 */
export async function timedAt(evaluate: (expression: string) => Promise<unknown>, viewer: string, key: string, timeoutMs = DRAW_TIMEOUT_MS): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const late = () => new Error(`${viewer}: not ${key} after ${timeoutMs / 1000} s`);
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) throw late();
    let t: unknown;
    try {
      t = await within(evaluate(`window.__bench_${key} && Promise.race([window.__bench_${key}, new Promise((r) => setTimeout(() => r('late'), ${left}))])`), left + 1000, late);
    } catch (e) {
      // about:blank's context, or one going away, while the new document comes: ask again.
      if (!/context|navigat/i.test(String((e as Error)?.message ?? e))) throw e;
    }
    if (typeof t === 'number') return t;
    if (t === 'late') throw late();
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The conditions a run waits for: drawn, and ready where the viewer has one. */
const waitsOf = (viewer: Viewer): Record<string, string> => ({ drawn: viewer.drawn, ...(viewer.ready ? { ready: viewer.ready } : {}) });

/** When the page was drawn and, where the viewer has it, ready (waitScript's promises, in turn). */
async function drawnAndReady(evaluate: (expression: string) => Promise<unknown>, viewer: Viewer): Promise<{ ms: number; readyMs: number | null }> {
  const ms = await timedAt(evaluate, viewer.name, 'drawn');
  return { ms, readyMs: viewer.ready ? await timedAt(evaluate, viewer.name, 'ready') : null };
}

/** A first visit timed over the DevTools pipe (pipe-browser.ts: no hold on the page's workers). */
async function pipeRun(viewer: Viewer, url: string, name: string): Promise<RunResult> {
  const browser = PipeBrowser.launch(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', CHROMIUM_ARGS);
  try {
    const page = await browser.page({ width: 1280, height: 800 });
    await browser.send('Page.addScriptToEvaluateOnNewDocument', { source: waitScript(waitsOf(viewer), name) }, page);
    await browser.navigate(page, url);
    const times = await drawnAndReady((expression) => browser.evaluate(page, expression), viewer);
    return { ...times, marks: await browser.evaluate<Record<string, number>>(page, MARKS) };
  } finally {
    await browser.close();
  }
}

async function oneRun(viewer: Viewer, appUrl: string, dataUrl: string, name: string, trace?: string): Promise<RunResult> {
  if (!trace && WARM_VISITS === 0 && !process.argv.includes('--playwright')) return pipeRun(viewer, viewer.url(appUrl, dataUrl), name);
  const options = { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true };
  const viewport = { width: 1280, height: 800 };
  const open: { browser: Browser | null; context: BrowserContext | null; profile: string | null } = { browser: null, context: null, profile: null };
  try {
    if (WARM_VISITS > 0) {
      // The warm visits in one browser, closed (its caches written to the profile), then the timed
      // visit in a new browser on that profile: a returning visitor's, no process left warm.
      open.profile = mkdtempSync(join(tmpdir(), 'flameview-small-'));
      open.context = await chromium.launchPersistentContext(open.profile, { ...options, viewport });
      for (let i = 0; i < WARM_VISITS; i++) {
        const warm = await open.context.newPage();
        await warm.addInitScript(waitScript(waitsOf(viewer), name));
        await warm.goto(viewer.url(appUrl, dataUrl), { waitUntil: 'commit' });
        await timedAt((e) => warm.evaluate(e), viewer.name, 'drawn');
        await warm.close();
      }
      await open.context.close();
      open.context = await chromium.launchPersistentContext(open.profile, { ...options, viewport });
    } else open.browser = await chromium.launch(options);
    const page = open.context ? await open.context.newPage() : await open.browser!.newPage({ viewport });
    if (trace && open.browser) await open.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'disabled-by-default-v8.cpu_profiler'] });
    await page.addInitScript(waitScript(waitsOf(viewer), name));
    await page.goto(viewer.url(appUrl, dataUrl), { waitUntil: 'commit' });
    const times = await drawnAndReady((expression) => page.evaluate(expression), viewer);
    if (trace && open.browser) writeFileSync(trace, await open.browser.stopTracing());
    return { ...times, marks: (await page.evaluate(MARKS)) as Record<string, number> };
  } finally {
    await (open.context ?? open.browser)?.close();
    if (open.profile) rmSync(open.profile, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function runSmallBench(): Promise<void> {
  // Playwright traces a browser, and a persistent profile's context has none to trace.
  if (arg('--trace') && WARM_VISITS > 0) throw new Error('--trace and --returning cannot be combined: trace a first visit');
  const runs = Number(arg('--runs') ?? 5);
  const sizes = parseList(arg('--sizes'), ['0.1', '1.6', '16']).map(Number);
  const source = resolve(arg('--source') ?? join(DATA_DIR, 'gxx.perf-script.txt'));
  if (!existsSync(source)) throw new Error(`${source} is missing: run bench/record-small.sh (or pass --source FILE, a perf script of 16 MB or more)`);
  let dist = arg('--dist');
  if (!dist) {
    dist = join(ROOT, 'node_modules', '.cache', 'flameview-small');
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const apps = new Map<string, string>([['flameview', resolve(dist)]]);
  for (const [flag, key] of [['--before', 'flameview-before'], ['--speedscope', 'speedscope'], ['--firefox-profiler', 'firefox-profiler']] as const) {
    const dir = arg(flag);
    if (dir === undefined) continue;
    if (!existsSync(join(dir, 'index.html'))) throw new Error(`${flag} ${dir}: no index.html there (give the built app's folder)`);
    apps.set(key, resolve(dir));
  }
  if (process.argv.includes('--floor')) {
    for (const fold of [false, true]) {
      const dir = join(ROOT, 'node_modules', '.cache', fold ? 'floor-fold' : 'floor-fetch');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'index.html'), floorPage(fold));
      apps.set(fold ? 'floor-fold' : 'floor-fetch', dir);
    }
  }
  const inputs = sizes.map((mb) => ({ mb, path: cutInput(source, mb) }));
  const data = new Map(inputs.map((i) => [`small-${i.mb}MB.perf-script.txt`, i.path]));
  const { server, origin } = await serve(data, apps, WARM_VISITS > 0);
  const traceDir = arg('--trace');
  if (traceDir) mkdirSync(traceDir, { recursive: true });
  const rows: { viewer: string; mb: number; bytes: number; runs: number[]; median: number; ready: number[]; marks: Record<string, number>[] }[] = [];
  try {
    for (const input of inputs) {
      const name = `small-${input.mb}MB.perf-script.txt`;
      const dataUrl = `${origin}/data/${name}`;
      const byViewer = new Map([...apps.keys()].map((k) => [k, { ms: [] as number[], ready: [] as number[], marks: [] as Record<string, number>[] }]));
      // Alternate the viewers run by run, so the machine's load weighs on each alike.
      for (let r = 0; r < runs; r++) {
        for (const key of apps.keys()) {
          const got = await oneRun(VIEWERS[key], `${origin}/${key}`, dataUrl, name);
          byViewer.get(key)!.ms.push(got.ms);
          if (got.readyMs !== null) byViewer.get(key)!.ready.push(got.readyMs);
          byViewer.get(key)!.marks.push(got.marks);
          console.error(`${key} ${input.mb} MB run ${r + 1}: ${got.ms.toFixed(0)} ms`);
        }
      }
      if (traceDir) for (const key of apps.keys()) await oneRun(VIEWERS[key], `${origin}/${key}`, dataUrl, name, join(traceDir, `${key}-${input.mb}MB.json`));
      for (const [key, v] of byViewer) rows.push({ viewer: key, mb: input.mb, bytes: statSync(input.path).size, runs: v.ms, median: median(v.ms), ready: v.ready, marks: v.marks });
    }
  } finally {
    server.close();
  }
  const env = { cpus: cpus().length, cpu: cpus()[0]?.model, loadavg: loadavg(), date: new Date().toISOString() };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'browser-small.json'), JSON.stringify({ env, source, returning: WARM_VISITS > 0, rows }, null, 2));
  const visit = WARM_VISITS > 0 ? `a returning visit (the third in a fresh Chromium profile)` : 'fresh Chromium per run';
  console.log(`navigation → drawn, ms, medians of ${runs} (${visit}; load ${loadavg()[0].toFixed(1)})`);
  console.log(['input', ...apps.keys(), ...[...apps.keys()].slice(1).map((k) => `${k} / flameview`)].join('\t'));
  for (const input of inputs) {
    const m = (k: string) => rows.find((r) => r.viewer === k && r.mb === input.mb)!.median;
    const fv = m('flameview');
    console.log([`${input.mb} MB`, ...[...apps.keys()].map((k) => m(k).toFixed(0)), ...[...apps.keys()].slice(1).map((k) => (m(k) / fv).toFixed(2) + '×')].join('\t'));
  }
  // Where flameview's time went: the app's own marks (recording-loader.ts, recordings.ts), medians.
  console.log('flameview marks, ms after navigation, medians: first-open / first-received (the first picture\'s load, src/boot.ts), open (the app\'s load starts), received (the worker\'s answer), committed (in the store); drawn (the first picture or the app\'s graph); ready (the app\'s graph drawn, taking input)');
  for (const row of rows) {
    if (!row.viewer.startsWith('flameview')) continue;
    const at = (mark: string) => {
      const xs = row.marks.map((m) => m[`flameview:${mark}`]).filter((x): x is number => x !== undefined);
      return xs.length ? median(xs).toFixed(0) : '-';
    };
    const ready = row.ready.length ? median(row.ready).toFixed(0) : '-';
    console.log(`${row.viewer}\t${row.mb} MB\t${at('first-open')} / ${at('first-received')}\t${at('open')}\t${at('received')}\t${at('committed')}\tdrawn ${row.median.toFixed(0)}\tready ${ready}`);
  }
}
