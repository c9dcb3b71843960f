// The call tree panel on a ~1,000,000-node tree in the built app (Debian Chromium): the main
// thread's cost of opening the panel (the heaviest-first order, the first rows; beside the
// function table's opening, which also narrows the graph) and of `*`
// (expand all below the root: every node a row), with the DOM still holding only the rows in view.
//
//   npx tsx bench/browser/call-tree.ts [--nodes 1000000] [--runs 5] [--port 4365] [--no-build]
//
// Each `*` is a real key press on the focused treegrid; "handler ms" is the time from before the
// key event is dispatched to its return (React renders a discrete event's update before that),
// "to frame ms" until the next animation frame after it; Left on the root collapses it again
// between runs (the rows are flattened again each time). Long tasks come from the page's
// PerformanceObserver ('longtask'). Medians of `runs`. Input: bench/wide-tree.ts (cached).

import { spawnSync } from 'node:child_process';
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { preview } from 'vite';
import { ensureWideInput } from '../wide-tree';
import { median } from '../synthetic-tree';
import { INIT_SCRIPT, type PageProbe } from './probe';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const NODES = Number(arg('--nodes') ?? 1_000_000);
const RUNS = Number(arg('--runs') ?? 5);
const PORT = Number(arg('--port') ?? 4365);
const OUT_DIR = `node_modules/.cache/flameview-bench-${PORT}`;

async function press(page: Page, key: string): Promise<{ handler: number; frame: number }> {
  return page.evaluate(async (k) => {
    const grid = document.querySelector('[role="treegrid"]') as HTMLElement;
    const t0 = performance.now();
    grid.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
    const handler = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    return { handler, frame: performance.now() - t0 };
  }, key);
}

const longTasks = (page: Page) => page.evaluate(() => (window as unknown as { __probe: PageProbe }).__probe.longTasks.map((t) => t.duration));
const resetProbe = (page: Page) => page.evaluate(() => (window as unknown as { __probe: PageProbe }).__probe.reset());
const caption = (page: Page) => page.getByTestId('ct-caption').innerText();

async function main() {
  if (!process.argv.includes('--no-build')) {
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', OUT_DIR, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const file = await ensureWideInput(NODES, 1, (m) => console.error(m));
  const server = createServer((_req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(statSync(file).size) });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(PORT + 1, '127.0.0.1', () => r()));
  const app = await preview({ root: ROOT, logLevel: 'warn', build: { outDir: OUT_DIR }, preview: { port: PORT, strictPort: true, open: false } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], headless: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(INIT_SCRIPT);
    const page = await context.newPage();
    await page.goto(`http://localhost:${PORT}/#profile=${encodeURIComponent(`http://127.0.0.1:${PORT + 1}/${basename(file)}`)}`);
    await page.waitForFunction(() => document.title.includes('·') && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false', null, { timeout: 300_000, polling: 100 });
    // For comparison, the function table's opening (its table from the worker; the graph
    // re-lays out at its narrower width in both), then closed again.
    await resetProbe(page);
    const f0 = Date.now();
    await page.getByRole('button', { name: 'Function table' }).click();
    await page.getByRole('grid', { name: 'Functions' }).locator('.fn-body [role="row"]').first().waitFor({ timeout: 120_000 });
    const table = { ms: Date.now() - f0, longTasks: await longTasks(page) };
    await page.getByRole('button', { name: 'Function table' }).click();
    await page.waitForFunction(() => document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false');
    await resetProbe(page);
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Call tree' }).click();
    await page.getByRole('treegrid', { name: 'Call tree' }).locator('[role="row"][aria-level="2"]').first().waitFor();
    const open = { ms: Date.now() - t0, longTasks: await longTasks(page) };
    const nodes = (await caption(page)).replace(/^.* of ([\d,]+) nodes.*$/, '$1');
    await page.getByRole('treegrid', { name: 'Call tree' }).focus();
    await page.keyboard.press('Home');
    const expand = { handler: [] as number[], frame: [] as number[], longest: [] as number[] };
    let rowsInDom = 0;
    for (let i = 0; i < RUNS; i++) {
      await press(page, 'ArrowLeft'); // collapse the root
      await resetProbe(page);
      const t = await press(page, '*');
      const c = await caption(page);
      if (!c.startsWith(`${nodes} of ${nodes}`)) throw new Error(`expand-all did not show every node: ${c}`);
      rowsInDom = await page.locator('.fn-body [role="row"]').count();
      expand.handler.push(t.handler);
      expand.frame.push(t.frame);
      expand.longest.push(Math.max(0, ...(await longTasks(page))));
    }
    console.log(`tree: ${nodes} nodes; load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    const tasks = (xs: number[]) => xs.map((d) => d.toFixed(0)).join(', ') || 'none';
    console.log(`open the function table (click → first rows): ${table.ms} ms; long tasks ${tasks(table.longTasks)}`);
    console.log(`open the call tree (click → first rows): ${open.ms} ms; long tasks ${tasks(open.longTasks)}`);
    console.log(`expand all below the root (*): handler median ${median(expand.handler).toFixed(1)} ms (min ${Math.min(...expand.handler).toFixed(1)}), to next frame ${median(expand.frame).toFixed(1)} ms, longest task ${median(expand.longest).toFixed(0)} ms; ${rowsInDom} rows in the DOM`);
  } finally {
    await browser.close();
    await new Promise((r) => app.httpServer.close(r));
    server.close();
  }
}

await main();
