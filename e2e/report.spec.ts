// The HTML report (`flameview html`, Export → HTML report): one file opened from file:// with every
// request that is not file: aborted, so a report that reached for a server or the network would
// fail here. It draws, toggles the view, searches, opens a panel (a lazy chunk), zooms, restores a
// #zoom= link, compares two recordings (another lazy chunk), and a report exported from the served
// page opens the same way.

import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { e2eDist, fixturePath, gotoAndWait, hashParam, menuButton, openFixture, REPO_ROOT, waitForIdle } from './helpers';

const tmp = mkdtempSync(path.join(tmpdir(), 'flameview-report-'));

/** `flameview html ARGS -o OUT` with this run's build; the report's path. */
function makeReport(out: string, ...files: string[]): string {
  const file = path.join(tmp, out);
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'flameview.mjs'), 'html', ...files.map(fixturePath), '-o', file], {
    cwd: REPO_ROOT,
    env: { ...process.env, FLAMEVIEW_DIST: e2eDist() },
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return file;
}

/** Every request that is not for a file: URL is aborted and remembered. */
async function offline(context: BrowserContext): Promise<string[]> {
  const refused: string[] = [];
  await context.route('**', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    refused.push(url);
    return route.abort();
  });
  return refused;
}

const crumbs = (page: Page) => page.locator('nav[aria-label="Zoom path"] li');
const summary = (page: Page) => page.getByRole('status').filter({ hasText: /^(Matched|Searching)/ });

test.describe('HTML report', () => {
  test('opens from file:// offline: draws, toggles, searches, zooms, and restores a #zoom= link', async ({ browser }) => {
    const report = makeReport('toyc.html', 'rust-toyc.perf-script.txt');
    // The processed recording is far smaller than the text: the report is the app plus that.
    expect(statSync(report).size).toBeLessThan(1.5e6);
    const context = await browser.newContext();
    const refused = await offline(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const url = pathToFileURL(report).href;
    await page.goto(url);
    await waitForIdle(page);
    await expect(page.getByTestId('recording-name')).toHaveText('rust-toyc.perf-script.txt');

    await page.getByRole('button', { name: 'Inline frames' }).click();
    await expect(page.getByRole('button', { name: 'Inline frames' })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => hashParam(page, 'view')).toBe('inline');
    await waitForIdle(page);

    // The search runs in its worker, which the report started from its own text.
    await page.getByRole('searchbox', { name: 'Search' }).fill('optimize');
    await expect(summary(page)).toHaveText(/^Matched: \d+\.\d%$/);

    // The function table is a lazy chunk: the report's loader makes it from the file's own text.
    await page.getByRole('button', { name: 'Function table' }).click();
    await expect(page.getByTestId('fn-caption')).toHaveText(/^\d+ of [\d,]+ functions match the search$/);
    await page.getByRole('button', { name: 'Function table' }).click();
    await expect(page.getByTestId('fn-caption')).toHaveCount(0);

    // Zoom with the keyboard: two levels up the heaviest path, then Enter.
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.locator('[aria-label="Flame graph"]').focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => hashParam(page, 'zoom')).not.toBeNull();
    const zoom = (await hashParam(page, 'zoom'))!;
    const path = await crumbs(page).allTextContents();
    expect(path.length).toBeGreaterThan(2);

    // The link, opened in a fresh page, lands on the same frame of the same view.
    const again = await context.newPage();
    await again.goto(`${url}#v=1&view=inline&zoom=${zoom}`);
    await waitForIdle(again);
    await expect(crumbs(again)).toHaveText(path);
    await expect(again.getByRole('button', { name: 'Inline frames' })).toHaveAttribute('aria-pressed', 'true');
    await expect(again.locator('.link-notice')).toHaveCount(0);

    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a report of two recordings compares them', async ({ browser }) => {
    const report = makeReport('ab.html', 'rust-toyc.run-a.perf-script.txt', 'rust-toyc.run-b.perf-script.txt');
    const context = await browser.newContext();
    const refused = await offline(context);
    const page = await context.newPage();
    await page.goto(pathToFileURL(report).href);
    await expect(page.locator('[aria-label="Comparison flame graph"][aria-busy="false"]')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('B · comparison')).toBeVisible();
    // The compare worker answered: the change table lists functions.
    await expect(page.getByText(/Functions whose self weight changed most \([1-9][\d,]* functions/)).toBeVisible();
    await page.getByRole('button', { name: 'Differential' }).click();
    await expect(page.locator('[aria-label="Differential flame graph"][aria-busy="false"]')).toBeVisible({ timeout: 30_000 });
    expect(refused).toEqual([]);
    await context.close();
  });

  test('Export → HTML report of the served page opens from file:// offline', async ({ page, browser }) => {
    await gotoAndWait(page);
    await openFixture(page, 'rust-toyc.run-a.perf-script.txt');
    await expect(page.getByTestId('recording-name')).toHaveText('rust-toyc.run-a.perf-script.txt');
    await waitForIdle(page);
    await (await menuButton(page, 'More actions', 'Export')).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'HTML report (.html)' }).click();
    const d = await download;
    expect(d.suggestedFilename()).toBe('rust-toyc.run-a.perf-script.html');
    const file = path.join(tmp, d.suggestedFilename());
    await d.saveAs(file);

    const context = await browser.newContext();
    const refused = await offline(context);
    const report = await context.newPage();
    await report.goto(pathToFileURL(file).href);
    await waitForIdle(report);
    await expect(report.getByTestId('recording-name')).toHaveText('rust-toyc.run-a.perf-script.txt');
    await report.getByRole('searchbox', { name: 'Search' }).fill('optimize');
    await expect(summary(report)).toHaveText(/^Matched: \d+\.\d%$/);

    // A report exported from the report: the app comes from the page itself, offline.
    await (await menuButton(report, 'More actions', 'Export')).click();
    const again = report.waitForEvent('download');
    await report.getByRole('menuitem', { name: 'HTML report (.html)' }).click();
    const second = path.join(tmp, `again-${(await again).suggestedFilename()}`);
    await (await again).saveAs(second);
    const copy = await context.newPage();
    await copy.goto(pathToFileURL(second).href);
    await waitForIdle(copy);
    await expect(copy.getByTestId('recording-name')).toHaveText('rust-toyc.run-a.perf-script.txt');
    expect(refused).toEqual([]);
    await context.close();
  });
});
