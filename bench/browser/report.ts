// The HTML report against a link: the same generated perf script recording (160 MB by default),
// drawn from `file://report.html` (what `flameview html` writes: the processed recording in the
// page) and from `#profile=<url>` (the text served by a local server), alternating, medians of
// navigation → drawn. Issue 30's bar: the report no slower than the link.
//
//   npx tsx bench/browser/report.ts [--size 160] [--runs 3]     (after `npx vite build`: dist/app)

import { spawnSync } from 'node:child_process';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { DATA_DIR, ensureInput } from '../generate';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const size = arg('--size', 160);
const runs = arg('--runs', 3);
const ROOT = join(import.meta.dirname, '..', '..');
const DIST = join(ROOT, 'dist', 'app');

const input = await ensureInput('perf', size, 1, (m) => console.error(m));
const report = join(DATA_DIR, `report-perf-${size}.html`);
const t = performance.now();
const made = spawnSync(process.execPath, [join(ROOT, 'bin', 'flameview.mjs'), 'html', input, '-o', report], { stdio: 'inherit', env: { ...process.env, FLAMEVIEW_DIST: DIST } });
if (made.status !== 0) process.exit(1);
console.log(`flameview html: ${((performance.now() - t) / 1000).toFixed(1)} s; input ${(statSync(input).size / 1e6).toFixed(0)} MB → report ${(statSync(report).size / 1e6).toFixed(1)} MB`);

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  const file = path === '/input.txt' ? input : join(DIST, path === '/' ? 'index.html' : path);
  try {
    const st = statSync(file);
    res.writeHead(200, { 'content-length': st.size, 'content-type': types[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
readFileSync(report, { encoding: null }); // warm the page cache as the served text is warmed by its first read

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
async function drawn(url: string): Promise<number> {
  const page: Page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const s = (window as unknown as { flameview?: { store: { getState(): { recordings: { a: { snapshot: unknown; loading: unknown } } } } } }).flameview?.store.getState();
      return !!s?.recordings.a.snapshot && s.recordings.a.loading === null && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false';
    },
    undefined,
    { timeout: 300_000, polling: 20 },
  );
  const ms = await page.evaluate(() => performance.now());
  await page.close();
  return ms;
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const link: number[] = [];
const file: number[] = [];
for (let i = 0; i < runs; i++) {
  link.push(await drawn(`${origin}/#profile=${origin}/input.txt`));
  file.push(await drawn(pathToFileURL(report).href));
  console.log(`run ${i + 1}: link ${link[i]!.toFixed(0)} ms, report ${file[i]!.toFixed(0)} ms`);
}
console.log(`median navigation → drawn: link ${median(link).toFixed(0)} ms, report ${median(file).toFixed(0)} ms (ratio ${(median(file) / median(link)).toFixed(2)})`);
await browser.close();
server.close();
