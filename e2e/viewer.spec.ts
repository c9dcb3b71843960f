// The viewer against the fixtures' folded oracles: the view toggle keeps the zoom, totals and
// zoom paths match FlameGraph's output, search figures match, click/keyboard zoom, icicle, and
// untrusted names render as text.

import { expect, test, type Page } from '@playwright/test';
import { collectDialogs, gotoAndWait, menu, menuButton, openBytes, openFixture, waitForIdle } from './helpers';
import { formatNs, heaviestPath, matchedShare, pct, perlTidy, readFolded, totalOf } from './viewer-oracle';

const functionsOracle = readFolded('rust-toyc.no-inline.folded');
const inlineOracle = readFolded('rust-toyc.folded');

const graph = (page: Page) => page.getByRole('application', { name: 'Flame graph' });
const details = (page: Page) => page.getByRole('region', { name: 'Selected frame' });
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Zoom path' }).getByRole('listitem');
const frameName = (page: Page) => details(page).locator('.frame-name-text');
/** The zoom path as the oracle spells names (see perlTidy). */
// The crumbs' full names (their titles: a long name's text is shortened).
const tidyCrumbs = async (page: Page) => (await crumbs(page).evaluateAll((lis) => lis.map((li) => li.firstElementChild?.getAttribute('title') ?? li.textContent ?? ''))).map(perlTidy);
const summary = (page: Page) => page.getByRole('status').filter({ hasText: /^(Matched|Searching|Search timed)/ });

async function openToyc(page: Page) {
  await gotoAndWait(page);
  await openFixture(page, 'rust-toyc.perf-script.txt');
  await expect(page.getByTestId('recording-name')).toHaveText('rust-toyc.perf-script.txt');
  await waitForIdle(page);
}

/** Focuses the graph and walks `steps` heaviest children up from the root with the keyboard. */
async function walkHeaviest(page: Page, steps: number, key: 'ArrowUp' | 'ArrowDown' = 'ArrowUp') {
  await graph(page).focus();
  await page.keyboard.press(key); // the first arrow selects the zoomed frame ("all")
  await expect(details(page)).toContainText('all');
  for (let i = 0; i < steps; i++) await page.keyboard.press(key);
  await waitForIdle(page);
}

test.describe('viewer', () => {
  test('keyboard walk, totals and zoom path match the oracle; the view toggle keeps the zoom', async ({ page }) => {
    await openToyc(page);
    const functions = page.getByRole('button', { name: 'Functions' });
    const inline = page.getByRole('button', { name: 'Inline frames' });
    await expect(functions).toHaveAttribute('aria-pressed', 'true');
    await expect(inline).toHaveAttribute('aria-pressed', 'false');
    await expect(inline).toBeEnabled();

    const depth = 8;
    const path = heaviestPath(functionsOracle, depth);
    await walkHeaviest(page, depth);
    expect(perlTidy(await frameName(page).innerText())).toBe(path[depth - 1]);
    await expect(details(page)).toContainText(`(${formatNs(totalOf(functionsOracle, path))})`);

    await page.keyboard.press('Enter');
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveCount(depth + 1);
    expect(await tidyCrumbs(page)).toEqual(['all', ...path]);
    await page.screenshot({ path: test.info().outputPath('viewer-zoomed-functions.png') });

    await inline.click();
    await waitForIdle(page);
    await expect(inline).toHaveAttribute('aria-pressed', 'true');
    const inlinePath = (await tidyCrumbs(page)).slice(1);
    // The same physical frame, now reached through its inlined callers: a real path of the inline
    // oracle ending in the same function, at least as deep as the function path.
    expect(inlinePath.at(-1)).toBe(path.at(-1));
    expect(inlinePath.length).toBeGreaterThanOrEqual(path.length);
    expect(totalOf(inlineOracle, inlinePath)).toBeGreaterThan(0);
    expect(perlTidy(await frameName(page).innerText())).toBe(path[depth - 1]);
    await expect(details(page)).toContainText(`(${formatNs(totalOf(inlineOracle, inlinePath))})`);
    await page.screenshot({ path: test.info().outputPath('viewer-zoomed-inline.png') });

    await functions.click();
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveCount(depth + 1);
    expect(await tidyCrumbs(page)).toEqual(['all', ...path]);

    // Escape zooms out one level; a breadcrumb zooms out to it.
    await graph(page).focus();
    await page.keyboard.press('Escape');
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveCount(depth);
    expect(await tidyCrumbs(page)).toEqual(['all', ...path.slice(0, -1)]);
    await crumbs(page).nth(2).getByRole('button').click();
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveCount(3);
    expect(await tidyCrumbs(page)).toEqual(['all', ...path.slice(0, 2)]);
    await page.getByRole('button', { name: 'Reset zoom' }).click();
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all']);

    // The process picker lists the root's children and zooms to one.
    const processes = (await menu(page, 'View')).getByLabel('Process');
    const label = (await processes.locator('option', { hasText: 'toyc_cgu.1' }).textContent())!;
    await processes.selectOption({ label });
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'toyc_cgu.1']);
  });

  test('the inline view walks the inline oracle', async ({ page }) => {
    await openToyc(page);
    await page.getByRole('button', { name: 'Inline frames' }).click();
    await waitForIdle(page);
    const depth = 12;
    const path = heaviestPath(inlineOracle, depth);
    await walkHeaviest(page, depth);
    expect(perlTidy(await frameName(page).innerText())).toBe(path[depth - 1]);
    await expect(details(page)).toContainText(`(${formatNs(totalOf(inlineOracle, path))})`);
  });

  test('regex search: Matched agrees with the folded oracle, in the profile and in the zoom', async ({ page }) => {
    await openToyc(page);
    // Parser functions call each other (nested matches), so double counting would show.
    const pattern = 'toyc::(Parser|Lexer)';
    const re = new RegExp(pattern);
    expect(matchedShare(functionsOracle, re)).toBeGreaterThan(0.05);
    await page.getByRole('searchbox', { name: 'Search' }).fill(pattern);
    await waitForIdle(page);
    await expect(summary(page)).toHaveText(`Matched: ${pct(matchedShare(functionsOracle, re))}`);
    await page.screenshot({ path: test.info().outputPath('viewer-search.png') });

    await page.getByRole('button', { name: 'Inline frames' }).click();
    await waitForIdle(page);
    await expect(summary(page)).toHaveText(`Matched: ${pct(matchedShare(inlineOracle, re))}`);

    // Zoomed: the share of the zoom follows.
    await page.getByRole('button', { name: 'Functions' }).click();
    const path = heaviestPath(functionsOracle, 10);
    await walkHeaviest(page, 10);
    await page.keyboard.press('Enter');
    await waitForIdle(page);
    await expect(summary(page)).toHaveText(
      `Matched: ${pct(matchedShare(functionsOracle, re))} (${pct(matchedShare(functionsOracle, re, path))} of zoom)`,
    );

    // Case: an upper-case pattern matches only with "Ignore case".
    await page.getByRole('searchbox', { name: 'Search' }).fill('TOYC::LEXER');
    await waitForIdle(page);
    await expect(summary(page)).toHaveText(/^Matched: 0\.0%/);
    await page.getByLabel('Ignore case').check();
    await waitForIdle(page);
    await expect(summary(page)).toHaveText(new RegExp(`^Matched: ${pct(matchedShare(functionsOracle, /TOYC::LEXER/i)).replace('.', '\\.')}`));

    // Next match moves the selection to a matching frame.
    await page.getByRole('button', { name: 'Next match' }).click();
    await waitForIdle(page);
    await expect(frameName(page)).toHaveText(/toyc::lexer/i);
  });

  test('an invalid pattern is an inline message; a catastrophic one times out without freezing', async ({ page }) => {
    await gotoAndWait(page);
    const long = 'a'.repeat(40) + 'b';
    await openBytes(page, 'redos.folded', Buffer.from(`main;${long} 5\nmain;other 3\n`));
    await waitForIdle(page);
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('(unclosed');
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid pattern' })).toBeVisible();
    await search.fill('(a+)+$');
    await expect(summary(page)).toHaveText(/Search timed out/, { timeout: 10_000 });
    // The page still answers.
    await (await menuButton(page, 'View', 'Icicle')).click();
    await expect((await menuButton(page, 'View', 'Icicle'))).toHaveAttribute('aria-pressed', 'true');
    await search.fill('oth');
    await waitForIdle(page);
    await expect(summary(page)).toHaveText('Matched: 37.5%');
  });

  test('click zooms to a frame; icicle puts the root on top', async ({ page }) => {
    await openToyc(page);
    const box = (await graph(page).boundingBox())!;
    // The row above "all" at the bottom of the flame graph holds "toyc" across the full width.
    // The row above "all" holds the threads; toyc_cgu.0 covers the left half.
    await page.mouse.click(box.x + box.width / 4, box.y + box.height - 17 - 8);
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'toyc_cgu.0']);
    await expect(frameName(page)).toHaveText('toyc_cgu.0');
    // A second click, on the frame above it, zooms further.
    const box2 = (await graph(page).boundingBox())!;
    await page.mouse.click(box2.x + box2.width / 2, box2.y + box2.height - 17 * 2 - 8);
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'toyc_cgu.0', 'clone3']);

    await (await menuButton(page, 'View', 'Icicle')).click();
    await waitForIdle(page);
    await expect((await menuButton(page, 'View', 'Icicle'))).toHaveAttribute('aria-pressed', 'true');
    // Zoomed on clone3, its two ancestors (all, toyc_cgu.0) are folded into the top row.
    const b = (await graph(page).boundingBox())!;
    const fold = page.getByRole('button', { name: 'Show 2 ancestors' });
    await expect(fold).toHaveText('▸ 2 ancestors — called from toyc_cgu.0');
    const folded = (await fold.boundingBox())!;
    expect(Math.abs(folded.y - b.y - 1)).toBeLessThanOrEqual(1);
    await page.mouse.move(b.x + b.width / 2, b.y + 17 + 8);
    await expect(page.getByRole('tooltip')).toContainText('clone3');
    await page.screenshot({ path: test.info().outputPath('viewer-icicle.png') });
  });

  test('a frame named like HTML renders as text', async ({ page }) => {
    const dialogs = collectDialogs(page);
    await gotoAndWait(page);
    const evil = '<img src=x onerror=alert(1)>';
    await openBytes(page, 'evil.folded', Buffer.from(`main;${evil};leaf 5\nmain;safe 3\n`));
    await waitForIdle(page);
    await walkHeaviest(page, 2);
    await expect(frameName(page)).toHaveText(evil);
    await page.keyboard.press('Enter');
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'main', evil]);
    const box = (await graph(page).boundingBox())!;
    // The zoomed frame is on the row above its folded ancestors (all, main).
    await page.mouse.move(box.x + 100, box.y + box.height - 17 - 8);
    await expect(page.getByRole('tooltip')).toContainText(evil);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('viewer-evil.png') });

    // Double-click on the empty space above the flames resets the zoom.
    await page.mouse.dblclick(box.x + box.width / 2, box.y + 20);
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all']);
  });

  test('without inline information, "Inline frames" is disabled and says why', async ({ page }) => {
    await gotoAndWait(page);
    await openFixture(page, 'rust-toyc.no-inline.folded');
    await waitForIdle(page);
    const inline = page.getByRole('button', { name: 'Inline frames' });
    await expect(inline).toBeDisabled();
    await expect(inline).toHaveAccessibleDescription(/No inline-frame information/);
    await expect(page.getByRole('button', { name: 'Functions' })).toHaveAttribute('aria-pressed', 'true');
  });

  test('the status bar shows the format, samples and warnings', async ({ page }) => {
    await gotoAndWait(page);
    await openBytes(page, 'warn.folded', Buffer.from('main;a 3\nmain;b 2\nthis line has no count\nmain;c 1\n'));
    await expect(page.getByTestId('recording-name')).toHaveText('warn.folded');
    await waitForIdle(page);
    const status = page.locator('footer');
    await expect(status).toContainText('Format: folded stacks');
    await expect(status).toContainText('Samples: 6');
    await status.getByRole('button', { name: '1 line skipped' }).click();
    const list = page.getByRole('region', { name: 'Warnings' });
    await expect(list).toContainText('line 3');
    await expect(list).toContainText('1 unparseable line was skipped.');
  });

  test('Ctrl + wheel zooms around the cursor, drag pans, double-click on empty space resets', async ({ page }) => {
    await gotoAndWait(page);
    await openBytes(page, 'wide.folded', Buffer.from('main;a;x 4\nmain;b;y 4\nother 2\n'));
    await expect(page.getByTestId('recording-name')).toHaveText('wide.folded');
    await waitForIdle(page);
    const reset = page.getByRole('button', { name: 'Reset zoom' });
    await expect(reset).toBeDisabled();
    const box = (await graph(page).boundingBox())!;
    const row = (d: number) => box.y + box.height - 17 * d - 8;
    await page.mouse.move(box.x + box.width * 0.2, row(1));
    await page.keyboard.down('Control');
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await waitForIdle(page);
    await expect(reset).toBeEnabled();
    // Zoomed in around x = 20 %, "a" (0-40 %) now covers the point under the cursor and beyond.
    await page.mouse.move(box.x + box.width * 0.9, row(2));
    await expect(page.getByRole('tooltip').locator('.frame-name-text')).toHaveText('a');
    // Dragging left shows what is to the right: "b".
    await page.mouse.move(box.x + box.width * 0.9, row(2));
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.1, row(2), { steps: 5 });
    await page.mouse.up();
    await waitForIdle(page);
    await page.mouse.move(box.x + box.width * 0.9, row(2) + 1);
    await expect(page.getByRole('tooltip').locator('.frame-name-text')).toHaveText('b');
    await page.screenshot({ path: test.info().outputPath('viewer-wheel.png') });
    await page.mouse.dblclick(box.x + box.width / 2, box.y + 20);
    await waitForIdle(page);
    await expect(reset).toBeDisabled();
    await expect(crumbs(page)).toHaveText(['all']);
  });

  test('the view state is a link: view, orientation, search and zoom come from and go to the hash', async ({ page }) => {
    await gotoAndWait(page, './#v=1&view=inline&orient=icicle&search=Parser');
    await expect(page.getByRole('button', { name: 'Inline frames' })).toHaveAttribute('aria-pressed', 'true');
    await expect((await menuButton(page, 'View', 'Icicle'))).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('Parser');
    await expect(summary(page)).toHaveText(/^Matched: \d+\.\d%$/);
    await page.getByRole('button', { name: 'Functions' }).click();
    await walkHeaviest(page, 3, 'ArrowDown'); // icicle: children are below
    await page.keyboard.press('Enter');
    await waitForIdle(page);
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#v=1&orient=icicle&view=functions&zoom=[^&]+&search=Parser$/);
    const link = page.url();
    const path = await crumbs(page).allTextContents();
    // The same link in a fresh page lands on the same zoom.
    await page.goto('about:blank');
    await gotoAndWait(page, link);
    await expect(crumbs(page)).toHaveText(path);
  });

  test('a catastrophic pattern arriving in a link does not freeze the page', async ({ page }) => {
    const body = `main;${'a'.repeat(40)}b 5\nmain;other 3\n`;
    await page.route('**/redos.folded', (route) => route.fulfill({ status: 200, body, headers: { 'content-type': 'text/plain' } }));
    await page.goto('./#profile=redos.folded&v=1&search=' + encodeURIComponent('(a+)+$'));
    await expect(page.getByTestId('recording-name')).toHaveText('redos.folded');
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('(a+)+$');
    await expect(summary(page)).toHaveText(/Search timed out/, { timeout: 10_000 });
    await waitForIdle(page);
    await (await menuButton(page, 'View', 'Icicle')).click();
    await expect((await menuButton(page, 'View', 'Icicle'))).toHaveAttribute('aria-pressed', 'true');
  });

  test('"?" lists the shortcuts and "/" focuses the search', async ({ page }) => {
    await gotoAndWait(page);
    await graph(page).focus();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Heaviest child');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(graph(page)).toBeFocused();
    await page.keyboard.press('/');
    await expect(page.getByRole('searchbox', { name: 'Search' })).toBeFocused();
  });

  test('the event picker reloads the recording for another event', async ({ page }) => {
    await gotoAndWait(page);
    const sample = (t: number, period: number, event: string, frames: string[]) =>
      `prog 100 ${t.toFixed(6)}: ${period} ${event}: \n` + frames.map((f, i) => `\t    ${(i + 1).toString(16)} ${f}+0x1 (/bin/prog)\n`).join('') + '\n';
    let text = '';
    for (let i = 0; i < 6; i++) text += sample(1 + i / 1000, 1000, 'cpu-clock:ppp', ['clock_leaf', 'main', '_start']);
    for (let i = 0; i < 3; i++) text += sample(2 + i / 1000, 7, 'cycles', ['cycles_leaf', 'main', '_start']);
    await openBytes(page, 'two-events.perf-script.txt', Buffer.from(text));
    await expect(page.getByTestId('recording-name')).toHaveText('two-events.perf-script.txt');
    await waitForIdle(page);
    const status = page.locator('footer');
    await expect(status).toContainText('Event: cpu-clock');
    const picker = (await menu(page, 'View')).getByLabel('Event');
    await expect(picker.locator('option')).toHaveCount(2);
    const cycles = (await picker.locator('option', { hasText: 'cycles' }).textContent())!;
    await picker.selectOption({ label: cycles });
    await expect(status).toContainText('Event: cycles');
    await waitForIdle(page);
    await walkHeaviest(page, 4);
    await expect(frameName(page)).toHaveText('cycles_leaf');
  });

  test.describe('on a HiDPI screen', () => {
    test.use({ deviceScaleFactor: 2 });
    test('the canvas has two device pixels per CSS pixel and follows resizes', async ({ page }) => {
      await gotoAndWait(page);
      const size = () =>
        page.evaluate(() => {
          const c = document.querySelector<HTMLCanvasElement>('[aria-label="Flame graph"] canvas')!;
          return { w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight };
        });
      let s = await size();
      expect(s.w).toBe(s.cssW * 2);
      expect(s.h).toBe(s.cssH * 2);
      await page.setViewportSize({ width: 900, height: 700 });
      await expect.poll(async () => (await size()).cssW).toBeLessThan(900);
      await waitForIdle(page);
      s = await size();
      expect(s.w).toBe(s.cssW * 2);
      await page.screenshot({ path: test.info().outputPath('viewer-hidpi.png') });
    });
  });

  test('walking up a deep stack scrolls the selection into view', async ({ page }) => {
    await gotoAndWait(page);
    const stack = Array.from({ length: 80 }, (_, i) => `f${i}`).join(';');
    await openBytes(page, 'deep.folded', Buffer.from(`${stack} 3\nother 1\n`));
    await expect(page.getByTestId('recording-name')).toHaveText('deep.folded');
    await waitForIdle(page);
    const scroll = () => graph(page).evaluate((el) => ({ top: el.scrollTop, max: el.scrollHeight - el.clientHeight }));
    const before = await scroll();
    expect(before.max).toBeGreaterThan(0);
    expect(before.top).toBe(before.max); // a flame graph opens at its root (the bottom)
    await walkHeaviest(page, 60);
    await expect(frameName(page)).toHaveText('f59');
    const after = await scroll();
    const view = await graph(page).evaluate((el) => el.clientHeight);
    // The row of depth 60 starts 61 rows above the bottom of the content; it must be in view.
    const rowTop = after.max + view - 61 * 17;
    expect(after.top).toBeLessThanOrEqual(rowTop);
    expect(after.top + view).toBeGreaterThanOrEqual(rowTop + 17);
    expect(after.top).toBeLessThan(before.top);
  });
});
