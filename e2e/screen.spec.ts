// The screen (issue 14): the graph first. At 1400×900 the flame graph gets at least 720 px with
// nothing open and each compare graph at least 380 px; the toolbar is one row at 1280 px and
// wider; the details of a selected frame take no space from the graph; the toggles that moved
// into the View and ⋯ menus keep their names and pressed states.

import { expect, test, type Page } from '@playwright/test';
import { hashParam, menu, openBytes, openFixture, serveFixtures, waitForIdle } from './helpers';

/** The details float over the graph when shown; hidden, they are a 1 px live region (still announced). */
const detailsWidth = (page: Page) => page.getByRole('region', { name: 'Selected frame' }).evaluate((e) => e.getBoundingClientRect().width);

const height = (page: Page, label: string) => page.locator(`[aria-label="${label}"]`).evaluate((e) => e.getBoundingClientRect().height);

/** The toolbar's height, and whether every control in it sits within one row and nothing overflows. */
async function toolbarRow(page: Page) {
  return page.getByRole('toolbar', { name: 'Tools' }).evaluate((bar) => {
    const box = bar.getBoundingClientRect();
    const kids = [...bar.children].filter((c) => c.getBoundingClientRect().height > 0);
    const oneRow = kids.every((c) => {
      const r = c.getBoundingClientRect();
      return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    });
    return { height: box.height, oneRow, overflow: bar.scrollWidth - bar.clientWidth };
  });
}

test.describe('the graph first', () => {
  test.use({ viewport: { width: 1400, height: 900 } });

  test('at 1400×900 the flame graph is at least 720 px tall and selecting a frame does not shrink it', async ({ page }) => {
    await page.goto('./');
    await waitForIdle(page);
    await openFixture(page, 'rust-toyc.perf-script.txt');
    await expect(page.getByTestId('recording-name')).toHaveText('rust-toyc.perf-script.txt');
    await waitForIdle(page);
    // After "Open file…" the graph has the focus (not the hidden file input): its keys work.
    await expect(page.getByRole('application', { name: 'Flame graph' })).toBeFocused();
    const before = await height(page, 'Flame graph');
    expect(before).toBeGreaterThanOrEqual(720);
    const details = page.getByRole('region', { name: 'Selected frame' });
    expect(await detailsWidth(page)).toBeLessThanOrEqual(1);
    await page.getByRole('application', { name: 'Flame graph' }).focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => detailsWidth(page)).toBeGreaterThan(200);
    await expect(details).toContainText('Total');
    expect(await height(page, 'Flame graph')).toBe(before);
    // The details close, and come back with the next selection.
    await details.getByRole('button', { name: 'Hide the details' }).click();
    await expect.poll(() => detailsWidth(page)).toBeLessThanOrEqual(1);
    await page.getByRole('application', { name: 'Flame graph' }).focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => detailsWidth(page)).toBeGreaterThan(200);
  });

  test('each compare graph is at least 380 px tall, side by side and differential', async ({ page }) => {
    await serveFixtures(page);
    await page.goto('./#profile=e2e-fixtures/rust-toyc.run-a.perf-script.txt&compare=e2e-fixtures/rust-toyc.run-b.perf-script.txt');
    await expect(page.locator('[aria-label="Comparison flame graph"][aria-busy="false"]')).toBeVisible({ timeout: 30_000 });
    expect(await height(page, 'Baseline flame graph')).toBeGreaterThanOrEqual(380);
    expect(await height(page, 'Comparison flame graph')).toBeGreaterThanOrEqual(380);
    await page.getByRole('button', { name: 'Differential' }).click();
    await expect(page.locator('[aria-label="Differential flame graph"][aria-busy="false"]')).toBeVisible();
    expect(await height(page, 'Differential flame graph')).toBeGreaterThanOrEqual(380);
  });
});

for (const width of [1280, 1400, 1920]) {
  test(`the toolbar is one row at ${width} px, with a comparison open too`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await serveFixtures(page);
    await page.goto('./#profile=e2e-fixtures/rust-toyc.perf-script.txt&search=parse');
    await waitForIdle(page);
    let row = await toolbarRow(page);
    expect(row.height).toBeLessThanOrEqual(46);
    expect(row.oneRow).toBe(true);
    expect(row.overflow).toBeLessThanOrEqual(0);
    await page.goto('./#profile=e2e-fixtures/rust-toyc.run-a.perf-script.txt&compare=e2e-fixtures/rust-toyc.run-b.perf-script.txt&mode=diff');
    await expect(page.locator('[aria-label="Differential flame graph"][aria-busy="false"]')).toBeVisible({ timeout: 30_000 });
    row = await toolbarRow(page);
    expect(row.oneRow).toBe(true);
    expect(row.overflow).toBeLessThanOrEqual(0);
  });
}

test('toggles announce their state; the menus open, keep it and close with Escape', async ({ page }) => {
  await page.goto('./');
  await waitForIdle(page);
  const tools = page.getByRole('toolbar', { name: 'Tools' });
  const table = tools.getByRole('button', { name: 'Function table' });
  await expect(table).toHaveAttribute('aria-pressed', 'false');
  await table.click();
  await expect(table).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('grid')).toBeVisible();
  await table.click();
  // Actions carry no pressed state.
  await expect(tools.getByRole('button', { name: 'Reset zoom' })).not.toHaveAttribute('aria-pressed');
  const view = await menu(page, 'View');
  await expect(tools.getByRole('button', { name: 'View', exact: true })).toHaveAttribute('aria-expanded', 'true');
  const icicle = view.getByRole('button', { name: 'Icicle' });
  await expect(icicle).toHaveAttribute('aria-pressed', 'false');
  await icicle.click();
  await expect(icicle).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await expect(view).toBeHidden();
  await expect(tools.getByRole('button', { name: 'View', exact: true })).toBeFocused();
  const more = await menu(page, 'More actions');
  for (const name of ['Copy link', 'Export', 'Compare with…', 'Shortcuts']) await expect(more.getByRole('button', { name, exact: true })).toBeVisible();
  await more.getByRole('button', { name: 'Shortcuts' }).click();
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
});

type Hook = { flameviewFrames: { rect(l: string, n: string): { x: number; y: number; width: number; height: number } | null; reveal(l: string, n: string): boolean } };
const rectOf = (page: Page, name: string) => page.evaluate((n) => (window as unknown as Hook).flameviewFrames.rect('Flame graph', n), name);
const revealFrame = (page: Page, name: string) => page.evaluate((n) => (window as unknown as Hook).flameviewFrames.reveal('Flame graph', n), name);

test.describe('fit the stack', () => {
  test.use({ viewport: { width: 1400, height: 900 } });
  const LEVELS = 60;
  const frames = Array.from({ length: LEVELS }, (_, i) => `wl::expr::Parser::level_${i}`);
  const deep = `${frames.join(';')} 70\nmain;shallow 30\n`;

  test('a stack deeper than the canvas says how many levels are hidden; a click reveals them; no row is half cut', async ({ page }) => {
    await page.goto('./');
    await waitForIdle(page);
    await openBytes(page, 'deep.folded', Buffer.from(deep));
    await expect(page.getByTestId('recording-name')).toHaveText('deep.folded');
    await waitForIdle(page);
    const cue = page.getByRole('button', { name: /^Show \d+ more levels above$/ });
    await expect(cue).toBeVisible();
    const hidden = Number((await cue.getAttribute('aria-label'))!.match(/\d+/)![0]);
    // Every level is either whole below the cue or counted by it (the root is always in view).
    const cueBox = (await cue.boundingBox())!;
    let whole = 1;
    for (const name of frames) {
      const r = await rectOf(page, name);
      if (r && r.y >= cueBox.y + cueBox.height - 1) whole++;
    }
    expect(hidden).toBe(LEVELS + 1 - whole);
    expect(hidden).toBeGreaterThan(10);
    expect(await rectOf(page, frames[LEVELS - 1])).toBeNull();
    // Click until the top of the stack is in view: its frame is drawn whole, and the root's side
    // now has its own cue.
    while (await cue.isVisible()) {
      await cue.click();
      await waitForIdle(page);
    }
    const top = (await rectOf(page, frames[LEVELS - 1]))!;
    const canvas = (await page.locator('[aria-label="Flame graph"] canvas').boundingBox())!;
    expect(top.y).toBeGreaterThanOrEqual(canvas.y);
    const below = page.getByRole('button', { name: /^Show \d+ more levels? below$/ });
    await expect(below).toBeVisible();
    await below.click();
    await waitForIdle(page);
  });

  test('a zoomed subtree fills the canvas above one "N ancestors" row that unfolds on click; Escape, Reset and the link agree', async ({ page }) => {
    await page.route('**/e2e-fixtures/deep.folded', (r) => r.fulfill({ status: 200, body: deep, headers: { 'content-type': 'text/plain' } }));
    for (const orient of ['flame', 'icicle']) {
      await page.goto(`./#profile=e2e-fixtures/deep.folded${orient === 'icicle' ? '&orient=icicle' : ''}`);
      await waitForIdle(page);
      await expect(page.getByTestId('recording-name')).toHaveText('deep.folded');
      const graph = page.getByRole('application', { name: 'Flame graph' });
      const ancestors = page.getByRole('button', { name: /^Show \d+ ancestors$/ });
      await expect(ancestors).toBeHidden();
      // Zoom on level_40 (depth 41: all, level_0 … level_39 are its 41 ancestors).
      expect(await revealFrame(page, frames[40])).toBe(true);
      await waitForIdle(page);
      const target = (await rectOf(page, frames[40]))!;
      await page.mouse.click(target.x + target.width / 2, target.y + target.height / 2);
      await waitForIdle(page);
      await expect(ancestors).toHaveAccessibleName('Show 41 ancestors');
      await expect(ancestors).toHaveText('▸ 41 ancestors — called from wl::expr::Parser::level_39');
      const canvas = (await page.locator('[aria-label="Flame graph"] canvas').boundingBox())!;
      const fold = (await ancestors.boundingBox())!;
      // The folded row sits at the root's edge of the canvas, the zoomed frame right beside it, and
      // every level of the subtree (level_40 … level_59) is drawn whole, without scrolling.
      const zoomed = (await rectOf(page, frames[40]))!;
      if (orient === 'flame') {
        expect(fold.y + fold.height).toBeGreaterThan(canvas.y + canvas.height - 3);
        expect(Math.abs(zoomed.y + 17 - fold.y)).toBeLessThanOrEqual(1.5);
      } else {
        expect(fold.y).toBeLessThan(canvas.y + 3);
        expect(Math.abs(fold.y + 17 - zoomed.y)).toBeLessThanOrEqual(1.5);
      }
      for (let i = 40; i < LEVELS; i++) expect(await rectOf(page, frames[i]), frames[i]).not.toBeNull();
      expect(await rectOf(page, frames[39])).toBeNull();
      await expect(page.getByRole('button', { name: /more levels?/ })).toHaveCount(0);
      expect(await graph.evaluate((e) => e.scrollHeight - e.clientHeight)).toBe(0);
      // The link reopens the same zoom, folded the same way.
      await expect.poll(() => hashParam(page, 'zoom')).toMatch(/level_40$/);
      await page.reload();
      await waitForIdle(page);
      await expect(ancestors).toHaveText(/^▸ 41 ancestors —/);
      expect(await rectOf(page, frames[59])).not.toBeNull();
      // A click (or Enter on the focused button) unfolds them: the ancestors are rows again, the
      // graph keeps the focus.
      if (orient === 'flame') await ancestors.click();
      else {
        await ancestors.focus();
        await page.keyboard.press('Enter');
      }
      await waitForIdle(page);
      await expect(ancestors).toBeHidden();
      await expect(graph).toBeFocused();
      expect(await rectOf(page, frames[39])).not.toBeNull();
      // Escape zooms out one level: its ancestors fold again, one fewer.
      await page.keyboard.press('Escape');
      await waitForIdle(page);
      await expect(ancestors).toHaveText('▸ 40 ancestors — called from wl::expr::Parser::level_38');
      await page.getByRole('button', { name: 'Reset zoom' }).click();
      await waitForIdle(page);
      await expect(ancestors).toBeHidden();
      await expect.poll(() => hashParam(page, 'zoom')).toBeNull();
    }
  });

  test('the wheel scrolls the stack; Ctrl + wheel zooms', async ({ page }) => {
    await page.goto('./');
    await waitForIdle(page);
    await openBytes(page, 'deep.folded', Buffer.from(deep));
    await expect(page.getByTestId('recording-name')).toHaveText('deep.folded');
    await waitForIdle(page);
    const graph = page.getByRole('application', { name: 'Flame graph' });
    const scrollTop = () => graph.evaluate((e) => e.scrollTop);
    const reset = page.getByRole('button', { name: 'Reset zoom' });
    const box = (await graph.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2);
    const before = await scrollTop();
    await page.mouse.wheel(0, -300);
    await expect.poll(scrollTop).toBeLessThan(before);
    await waitForIdle(page);
    await expect(reset).toBeDisabled();
    const scrolled = await scrollTop();
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -300);
    await page.keyboard.up('Control');
    await waitForIdle(page);
    await expect(reset).toBeEnabled();
    expect(await scrollTop()).toBe(scrolled);
  });
});
