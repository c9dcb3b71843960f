// Comparing two runs (issue 5): rust-toyc run A and run B, where toyc::optimize_module does twice
// the work in B. Both load in parallel from `#profile=…&compare=…`; side by side with synchronised
// zoom; the differential graph's tooltip; the normalisation switch; the function view; the table;
// a failing comparison. Frames are found through the documented test hook window.flameviewFrames
// (src/render/debug-hook.ts), never by guessing coordinates. Screenshots go to test-results/.

import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fixturePath, hashParam, menu, menuButton, openFixture, serveFixtures } from './helpers';

const A = 'rust-toyc.run-a.perf-script.txt';
const B = 'rust-toyc.run-b.perf-script.txt';
const BOTH = `./#profile=e2e-fixtures/${A}&compare=e2e-fixtures/${B}`;

const graph = (page: Page, label: string) => page.locator(`[aria-label="${label}"]`);

async function idle(page: Page, label: string) {
  await expect(page.locator(`[aria-label="${label}"][aria-busy="false"]`)).toBeVisible({ timeout: 30_000 });
}

type Hook = {
  flameviewFrames: {
    rect(l: string, n: string): { x: number; y: number; width: number; height: number } | null;
    reveal(l: string, n: string): boolean;
  };
};

async function frameRect(page: Page, label: string, name: string) {
  await idle(page, label);
  let rect = await page.evaluate(([l, n]) => (window as unknown as Hook).flameviewFrames.rect(l, n), [label, name] as const);
  if (rect) return rect;
  expect(await page.evaluate(([l, n]) => (window as unknown as Hook).flameviewFrames.reveal(l, n), [label, name] as const)).toBe(true);
  await idle(page, label);
  rect = await page.evaluate(
    ([l, n]) => (window as unknown as { flameviewFrames: { rect(l: string, n: string): { x: number; y: number; width: number; height: number } | null } }).flameviewFrames.rect(l, n),
    [label, name] as const,
  );
  expect(rect, `${name} drawn in ${label}`).not.toBeNull();
  return rect!;
}

async function hoverFrame(page: Page, label: string, name: string) {
  const r = await frameRect(page, label, name);
  await page.mouse.move(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
}

/** The numbers of a tooltip row: [A, B, Δ, Δ%]. */
async function figures(page: Page, tooltip: string, row: string): Promise<number[]> {
  const cells = page.getByTestId(tooltip).locator(`tr[data-row="${row}"] td`);
  await expect(cells).toHaveCount(4);
  const texts = await cells.allTextContents();
  return texts.map((t) => Number(t.replace(/[^\d.−+-]/g, '').replace('−', '-')));
}

test.beforeEach(async ({ page }) => serveFixtures(page));

test('both runs load from the link; side by side, zoom is synchronised by frame path', async ({ page }, info) => {
  await page.goto(BOTH);
  await idle(page, 'Baseline flame graph');
  await idle(page, 'Comparison flame graph');
  await page.getByRole('button', { name: 'Inline frames' }).click();
  await idle(page, 'Comparison flame graph');
  await page.screenshot({ path: info.outputPath('compare-side-by-side.png') });

  // Zoom the baseline to toyc::compile_module: the comparison follows to the same path.
  const r = await frameRect(page, 'Baseline flame graph', 'toyc::compile_module');
  await page.mouse.click(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
  await expect(page.getByRole('navigation', { name: 'Baseline zoom path' }).locator('[aria-current]')).toHaveText('toyc::compile_module');
  await expect(page.getByRole('navigation', { name: 'Comparison zoom path' }).locator('[aria-current]')).toHaveText('toyc::compile_module');
  await idle(page, 'Comparison flame graph');
  // The vertical scroll follows too: the zoomed frame is on screen in the comparison without scrolling it.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as Hook).flameviewFrames.rect('Comparison flame graph', 'toyc::compile_module') !== null))
    .toBe(true);
  await page.screenshot({ path: info.outputPath('compare-side-by-side-zoomed.png') });

  // And the other way: zooming the comparison zooms the baseline.
  const o = await frameRect(page, 'Comparison flame graph', 'toyc::optimize_module');
  await page.mouse.click(o.x + Math.min(o.width / 2, 40), o.y + o.height / 2);
  await expect(page.getByRole('navigation', { name: 'Comparison zoom path' }).locator('[aria-current]')).toHaveText('toyc::optimize_module');
  await expect(page.getByRole('navigation', { name: 'Baseline zoom path' }).locator('[aria-current]')).toHaveText('toyc::optimize_module');
  await expect(page).toHaveURL(/compare=/);
});

test('differential graph: toyc::optimize_module rises from about 26 % to about 45 % of the total (inline frames)', async ({ page }, info) => {
  await page.goto(BOTH);
  await idle(page, 'Comparison flame graph');
  await page.getByRole('button', { name: 'Inline frames' }).click();
  await page.getByRole('button', { name: 'Differential' }).click();
  await idle(page, 'Differential flame graph');
  await expect(page.getByRole('group', { name: 'Colour scale' })).toBeVisible();
  await hoverFrame(page, 'Differential flame graph', 'toyc::optimize_module');
  const tooltip = page.getByTestId('diff-diff-tooltip');
  await expect(tooltip).toContainText('toyc::optimize_module');
  const [a, b, delta] = await figures(page, 'diff-diff-tooltip', 'function-total');
  expect(a).toBeGreaterThan(23);
  expect(a).toBeLessThan(29);
  expect(b).toBeGreaterThan(42);
  expect(b).toBeLessThan(48);
  expect(delta).toBeCloseTo(b - a, 0);
  await page.screenshot({ path: info.outputPath('compare-differential.png') });

  // The normalisation switch changes the figures: absolute weights (ms) instead of shares.
  await page.getByRole('radio', { name: 'absolute' }).check();
  await expect(page).toHaveURL(/norm=abs/);
  await hoverFrame(page, 'Differential flame graph', 'toyc::optimize_module');
  await expect(tooltip.locator('tr[data-row="function-total"]')).toContainText('ms');
  const [absA, absB] = await figures(page, 'diff-diff-tooltip', 'function-total');
  expect(absA).not.toBeCloseTo(a, 0);
  expect(absB / absA).toBeGreaterThan(1.5);

  // Shaped by the baseline, still the same figures for the function.
  await page.getByRole('switch', { name: 'Shape by baseline' }).check();
  await hoverFrame(page, 'Differential flame graph', 'toyc::optimize_module');
  const [shapedA, shapedB] = await figures(page, 'diff-diff-tooltip', 'function-total');
  expect(shapedA).toBeCloseTo(absA, 1);
  expect(shapedB).toBeCloseTo(absB, 1);
});

test('function view: the growth shows on toyc::compile_module; the table sorts and a row zooms to its function', async ({ page }) => {
  await page.goto(`${BOTH}&mode=diff`);
  await idle(page, 'Differential flame graph');
  await expect(page.getByRole('button', { name: 'Functions' })).toHaveAttribute('aria-pressed', 'true');
  const table = page.getByRole('region', { name: 'Changed functions' });
  // Heaviest change of self weight first: toyc::interpret (about 9.8 % → 5.9 % in the function view).
  await expect(table.getByRole('row').nth(1)).toContainText('toyc::interpret');
  const header = table.getByRole('columnheader', { name: /Function/ });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await table.getByRole('columnheader', { name: /Self Δ$/ }).getByRole('button').click();
  await expect(table.getByRole('columnheader', { name: /Self Δ$/ })).toHaveAttribute('aria-sort', 'descending');
  await table.getByRole('button', { name: 'toyc::compile_module', exact: true }).click();
  await expect(page.getByRole('searchbox').or(page.getByRole('textbox', { name: /search/i })).first()).toHaveValue('^toyc::compile_module$');
  await expect(page.getByRole('navigation', { name: 'Differential zoom path' }).locator('[aria-current]')).toHaveText('toyc::compile_module');
  // optimize_module is merged into toyc::compile_module here. Its share of the run stays near
  // 96 % (it is almost the whole program), so the growth shows in absolute weights: about 1.5×.
  await page.getByRole('radio', { name: 'absolute' }).check();
  await hoverFrame(page, 'Differential flame graph', 'toyc::compile_module');
  await expect(page.getByTestId('diff-diff-tooltip')).toContainText('toyc::compile_module');
  const [a, b, delta] = await figures(page, 'diff-diff-tooltip', 'function-total');
  expect(b / a).toBeGreaterThan(1.4);
  expect(delta).toBeGreaterThan(0);
  await expect(page.getByTestId('diff-diff-tooltip').locator('tr[data-row="path-total"] td').nth(2)).toHaveClass('grew');
});

test('a comparison that fails says so and keeps the baseline; "Compare with…" opens a file', async ({ page }) => {
  await page.goto(`./#profile=e2e-fixtures/${A}&compare=e2e-fixtures/missing.txt`);
  await expect(page.getByRole('alert').filter({ hasText: /compar/i })).toBeVisible();
  await idle(page, 'Flame graph');
  await page.getByLabel('Compare with file').setInputFiles(fixturePath(B));
  await idle(page, 'Comparison flame graph');
  await expect(graph(page, 'Baseline flame graph')).toBeVisible();
  await page.getByRole('button', { name: 'Close comparison' }).click();
  await idle(page, 'Flame graph');
  // And the plain file input still opens a baseline.
  await openFixture(page, A);
  await idle(page, 'Flame graph');
});

test('dropping a recording on the "Compare with…" zone opens it as the comparison, not as the baseline', async ({ page }) => {
  await page.goto(`./#profile=e2e-fixtures/${A}`);
  await idle(page, 'Flame graph');
  const text = readFileSync(fixturePath(B), 'utf8');
  const data = await page.evaluateHandle(
    ([body, name]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([body], name, { type: 'text/plain' }));
      return dt;
    },
    [text, B] as const,
  );
  const zone = (await menu(page, 'More actions')).getByTestId('compare-drop');
  await zone.dispatchEvent('dragover', { dataTransfer: data });
  await zone.dispatchEvent('drop', { dataTransfer: data });
  await idle(page, 'Comparison flame graph');
  await expect(page.getByTestId('recording-name')).toContainText(A);
  await expect(page.locator('.compare-names')).toContainText(B);
});

/** The colour of one canvas pixel of a graph at page coordinates (device pixels scaled). */
async function pixel(page: Page, label: string, x: number, y: number): Promise<[number, number, number]> {
  return page.evaluate(
    ([l, px, py]) => {
      const canvas = document.querySelector<HTMLCanvasElement>(`[aria-label="${l}"] canvas`)!;
      const box = canvas.getBoundingClientRect();
      const sx = canvas.width / box.width;
      const sy = canvas.height / box.height;
      const d = canvas.getContext('2d')!.getImageData(Math.floor((px - box.left) * sx), Math.floor((py - box.top) * sy), 1, 1).data;
      return [d[0], d[1], d[2]] as [number, number, number];
    },
    [label, x, y] as const,
  );
}

/** A pixel of a frame's rectangle away from its label (its top-right corner, inside). */
async function frameColour(page: Page, label: string, name: string) {
  const r = await frameRect(page, label, name);
  return pixel(page, label, r.x + r.width - 3, r.y + 1.5);
}

test('a search in the differential graph fades the frames that do not match and keeps the colour of those that do', async ({ page }, info) => {
  await page.goto(`${BOTH}&mode=diff&view=inline`);
  await idle(page, 'Differential flame graph');
  await page.mouse.move(1, 1);
  const DIFF = 'Differential flame graph';
  const before = { hit: await frameColour(page, DIFF, 'toyc::optimize_module'), miss: await frameColour(page, DIFF, 'start_thread') };
  // Shaped by B, B's matches are computed beside the graph (not by the search worker of A).
  await page.getByRole('searchbox', { name: 'Search' }).fill('optimize_module');
  await idle(page, DIFF);
  await expect.poll(() => frameColour(page, DIFF, 'start_thread')).not.toEqual(before.miss);
  const after = { hit: await frameColour(page, DIFF, 'toyc::optimize_module'), miss: await frameColour(page, DIFF, 'start_thread') };
  await page.screenshot({ path: info.outputPath('compare-differential-search.png') });
  expect(after.hit).toEqual(before.hit);
  // Faded toward the white background: every channel lighter, none darker.
  for (let i = 0; i < 3; i++) expect(after.miss[i]).toBeGreaterThanOrEqual(before.miss[i]);
  expect(after.miss.reduce((a, b) => a + b, 0)).toBeGreaterThan(before.miss.reduce((a, b) => a + b, 0) + 30);
  // Shaped by the baseline too (its matches come from the search itself), and cleared with the
  // search. Faded, every channel is above 225 (the palette's lightest, neutral grey, is 208,206,202).
  const lightest = async () => Math.min(...(await frameColour(page, DIFF, 'start_thread')));
  expect(Math.min(...after.miss)).toBeGreaterThan(225);
  await page.getByRole('switch', { name: 'Shape by baseline' }).check();
  await idle(page, DIFF);
  await expect.poll(lightest).toBeGreaterThan(225);
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect.poll(lightest).toBeLessThanOrEqual(208);
});

test('side by side: zooming the baseline to a path the comparison lacks says so and zooms the comparison to the nearest caller', async ({ page }, info) => {
  // In run A the resolver's hash-map insert probes with Group::match_empty; run B never samples it there.
  const ONLY_A = '<hashbrown::control::group::sse2::Group>::match_empty';
  await page.goto(`${BOTH}&view=inline`);
  await idle(page, 'Baseline flame graph');
  await idle(page, 'Comparison flame graph');
  const notice = page.locator('.compare-sync');
  await expect(notice).toHaveText('');
  const r = await frameRect(page, 'Baseline flame graph', ONLY_A);
  await page.mouse.click(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
  // A crumb shows a long name shortened; its title is the full name.
  await expect(page.getByRole('navigation', { name: 'Baseline zoom path' }).locator('[aria-current]')).toHaveAttribute('title', ONLY_A);
  const nearest = page.getByRole('navigation', { name: 'Comparison zoom path' }).locator('[aria-current]');
  await expect(nearest).not.toHaveAttribute('title', ONLY_A);
  const caller = (await nearest.getAttribute('title'))!;
  expect(caller).not.toBe('all');
  await expect(notice).toHaveAttribute('role', 'status');
  await expect(notice).toHaveText(`${ONLY_A} on this path is not in the comparison; the comparison shows its nearest caller there, ${caller}.`);
  await page.screenshot({ path: info.outputPath('compare-sync-notice.png') });
  // Back to a path both have: the notice goes.
  await page.keyboard.press('Escape');
  await expect(notice).toHaveText('');
});

test('the differential graph zooms like the main one: Reset zoom, Escape, and the link (dzoom=) reopens its zoom', async ({ page }) => {
  await page.goto(`${BOTH}&mode=diff`);
  await idle(page, 'Differential flame graph');
  const reset = page.getByRole('button', { name: 'Reset zoom' });
  const current = page.getByRole('navigation', { name: 'Differential zoom path' }).locator('[aria-current]');
  await expect(reset).toBeDisabled();
  const r = await frameRect(page, 'Differential flame graph', 'toyc::compile_module');
  await page.mouse.click(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
  await expect(current).toHaveText('toyc::compile_module');
  await expect(reset).toBeEnabled();
  await expect.poll(() => page.url()).toMatch(/[#&]dzoom=[^&]*compile_module/);
  // The link reopens both runs, differential, zoomed to the same frame.
  const url = page.url();
  await page.goto('about:blank');
  await page.goto(url);
  await idle(page, 'Differential flame graph');
  await expect(current).toHaveText('toyc::compile_module');
  // Escape zooms out one level; Reset zoom all the way.
  await page.getByRole('application', { name: 'Differential flame graph' }).focus();
  await page.keyboard.press('Escape');
  await expect(current).not.toHaveText('toyc::compile_module');
  await expect(reset).toBeEnabled();
  await reset.click();
  await expect(current).toHaveText('all');
  await expect(reset).toBeDisabled();
  await expect.poll(() => page.url()).not.toMatch(/dzoom=/);
});

test('differential and side by side keep one zoom: switching either way keeps it, and the link holds both', async ({ page }) => {
  await page.goto(`${BOTH}&mode=diff&view=inline`);
  await idle(page, 'Differential flame graph');
  const current = (name: string) => page.getByRole('navigation', { name }).locator('[aria-current]');
  const click = async (label: string, name: string) => {
    const r = await frameRect(page, label, name);
    await page.mouse.click(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
  };
  await click('Differential flame graph', 'toyc::compile_module');
  await expect(current('Differential zoom path')).toHaveText('toyc::compile_module');
  // The link names the frame for both graphs: dzoom= for the differential one, zoom= for the pair.
  await expect.poll(() => page.url()).toMatch(/[#&]dzoom=[^&]*compile_module/);
  await expect.poll(() => hashParam(page, 'zoom')).toMatch(/compile_module/);

  await page.getByRole('group', { name: 'Comparison view' }).getByRole('button', { name: 'Side by side' }).click();
  await idle(page, 'Comparison flame graph');
  await expect(current('Baseline zoom path')).toHaveText('toyc::compile_module');
  await expect(current('Comparison zoom path')).toHaveText('toyc::compile_module');

  // And back: a zoom of the pair is where the differential graph opens.
  await click('Baseline flame graph', 'toyc::optimize_module');
  await expect(current('Comparison zoom path')).toHaveText('toyc::optimize_module');
  await page.getByRole('group', { name: 'Comparison view' }).getByRole('button', { name: 'Differential' }).click();
  await idle(page, 'Differential flame graph');
  await expect(current('Differential zoom path')).toHaveText('toyc::optimize_module');
  await expect.poll(() => page.url()).toMatch(/[#&]dzoom=[^&]*optimize_module/);
  await expect.poll(() => hashParam(page, 'zoom')).toMatch(/optimize_module/);

  // The link reopens the differential graph there, and side by side from it too.
  const url = page.url();
  await page.goto('about:blank');
  await page.goto(url);
  await idle(page, 'Differential flame graph');
  await expect(current('Differential zoom path')).toHaveText('toyc::optimize_module');
  await page.getByRole('group', { name: 'Comparison view' }).getByRole('button', { name: 'Side by side' }).click();
  await expect(current('Baseline zoom path')).toHaveText('toyc::optimize_module');
  await expect(current('Comparison zoom path')).toHaveText('toyc::optimize_module');
});

test('in a comparison the tooltips, the details and the status bar show both runs', async ({ page }, info) => {
  await page.goto(`${BOTH}&view=inline`);
  await idle(page, 'Baseline flame graph');
  await idle(page, 'Comparison flame graph');
  const runs = await page.evaluate(() => {
    const s = (window as unknown as { flameview: { store: { getState(): { recordings: Record<'a' | 'b', { snapshot: { meta: { samples: number } } }> } } } }).flameview.store.getState();
    return { a: s.recordings.a.snapshot.meta.samples, b: s.recordings.b.snapshot.meta.samples };
  });
  const count = (n: number) => n.toLocaleString('en-US');
  // The status bar: samples and total weight of A and of B, and the change.
  await expect(page.getByTestId('status-samples')).toContainText(`Samples: A ${count(runs.a)} · B ${count(runs.b)}`);
  await expect(page.getByTestId('status-weight')).toContainText(/Total weight: A .+ · B .+\(.+%\)/);

  // The baseline's tooltip, like the comparison's: toyc::optimize_module about 26 % in A, 45 % in B.
  await hoverFrame(page, 'Baseline flame graph', 'toyc::optimize_module');
  const [a, b] = await figures(page, 'main-diff-tooltip', 'function-total');
  expect(a).toBeGreaterThan(23);
  expect(a).toBeLessThan(29);
  expect(b).toBeGreaterThan(42);
  expect(b).toBeLessThan(48);

  // A frame selected in the comparison graph: the details give both runs' figures of its path,
  // as its tooltip does.
  const details = page.getByRole('region', { name: 'Selected frame' });
  const r = await frameRect(page, 'Comparison flame graph', 'toyc::optimize_module');
  await page.mouse.click(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
  await expect(details).toContainText('B · comparison');
  await expect(details).toContainText('toyc::optimize_module');
  const cells = details.locator('tr[data-row="path-total"] td');
  await expect(cells).toHaveCount(4);
  const shown = await cells.allTextContents();
  await hoverFrame(page, 'Comparison flame graph', 'toyc::optimize_module');
  await expect(page.getByTestId('side-diff-tooltip').locator('tr[data-row="path-total"] td')).toHaveText(shown);
  const [pa, pb] = await figures(page, 'side-diff-tooltip', 'path-total');
  expect(pb).toBeGreaterThan(pa);
  await page.screenshot({ path: info.outputPath('compare-both-runs-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await idle(page, 'Comparison flame graph');
  await page.screenshot({ path: info.outputPath('compare-both-runs-dark.png') });

  // In the differential graph too.
  await page.getByRole('group', { name: 'Comparison view' }).getByRole('button', { name: 'Differential' }).click();
  const d = await frameRect(page, 'Differential flame graph', 'toyc::optimize_module');
  await page.mouse.click(d.x + Math.min(d.width / 2, 40), d.y + d.height / 2);
  await expect(details).toContainText('differential');
  await expect(details.locator('tr[data-row="path-total"] td')).toHaveCount(4);
  await page.screenshot({ path: info.outputPath('compare-both-runs-diff-dark.png') });
});

test("a catastrophic search with a comparison open runs in B's search worker too: the page answers and reports the timeout", async ({ page }) => {
  // Only B has the long name (a+)+$ backtracks on forever; A answers at once.
  const bodies: Record<string, string> = { 'redos-a.folded': 'main;short 5\nmain;other 3\n', 'redos-b.folded': `main;${'a'.repeat(40)}b 5\nmain;other 3\n` };
  await page.route('**/redos-*.folded', (route) => route.fulfill({ status: 200, body: bodies[new URL(route.request().url()).pathname.split('/').pop()!], headers: { 'content-type': 'text/plain' } }));
  await page.goto('./#profile=redos-a.folded&compare=redos-b.folded');
  await idle(page, 'Baseline flame graph');
  await idle(page, 'Comparison flame graph');
  const summary = page.getByRole('status').filter({ hasText: /^(Matched|Searching|Search timed)/ });
  await page.getByRole('searchbox', { name: 'Search' }).fill('(a+)+$');
  await expect(summary).toHaveText('Searching…');
  // While B's search runs, a click is handled: on the page's thread the regex (2^40 steps) would
  // never return and the click never be answered. The input delay is logged, not bounded.
  const icicle = await menuButton(page, 'View', 'Icicle');
  await icicle.evaluate((el) => el.addEventListener('click', (e) => ((window as unknown as { inputDelay: number }).inputDelay = performance.now() - e.timeStamp), { once: true }));
  await icicle.click();
  await expect(icicle).toHaveAttribute('aria-pressed', 'true');
  console.log(`click while B's search runs: input delay ${(await page.evaluate(() => (window as unknown as { inputDelay: number }).inputDelay)).toFixed(1)} ms`);
  await expect(summary).toHaveText(/Search timed out/, { timeout: 10_000 });
  // And it searches again once the pattern is sane, in both graphs.
  await page.getByRole('searchbox', { name: 'Search' }).fill('oth');
  await expect(summary).toHaveText('Matched: 37.5%');
  await idle(page, 'Comparison flame graph');
});
