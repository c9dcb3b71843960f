// The Source and Assembly panels open on the frame already selected (a user's report: click the
// hot_loop frame, then the Source or Assembly icon, and the panel asked to "select a function"),
// and a link with panel= and a zoom but no fn= opens on the zoomed frame's function. The
// recording is fixtures/panelfn (hot.c under perf record --call-graph dwarf, printed with
// -F +srcline); the oracle is its text read here: the weights of the samples whose leaf is
// hot_loop, per source line (the line printed under that frame) and per offset (its `+0x…`).

import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { clickFrame, fixturePath, gotoAndWait, hashParam, openFixture, waitForIdle } from './helpers';
import { formatPercent } from '../src/format';

const NAME = 'hot.srcline.perf-script.txt.gz';
const GZ = readFileSync(fixturePath(`panelfn/${NAME}`));
const FN = 'hot_loop';

/**
 * As the panels print them: per source line, hot_loop's self weight (samples whose leaf it is) and
 * total weight (samples with it anywhere, as under a kernel frame) as shares of the recording's;
 * per offset, the share of the function's self weight.
 */
function oracle(): { lines: string[]; offsets: string[] } {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const offsets = new Map<string, number>();
  let all = 0; // the Source panel's shares are of the whole recording's weight
  let allSelf = 0; // the Assembly panel's, of the function's self weight
  const add = (m: Map<string, number>, k: string, w: number) => m.set(k, (m.get(k) ?? 0) + w);
  for (const block of gunzipSync(GZ).toString('utf8').split(/\n\n+/)) {
    const rows = block.split('\n');
    const weight = /:\s+(\d+) cpu-clock/.exec(rows[0])?.[1];
    const at = rows.findIndex((r) => / hot_loop\+0x/.test(r));
    if (!weight) continue;
    const w = Number(weight);
    all += w;
    if (at < 0) continue;
    const line = rows[at + 1].trim();
    add(total, line, w);
    if (at !== 1) continue;
    allSelf += w;
    add(self, line, w);
    add(offsets, `+${/hot_loop\+(0x[0-9a-f]+)/.exec(rows[at])![1]}`, w);
  }
  return {
    lines: [...total].map(([k, w]) => `${k} | ${formatPercent((self.get(k) ?? 0) / all)} | ${formatPercent(w / all)}`).sort(),
    offsets: [...offsets].map(([k, w]) => `${k} | ${formatPercent(w / allSelf)}`).sort(),
  };
}
const WANT = oracle();

const PANELS = {
  source: { button: 'Source', label: 'Source panel', table: `Lines of the function`, cells: [0, 2, 4] },
  asm: { button: 'Assembly', label: 'Assembly panel', table: `Hottest offsets of ${FN}`, cells: [1, 0] },
} as const;
type PanelId = keyof typeof PANELS;

/** The panel's rows as "place | self %" (and " | total %" for lines), sorted. */
async function shownRows(page: Page, id: PanelId): Promise<string[]> {
  const p = PANELS[id];
  const table = page.getByRole('complementary', { name: p.label }).getByRole('table', { name: p.table, exact: true });
  if ((await table.count()) === 0) return [];
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((td) => td.textContent ?? '')));
  return rows.map((c) => p.cells.map((i) => c[i]).join(' | ')).sort();
}

test('the oracle has rows: hot_loop is sampled on several lines and offsets', () => {
  expect(WANT.lines.length).toBeGreaterThan(2);
  expect(WANT.offsets.length).toBeGreaterThan(2);
});

for (const id of ['source', 'asm'] as const) {
  test(`a ${id} panel opened after the frame was clicked shows its function, and clicking it again keeps it`, async ({ page }) => {
    await gotoAndWait(page);
    await openFixture(page, `panelfn/${NAME}`);
    await expect(page.getByTestId('recording-name')).toHaveText(NAME);
    await clickFrame(page, 'Flame graph', FN);
    await expect(page.getByRole('region', { name: 'Selected frame' })).toContainText(FN);
    await page.getByRole('button', { name: PANELS[id].button, exact: true }).click();
    await expect.poll(() => shownRows(page, id)).toEqual(WANT[id === 'source' ? 'lines' : 'offsets']);
    await expect.poll(() => hashParam(page, 'fn')).toBe(FN);
    await clickFrame(page, 'Flame graph', FN);
    await waitForIdle(page);
    await expect.poll(() => shownRows(page, id)).toEqual(WANT[id === 'source' ? 'lines' : 'offsets']);
    await expect.poll(() => hashParam(page, 'fn')).toBe(FN);
  });

  test(`a link with panel=${id} and a zoom but no fn= opens on the zoomed frame's function`, async ({ page }) => {
    await page.route('**/e2e-fixtures/**', (route) => route.fulfill({ status: 200, body: GZ, headers: { 'content-type': 'application/gzip' } }));
    const link = `./#v=1&profile=e2e-fixtures/${NAME}`;
    // The zoom path a click on hot_loop writes, read from the page rather than spelled here.
    await gotoAndWait(page, link);
    await clickFrame(page, 'Flame graph', FN);
    await expect.poll(() => hashParam(page, 'zoom')).toMatch(/hot_loop$/);
    const zoom = (await hashParam(page, 'zoom'))!;
    await page.goto('about:blank');
    await gotoAndWait(page, `${link}&zoom=${zoom}&panel=${id}`);
    await expect.poll(() => shownRows(page, id)).toEqual(WANT[id === 'source' ? 'lines' : 'offsets']);
    await expect.poll(() => hashParam(page, 'fn')).toBe(FN);
    expect(await hashParam(page, 'zoom')).toBe(zoom);
  });
}
