// Time order (issue #7, item 5): the stack chart of a perf script recording's samples in time
// order, a time range dragged on it (shown, in the link as range=, cleared by Escape), the flame
// graph restricted to the range's samples, a link that reopens both, and a recording without
// timestamps (the button is disabled). Expected figures come from the fixture's own headers.

import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { chart, chartIdle, dragRange, fixturePath, hashParam, openLinkedFixture, waitForIdle } from './helpers';
import { formatNs } from './viewer-oracle';

const PERF = readFileSync(fixturePath('rust-toyc.perf-script.txt'));

/** (time, period) of every sample header of the fixture. */
const HEADERS = PERF.toString('utf8')
  .split('\n')
  .map((line) => /\s(\d+\.\d+):\s+(\d+)\s+cpu-clock/.exec(line))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ time: Number(m[1]), period: Number(m[2]) }));
const T0 = HEADERS[0].time;
const ALL_WEIGHT = HEADERS.reduce((a, h) => a + h.period, 0);

function inRange(from: number, to: number) {
  const hit = HEADERS.filter((h) => h.time >= from && h.time < to);
  return { count: hit.length, weight: hit.reduce((a, h) => a + h.period, 0) };
}

const button = (page: Page) => page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Time order' });
const rangeStatus = (page: Page) => page.getByTestId('time-range');
const total = (page: Page) => page.locator('.status-bar').getByText(/^Total weight:/);

const openToyc = (page: Page, extra = '') => openLinkedFixture(page, 'rust-toyc.perf-script.txt', extra);

test('a time range dragged on the chart restricts the flame graph, shows in the link, and Escape clears it', async ({ page }, info) => {
  await openToyc(page);
  await expect(total(page)).toHaveText(`Total weight: ${formatNs(ALL_WEIGHT)}`);
  await expect(button(page)).toHaveAttribute('aria-pressed', 'false');
  await button(page).click();
  await expect(button(page)).toHaveAttribute('aria-pressed', 'true');
  await chartIdle(page);
  expect(Number(await chart(page).getAttribute('data-rects'))).toBeGreaterThan(50);
  await expect.poll(() => hashParam(page, 'time')).toBe('1');
  await page.screenshot({ path: info.outputPath('time-order-open.png') });
  // One lane per thread, heaviest first; the rows scroll under the sticky time axis.
  const rows = await chart(page).evaluate((el) => el.scrollHeight - el.clientHeight);
  expect(rows).toBeGreaterThan(0);
  await chart(page).evaluate((el) => (el.scrollTop = el.scrollHeight));
  await chartIdle(page);
  await chart(page).screenshot({ path: info.outputPath('time-order-scrolled.png') });
  await chart(page).evaluate((el) => (el.scrollTop = 0));
  await chartIdle(page);

  // Hovering a box names its frame and says how long it lasts.
  const box = (await chart(page).boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + 20 + 8);
  await expect(page.locator('.time-tooltip')).toContainText(/toyc/);
  await expect(page.locator('.time-tooltip')).toContainText(/\d+ (ms|µs|s) from \d/);

  await dragRange(page, 0.3, 0.6);
  await chartIdle(page);
  await expect.poll(() => hashParam(page, 'range')).toMatch(/^\d+(\.\d+)?-\d+(\.\d+)?$/);
  const range = await hashParam(page, 'range');
  const [from, to] = range!.split('-').map(Number);
  expect(from - T0).toBeGreaterThan(0.2);
  expect(to).toBeGreaterThan(from);
  const want = inRange(from, to);
  expect(want.count).toBeGreaterThan(10);
  expect(want.count).toBeLessThan(HEADERS.length);
  await expect(rangeStatus(page)).toContainText(`${(from - T0).toFixed(3)} s – ${(to - T0).toFixed(3)} s`);
  await expect(rangeStatus(page)).toContainText(`, ${want.count} samples)`);
  // The flame graph (and so the status bar's total) shows only the range's samples.
  await waitForIdle(page);
  await expect(total(page)).toHaveText(`Total weight: ${formatNs(want.weight)}`);
  await expect(page.locator('.status-bar')).toContainText(`Samples: ${want.count} in the time range (of ${HEADERS.length})`);
  await page.screenshot({ path: info.outputPath('time-order-range.png') });

  // Escape clears the range: the whole recording again, and the link forgets it.
  await chart(page).focus();
  await page.keyboard.press('Escape');
  await expect(rangeStatus(page)).not.toContainText('Time range');
  await expect.poll(() => hashParam(page, 'range')).toBeNull();
  await waitForIdle(page);
  await expect(total(page)).toHaveText(`Total weight: ${formatNs(ALL_WEIGHT)}`);

  // Back brings the range back (a range is a history entry, like a zoom).
  await page.goBack();
  await expect.poll(() => hashParam(page, 'range')).toBe(range);
  await expect(rangeStatus(page)).toContainText(`, ${want.count} samples)`);
});

test('a link with range= and time=1 reopens the chart on the range; Clear range clears it', async ({ page }) => {
  const from = T0 + 0.25;
  const to = T0 + 0.5;
  const want = inRange(from, to);
  await openToyc(page, `&time=1&range=${from.toFixed(6)}-${to.toFixed(6)}`);
  await chartIdle(page);
  await expect(button(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(rangeStatus(page)).toContainText(`0.250 s – 0.500 s (250 ms, ${want.count} samples)`);
  await waitForIdle(page);
  await expect(total(page)).toHaveText(`Total weight: ${formatNs(want.weight)}`);

  // Closing the chart keeps the range, and says so in a bar that can clear it.
  await button(page).click();
  await expect(chart(page)).toHaveCount(0);
  await expect(rangeStatus(page)).toContainText(`${want.count} samples`);
  await page.getByRole('button', { name: 'Clear range' }).click();
  await expect(rangeStatus(page)).toHaveCount(0);
  await expect.poll(() => hashParam(page, 'range')).toBeNull();
  await waitForIdle(page);
  await expect(total(page)).toHaveText(`Total weight: ${formatNs(ALL_WEIGHT)}`);
});

test('a recording without timestamps has no time order', async ({ page }) => {
  const folded = readFileSync(fixturePath('rust-toyc.folded'));
  await page.route('**/e2e-fixtures/**', (route) => route.fulfill({ status: 200, body: folded, headers: { 'content-type': 'text/plain' } }));
  await page.goto('./#v=1&profile=e2e-fixtures/toyc.folded&range=1-2&time=1');
  await waitForIdle(page);
  await expect(button(page)).toBeDisabled();
  await expect(button(page)).toHaveAttribute('title', /timestamps/);
  await expect(chart(page)).toHaveCount(0);
  await expect(page.getByText(/has no timestamps/)).toBeVisible();
});
