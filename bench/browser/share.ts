// Browser benchmark of issue 28 (`npm run bench:browser -- --share`), medians side by side in one
// run, alternating the rows of a pair:
// - a shared link (`bin/flameview serve`'s /p/<id>) to a generated perf script, drawn from its
//   processed form (what Share uploads now) against the raw recording (what it uploaded before),
//   navigation → drawn, on loopback and with Chromium's network emulation at 100 Mbit/s;
// - Share: the recording opened from a file, "Share" clicked → "Uploaded" shown (processed), and
//   the raw upload Share made before (the file's bytes POSTed, from Node, for reference);
// - `flameview FILE` (command start → the page drawn: the CLI parses, serves the processed form)
//   against `flameview collapse FILE` (command start → exit), and `flameview --raw FILE`.
//
//   npx tsx bench/browser/run.ts --share [--size 200] [--runs 3] [--port 4231] [--no-build]
//
// Every command runs the compiled CLI (dist/node, built first unless --no-build).
// Inputs come from bench/generate.ts (FLAMEVIEW_BENCH_DATA moves them). Results go to
// bench/results/browser-share.json.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { ensureInput } from '../generate';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
/** 100 Mbit/s each way, in bytes per second, as CDP's Network.emulateNetworkConditions takes it. */
const MBIT_100 = (100 * 1000 * 1000) / 8;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** `bin/flameview ARGS` from the sources (of `root`) serving `dist`; resolves with the first URL it prints. */
function startFlameview(args: string[], dist: string, root = ROOT): { child: ChildProcess; url: Promise<string>; exited: Promise<void>; parsedAt: Promise<number> } {
  const child = spawn(join(root, 'bin', 'flameview'), args, {
    env: { ...process.env, FLAMEVIEW_DIST: dist },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  // When the CLI says it has parsed the file (`flameview: read NAME in …`): where the parse ends.
  let parsed!: (at: number) => void;
  const parsedAt = new Promise<number>((resolve) => (parsed = resolve));
  child.stderr!.on('data', (d: Buffer) => {
    err += d;
    if (/^flameview: read .* in /m.test(err)) parsed(Date.now());
  });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /http:\/\/\S+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`flameview ${args[0]} exited (${code}): ${err}`)));
  });
  url.catch(() => {});
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, url, exited, parsedAt };
}

function drawn(page: Page, name: string) {
  return page.waitForFunction(
    (n) => document.title.startsWith(n + ' ·') && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false',
    name,
    { timeout: 600_000, polling: 50 },
  );
}

/** POSTs a file to the server as Share does; the id. */
async function uploadFile(base: string, path: string, name: string): Promise<{ id: string; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/profiles`, { method: 'POST', body: readFileSync(path), headers: { 'content-type': 'application/octet-stream', 'x-filename': encodeURIComponent(name) } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`upload of ${name}: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  return { id, ms: performance.now() - t0 };
}

/** Navigation → drawn of a shared link, in a fresh context, optionally throttled. */
async function openLink(browser: Browser, url: string, name: string, throttle: boolean): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  if (throttle) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 2, downloadThroughput: MBIT_100, uploadThroughput: MBIT_100 });
  }
  await page.goto('about:blank');
  const t0 = Date.now();
  await page.goto(url);
  await drawn(page, name);
  const ms = Date.now() - t0;
  await context.close();
  return ms;
}

/** The recording opened from a file, then Share clicked until the page says it is uploaded. */
async function shareOnce(browser: Browser, base: string, path: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await drawn(page, 'rust-toyc.perf-script.txt');
  await page.getByLabel('Open file').setInputFiles(path);
  await drawn(page, basename(path));
  await page.getByRole('button', { name: 'More actions' }).click();
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await page.getByRole('group', { name: 'Link' }).getByText(/^Uploaded to this server/).waitFor({ timeout: 600_000 });
  const ms = Date.now() - t0;
  await context.close();
  return ms;
}

/**
 * `flameview [--raw] --no-open FILE` (of `root`: another checkout for a before/after run):
 * command start → the page drawn, and command start → the link printed (`linkMs`).
 */
async function openFileOnce(browser: Browser, dist: string, path: string, raw: boolean, root = ROOT): Promise<{ ms: number; linkMs: number; parsedMs: number | null }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto('about:blank');
  const t0 = Date.now();
  const fv = startFlameview(['--no-open', ...(raw ? ['--raw'] : []), path], dist, root);
  const url = await fv.url;
  const linkMs = Date.now() - t0;
  await page.goto(url);
  await drawn(page, basename(path));
  const ms = Date.now() - t0;
  const parsedMs = raw ? null : (await fv.parsedAt) - t0;
  await context.close();
  fv.child.kill();
  await fv.exited;
  return { ms, linkMs, parsedMs };
}

function collapseOnce(path: string): number {
  const t0 = Date.now();
  const r = spawnSync(join(ROOT, 'bin', 'flameview'), ['collapse', path], { env: process.env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('flameview collapse failed');
  return Date.now() - t0;
}

export async function runShareBench(): Promise<void> {
  const size = Number(arg('--size') ?? 200);
  const runs = Number(arg('--runs') ?? 3);
  const port = Number(arg('--port') ?? 4231);
  const dist = join(ROOT, 'node_modules', '.cache', `flameview-bench-${port}`);
  if (!process.argv.includes('--no-build')) {
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  // The compiled CLI (dist/node), as the package runs it: through tsx (FLAMEVIEW_FROM_SOURCE=1)
  // `flameview FILE` paid ~0.4 s more than `collapse` to compile the server's modules first.
  for (const root of [ROOT, ...(arg('--before') ? [arg('--before')!] : [])]) {
    if (process.argv.includes('--no-build')) break;
    const r = spawnSync(process.execPath, ['scripts/build.mjs', '--node'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`the CLI build in ${root} failed`);
  }
  // `--before DIR`: the same `flameview FILE` from another checkout (DIR, with node_modules),
  // alternating with this one's, for a before/after of the CLI; `--open-only` skips the links and Share.
  const before = arg('--before');
  const openOnly = process.argv.includes('--open-only');
  // `--links-only`: the shared links and Share, without the `flameview FILE` rows, and the raw
  // link at 100 Mbit/s (2.5 min a run at 1.1 GB) in the first run only: the processed rows get
  // their medians in the minutes a quiet machine gives.
  const linksOnly = process.argv.includes('--links-only');
  const input = await ensureInput('perf', size, 1, (m) => console.error(m));
  const name = basename(input);
  const scratch = mkdtempSync(join(tmpdir(), 'flameview-share-bench-'));
  const processedPath = join(scratch, `${name}.flameview`);
  if (!openOnly) {
    const convert = spawnSync(join(ROOT, 'bin', 'flameview'), ['convert', input, '-o', processedPath], { env: process.env, stdio: 'inherit' });
    if (convert.status !== 0) throw new Error('flameview convert failed');
  }
  const processedBytes = openOnly ? null : statSync(processedPath).size;
  const server = startFlameview(['serve', '--store', join(scratch, 'store'), '--port', '0', '--max-upload', String(4 * 1024 ** 3)], dist);
  const base = (await server.url).replace(/\/$/, '');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  const loadBefore = loadavg();
  const t: Record<string, number[]> = { rawLoop: [], procLoop: [], raw100: [], proc100: [], share: [], rawUpload: [], open: [], openLink: [], openParsed: [], openRaw: [], collapse: [], openBefore: [], openBeforeLink: [], openBeforeParsed: [] };
  const opener = (key: 'open' | 'openBefore', root: string) => async () => {
    const r = await openFileOnce(browser, dist, input, false, root);
    t[key === 'open' ? 'openLink' : 'openBeforeLink'].push(r.linkMs);
    // Parsed → drawn: what the page adds after the CLI's parse.
    t[key === 'open' ? 'openParsed' : 'openBeforeParsed'].push(r.ms - r.parsedMs!);
    return r.ms;
  };
  try {
    const raw = openOnly ? null : await uploadFile(base, input, name);
    if (raw) t.rawUpload.push(raw.ms);
    const proc = openOnly ? null : await uploadFile(base, processedPath, `${name}.flameview`);
    for (let r = 0; r < runs; r++) {
      // Alternate which of a pair (or trio) goes first.
      const pairs: [keyof typeof t, () => Promise<number>][][] = [];
      if (raw && proc) {
        pairs.push(
          [['rawLoop', () => openLink(browser, `${base}/p/${raw.id}`, name, false)], ['procLoop', () => openLink(browser, `${base}/p/${proc.id}`, `${name}.flameview`, false)]],
          [...(linksOnly && r > 0 ? [] : [['raw100', () => openLink(browser, `${base}/p/${raw.id}`, name, true)] as [keyof typeof t, () => Promise<number>]]), ['proc100', () => openLink(browser, `${base}/p/${proc.id}`, `${name}.flameview`, true)]],
        );
      }
      if (!linksOnly) pairs.push([['collapse', async () => collapseOnce(input)], ['open', opener('open', ROOT)], ...(before ? [['openBefore', opener('openBefore', before)] as [keyof typeof t, () => Promise<number>]] : [])]);
      if (!openOnly) pairs.push([...(linksOnly ? [] : [['openRaw', async () => (await openFileOnce(browser, dist, input, true)).ms] as [keyof typeof t, () => Promise<number>]]), ['share', () => shareOnce(browser, base, input)]]);
      for (const pair of pairs) {
        for (const [key, f] of r % 2 ? [...pair].reverse() : pair) {
          const ms = await f();
          t[key].push(ms);
          console.error(`run ${r + 1}: ${key} ${ms.toFixed(0)} ms`);
        }
      }
      if (r > 0 && !openOnly && !linksOnly) t.rawUpload.push((await uploadFile(base, input, name)).ms);
    }
  } finally {
    await browser.close();
    server.child.kill();
    await server.exited;
    rmSync(scratch, { recursive: true, force: true });
  }
  const m = Object.fromEntries(Object.entries(t).filter(([, v]) => v.length > 0).map(([k, v]) => [k, median(v)]));
  const result = {
    date: new Date().toISOString(),
    cpus: cpus().length,
    loadavg: { before: loadBefore, after: loadavg() },
    input: { name, bytes: statSync(input).size, processedBytes },
    runs,
    medians: m,
    all: t,
  };
  writeFileSync(join(ROOT, 'bench', 'results', openOnly ? 'browser-share-open.json' : linksOnly ? 'browser-share-links.json' : 'browser-share.json'), `${JSON.stringify(result, null, 2)}\n`);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`input ${name}: ${(result.input.bytes / 1e6).toFixed(0)} MB; medians of ${runs}, load ${loadBefore.map((x) => x.toFixed(1)).join(' ')}`);
  if (!openOnly) {
    console.log(`shared link, loopback:      raw ${s(m.rawLoop)}   processed ${s(m.procLoop)}   (${(m.rawLoop / m.procLoop).toFixed(1)}x)`);
    console.log(`shared link, 100 Mbit/s:    raw ${s(m.raw100)}   processed ${s(m.proc100)}   (${(m.raw100 / m.proc100).toFixed(1)}x)`);
    console.log(`Share (click → uploaded):   processed ${s(m.share)}   (raw upload from Node, as before: ${s(m.rawUpload)})`);
  }
  if (linksOnly) return;
  console.log(`flameview FILE → drawn:     ${s(m.open)} (link printed at ${s(m.openLink)}, parsed → drawn ${s(m.openParsed)})   flameview collapse ${s(m.collapse)}   (FILE − collapse: ${s(m.open - m.collapse)})`);
  if (!openOnly) console.log(`flameview --raw FILE → drawn: ${s(m.openRaw)}`);
  if (before) console.log(`before (${before}): flameview FILE → drawn ${s(m.openBefore)} (link printed at ${s(m.openBeforeLink)}, parsed → drawn ${s(m.openBeforeParsed)})   (FILE − collapse: ${s(m.openBefore - m.collapse)})`);
}
