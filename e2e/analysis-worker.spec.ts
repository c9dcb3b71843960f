// The function table and the callers/callees computed by the analysis worker (what a large tree
// gets): flameviewSetSyncNodes(0) sends even this small recording there; the results must be what
// the main thread computes.

import { expect, test, type Page } from '@playwright/test';
import { gotoAndWait, openFixture, waitForIdle } from './helpers';

const grid = (page: Page) => page.getByRole('grid', { name: 'Functions' });
const bodyRows = (page: Page) => grid(page).locator('.fn-body [role="row"]');

async function openToyc(page: Page, viaWorker: boolean) {
  await gotoAndWait(page, './');
  if (viaWorker) await page.evaluate(() => (window as unknown as { flameviewSetSyncNodes(n: number): void }).flameviewSetSyncNodes(0));
  await openFixture(page, 'rust-toyc.perf-script.txt');
  await expect(page.getByTestId('recording-name')).toHaveText('rust-toyc.perf-script.txt');
  await waitForIdle(page);
}

async function tableText(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Function table' }).click();
  await expect(grid(page)).toBeVisible();
  await waitForIdle(page);
  const out = [await page.getByTestId('fn-caption').innerText()];
  for (let i = 0; i < 8; i++) out.push((await bodyRows(page).nth(i).getByRole('gridcell').allInnerTexts()).join('|'));
  return out;
}

const workerTiming = (page: Page) =>
  page.evaluate(() => (window as unknown as { flameviewAnalysis: { table: unknown; callersCallees: unknown } }).flameviewAnalysis);

test('the worker computes the same table and sandwich as the main thread', async ({ browser }) => {
  const local = await browser.newPage();
  await openToyc(local, false);
  const want = await tableText(local);
  expect((await workerTiming(local)).table).toBeNull();
  await local.close();

  const page = await browser.newPage();
  await openToyc(page, true);
  expect(await tableText(page)).toEqual(want);
  expect((await workerTiming(page)).table).not.toBeNull();

  // The reversed view: the worker computes over its own derived tree.
  await page.keyboard.press('Escape');
  const fn = 'toyc::interpret';
  await bodyRows(page).filter({ hasText: fn }).first().click();
  await page.getByRole('button', { name: 'Callers & callees' }).click();
  await waitForIdle(page);
  await expect(page.getByRole('application', { name: 'Callers flame graph' })).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('callers-callees-caption')).toContainText(`${fn}: 13.0% of the profile`);
  expect((await workerTiming(page)).callersCallees).not.toBeNull();
  const rect = await page.evaluate((n) => (window as unknown as { flameviewFrames: { rect(a: string, b: string): { width: number } | null } }).flameviewFrames.rect('Callees flame graph', n), fn);
  expect(rect?.width ?? 0).toBeGreaterThan(200);
  await page.close();
});
