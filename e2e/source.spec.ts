// The Source panel (issue 25): a function's lines and the annotated listing of its file, with the
// text served by `bin/flameview FILE --source-root DIR`, read from a folder the user chose, or not
// at all (figures only); the server refuses what is outside its roots (a path elsewhere, `..`, a
// symlink out of a root, a wrong secret) and the page says why; hostile text stays text.

import { expect, test, type Page } from '@playwright/test';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fixturePath, startCli, waitForIdle, type RunningCli } from './helpers';

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
// perf script -F +srcline form: a frame line, then its FILE:LINE line; each symbol at its own
// address (frames at one address are taken for one function's two names).
const ADDRESSES = new Map<string, number>();
const frame = (sym: string, at: string) => {
  if (!ADDRESSES.has(sym)) ADDRESSES.set(sym, 0x1000 * (ADDRESSES.size + 1));
  return `\t            ${ADDRESSES.get(sym)!.toString(16)} ${sym}+0x1 (/bin/app)\n  ${at}\n`;
};
const sample = (t: number, frames: string) => `app 100 ${t.toFixed(6)}: 1000 cpu-clock: \n${frames}\n`;

let dir = '';
let served: RunningCli | null = null;
let hostile: RunningCli | null = null;

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'flameview-source-'));
  const root = path.join(dir, 'root');
  mkdirSync(root);
  writeFileSync(path.join(root, 'app.c'), ['int main(void) {', '  /* a comment */', `  hot(); // ${HOSTILE}`, '}', ''].join('\n'));
  writeFileSync(path.join(dir, 'outside.c'), 'int secret = 42;\n');
  symlinkSync(path.join(dir, 'outside.c'), path.join(root, 'link.c'));
  const outsideAbs = path.join(dir, 'outside.c');
  const text = [
    ...[1, 2, 3, 4].map((i) => sample(i, frame('hot', 'app.c:3') + frame('main', 'app.c:3'))),
    sample(5, frame('dotdot', '../outside.c:1') + frame('main', 'app.c:3')),
    sample(6, frame('elsewhere', `${outsideAbs}:1`) + frame('main', 'app.c:3')),
    sample(7, frame('linky', 'link.c:1') + frame('main', 'app.c:3')),
  ].join('');
  writeFileSync(path.join(dir, 'hostile.perf-script.txt'), text);
  // Both servers run beside each other: the real recording with its sources, and the crafted one.
  [served, hostile] = await Promise.all([
    startCli(['--no-open', '--source-root', fixturePath('cpp'), '--source-url', 'https://example.com/repo/blob/v1/{path}#L{line}', fixturePath('srcline/hashack.srcline.perf-script.txt.gz')]),
    startCli(['--no-open', '--source-root', root, path.join(dir, 'hostile.perf-script.txt')]),
  ]);
});

test.afterAll(() => {
  served?.stop();
  hostile?.stop();
  rmSync(dir, { recursive: true, force: true });
});

// The real recording through a link, as a shared link opens it (no server with its sources).
async function openHashack(page: Page, extra: string) {
  const body = readFileSync(fixturePath('srcline/hashack.srcline.perf-script.txt.gz'));
  await page.route('**/e2e-fixtures/**', (route) => route.fulfill({ status: 200, body, headers: { 'content-type': 'application/gzip' } }));
  await page.goto(`./#v=1&profile=e2e-fixtures/hashack.srcline.perf-script.txt.gz${extra}`);
  await waitForIdle(page);
  await expect(page.getByTestId('recording-name')).toHaveText('hashack.srcline.perf-script.txt.gz');
  await waitForIdle(page);
}

const panel = (page: Page) => page.getByRole('complementary', { name: 'Source panel' });
const listing = (page: Page) => panel(page).getByRole('table', { name: /^Source of / });

async function openAt(page: Page, url: string, extra: string) {
  await page.goto(`${url}${extra}`);
  await waitForIdle(page);
  await expect(panel(page)).toBeVisible();
}

test('served source: the hottest line of an inlined function is scrolled into view, with its call site and a link per line', async ({ page }) => {
  await openAt(page, served!.url, '&view=inline&panel=source&fn=table_work');
  const p = panel(page);
  await expect(p.getByText(/^Inlined at hashack\.c:98/)).toBeVisible();
  // perf's own figures for table_work (flameview lines --view inline): hashack.c:84 holds 43.57 %.
  const figures = p.getByRole('table', { name: 'Lines of the function' });
  await expect(figures.getByRole('row').nth(1)).toContainText('hashack.c:84');
  await expect(figures.getByRole('row').nth(1)).toContainText('43.6%');
  const hot = listing(page).locator('tr[aria-current="true"]');
  await expect(hot).toContainText('put(&t, key, i);');
  await expect(hot).toBeInViewport();
  await expect(hot.getByRole('link', { name: '84' })).toHaveAttribute('href', 'https://example.com/repo/blob/v1/hashack.c#L84');
  await expect(p.getByRole('status')).toContainText('from flameview');
  // docs/screenshots/source-panel-{light,dark}.png: looked at when the panel changes.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (process.env.FLAMEVIEW_SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/source-panel-${scheme}.png` });
  }
  await page.getByLabel('Order of the lines').selectOption('file');
  await expect(figures.getByRole('row').nth(1)).toContainText('hashack.c:79');
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('panel=source');
});

test('a chosen folder maps recorded paths by their longest common suffix; nothing is uploaded', async ({ page }) => {
  const folder = path.join(dir, 'checkout');
  mkdirSync(path.join(folder, 'src'), { recursive: true });
  mkdirSync(path.join(folder, 'other'), { recursive: true });
  copyFileSync(fixturePath('cpp/hashack.c'), path.join(folder, 'src', 'hashack.c'));
  writeFileSync(path.join(folder, 'other', 'unrelated.c'), 'int x;\n');
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET') posts.push(r.url());
  });
  await openHashack(page, '&view=inline&panel=source&fn=table_work');
  const p = panel(page);
  // No source yet: the figures, and the listing of the recorded lines without their text.
  await expect(listing(page).locator('tr[aria-current="true"]')).toContainText('(text not at hand)');
  await expect(p.getByRole('status')).toContainText('No source text');
  await p.getByLabel('Open source folder').setInputFiles(folder);
  await expect(p.getByRole('status')).toContainText('from the chosen folder');
  await expect(listing(page).locator('tr[aria-current="true"]')).toContainText('put(&t, key, i);');
  expect(posts).toEqual([]);
});

test('without any source: figures only', async ({ page }) => {
  await openHashack(page, '&panel=source&fn=main');
  const p = panel(page);
  await expect(p.getByRole('table', { name: 'Lines of the function' }).getByRole('row').nth(1)).toContainText('hashack.c:98');
  await expect(listing(page).getByRole('row')).toHaveCount(3);
  await expect(p.getByRole('status')).toContainText('No source text');
});

test('hostile text renders as text; paths outside the roots, .., symlinks out and a wrong secret are refused and the page says why', async ({ page }) => {
  await openAt(page, hostile!.url, '&panel=source&fn=hot');
  const hot = listing(page).locator('tr[aria-current="true"]');
  await expect(hot).toContainText(HOSTILE);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('.al-text img, .al-text script')).toHaveCount(0);

  for (const fn of ['dotdot', 'elsewhere', 'linky']) {
    await openAt(page, hostile!.url, `&panel=source&fn=${fn}`);
    await expect(panel(page).getByRole('status')).toContainText(/The server refused the source file: .*\(HTTP 403\)/);
    await expect(listing(page)).not.toContainText('secret = 42');
  }
  // The route itself, asked directly: 403 for each, with its reason.
  const base = new URL(hostile!.url);
  const secret = /source=\/api\/source\/([^&]+)/.exec(hostile!.url)![1];
  for (const bad of ['../outside.c', path.join(dir, 'outside.c'), 'link.c']) {
    const r = await page.request.get(`${base.origin}/api/source/${secret}?path=${encodeURIComponent(bad)}`);
    expect(r.status(), bad).toBe(403);
    expect(((await r.json()) as { error: string }).error.length).toBeGreaterThan(0);
  }
  expect((await page.request.get(`${base.origin}/api/source/${secret}?path=app.c`)).status()).toBe(200);

  const wrong = hostile!.url.replace(/source=\/api\/source\/[^&]+/, 'source=/api/source/0123456789abcdef0123456789abcdef');
  await openAt(page, wrong, '&panel=source&fn=hot');
  await expect(panel(page).getByRole('status')).toContainText(/The server refused the source file: .*\(HTTP 403\)/);
  expect((await page.request.get(`${base.origin}/api/source?path=app.c`)).status()).toBeGreaterThanOrEqual(400);
});
