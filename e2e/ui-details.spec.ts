// Issue 33, items 5–8, in Chromium: the zoom path keeps "all" and the callers beside a long C++
// template name (main graph and comparison); comparing renamed binaries ignoring the root names
// (kept in the link); kernel frames in their own hue; the warnings count agreeing with its
// popover, whose long lines wrap; the sample count after "Drop samples"; the Copy link panel's
// width. Recordings are small folded texts served by a route; frames are found through the test
// hook window.flameviewFrames (src/render/debug-hook.ts). Screenshots in both themes go to
// test-results/ (the final ones are copied to docs/screenshots/).

import { expect, test, type Page } from '@playwright/test';
import { clickFrame, menuButton, openBytes, waitForIdle } from './helpers';

const LONG =
  'std::_Function_handler<void (std::unique_ptr<shapes::Shape, std::default_delete<shapes::Shape> >&), shapes::draw_all(std::vector<std::unique_ptr<shapes::Shape, std::default_delete<shapes::Shape> >, std::allocator<std::unique_ptr<shapes::Shape, std::default_delete<shapes::Shape> > > >&)::{lambda(std::unique_ptr<shapes::Shape, std::default_delete<shapes::Shape> >&)#1}>::_M_invoke(std::_Any_data const&, std::unique_ptr<shapes::Shape, std::default_delete<shapes::Shape> >&)';

const SHAPES_A = [`shapes;main;run_frame;${LONG};circle 5`, 'shapes;main;run_frame;square 3', 'shapes;main;load;read_kernel_[k];vfs_read_[k] 2', ''].join('\n');
const SHAPES_B = [`shapes_b;main;run_frame;${LONG};circle 7`, 'shapes_b;main;run_frame;triangle 1', 'shapes_b;main;load;read_kernel_[k];vfs_read_[k] 2', ''].join('\n');

const BAD_LINES = 35;
const WARN = [
  'app;main;parse;lex 40',
  'app;main;parse;emit 20',
  'app;main;drop_me;work 30',
  'app;main;kernel_entry_[k];schedule_[k];do_syscall_64_[k] 10',
  ...Array.from({ length: BAD_LINES }, (_, i) => `this line has no count ${i} ${'x'.repeat(i === 0 ? 400 : 10)}`),
  '',
].join('\n');

const FILES: Record<string, string> = { 'shapes.folded': SHAPES_A, 'shapes_b.folded': SHAPES_B, 'warn.folded': WARN };

type Hook = { flameviewFrames: { rect(l: string, n: string): { x: number; y: number; width: number; height: number } | null } };

test.beforeEach(async ({ page }) => {
  await page.route('**/e2e-fixtures/**', (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop() ?? '');
    const body = FILES[name];
    return body === undefined ? route.fulfill({ status: 404, body: 'not found' }) : route.fulfill({ status: 200, body, headers: { 'content-type': 'text/plain' } });
  });
});

async function idle(page: Page, label: string) {
  await expect(page.locator(`[aria-label="${label}"][aria-busy="false"]`)).toBeVisible({ timeout: 30_000 });
}

/** Every crumb of a zoom path lies within the strip, and the first is "all". */
async function expectWholePath(page: Page, nav: string, texts: (string | RegExp)[]) {
  const strip = page.getByRole('navigation', { name: nav });
  await expect(strip.locator('li')).toHaveText(texts);
  const list = (await strip.locator('ol').boundingBox())!;
  for (const li of await strip.locator('li').all()) {
    const box = (await li.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(list.x - 0.5);
    expect(box.x + box.width).toBeLessThanOrEqual(list.x + list.width + 0.5);
    expect(box.width).toBeGreaterThan(10);
  }
}

const SHORT = /^std::_Function_handler<…>::_M_invoke\(\)$/;

for (const scheme of ['light', 'dark'] as const) {
  test(`zoom path: "all" and the callers stay beside a long template name, main graph and comparison (${scheme})`, async ({ page }, info) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('./#profile=e2e-fixtures/shapes.folded');
    await waitForIdle(page);
    await clickFrame(page, 'Flame graph', LONG);
    await expectWholePath(page, 'Zoom path', ['all', 'shapes', 'main', 'run_frame', SHORT]);
    // The full name is the crumb's title (its tooltip).
    await expect(page.getByRole('navigation', { name: 'Zoom path' }).locator('[aria-current]')).toHaveAttribute('title', LONG);
    await page.getByRole('navigation', { name: 'Zoom path' }).screenshot({ path: info.outputPath(`zoom-path-long-name-${scheme}.png`) });
    await page.screenshot({ path: info.outputPath(`zoom-path-long-name-page-${scheme}.png`) });

    // The comparison's panes: each strip is half as wide, and still whole.
    await page.goto('./#profile=e2e-fixtures/shapes.folded&compare=e2e-fixtures/shapes.folded');
    await idle(page, 'Comparison flame graph');
    await clickFrame(page, 'Baseline flame graph', LONG);
    await expectWholePath(page, 'Baseline zoom path', ['all', 'shapes', 'main', 'run_frame', SHORT]);
    await expectWholePath(page, 'Comparison zoom path', ['all', 'shapes', 'main', 'run_frame', SHORT]);
    await page.screenshot({ path: info.outputPath(`zoom-path-compare-${scheme}.png`) });
  });
}

/** The numbers of a tooltip row: [A, B, Δ, Δ%]. */
async function figures(page: Page, row: string): Promise<number[]> {
  const cells = page.getByTestId('diff-diff-tooltip').locator(`tr[data-row="${row}"] td`);
  await expect(cells).toHaveCount(4);
  return (await cells.allTextContents()).map((t) => Number(t.replace(/[^\d.−+-]/g, '').replace('−', '-')));
}

test('renamed binaries compare when the process names are ignored, and the link keeps the option', async ({ page }) => {
  await page.goto('./#profile=e2e-fixtures/shapes.folded&compare=e2e-fixtures/shapes_b.folded&mode=diff&norm=abs');
  await idle(page, 'Differential flame graph');
  const hoverCircle = async () => {
    await idle(page, 'Differential flame graph');
    await page.mouse.move(5, 5);
    await expect.poll(() => page.evaluate(() => (window as unknown as Hook).flameviewFrames.rect('Differential flame graph', 'circle') !== null)).toBe(true);
    const r = (await page.evaluate(() => (window as unknown as Hook).flameviewFrames.rect('Differential flame graph', 'circle')))!;
    await page.mouse.move(r.x + Math.min(r.width / 2, 20), r.y + r.height / 2);
    await expect(page.getByTestId('diff-diff-tooltip')).toContainText('circle');
  };
  // By name, shapes_b;…;circle is new: A has 0 of it.
  await hoverCircle();
  await expect(page.getByTestId('diff-diff-tooltip')).toContainText(/only in B|new/i);
  const ignore = page.getByRole('checkbox', { name: 'Ignore process names' });
  await ignore.check();
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('roots=any');
  await hoverCircle();
  await expect.poll(() => figures(page, 'path-total')).toEqual([5, 7, 2, expect.any(Number)]);

  // The link restores it: a reload opens the comparison with the option on.
  await page.reload();
  await idle(page, 'Differential flame graph');
  await expect(page.getByRole('checkbox', { name: 'Ignore process names' })).toBeChecked();
  await hoverCircle();
  await expect.poll(() => figures(page, 'path-total')).toEqual([5, 7, 2, expect.any(Number)]);
  await page.getByRole('checkbox', { name: 'Ignore process names' }).uncheck();
  await expect.poll(() => page.evaluate(() => location.hash)).not.toContain('roots=');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`kernel frames in their own hue; warnings count the skipped lines and wrap; samples after Drop samples (${scheme})`, async ({ page }, info) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('./#profile=e2e-fixtures/warn.folded');
    await waitForIdle(page);
    await idle(page, 'Flame graph');
    await page.screenshot({ path: info.outputPath(`kernel-frames-${scheme}.png`) });

    const status = page.locator('footer');
    await expect(status.getByTestId('status-samples')).toHaveText('Samples: 100');
    const button = status.getByRole('button', { name: `${BAD_LINES} lines skipped` });
    await button.click();
    const list = page.getByRole('region', { name: 'Warnings' });
    await expect(list).toContainText(`${BAD_LINES} unparseable lines were skipped.`);
    // The 400-character quoted line wraps inside the popover, which stays on the page.
    const box = (await list.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    expect(await list.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.screenshot({ path: info.outputPath(`warnings-${scheme}.png`) });
    await button.click();

    // Drop samples with drop_me: the status bar counts what the graph shows, of the whole.
    await clickFrame(page, 'Flame graph', 'drop_me');
    await page.getByRole('navigation', { name: 'Zoom path' }).getByRole('button', { name: 'all' }).click();
    // The zoom out animates: read the frame's place once it is drawn whole, not on the way.
    await idle(page, 'Flame graph');
    const r = (await page.evaluate(() => (window as unknown as Hook).flameviewFrames.rect('Flame graph', 'drop_me')))!;
    await page.mouse.click(r.x + 10, r.y + r.height / 2, { button: 'right' });
    await page.getByRole('menuitem', { name: 'Drop samples with this function' }).click();
    await expect(status.getByTestId('status-samples')).toHaveText('Samples: 70 of 100');
    await page.screenshot({ path: info.outputPath(`drop-samples-status-${scheme}.png`) });

    // Copy link: its panel is as wide as its text needs, not a narrow column beside the button.
    await (await menuButton(page, 'More actions', 'Copy link')).click();
    const panel = page.getByRole('group', { name: 'Link' });
    await expect(panel).toBeVisible();
    const p = (await panel.boundingBox())!;
    expect(p.width).toBeGreaterThan(300);
    expect(p.x + p.width).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: info.outputPath(`copy-link-${scheme}.png`) });
  });
}

test('Copy link for a local file: the panel and its note about the file take the menu’s width', async ({ page }, info) => {
  await page.goto('./');
  await waitForIdle(page);
  await openBytes(page, 'warn.folded', Buffer.from(WARN));
  await expect(page.getByTestId('recording-name')).toHaveText('warn.folded');
  await waitForIdle(page);
  await (await menuButton(page, 'More actions', 'Copy link')).click();
  const panel = page.getByRole('group', { name: 'Link' });
  const note = panel.locator('p').filter({ hasText: 'not in the link' });
  await expect(note).toBeVisible();
  const p = (await panel.boundingBox())!;
  const n = (await note.boundingBox())!;
  expect(p.width).toBeGreaterThan(300);
  // The note fills the panel's width (a squeezed column was a few words wide).
  expect(n.width).toBeGreaterThan(p.width - 40);
  expect(p.x + p.width).toBeLessThanOrEqual(1280);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: info.outputPath(`copy-link-local-file-${scheme}.png`) });
  }
});
