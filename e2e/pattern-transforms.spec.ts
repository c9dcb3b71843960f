// Pattern transforms (issue 31, item 1) from the search box: each of focus, drop, merge and
// collapse by the search's pattern, as a chip that undoes it, in the link, and after a reload of
// that link (where the pattern is first tried by the search worker). Totals come from the folded
// oracle of the fixture; the derived trees are computed in the analysis worker (waitForIdle).

import { expect, test, type Page } from '@playwright/test';
import { hashParam, openLinkedFixture, waitForIdle } from './helpers';
import { formatNs, readFolded } from './viewer-oracle';

const oracle = readFolded('rust-toyc.no-inline.folded');
const PATTERN = '^toyc::Parser::';
const re = new RegExp(PATTERN);
const WITH_MATCH = oracle.stacks.filter((s) => s.frames.some((f) => re.test(f))).reduce((a, s) => a + s.weight, 0);

const chips = (page: Page) => page.getByRole('region', { name: 'Transforms' }).getByRole('listitem');
const total = (page: Page) => page.locator('.status-bar').getByText(/^Total weight:/);
const search = (page: Page) => page.getByRole('search');
const patternMenu = (page: Page) => search(page).getByRole('button', { name: 'Transform by pattern' });

async function applyFromSearch(page: Page, action: string) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(PATTERN);
  await expect(search(page).getByRole('status')).toContainText('Matched');
  if ((await patternMenu(page).getAttribute('aria-expanded')) !== 'true') await patternMenu(page).click();
  await search(page).getByRole('group', { name: 'Transform by pattern' }).getByRole('button', { name: action }).click();
  await waitForIdle(page);
}

const CASES = [
  { action: 'Focus on matches', chip: `Focus on /${PATTERN}/`, param: 'focus-re', total: WITH_MATCH },
  { action: 'Drop samples with a match', chip: `Drop samples matching /${PATTERN}/`, param: 'drop-re', total: oracle.total - WITH_MATCH },
  { action: 'Merge matches into callers', chip: `Merge /${PATTERN}/ into callers`, param: 'merge-re', total: oracle.total },
  { action: 'Collapse runs of matches', chip: `Collapse runs of /${PATTERN}/`, param: 'collapse-re', total: oracle.total },
];

test.describe('pattern transforms', () => {
  for (const c of CASES) {
    test(`${c.param} from the search box: chip, link, reload, undo`, async ({ page }) => {
      await openLinkedFixture(page, 'rust-toyc.perf-script.txt');
      await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
      await applyFromSearch(page, c.action);
      await expect(chips(page)).toHaveText([`${c.chip}✕`]);
      await expect(total(page)).toHaveText(`Total weight: ${formatNs(c.total)}`);
      const param = `${c.param}:${encodeURIComponent(PATTERN)}`;
      await expect.poll(() => hashParam(page, 'transforms')).toBe(param);
      if (c.param === 'merge-re') {
        // merged away: the pattern no longer matches any frame shown
        await expect(search(page).getByRole('status')).toHaveText('Matched: 0.0%');
      }

      // The link alone (no search typed) shows the same after a reload.
      const hash = await page.evaluate(() => location.hash);
      const fresh = await page.context().newPage();
      await openLinkedFixture(fresh, 'rust-toyc.perf-script.txt', `&transforms=${param}`);
      await expect(chips(fresh)).toHaveText([`${c.chip}✕`]);
      await expect(total(fresh)).toHaveText(`Total weight: ${formatNs(c.total)}`);
      expect(hash).toContain(`transforms=${param}`);
      await fresh.close();

      await chips(page).getByRole('button', { name: `Undo ${c.chip}` }).click();
      await waitForIdle(page);
      await expect(chips(page)).toHaveCount(0);
      await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
      await expect.poll(() => hashParam(page, 'transforms')).toBeNull();
    });
  }

  test('each from the frame menu, once the search has matched the pattern', async ({ page }) => {
    await openLinkedFixture(page, 'rust-toyc.perf-script.txt');
    await page.getByRole('searchbox', { name: 'Search' }).fill(PATTERN);
    await expect(search(page).getByRole('status')).toContainText('Matched');
    for (const c of CASES) {
      const graph = page.getByRole('application', { name: 'Flame graph' });
      await graph.focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Shift+F10');
      await page.getByRole('menu').getByRole('menuitem', { name: `${c.action} /${PATTERN}/` }).click();
      await waitForIdle(page);
      await expect(chips(page)).toHaveText([`${c.chip}✕`]);
      await expect(total(page)).toHaveText(`Total weight: ${formatNs(c.total)}`);
      await expect.poll(() => hashParam(page, 'transforms')).toBe(`${c.param}:${encodeURIComponent(PATTERN)}`);
      await chips(page).getByRole('button', { name: `Undo ${c.chip}` }).click();
      await waitForIdle(page);
      await expect(chips(page)).toHaveCount(0);
      // merge-re left no match on screen; the search matches again once it is undone
      await expect(search(page).getByRole('status')).not.toHaveText('Matched: 0.0%');
    }
  });

  test('an invalid pattern in a link is a notice, not a transform', async ({ page }) => {
    await openLinkedFixture(page, 'rust-toyc.perf-script.txt', '&transforms=merge-re:(a');
    await expect(page.getByText(/invalid regular expression/)).toBeVisible();
    await expect(chips(page)).toHaveCount(0);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
  });

  test('screenshots in both themes', async ({ page }) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await openLinkedFixture(page, 'rust-toyc.perf-script.txt', `&transforms=merge-re:${encodeURIComponent('^(std|core|alloc)::')}`);
      await page.getByRole('searchbox', { name: 'Search' }).fill(PATTERN);
      await expect(search(page).getByRole('status')).toContainText('Matched');
      await patternMenu(page).click();
      await expect(search(page).getByRole('group', { name: 'Transform by pattern' })).toBeVisible();
      await page.screenshot({ path: `docs/screenshots/pattern-transforms-${scheme}.png` });
    }
  });
});
