// The analysis panel: the function table (sorted, checked against the folded oracle, filtered by
// the search, virtualised), selecting a row highlights its frames in the flame graph, a frame
// click selects its row, callers and callees of the selected function, short names, and links
// that reopen the panel on a function (panel=, fn=, names=).

import { expect, test, type Page } from '@playwright/test';
import { functionSumsFromFolded } from '../src/core/testing/folded-oracle';
import { collectDialogs, gotoAndWait, menuButton, openBytes, openFixture, traceMainThread, waitForIdle } from './helpers';
import { formatNs, perlTidy, readFolded } from './viewer-oracle';

const oracleFolded = readFolded('rust-toyc.no-inline.folded');
const oracle = functionSumsFromFolded(oracleFolded.stacks.map((s) => `${s.frames.join(';')} ${s.weight}`));

/** The oracle's call-tree nodes of a function: root-first path → total weight. */
function oracleNodes(fn: string): Map<string, number> {
  const nodes = new Map<string, number>();
  for (const s of oracleFolded.stacks) {
    s.frames.forEach((f, i) => {
      if (f !== fn) return;
      const path = s.frames.slice(0, i + 1).join(';');
      nodes.set(path, (nodes.get(path) ?? 0) + s.weight);
    });
  }
  return nodes;
}
type FramesHook = { flameviewFrames: { rect(a: string, b: string): { x: number; y: number; width: number; height: number } | null; reveal(a: string, b: string): boolean } };

const graph = (page: Page) => page.getByRole('application', { name: 'Flame graph' });
const grid = (page: Page) => page.getByRole('grid', { name: 'Functions' });
const bodyRows = (page: Page) => grid(page).locator('.fn-body [role="row"]');
const cellsOf = async (page: Page, i: number) => bodyRows(page).nth(i).getByRole('gridcell').allInnerTexts();

async function openToyc(page: Page, hash = '') {
  await gotoAndWait(page, hash ? `./${hash}` : './');
  await openFixture(page, 'rust-toyc.perf-script.txt');
  await expect(page.getByTestId('recording-name')).toHaveText('rust-toyc.perf-script.txt');
  await waitForIdle(page);
}

test.describe('function table', () => {
  test('sorts, matches the oracle, filters by the search, highlights the selected function', async ({ page }) => {
    await openToyc(page);
    await page.getByRole('button', { name: 'Function table' }).click();
    await expect(grid(page)).toBeVisible();
    const caption = page.getByTestId('fn-caption');
    await expect(caption).toHaveText(/^[\d,]+ functions$/);
    const all = Number((await caption.innerText()).replace(/\D/g, ''));
    const selfHeader = grid(page).getByRole('columnheader', { name: /^Self/ }).first();
    await expect(selfHeader).toHaveAttribute('aria-sort', 'descending');

    // The top rows by self weight against the oracle's sums (names the oracle spells the same).
    const bySelf = [...oracle].sort((a, b) => b[1][0] - a[1][0]);
    let checked = 0;
    for (let i = 0; i < 6; i++) {
      const [name, self, , total] = await cellsOf(page, i);
      const fn = name.replace(/inlined$/, '').trim();
      // perf --no-inline names a few glibc functions differently (unlink_chunk.constprop.0): skip those.
      const want = oracle.get(fn);
      if (perlTidy(fn) !== fn || !want) continue;
      expect(self).toBe(formatNs(want![0]));
      expect(total).toBe(formatNs(want![1]));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(4);
    expect((await cellsOf(page, 0))[0].replace(/inlined$/, '').trim()).toBe(bySelf[0][0]);

    // Sort by total (descending), then again (ascending).
    const totalHeader = grid(page).getByRole('columnheader', { name: /^Total/ }).first();
    await totalHeader.getByRole('button').click();
    await expect(totalHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(selfHeader).not.toHaveAttribute('aria-sort', /./);
    const totalPcts = async () => {
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push(parseFloat((await cellsOf(page, i))[4]));
      return out;
    };
    const desc = await totalPcts();
    expect(desc[0]).toBeGreaterThan(99); // _start and friends carry (nearly) everything
    expect(desc).toEqual([...desc].sort((x, y) => y - x));
    await totalHeader.getByRole('button').click();
    await expect(totalHeader).toHaveAttribute('aria-sort', 'ascending');
    const asc = await totalPcts();
    expect(asc).toEqual([...asc].sort((x, y) => x - y));
    expect(asc[0]).toBeLessThan(1);
    await selfHeader.getByRole('button').click();
    await expect(selfHeader).toHaveAttribute('aria-sort', 'descending');

    // Virtualised: far fewer rows in the DOM than functions.
    expect(await bodyRows(page).count()).toBeLessThan(all);

    // The search filters the table.
    await page.getByRole('searchbox').fill('parse');
    await expect(caption).toHaveText(new RegExp(`^[\\d,]+ of ${all.toLocaleString('en-US')} functions match the search$`));
    const shown = await bodyRows(page).count();
    expect(shown).toBeGreaterThan(0);
    for (let i = 0; i < shown; i++) expect((await cellsOf(page, i))[0]).toMatch(/parse/);
    await page.getByRole('searchbox').fill('');
    await expect(caption).toHaveText(/^[\d,]+ functions$/);

    // The inline view lists inlined functions, with their badge.
    await page.getByRole('button', { name: 'Inline frames' }).click();
    await waitForIdle(page);
    await expect(grid(page).locator('.fn-body .fn-badge', { hasText: 'inlined' }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Functions', exact: true }).click();
    await waitForIdle(page);

    // Reversed (bottom-up): the same figures per function.
    const firstRow = await cellsOf(page, 0);
    const reversed = (await menuButton(page, 'View', 'Reversed'));
    await reversed.click();
    await expect(reversed).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('region', { name: 'Transforms' })).toContainText('Reversed');
    await waitForIdle(page);
    // The graph shows the derived reversed tree (the table follows it).
    expect(await page.evaluate(() => {
      const s = (window as unknown as { flameview: { store: { getState(): { derived: { reversed: boolean } | null } } } }).flameview.store.getState();
      return s.derived?.reversed ?? false;
    })).toBe(true);
    await expect.poll(() => cellsOf(page, 0)).toEqual(firstRow);
    await reversed.click();
    await waitForIdle(page);
    await page.keyboard.press('Escape'); // close the View menu, which lies over the table's first rows

    // Selecting a row highlights its frames in the flame graph.
    const name = bySelf[0][0];
    await bodyRows(page).nth(0).click();
    await expect(bodyRows(page).nth(0)).toHaveAttribute('aria-selected', 'true');
    await waitForIdle(page);
    await expect(graph(page)).toHaveAttribute('data-highlighted', /^[1-9]\d*$/);
    // At most one highlighted frame per node of the function in the oracle's tree (narrow ones
    // are not drawn), and its heaviest node is drawn at its share of the graph's width.
    const nodes = oracleNodes(name);
    expect(Number(await graph(page).getAttribute('data-highlighted'))).toBeLessThanOrEqual(nodes.size);
    const canvasWidth = (await graph(page).locator('canvas').boundingBox())!.width;
    expect(await page.evaluate((n) => (window as unknown as FramesHook).flameviewFrames.reveal('Flame graph', n), name)).toBe(true);
    const widest = () => page.evaluate((n) => (window as unknown as FramesHook).flameviewFrames.rect('Flame graph', n)?.width ?? -1, name);
    const heaviest = Math.max(...nodes.values());
    await expect.poll(widest).toBeCloseTo((canvasWidth * heaviest) / oracleFolded.total, 0);
    // The keyboard moves the selection, and the highlight follows.
    await grid(page).focus();
    await page.keyboard.press('ArrowDown');
    await expect(bodyRows(page).nth(1)).toHaveAttribute('aria-selected', 'true');
    expect(page.url()).not.toContain(encodeURIComponent(name) + '&');
    await waitForIdle(page);
    await expect(graph(page)).toHaveAttribute('data-highlighted', /^[1-9]\d*$/);
  });
});

const frameRect = async (page: Page, name: string) => (await page.evaluate((n) => (window as unknown as FramesHook).flameviewFrames.rect('Flame graph', n), name))!;

/** The canvas pixel (r, g, b) of the main flame graph at viewport CSS px (x, y). */
const pixelAt = (page: Page, x: number, y: number) =>
  page.locator('[aria-label="Flame graph"] canvas').evaluate((c: HTMLCanvasElement, [x, y]) => {
    const r = c.getBoundingClientRect();
    const k = c.width / r.width;
    const d = c.getContext('2d')!.getImageData(Math.floor((x - r.left) * k), Math.floor((y - r.top) * k), 1, 1).data;
    return [d[0], d[1], d[2]];
  }, [x, y]);

test.describe('function table selection', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`a selected row fades the rest of the graph as a search does, rings its frames, and the details follow it (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await openToyc(page);
      const fn = 'toyc::compile_module';
      await page.getByRole('button', { name: 'Function table' }).click();
      await expect(grid(page)).toBeVisible();
      await waitForIdle(page);
      // A point on a frame of another function (its right end, clear of its label).
      const other = await frameRect(page, 'toyc_cgu.0');
      const otherAt = [other.x + other.width - 4, other.y + other.height / 2] as const;
      const plain = await pixelAt(page, ...otherAt);

      // A frame picked in the graph first: the details show it.
      await graph(page).focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await waitForIdle(page);
      const details = page.getByRole('region', { name: 'Selected frame' });
      const before = (await details.locator('.frame-name-text').innerText()).trim();
      expect(before).not.toBe(fn);

      // Picking the function's row (near the top by total): the details show that function, over
      // all its call sites.
      await grid(page).getByRole('button', { name: 'Total' }).click();
      const row = bodyRows(page).filter({ has: page.locator(`.fn-name[title="${fn}"]`) });
      await row.click();
      await expect(row).toHaveAttribute('aria-selected', 'true');
      await waitForIdle(page);
      await expect(details.locator('.frame-name-text')).toHaveText(fn);
      await expect(details).toContainText('Function, all call sites');
      const total = (await row.getByRole('gridcell').nth(3).innerText()).trim();
      await expect(details).toContainText(`(${total})`);
      await expect(graph(page)).toHaveAttribute('data-highlighted', /^[1-9]\d*$/);

      // The other function's frame has faded; its frames carry a 3 px ring with a 1 px inner line.
      const faded = await pixelAt(page, ...otherAt);
      expect(faded).not.toEqual(plain);
      const mine = await frameRect(page, fn);
      const ring = scheme === 'dark' ? [0xf8, 0xbb, 0xd0] : [0xad, 0x14, 0x57];
      const inner = scheme === 'dark' ? [0x18, 0x19, 0x1c] : [0xff, 0xff, 0xff];
      for (const dy of [0, 1, 2]) expect(await pixelAt(page, mine.x + mine.width / 2, mine.y + dy + 0.5)).toEqual(ring);
      expect(await pixelAt(page, mine.x + mine.width / 2, mine.y + 3.5)).toEqual(inner);
      await page.screenshot({ path: test.info().outputPath(`function-table-selection-${scheme}.png`) });

      // The same fade as a search for that function alone (the table closed: the graph is wider).
      await page.getByRole('button', { name: 'Function table' }).click();
      await page.getByRole('searchbox', { name: 'Search' }).fill(`^${fn}$`);
      await waitForIdle(page);
      const wide = await frameRect(page, 'toyc_cgu.0');
      expect(await pixelAt(page, wide.x + wide.width - 4, wide.y + wide.height / 2)).toEqual(faded);
    });
  }
});

test.describe('callers and callees', () => {
  test('shows both graphs of the selected function; a frame click selects its row; short names; links reopen the panel', async ({ page }) => {
    await openToyc(page);
    const fn = 'toyc::interpret';
    await page.getByRole('button', { name: 'Function table' }).click();
    await bodyRows(page).filter({ hasText: fn }).first().click();
    await page.getByRole('button', { name: 'Callers & callees' }).click();
    const callers = page.getByRole('application', { name: 'Callers flame graph' });
    const callees = page.getByRole('application', { name: 'Callees flame graph' });
    await expect(callers).toHaveAttribute('aria-busy', 'false');
    await expect(callees).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByRole('heading', { name: `Callers of ${fn}` })).toBeVisible();
    await expect(page.getByRole('heading', { name: `Callees of ${fn}` })).toBeVisible();
    // Both graphs draw the function (their root frame) and highlight it.
    for (const label of ['Callers flame graph', 'Callees flame graph']) {
      const rect = await page.evaluate(([l, n]) => (window as unknown as { flameviewFrames: { rect(a: string, b: string): { width: number } | null } }).flameviewFrames.rect(l, n), [label, fn]);
      expect(rect, label).not.toBeNull();
      expect(rect!.width).toBeGreaterThan(200);
    }
    await expect(callers).toHaveAttribute('data-highlighted', /^[1-9]/);
    // The callees' figures add up to the function's total (the table's Total, the caption's share).
    const fnShare = ((100 * oracle.get(fn)![1]) / oracleFolded.total).toFixed(1);
    expect(fnShare).toBe('13.0');
    await expect(page.getByTestId('callers-callees-caption')).toContainText(`${fn}: ${fnShare}% of the profile`);
    // Hover a caller: the tooltip names it and its share of the function.
    const caller = await page.evaluate((n) => {
      const hook = (window as unknown as { flameviewFrames: { rect(a: string, b: string): { x: number; y: number; width: number; height: number } | null } }).flameviewFrames;
      return hook.rect('Callers flame graph', n);
    }, 'toyc::compile_module');
    expect(caller).not.toBeNull();
    await page.mouse.move(caller!.x + caller!.width / 2, caller!.y + caller!.height / 2);
    await expect(page.getByTestId('callers-tooltip')).toContainText('toyc::compile_module');
    await expect(page.getByTestId('callers-tooltip')).toContainText(`of ${fn}`);
    // A click on a callee zooms that graph to it (full width), the other graph stays.
    const rectIn = (label: string, n: string) =>
      page.evaluate(([l, x]) => (window as unknown as { flameviewFrames: { rect(a: string, b: string): { x: number; y: number; width: number; height: number } | null } }).flameviewFrames.rect(l, x), [label, n]);
    const calleesWidth = (await callees.boundingBox())!.width;
    const child = await rectIn('Callees flame graph', '__GI___libc_free');
    expect(child).not.toBeNull();
    expect(child!.width).toBeLessThan(calleesWidth * 0.9);
    await page.mouse.click(child!.x + child!.width / 2, child!.y + child!.height / 2);
    await expect(callees).toHaveAttribute('aria-busy', 'false');
    await expect.poll(async () => (await rectIn('Callees flame graph', '__GI___libc_free'))?.width ?? 0).toBeGreaterThan(calleesWidth * 0.95);

    // Short names: labels shortened, the link says so; the table shows short names with the full one as title.
    await (await menuButton(page, 'View', 'Short names')).click();
    await expect((await menuButton(page, 'View', 'Short names'))).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => page.url()).toContain('names=short');
    await page.getByRole('button', { name: 'Function table' }).click();
    const generic = bodyRows(page).filter({ hasText: 'core::ptr::drop_in_place<…>' }).first();
    await expect(generic).toBeVisible();
    await expect(generic.locator('.fn-name')).toHaveAttribute('title', 'core::ptr::drop_in_place<toyc::Expr>');
    await waitForIdle(page);

    // A click on a frame of the flame graph selects its function's row.
    await graph(page).focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await waitForIdle(page);
    const selectedName = (await page.getByRole('region', { name: 'Selected frame' }).locator('.frame-name-text').innerText()).trim();
    const selectedRow = grid(page).locator('.fn-body [role="row"][aria-selected="true"]');
    await expect(selectedRow.locator('.fn-name')).toHaveAttribute('title', selectedName);

    // The link reopens the panel on the function, with short names.
    await page.getByRole('button', { name: 'Callers & callees' }).click();
    await expect.poll(() => page.url()).toContain('panel=sandwich');
    const url = page.url();
    expect(url).toContain(`fn=${encodeURIComponent(selectedName)}`);
    await page.goto('about:blank');
    await page.goto(url.replace(/#.*/, '') + '#' + url.split('#')[1]);
    await openFixture(page, 'rust-toyc.perf-script.txt');
    await waitForIdle(page);
    await expect(page.getByRole('button', { name: 'Callers & callees' })).toHaveAttribute('aria-pressed', 'true');
    await expect((await menuButton(page, 'View', 'Short names'))).toHaveAttribute('aria-pressed', 'true');
    await expect(callers).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('callers-callees-caption')).toHaveAttribute('title', selectedName);
  });

  test('untrusted names render as text in the table and the sandwich', async ({ page }) => {
    const dialogs = collectDialogs(page);
    await gotoAndWait(page);
    const evil = '<img src=x onerror=alert(1)>';
    await openBytes(page, 'evil.folded', Buffer.from(`main;${evil};leaf 5\nmain;other 3\n`));
    await waitForIdle(page);
    await page.getByRole('button', { name: 'Function table' }).click();
    const row = bodyRows(page).filter({ hasText: evil }).first();
    await expect(row).toBeVisible();
    await row.dblclick();
    await expect(page.getByRole('heading', { name: `Callers of ${evil}` })).toBeVisible();
    await (await menuButton(page, 'View', 'Short names')).click();
    await expect(page.getByRole('application', { name: 'Callees flame graph' })).toHaveAttribute('aria-busy', 'false');
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });
});

test.describe('function table size', () => {
  test('100,000 functions: only the rows in view are in the DOM, and scrolling stays under 50 ms of CPU per task', async ({ page }) => {
    test.setTimeout(180_000);
    const t0 = Date.now();
    const log = (what: string) => console.log(`${what}: ${Date.now() - t0} ms`);
    await gotoAndWait(page);
    const n = 100_000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`main;mod${i % 97}::function_${i} ${1 + (i % 13)}`);
    await openBytes(page, 'many.folded', Buffer.from(lines.join('\n') + '\n'));
    await waitForIdle(page, 120_000);
    log('opened');
    await page.getByRole('button', { name: 'Function table' }).click();
    await expect(page.getByTestId('fn-caption')).toHaveText('100,001 functions');
    log('table shown');
    expect(await bodyRows(page).count()).toBeLessThan(80);
    const body = grid(page).locator('.fn-body');
    const tasks = await traceMainThread(page, async () => {
      for (let step = 1; step <= 40; step++) {
        await body.evaluate((el, f) => (el.scrollTop = el.scrollHeight * f), step / 40);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
      }
    });
    log('scrolled');
    // Logged, not bounded (a clock in a test measures the machine's load); what keeps a scroll
    // cheap is asserted below: only the rows in view are in the DOM.
    console.log(`scrolling 100,001 rows: ${tasks.tasks} tasks, longest ${tasks.longestCpuMs.toFixed(1)} ms CPU (${tasks.longestWallMs.toFixed(1)} ms wall)`);
    // At the bottom: the lightest functions (self 1, sorted by name last), and still few rows in the DOM.
    await expect(bodyRows(page).last()).toBeVisible();
    expect(await bodyRows(page).count()).toBeLessThan(80);
    expect((await cellsOf(page, (await bodyRows(page).count()) - 1))[1]).toBe('0');
  });
});
