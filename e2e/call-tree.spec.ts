// The call tree panel (issue 18, item 1): opened from the toolbar, walked and expanded with the
// keyboard, its Running and Self figures checked against the fixture's folded oracle (top-down
// and inverted), the selection following the graph both ways, search, and links (panel=tree,
// inverted=1). Screenshots of both themes go to /tmp.

import { expect, test, type Page } from '@playwright/test';
import { hashParam, openLinkedFixture, waitForIdle } from './helpers';
import { formatNs, heaviestPath, pct, readFolded, totalOf } from './viewer-oracle';

const oracle = readFolded('rust-toyc.no-inline.folded');
const PATH = heaviestPath(oracle, 9);
/** Weight of the stacks that end exactly at `path` (the node's self). */
const selfOf = (path: string[]) => oracle.stacks.filter((s) => s.frames.length === path.length && s.frames.every((f, i) => f === path[i])).reduce((a, s) => a + s.weight, 0);
/** Per leaf function, the weight of the stacks ending in it: the inverted tree's first level. */
const leafSums = () => {
  const m = new Map<string, number>();
  for (const s of oracle.stacks) m.set(s.frames[s.frames.length - 1], (m.get(s.frames[s.frames.length - 1]) ?? 0) + s.weight);
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
};

const graph = (page: Page) => page.getByRole('application', { name: 'Flame graph' });
const treegrid = (page: Page) => page.getByRole('treegrid', { name: 'Call tree' });
const rows = (page: Page) => treegrid(page).locator('.fn-body [role="row"]');
const selectedRow = (page: Page) => treegrid(page).locator('.fn-body [role="row"][aria-selected="true"]');
const cells = (page: Page) => selectedRow(page).getByRole('gridcell').allInnerTexts();
const details = (page: Page) => page.getByRole('region', { name: 'Selected frame' });
const caption = (page: Page) => page.getByTestId('ct-caption');
const nameOf = (texts: string[]) => texts[4].replace(/(inlined|kernel)$/, '').replace(/^[▸▾]/, '').trim();

async function openTree(page: Page, extra = '') {
  await openLinkedFixture(page, 'rust-toyc.perf-script.txt', extra);
  if (!extra.includes('panel=tree')) await page.getByRole('button', { name: 'Call tree' }).click();
  await expect(treegrid(page)).toBeVisible();
}

/** From the selected row to its heaviest child with Right (expanding first when collapsed). */
async function descend(page: Page) {
  const row = selectedRow(page);
  const level = Number(await row.getAttribute('aria-level'));
  if ((await row.getAttribute('aria-expanded')) === 'false') {
    await page.keyboard.press('ArrowRight');
    await expect(selectedRow(page)).toHaveAttribute('aria-expanded', 'true');
  }
  await page.keyboard.press('ArrowRight');
  await expect(selectedRow(page)).toHaveAttribute('aria-level', String(level + 1));
}

test.describe('call tree', () => {
  test('keyboard walk down the heaviest path: Running and Self against the folded oracle; expand all; collapse', async ({ page }) => {
    await openTree(page);
    await expect.poll(() => hashParam(page, 'panel')).toBe('tree');
    await treegrid(page).focus();
    await page.keyboard.press('Home');
    await expect(selectedRow(page)).toHaveAttribute('aria-level', '1');
    expect(await cells(page)).toEqual([formatNs(oracle.total), '100.0%', formatNs(0), '0.0%', expect.stringContaining('all')]);
    // Start from a collapsed root, so every level is expanded by the keyboard.
    await page.keyboard.press('ArrowLeft');
    await expect(selectedRow(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(rows(page)).toHaveCount(1);
    for (let d = 1; d <= PATH.length; d++) {
      await descend(page);
      const path = PATH.slice(0, d);
      const [running, runningPct, self, selfPct, name] = await cells(page);
      expect(nameOf([running, runningPct, self, selfPct, name])).toBe(PATH[d - 1]);
      expect(running).toBe(formatNs(totalOf(oracle, path)));
      expect(runningPct).toBe(pct(totalOf(oracle, path) / oracle.total));
      expect(self).toBe(formatNs(selfOf(path)));
      expect(selfPct).toBe(pct(selfOf(path) / oracle.total));
    }
    // The graph selected the same frame.
    await expect(details(page).locator('.frame-name-text')).toHaveText(PATH[PATH.length - 1]);

    // `*` on the root: every node is a row; the body keeps only the rows in view in the DOM.
    await page.keyboard.press('Home');
    await page.keyboard.press('*');
    await expect(caption(page)).toHaveText(/^([\d,]+) of \1 nodes shown, top-down$/);
    const shown = Number((await caption(page).innerText()).split(' ')[0].replace(/,/g, ''));
    expect(shown).toBeGreaterThan(500);
    expect(await rows(page).count()).toBeLessThan(80);
    await page.keyboard.press('End');
    await expect(selectedRow(page)).toBeVisible();
    expect(Number(await selectedRow(page).getAttribute('aria-rowindex'))).toBe(shown + 1);

    // Left on a leaf goes to its parent; Left again collapses it.
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const level = await selectedRow(page).getAttribute('aria-level');
    expect(level).toBe('3');
    await page.keyboard.press('ArrowLeft');
    await expect(selectedRow(page)).toHaveAttribute('aria-level', '3');
    await expect(selectedRow(page)).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('ArrowLeft');
    await expect(selectedRow(page)).toHaveAttribute('aria-level', '2');
  });

  test('the frame menu on a row (Shift+F10, right-click) and its letter shortcuts: focus on subtree from the tree', async ({ page }) => {
    await openTree(page);
    await treegrid(page).focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowLeft');
    for (let d = 1; d <= 4; d++) await descend(page);
    const path = PATH.slice(0, 4);
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu');
    await expect(menu).toHaveAccessibleName(`Actions for ${PATH[3]}`);
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
    await expect(treegrid(page)).toBeFocused();
    // Right-click opens the same menu at the row.
    await selectedRow(page).click({ button: 'right' });
    await expect(menu).toHaveAccessibleName(`Actions for ${PATH[3]}`);
    await page.keyboard.press('Escape');
    await expect(treegrid(page)).toBeFocused();
    // `f` focuses on this call path: the tree's root now carries the subtree's weight.
    await page.keyboard.press('f');
    await expect.poll(() => hashParam(page, 'transforms')).toMatch(/^subtree:/);
    await waitForIdle(page);
    await treegrid(page).focus();
    await page.keyboard.press('Home');
    await expect.poll(async () => (await cells(page))[0]).toBe(formatNs(totalOf(oracle, path)));
  });

  test('selection follows the graph both ways, revealing a collapsed row', async ({ page }) => {
    await openTree(page);
    await treegrid(page).focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowLeft'); // collapse the root: no row but "all" is shown
    await expect(rows(page)).toHaveCount(1);
    // Graph → tree: walk up the heaviest frames in the graph; the row is revealed and selected.
    await graph(page).focus();
    for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowUp');
    await expect(details(page).locator('.frame-name-text')).toHaveText(PATH[6]);
    await expect(selectedRow(page)).toBeVisible();
    expect(nameOf(await cells(page))).toBe(PATH[6]);
    await expect(selectedRow(page)).toHaveAttribute('aria-level', '8');
    // Tree → graph: a click on another row selects its frame in the graph.
    const other = rows(page).filter({ hasText: PATH[2] }).first();
    await other.click();
    await expect(other).toHaveAttribute('aria-selected', 'true');
    await expect(details(page).locator('.frame-name-text')).toHaveText(PATH[2]);
  });

  test('inverted: the leaves first, weighted by self; the link round-trips panel=tree and inverted=1', async ({ page }) => {
    await openTree(page, '&panel=tree&inverted=1');
    await expect(caption(page)).toContainText('inverted (bottom-up)');
    await expect(page.getByRole('checkbox', { name: 'Inverted' })).toBeChecked();
    // The link is rewritten with the graph's own switch (one bottom-up state).
    await expect.poll(() => hashParam(page, 'reversed')).toBe('1');
    await expect.poll(() => hashParam(page, 'panel')).toBe('tree');
    const leaves = leafSums();
    await treegrid(page).focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('ArrowDown');
      const c = await cells(page);
      await expect(selectedRow(page)).toHaveAttribute('aria-level', '2');
      expect(nameOf(c)).toBe(leaves[i][0]);
      expect(c[0]).toBe(formatNs(leaves[i][1]));
      expect(c[1]).toBe(pct(leaves[i][1] / oracle.total));
    }
    // Reload: the same panel, inverted, with the same rows (the selection is not in links; the
    // selected function is, as fn=, and stays highlighted).
    await expect.poll(() => hashParam(page, 'fn')).not.toBeNull();
    await page.reload();
    await waitForIdle(page);
    await expect(treegrid(page)).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Inverted' })).toBeChecked();
    await expect(rows(page).nth(1)).toContainText(leaves[0][0]);
    await expect(rows(page).nth(1).getByRole('gridcell').first()).toHaveText(formatNs(leaves[0][1]));
    // Back to top-down from the panel.
    await page.getByRole('checkbox', { name: 'Inverted' }).uncheck();
    await waitForIdle(page);
    await expect(caption(page)).toContainText('top-down');
    await expect.poll(() => hashParam(page, 'reversed')).toBeNull();
  });

  test('search keeps the paths through a match, opened to show it; screenshots in both themes', async ({ page }) => {
    await openTree(page);
    // Before any selection (whose details card would cover the panel): the initial expansion,
    // the heaviest path opened while its next node carries at least a fifth of the whole.
    await expect(rows(page).nth(1)).toContainText(PATH[0]);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
      // The canvas repaints for the theme on the next frames.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: test.info().outputPath(`call-tree-${scheme}.png`) });
    }
    const target = PATH[8];
    await page.getByRole('searchbox').fill(target);
    await waitForIdle(page);
    await expect(caption(page)).toContainText('paths through search matches');
    const match = rows(page).locator('.ct-match', { hasText: target }).first();
    await expect(match).toBeVisible();
    // Every row shown lies on a path through a match: the first one under the root carries no
    // more than the matched weight.
    await treegrid(page).focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    expect(nameOf(await cells(page))).toBe(PATH[0]);
  });
});
