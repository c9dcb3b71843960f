// Transforms and the reversed view of the main flame graph (issue #7, items 3-4): focus on the
// selected function and undo it, hide kernel frames, merge a function into its callers, collapse
// recursion, the reversed (bottom-up) switch, a reload of the link with the transforms in it, and
// a bad `transforms=` value. Figures come from the fixture's folded oracle; derived trees are
// computed in the analysis worker, and waitForIdle waits for them (aria-busy).

import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { hashParam, menuButton, openLinkedFixture, waitForIdle } from './helpers';
import { formatNs, heaviestPath, readFolded } from './viewer-oracle';
import { ROW_HEIGHT } from '../src/render/layout';

const oracle = readFolded('rust-toyc.no-inline.folded');
const PATH = heaviestPath(oracle, 8);
const FOCUS = 'toyc::compile_module';
const FOCUS_TOTAL = oracle.stacks.filter((s) => s.frames.includes(FOCUS)).reduce((a, s) => a + s.weight, 0);

const graph = (page: Page) => page.getByRole('application', { name: 'Flame graph' });
const details = (page: Page) => page.getByRole('region', { name: 'Selected frame' });
const frameName = (page: Page) => details(page).locator('.frame-name-text');
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Zoom path' }).getByRole('listitem');
const chips = (page: Page) => page.getByRole('region', { name: 'Transforms' }).getByRole('listitem');
const total = (page: Page) => page.locator('.status-bar').getByText(/^Total weight:/);
const summary = (page: Page) => page.getByRole('status').filter({ hasText: /^(Matched|Searching)/ });
const toggle = (page: Page, name: string) => menuButton(page, 'View', name);

const openToyc = (page: Page, extra = '') => openLinkedFixture(page, 'rust-toyc.perf-script.txt', extra);

/**
 * A digest of the bottom two rows of the main graph's canvas, the root and the frames right above
 * it, as drawn (the canvas's own pixels, so no menu or tooltip over it counts; the root stays at
 * the bottom whatever the canvas height), with the pointer moved off the graph so that no frame
 * is hovered.
 */
async function rootRows(page: Page): Promise<string> {
  await page.mouse.move(0, 0);
  await waitForIdle(page);
  const pixels = await page.evaluate((rowHeight) => {
    const canvas = document.querySelector<HTMLCanvasElement>('[aria-label="Flame graph"] canvas')!;
    const h = Math.round((2 * rowHeight * canvas.height) / canvas.getBoundingClientRect().height);
    return Array.from(canvas.getContext('2d')!.getImageData(0, canvas.height - h, canvas.width, h).data).join(',');
  }, ROW_HEIGHT);
  return createHash('sha256').update(pixels).digest('hex');
}

/** Selects the frame `steps` heaviest children above the root with the keyboard. */
async function walkHeaviest(page: Page, steps: number) {
  await graph(page).focus();
  await page.keyboard.press('ArrowUp');
  for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowUp');
  await waitForIdle(page);
}

test.describe('transforms', () => {
  test('focus on the selected function, zoom inside it, reload the link, undo', async ({ page }) => {
    await openToyc(page);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
    await walkHeaviest(page, 8);
    await expect(frameName(page)).toHaveText(FOCUS);
    expect(PATH[7]).toBe(FOCUS);

    await expect.poll(() => hashParam(page, 'zoom')).toBeNull();
    const entries = await page.evaluate(() => history.length);
    await details(page).getByRole('button', { name: 'Focus on function' }).click();
    await waitForIdle(page);
    await expect(chips(page)).toHaveText([`Focus on ${FOCUS}✕`]);
    // One action, one history entry (the URL waits for the derived tree).
    await expect.poll(() => hashParam(page, 'transforms')).toBe('focus:toyc%3A%3Acompile_module');
    expect(await page.evaluate(() => history.length)).toBe(entries + 1);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(FOCUS_TOTAL)}`);
    // The selection followed the frame into the focused tree: its root's only child.
    await expect(frameName(page)).toHaveText(FOCUS);
    await expect(details(page)).toContainText('100.0%');
    await graph(page).focus();
    await page.keyboard.press('ArrowUp'); // the heaviest callee of the focused function
    await page.keyboard.press('Enter');
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveCount(3);
    await expect(crumbs(page).nth(1)).toHaveText(FOCUS);
    const zoomed = await crumbs(page).allTextContents();
    await expect.poll(() => hashParam(page, 'transforms')).toBe('focus:toyc%3A%3Acompile_module');
    // The hash is written a moment after the state changes: wait for the zoom before reading it.
    await expect.poll(() => hashParam(page, 'zoom')).not.toBeNull();
    const zoomParam = await hashParam(page, 'zoom');

    // The link carries the transform and the zoom inside the focused tree.
    await page.reload();
    await waitForIdle(page);
    await expect(chips(page)).toHaveText([`Focus on ${FOCUS}✕`]);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(FOCUS_TOTAL)}`);
    await expect(crumbs(page)).toHaveText(zoomed);
    await expect.poll(() => hashParam(page, 'zoom')).toBe(zoomParam);
    await expect(page.locator('.link-notice')).toHaveCount(0);

    // Undo: the whole recording again, the zoom carried back to the heaviest call site.
    await chips(page).getByRole('button', { name: `Undo Focus on ${FOCUS}` }).click();
    await waitForIdle(page);
    await expect(page.getByRole('region', { name: 'Transforms' })).toHaveCount(0);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
    // (the heaviest of its call sites: possibly in another thread than the one walked)
    await expect(crumbs(page)).toHaveCount(PATH.length + 2);
    expect((await crumbs(page).allTextContents()).slice(-2)).toEqual([FOCUS, zoomed[2]]);
    await expect.poll(() => hashParam(page, 'transforms')).toBeNull();

    // Back brings the transform back (history: push).
    await page.goBack();
    await waitForIdle(page);
    await expect(chips(page)).toHaveText([`Focus on ${FOCUS}✕`]);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(FOCUS_TOTAL)}`);
    await expect(crumbs(page)).toHaveText(zoomed);

    // The view toggle derives the other view's tree and keeps the zoom by frame path.
    await page.getByRole('button', { name: 'Inline frames' }).click();
    await waitForIdle(page);
    await expect(page.getByRole('button', { name: 'Inline frames' })).toHaveAttribute('aria-pressed', 'true');
    await expect(chips(page)).toHaveText([`Focus on ${FOCUS}✕`]);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(FOCUS_TOTAL)}`);
    await expect(crumbs(page).nth(1)).toHaveText(FOCUS);
  });

  test('hide kernel, merge into callers, collapse recursion; Ctrl+Z undoes the last', async ({ page }) => {
    await openToyc(page);
    await page.getByRole('searchbox', { name: 'Search' }).fill('^(asm_)?exc_page_fault$');
    await waitForIdle(page);
    await expect(summary(page)).not.toHaveText('Matched: 0.0%');

    await (await toggle(page, 'Hide kernel')).click();
    await waitForIdle(page);
    await expect((await toggle(page, 'Hide kernel'))).toHaveAttribute('aria-pressed', 'true');
    await expect(summary(page)).toHaveText('Matched: 0.0%');
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
    await expect.poll(() => hashParam(page, 'transforms')).toBe('hide:kernel');

    await page.getByRole('searchbox', { name: 'Search' }).fill(`^${FOCUS}$`);
    await waitForIdle(page);
    await expect(summary(page)).not.toHaveText('Matched: 0.0%');
    await walkHeaviest(page, 8);
    await expect(frameName(page)).toHaveText(FOCUS);
    await details(page).getByRole('button', { name: 'Merge into callers' }).click();
    await waitForIdle(page);
    await expect(chips(page)).toHaveText(['Hide kernel frames✕', `Merge ${FOCUS} into callers✕`]);
    await expect(summary(page)).toHaveText('Matched: 0.0%');
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
    // The selection went to the caller that took the merged frame's place.
    await expect(frameName(page)).toHaveText(PATH[6]);

    // Collapse the recursion of the visitor (five nested calls on the heaviest path). A reload
    // keeps the transforms (the link) and clears the selection.
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    // The link is written a moment after a change: reload only once it holds both transforms
    // and no search (under load the reload came first and kept only one).
    await expect.poll(() => hashParam(page, 'transforms')).toBe(`hide:kernel,merge:${encodeURIComponent(FOCUS)}`);
    await expect.poll(() => hashParam(page, 'search')).toBeNull();
    await page.reload();
    await waitForIdle(page);
    await expect(chips(page)).toHaveCount(2);
    const visit = '<toyc::CseCounter as toyc::Visitor>::visit_expr';
    await walkHeaviest(page, 10);
    await expect(frameName(page)).toHaveText(visit);
    await details(page).getByRole('button', { name: 'Collapse recursion' }).click();
    await waitForIdle(page);
    await expect(chips(page)).toHaveCount(3);
    await expect(chips(page).nth(2)).toHaveText(`Collapse recursion of ${visit}✕`);
    await graph(page).focus();
    await page.keyboard.press('ArrowUp');
    await waitForIdle(page);
    await expect(frameName(page)).not.toHaveText(visit);

    await page.keyboard.press('Control+z');
    await waitForIdle(page);
    await expect(chips(page)).toHaveCount(2);
    // ✕ on the first chip undoes it and the ones after it.
    await chips(page).getByRole('button', { name: 'Undo Hide kernel frames' }).click();
    await waitForIdle(page);
    await expect(page.getByRole('region', { name: 'Transforms' })).toHaveCount(0);
    await expect((await toggle(page, 'Hide kernel'))).toHaveAttribute('aria-pressed', 'false');
  });

  test('the reversed switch puts the leaves at the root; it is not the icicle switch', async ({ page }) => {
    await openToyc(page);
    const unreversed = await rootRows(page);
    await (await toggle(page, 'Reversed')).click();
    await waitForIdle(page);
    // The canvas draws the reversed tree: other frames stand on the root (a graph that kept
    // drawing the input tree, while the store and the keyboard walk below use the reversed one,
    // would show the same rows).
    expect(await rootRows(page)).not.toBe(unreversed);
    await expect((await toggle(page, 'Reversed'))).toHaveAttribute('aria-pressed', 'true');
    await expect((await menuButton(page, 'View', 'Icicle'))).toHaveAttribute('aria-pressed', 'false');
    await expect(chips(page)).toHaveText(['Reversed (bottom-up)✕']);
    await expect.poll(() => hashParam(page, 'reversed')).toBe('1');
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
    // The heaviest root child is the function with the most self time.
    const self = new Map<string, number>();
    for (const s of oracle.stacks) self.set(s.frames.at(-1)!, (self.get(s.frames.at(-1)!) ?? 0) + s.weight);
    const [leaf, leafSelf] = [...self].sort((a, b) => b[1] - a[1])[0];
    await walkHeaviest(page, 1);
    await expect(frameName(page)).toHaveText(leaf);
    await expect(details(page)).toContainText(formatNs(leafSelf));

    await page.reload();
    await waitForIdle(page);
    await expect((await toggle(page, 'Reversed'))).toHaveAttribute('aria-pressed', 'true');
    await (await toggle(page, 'Reversed')).click();
    await waitForIdle(page);
    await expect.poll(() => hashParam(page, 'reversed')).toBeNull();
    // Switched off, the root rows are drawn exactly as before the graph was reversed.
    expect(await rootRows(page)).toBe(unreversed);
    await walkHeaviest(page, 1);
    await expect(frameName(page)).toHaveText(PATH[0]);
  });

  test('a bad transforms value gives a notice and the whole recording', async ({ page }) => {
    await openToyc(page, '&transforms=focus:main,zap:1');
    await expect(page.getByRole('status', { name: 'Link notices' })).toContainText("transforms were ignored: item 2: expected focus:NAME");
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
    await expect(page.getByRole('region', { name: 'Transforms' })).toHaveCount(0);
  });
});
