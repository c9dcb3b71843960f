// The Source panel follows the shown view (issue 25): a time range dragged on the time-order
// chart and a transform narrow the selected function's per-line figures. The oracle is the
// recording itself cut in Node (the samples whose header time is in the range; the samples
// without the dropped function), parsed as a recording of its own: its whole-recording figures
// are what the panel must show.

import { expect, test, type Page } from '@playwright/test';
import { gunzipSync } from 'node:zlib';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chartIdle, dragRange, exportAs, fixturePath, hashParam, openBytes, waitForIdle } from './helpers';
import { loadProfileFromText } from '../src/core/import/load';
import { framesMatching, functionLines } from '../src/core/query/source-lines';
import { formatDelta, formatPercent, formatValue } from '../src/format';

const GZ = readFileSync(fixturePath('srcline/hashack.srcline.perf-script.txt.gz'));
const BLOCKS = gunzipSync(GZ)
  .toString('utf8')
  .split(/\n\n+/)
  .filter((b) => b.trim() !== '')
  .map((text) => ({ text, time: Number(/ (\d+\.\d+): /.exec(text.split('\n')[0])![1]) }));

/** The panel's rows for `fn` (place, self %, total %) of the recording made of `keep`'s samples. */
async function expectedRows(keep: (b: { text: string; time: number }) => boolean, fn: string): Promise<string[]> {
  const profile = await loadProfileFromText(BLOCKS.filter(keep).map((b) => b.text).join('\n\n') + '\n');
  const fl = functionLines(profile, 'inline', framesMatching(profile, 'inline', (n) => n === fn))!;
  const place = (file: string | null, line: number) => (file === null ? '(unknown line)' : line > 0 ? `${file}:${line}` : `${file} (no line)`);
  return fl.lines.map((l) => `${place(l.file, l.line)} | ${formatPercent(l.self / fl.all)} | ${formatPercent(l.total / fl.all)}`).sort();
}

const panel = (page: Page) => page.getByRole('complementary', { name: 'Source panel' });
const figures = (page: Page) => panel(page).getByRole('table', { name: 'Lines of the function' });

/** The figures table as the page shows it, sorted (place, self %, total %). */
async function shownRows(page: Page): Promise<string[]> {
  const rows = await figures(page)
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  return rows.map((c) => `${c[0]} | ${c[2]} | ${c[4]}`).sort();
}

async function openHashack(page: Page, extra: string) {
  await page.route('**/e2e-fixtures/**', (route) => route.fulfill({ status: 200, body: GZ, headers: { 'content-type': 'application/gzip' } }));
  await page.goto(`./#v=1&profile=e2e-fixtures/hashack.srcline.perf-script.txt.gz${extra}`);
  await waitForIdle(page);
  await expect(panel(page)).toBeVisible();
}

test('a time range dragged on the chart narrows the lines to the samples in it', async ({ page }) => {
  await openHashack(page, '&view=inline&panel=source&fn=table_work&time=1');
  const whole = await expectedRows(() => true, 'table_work');
  await expect.poll(() => shownRows(page)).toEqual(whole);
  await chartIdle(page);
  await dragRange(page, 0.25, 0.55);
  await chartIdle(page);
  await expect.poll(() => hashParam(page, 'range')).toMatch(/^\d+(\.\d+)?-\d+(\.\d+)?$/);
  const [from, to] = (await hashParam(page, 'range'))!.split('-').map(Number);
  const want = await expectedRows((b) => b.time >= from && b.time < to, 'table_work');
  expect(want).not.toEqual(whole);
  await expect.poll(() => shownRows(page)).toEqual(want);
  await expect(panel(page).locator('.src-scope')).toHaveText(/^In the shown view: from [\d.]+ s to [\d.]+ s\.$/);
  // docs/screenshots/source-panel-range-{light,dark}.png: looked at when the caption changes.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (process.env.FLAMEVIEW_SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/source-panel-range-${scheme}.png` });
  }
  // Escape clears the range: the whole recording's figures again.
  await page.keyboard.press('Escape');
  await expect.poll(() => hashParam(page, 'range')).toBeNull();
  await expect.poll(() => shownRows(page)).toEqual(whole);
  await expect(panel(page).locator('.src-scope')).toHaveCount(0);
});

test('a transform narrows the lines to the stacks it keeps', async ({ page }) => {
  await openHashack(page, '&view=inline&panel=source&fn=table_work&transforms=drop:resize');
  const want = await expectedRows((b) => !/^\s+[0-9a-f]+ resize\+0x/m.test(b.text), 'table_work');
  expect(want).not.toEqual(await expectedRows(() => true, 'table_work'));
  await expect.poll(() => shownRows(page)).toEqual(want);
  await expect(panel(page).locator('.src-scope')).toHaveText('In the shown view: after the transform.');
});

test('with a comparison open, the panel shows each line in A and B and the change', async ({ page }) => {
  const half = BLOCKS.slice(0, Math.floor(BLOCKS.length / 2));
  const cut = half.map((b) => b.text).join('\n\n') + '\n';
  await page.route('**/e2e-fixtures/**', (route) =>
    route.request().url().includes('half.perf-script.txt')
      ? route.fulfill({ status: 200, body: cut, headers: { 'content-type': 'text/plain' } })
      : route.fulfill({ status: 200, body: GZ, headers: { 'content-type': 'application/gzip' } }),
  );
  await page.goto('./#v=1&profile=e2e-fixtures/hashack.srcline.perf-script.txt.gz&compare=e2e-fixtures/half.perf-script.txt&view=inline&panel=source&fn=table_work');
  const table = panel(page).getByRole('table', { name: 'Lines of the function in A and B' });
  await expect(table).toBeVisible();
  // Oracle: each recording parsed in Node, its lines as shares of its own samples with lines.
  const linesOf = async (text: string) => {
    const p = await loadProfileFromText(text);
    const fl = functionLines(p, 'inline', framesMatching(p, 'inline', (n) => n === 'table_work'))!;
    return new Map(fl.lines.map((l) => [`${l.file}:${l.line}`, { self: (l.self / fl.all) * 100, total: (l.total / fl.all) * 100 }]));
  };
  const a = await linesOf(gunzipSync(GZ).toString('utf8'));
  const b = await linesOf(cut);
  const want = [...new Set([...a.keys(), ...b.keys()])]
    .map((k) => {
      const x = a.get(k) ?? { self: 0, total: 0 };
      const y = b.get(k) ?? { self: 0, total: 0 };
      const v = (n: number) => formatValue(n, 'pct', false);
      return [k, v(x.self), v(y.self), formatDelta(y.self - x.self, 'pct', false), v(x.total), v(y.total), formatDelta(y.total - x.total, 'pct', false)].join(' | ');
    })
    .sort();
  expect(want.some((r) => !r.endsWith(' | 0'))).toBe(true);
  const shown = async () =>
    (await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '').join(' | ')))).sort();
  await expect.poll(shown).toEqual(want);
  await expect(panel(page).locator('.fn-caption')).toContainText('in A');
  // docs/screenshots/source-panel-compare-{light,dark}.png: looked at when the table changes.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (process.env.FLAMEVIEW_SCREENSHOTS) await page.screenshot({ path: `docs/screenshots/source-panel-compare-${scheme}.png` });
  }
});

test('Export → processed recording → opened again: the same lines, and a time range still narrows them', async ({ page }) => {
  await openHashack(page, '&view=inline&panel=source&fn=table_work');
  const whole = await expectedRows(() => true, 'table_work');
  await expect.poll(() => shownRows(page)).toEqual(whole);
  const saved = await exportAs(page, mkdtempSync(path.join(tmpdir(), 'flameview-lines-')), 'Processed recording (.flameview)');
  await openBytes(page, 'again.flameview', readFileSync(saved.file));
  await expect(page.getByTestId('recording-name')).toHaveText('again.flameview');
  await waitForIdle(page);
  // A file opened shows the function view first, where table_work is inlined away: back to inline frames.
  await page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Inline frames' }).click();
  await expect.poll(() => shownRows(page)).toEqual(whole);
  // The samples' line nodes came along: a range narrows the reopened file's figures as the original's.
  await page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Time order' }).click();
  await chartIdle(page);
  await dragRange(page, 0.25, 0.55);
  await chartIdle(page);
  await expect.poll(() => hashParam(page, 'range')).toMatch(/^\d+(\.\d+)?-\d+(\.\d+)?$/);
  const [from, to] = (await hashParam(page, 'range'))!.split('-').map(Number);
  await expect.poll(() => shownRows(page)).toEqual(await expectedRows((b) => b.time >= from && b.time < to, 'table_work'));
  await expect(panel(page).locator('.src-scope')).toHaveText(/^In the shown view: from [\d.]+ s to [\d.]+ s\.$/);
});
