// Off-CPU spans in the time-order view (issue 27, item 3), in Chromium: Wall clock of spans.c
// (fixtures/offcpu/record-spans.sh) draws each wait as a box from its switch-out to its switch-in
// in its thread's lane, and a time range dragged on the chart selects both the CPU samples and
// the waits, clipped: the graph's total is the sum the fixture's own lines give for that range
// (src/core/testing/offcpu-oracle.ts), screenshots in both themes.

import { expect, test, type Page } from '@playwright/test';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { chart, chartIdle, dragRange, fixturePath, hashParam, waitForIdle } from './helpers';
import { clippedNs, cpuPeriodIn, offCpuWaits, sampleHeaders } from '../src/core/testing/offcpu-oracle';
import { formatDuration } from '../src/format';
import { loadProfileFromText } from '../src/core/import/load';
import { makeSnapshot } from '../src/core/views/snapshot';
import { stackChartModel } from '../src/render/stack-chart-model';
import { AXIS_HEIGHT, ROW_HEIGHT } from '../src/render/stack-chart-renderer';
import { formatNs } from './viewer-oracle';

const FILE = 'offcpu/spans-a.perf-script.txt.gz';
const body = readFileSync(fixturePath(FILE));
const text = gunzipSync(body).toString('utf8');
const headers = sampleHeaders(text);
const spansWaits = offCpuWaits(headers, 'spans');
const allWaits = offCpuWaits(headers, null);

/** The worker's longest nap: the thread with the most waits of 20-40 ms (12 naps of 25 ms). */
function workerNap() {
  const naps = spansWaits.filter((w) => w.end - w.start > 0.02 && w.end - w.start < 0.04);
  const count = new Map<number, number>();
  for (const w of naps) count.set(w.tid, (count.get(w.tid) ?? 0) + 1);
  const worker = [...count].sort((a, b) => b[1] - a[1])[0][0];
  return naps.filter((w) => w.tid === worker).reduce((a, w) => (w.end - w.start > a.end - a.start ? w : a));
}

/** The store's graph total: the derived tree while a range applies, else the base tree's. */
function graphTotal(page: Page): Promise<number> {
  return page.evaluate(() => {
    type Tree = { totalWeight: Float64Array };
    const s = (window as unknown as { flameview: { store: { getState(): { derived: { tree: Tree } | null; recordings: { a: { snapshot: { inline: Tree } | null } } } } } }).flameview.store.getState();
    return (s.derived?.tree ?? s.recordings.a.snapshot!.inline).totalWeight[0];
  });
}

test('Wall clock in time order: waits are spans beside the samples, and a range selects both, clipped', async ({ page }) => {
  await page.route('**/e2e-fixtures/**', (route) => route.fulfill({ status: 200, body, headers: { 'content-type': 'application/gzip' } }));
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('./#v=1&profile=e2e-fixtures/spans-a.perf-script.txt.gz&event=Wall%20clock&time=1');
  await waitForIdle(page);
  await chartIdle(page);
  await expect.poll(() => hashParam(page, 'event')).toBe(encodeURIComponent('Wall clock'));

  // One nap of the worker: where the chart draws its [off-CPU: sleeping] box (the row from the
  // model the page builds of the same file); the tooltip gives the wait's own duration.
  const nap = workerNap();
  const snapshot = makeSnapshot(await loadProfileFromText(text, { event: 'Wall clock' }));
  const model = stackChartModel(snapshot, 'inline')!;
  const { strings, name } = snapshot.frames;
  let row = -1;
  for (let b = 0; b < model.chart.count && row < 0; b++) {
    const f = model.tree.frame[model.chart.node[b]];
    if (strings[name[f]] === '[off-CPU: sleeping]' && Math.abs(model.chart.start[b] - nap.start) < 1e-7) row = model.chart.depth[b];
  }
  expect(row).toBeGreaterThan(0);
  const container = page.locator('.time-chart');
  await container.evaluate((el, top) => (el.scrollTop = top), Math.max(0, (row - 8) * ROW_HEIGHT));
  await chartIdle(page);
  const scrollTop = await container.evaluate((el) => el.scrollTop);
  const [from, to] = (await container.getAttribute('data-window'))!.split('-').map(Number);
  const box = (await chart(page).boundingBox())!;
  const x = box.x + (((nap.start + nap.end) / 2 - from) / (to - from)) * box.width;
  const y = box.y + AXIS_HEIGHT + (row - 1) * ROW_HEIGHT - scrollTop + ROW_HEIGHT / 2;
  await page.mouse.move(x, y);
  const tip = page.locator('.time-tooltip');
  await expect(tip).toContainText('[off-CPU: sleeping]');
  await expect(tip).toContainText(`${formatDuration(nap.end - nap.start)} from`);
  await expect(tip).toContainText('1 sample');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await chartIdle(page);
    await page.mouse.move(x, y);
    await expect(tip).toContainText('[off-CPU: sleeping]');
    await page.screenshot({ path: `docs/screenshots/offcpu-time-order-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // A range across the middle: every wait that overlaps it counts by its part inside.
  await dragRange(page, 0.31, 0.58);
  await chartIdle(page);
  await waitForIdle(page);
  await expect.poll(() => hashParam(page, 'range')).not.toBeNull();
  const [a, b] = (await hashParam(page, 'range'))!.split('-').map(Number);
  const want = clippedNs(allWaits, a, b) + cpuPeriodIn(headers, null, a, b);
  // Some wait crosses each edge: the range cuts it, which is what this checks.
  expect(allWaits.some((w) => w.start < a && w.end > a)).toBe(true);
  expect(allWaits.some((w) => w.start < b && w.end > b)).toBe(true);
  await expect.poll(async () => Math.abs((await graphTotal(page)) - want)).toBeLessThan(allWaits.length);
  await expect(page.locator('.status-bar').getByText(/^Total weight:/)).toHaveText(`Total weight: ${formatNs(want)}`);
  await page.screenshot({ path: `docs/screenshots/offcpu-time-range-light.png` });
});
