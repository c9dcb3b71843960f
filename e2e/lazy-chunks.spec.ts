// The first picture loads only the script it needs: the lazy chunks (components/lazy.ts: the
// analysis panels, the comparison, the time-order chart) are not requested until the user opens
// one. The lazy files are read from this run's build: every script in assets/ that is neither a
// worker nor reached by static imports from what index.html loads or from the app's chunk.

import { expect, test, type Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chart, e2eDist, fixturePath } from './helpers';

const NAME = 'rust-toyc.perf-script.txt';

function lazyChunks(): string[] {
  const dist = e2eDist();
  const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const eager = new Set<string>();
  // What index.html loads, and the app src/boot.ts loads after the first picture (main-*.js).
  const pending = [...index.matchAll(/(?:src|href)="\.\/assets\/([\w.-]+\.js)"/g)].map((m) => m[1]!);
  pending.push(...readdirSync(path.join(dist, 'assets')).filter((f) => /^main-[\w-]+\.js$/.test(f)));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (eager.has(file)) continue;
    eager.add(file);
    const text = readFileSync(path.join(dist, 'assets', file), 'utf8');
    for (const m of text.matchAll(/\b(?:from|import)\s*["'`]\.\/([\w.-]+\.js)["'`]/g)) pending.push(m[1]!);
  }
  return readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js') && !f.includes('.worker-') && !eager.has(f));
}

// Vite names a chunk `[name]-[hash].js` and its hash may itself hold '-' or '_', so the name is
// read by prefix rather than by cutting at the last '-'.
const LAZY_NAMES = /^(panel-components|CompareView|TimeOrderChart)-/;
const chunkName = (file: string): string => LAZY_NAMES.exec(file)?.[1] ?? file;

const requestedScripts = (page: Page): string[] => {
  const seen: string[] = [];
  page.on('request', (r) => {
    const file = new URL(r.url()).pathname.split('/').pop() ?? '';
    if (file.endsWith('.js')) seen.push(file);
  });
  return seen;
};

test('the first paint of a linked recording requests none of the lazy chunks; opening a panel or the time order loads its own', async ({ page }) => {
  const lazy = lazyChunks();
  // The panels, the comparison and the time order are each a chunk.
  expect(lazy.filter((f) => LAZY_NAMES.test(f))).toHaveLength(3);
  const seen = requestedScripts(page);
  const body = readFileSync(fixturePath(NAME));
  await page.route('**/e2e-fixtures/**', (route) => route.fulfill({ status: 200, body, headers: { 'content-type': 'text/plain' } }));
  await page.goto(`./#profile=e2e-fixtures/${NAME}`);
  await expect(page.getByTestId('recording-name')).toHaveText(NAME);
  await expect(page.getByRole('application', { name: 'Flame graph' })).toHaveAttribute('aria-busy', 'false');
  // Whatever the first render started has been requested within the next frames.
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => done())))));
  expect(seen.filter((f) => lazy.includes(f))).toEqual([]);
  expect(seen.some((f) => f.startsWith('index-'))).toBe(true);

  await page.getByRole('button', { name: 'Function table' }).click();
  await expect(page.getByTestId('fn-caption')).toHaveText(/^[\d,]+ functions$/);
  expect(seen.filter((f) => lazy.includes(f)).map(chunkName)).toEqual(['panel-components']);

  await page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Time order' }).click();
  await expect(chart(page)).toBeVisible();
  await expect.poll(() => seen.filter((f) => lazy.includes(f)).map(chunkName)).toEqual(['panel-components', 'TimeOrderChart']);
});
