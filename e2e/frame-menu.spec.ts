// The frame context menu and the transforms it adds (issue 18, items 2-3): right-click, Shift+F10
// and the menu key, arrow keys/Home/End/Escape, the letter shortcuts; focus on subtree, drop
// samples, collapse function, collapse recursion (any) vs direct recursion only, collapse and
// focus on a library (perf's DSO) and a namespace, the function table's menu, old links. Every
// figure is computed here from the fixtures' folded oracles (and, for "which frames are libc's",
// from the perf script's DSO column), not by the viewer's code.

import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { collectDialogs, fixturePath, gotoAndWait, hashParam, openBytes, openFixture, openLinkedFixture, waitForIdle } from './helpers';
import { formatNs, heaviestPath, readFolded, totalOf, type Folded } from './viewer-oracle';

const oracle = readFolded('rust-toyc.no-inline.folded');
const PATH = heaviestPath(oracle, 14);
const FOCUS = 'toyc::compile_module';

const graph = (page: Page) => page.getByRole('application', { name: 'Flame graph', exact: true });
const details = (page: Page) => page.getByRole('region', { name: 'Selected frame' });
const frameName = (page: Page) => details(page).locator('.frame-name-text');
const chips = (page: Page) => page.getByRole('region', { name: 'Transforms' }).getByRole('listitem');
const total = (page: Page) => page.locator('.status-bar').getByText(/^Total weight:/);
const menu = (page: Page) => page.getByRole('menu');
const item = (page: Page, name: string) => menu(page).getByRole('menuitem', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
const grid = (page: Page) => page.getByRole('grid', { name: 'Functions' });
const rowNamed = (page: Page, name: string) => grid(page).locator('.fn-body [role="row"]').filter({ has: page.locator('.fn-name-text', { hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });

type Hook = { flameviewFrames: { rect(l: string, n: string): { x: number; y: number; width: number; height: number } | null } };
const rectOf = (page: Page, name: string) => page.evaluate((n) => (window as unknown as Hook).flameviewFrames.rect('Flame graph', n), name);

/** Selects PATH[steps - 1] with the keyboard (the first press selects the root). */
async function walkHeaviest(page: Page, steps: number) {
  await graph(page).focus();
  await page.keyboard.press('ArrowUp');
  for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowUp');
  await waitForIdle(page);
}

const sum = (f: Folded, keep: (frames: string[]) => boolean) => f.stacks.reduce((a, s) => (keep(s.frames) ? a + s.weight : a), 0);
const startsWith = (frames: string[], prefix: string[]) => prefix.every((p, i) => frames[i] === p);

test.describe('frame context menu', () => {
  test('opens from the keyboard and the mouse, moves with the arrows, closes with Escape; focus on subtree', async ({ page }) => {
    await openLinkedFixture(page, 'rust-toyc.perf-script.txt');
    await walkHeaviest(page, 8);
    await expect(frameName(page)).toHaveText(FOCUS);
    expect(PATH[7]).toBe(FOCUS);

    await page.keyboard.press('Shift+F10');
    await expect(menu(page)).toHaveAccessibleName(`Actions for ${FOCUS}`);
    const items = menu(page).getByRole('menuitem');
    await expect(items.first()).toBeFocused();
    await expect(items.first()).toHaveText('Focus on subtree onlyf');
    await page.keyboard.press('ArrowDown');
    await expect(item(page, 'Focus on function')).toBeFocused();
    await page.keyboard.press('End');
    await expect(item(page, 'Open callers & callees')).toBeFocused();
    await page.keyboard.press('ArrowDown'); // wraps
    await expect(items.first()).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(item(page, 'Open callers & callees')).toBeFocused();
    await page.keyboard.press('Home');
    await expect(items.first()).toBeFocused();
    for (const label of ['Merge function into callers', 'Drop samples with this function', 'Collapse function', 'Collapse recursion', 'Collapse direct recursion only', 'Copy name', 'Copy stack', 'Search for this name']) {
      await expect(item(page, label)).toHaveCount(1);
    }
    await expect(item(page, 'Collapse recursion')).toHaveAttribute('aria-keyshortcuts', 'r');
    await expect(item(page, 'Collapse direct recursion only')).toHaveAttribute('aria-keyshortcuts', 'Shift+R');
    await page.keyboard.press('Escape');
    await expect(menu(page)).toHaveCount(0);
    await expect(graph(page)).toBeFocused();
    await expect(frameName(page)).toHaveText(FOCUS); // Escape closed the menu, it did not zoom out

    // The menu key does the same; a right-click on a frame selects it and opens its menu there.
    await page.keyboard.press('ContextMenu');
    await expect(menu(page)).toBeVisible();
    await page.keyboard.press('Escape');
    const r = (await rectOf(page, PATH[5]))!;
    await page.mouse.click(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2, { button: 'right' });
    await expect(menu(page)).toHaveAccessibleName(`Actions for ${PATH[5]}`);
    await expect(frameName(page)).toHaveText(PATH[5]);
    const box = (await menu(page).boundingBox())!;
    expect(Math.abs(box.x - (r.x + Math.min(r.width / 2, 40)))).toBeLessThan(2);
    await page.screenshot({ path: test.info().outputPath('frame-menu-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: test.info().outputPath('frame-menu-dark.png') });
    await page.screenshot({ path: test.info().outputPath('frame-menu-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: test.info().outputPath('frame-menu-light.png') });
    // A press outside closes it.
    await page.mouse.click(5, 5);
    await expect(menu(page)).toHaveCount(0);

    // f: focus on this call path's subtree (not every call of the function).
    await page.reload();
    await waitForIdle(page);
    await walkHeaviest(page, 8);
    const subtreeTotal = totalOf(oracle, PATH.slice(0, 8));
    await page.keyboard.press('f');
    await waitForIdle(page);
    await expect(chips(page)).toHaveText([`Focus on subtree ${FOCUS}✕`]);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(subtreeTotal)}`);
    await expect.poll(() => hashParam(page, 'transforms')).toBe(`subtree:${PATH.slice(0, 8).map(encodeURIComponent).join(';')}`);
    // The same path in the inline-frame view: matched by its physical frames, same weight.
    await page.getByRole('button', { name: 'Inline frames' }).click();
    await waitForIdle(page);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(subtreeTotal)}`);
    await page.reload();
    await waitForIdle(page);
    await expect(chips(page)).toHaveText([`Focus on subtree ${FOCUS}✕`]);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(subtreeTotal)}`);
  });

  test('d drops the samples through a function; c collapses it; Ctrl+Z undoes', async ({ page }) => {
    await openLinkedFixture(page, 'rust-toyc.perf-script.txt');
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
    await walkHeaviest(page, 8);
    await page.keyboard.press('d');
    await waitForIdle(page);
    await expect(chips(page)).toHaveText([`Drop samples with ${FOCUS}✕`]);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total - sum(oracle, (f) => f.includes(FOCUS)))}`);
    await expect.poll(() => hashParam(page, 'transforms')).toBe('drop:toyc%3A%3Acompile_module');
    await page.keyboard.press('Control+z');
    await waitForIdle(page);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);

    await expect.poll(() => hashParam(page, 'transforms')).toBeNull();
    await page.reload(); // no selection: the walk starts at the root again
    await waitForIdle(page);
    await walkHeaviest(page, 8);
    await page.keyboard.press('c');
    await waitForIdle(page);
    await expect(chips(page)).toHaveText([`Collapse ${FOCUS}✕`]);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
    // Its callees are in it now: its self is its whole subtree.
    await expect(frameName(page)).toHaveText(FOCUS);
    await expect(details(page).locator('dd').last()).toContainText(formatNs(totalOf(oracle, PATH.slice(0, 8))));
  });

  test('r collapses any recursion, R direct recursion only: the outermost frame keeps what its inner calls had', async ({ page }) => {
    // The first frame of the heaviest path that recurs further down it, with frames in between.
    const at = PATH.findIndex((f, i) => PATH.indexOf(f, i + 2) > i);
    expect(at).toBeGreaterThan(0);
    const name = PATH[at];
    const prefix = PATH.slice(0, at + 1);
    const under = oracle.stacks.filter((s) => startsWith(s.frames, prefix));
    const selfAny = under.filter((s) => s.frames.at(-1) === name).reduce((a, s) => a + s.weight, 0);
    const selfDirect = under.filter((s) => s.frames.slice(at).every((f) => f === name)).reduce((a, s) => a + s.weight, 0);
    expect(selfAny).toBeGreaterThan(selfDirect);

    await openLinkedFixture(page, 'rust-toyc.perf-script.txt');
    await walkHeaviest(page, at + 1);
    await expect(frameName(page)).toHaveText(name);
    await page.keyboard.press('r');
    await waitForIdle(page);
    await expect(chips(page)).toHaveText([`Collapse recursion of ${name}✕`]);
    await expect(frameName(page)).toHaveText(name);
    await expect(details(page).locator('dd').last()).toContainText(formatNs(selfAny));
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
    await expect.poll(() => hashParam(page, 'transforms')).toBe(`anyrec:${encodeURIComponent(name)}`);

    await page.keyboard.press('Control+z');
    await waitForIdle(page);
    await expect.poll(() => hashParam(page, 'transforms')).toBeNull();
    await page.reload();
    await waitForIdle(page);
    await walkHeaviest(page, at + 1);
    await page.keyboard.press('Shift+R');
    await waitForIdle(page);
    await expect(chips(page)).toHaveText([`Collapse direct recursion of ${name}✕`]);
    await expect(details(page).locator('dd').last()).toContainText(formatNs(selfDirect));
    await expect.poll(() => hashParam(page, 'transforms')).toBe(`drec:${encodeURIComponent(name)}`);
  });

  test('copy name, copy stack, search for this name, open callers & callees; untrusted names stay text', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(baseURL!).origin });
    const dialogs = collectDialogs(page);
    const evil = 'evil::<img src=x onerror=alert(1)>';
    await gotoAndWait(page);
    await openBytes(page, 'evil.folded', Buffer.from(`main;${evil};leaf 3\nmain;other 1\n`));
    await expect(page.getByTestId('recording-name')).toHaveText('evil.folded');
    await waitForIdle(page);
    await walkHeaviest(page, 2);
    await expect(frameName(page)).toHaveText(evil);
    await page.keyboard.press('Shift+F10');
    await expect(menu(page)).toHaveAccessibleName(`Actions for ${evil}`);
    await expect(menu(page).locator('img')).toHaveCount(0);
    await item(page, 'Copy stack').click();
    await expect(menu(page)).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${evil}\nmain`);
    await page.keyboard.press('Shift+F10');
    await item(page, 'Copy name').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(evil);
    await page.keyboard.press('Shift+F10');
    await item(page, 'Search for this name').click();
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('^evil::<img src=x onerror=alert\\(1\\)>$');
    await waitForIdle(page);
    await expect(page.getByRole('status').filter({ hasText: /^Matched/ })).toHaveText('Matched: 75.0%');
    await page.keyboard.press('Shift+F10');
    // Folded stacks have no modules: the namespace is offered, with the C key.
    await expect(item(page, 'Collapse namespace evil::')).toHaveAttribute('aria-keyshortcuts', 'Shift+C');
    await expect(menu(page).getByRole('menuitem', { name: /library/ })).toHaveCount(0);
    await item(page, 'Open callers & callees').click();
    await expect(page.getByRole('heading', { name: `Callers of ${evil}` })).toBeVisible();
    await graph(page).focus();
    await page.keyboard.press('Shift+C');
    await waitForIdle(page);
    await expect(chips(page)).toHaveText(['Collapse namespace evil::✕']);
    expect(dialogs).toEqual([]);
  });

  test('an old link with rec:NAME still collapses direct recursion only; a bad subtree path gives a notice', async ({ page }) => {
    await openLinkedFixture(page, 'rust-toyc.perf-script.txt', '&transforms=rec:main');
    await expect(chips(page)).toHaveText(['Collapse direct recursion of main✕']);
    await page.goto('about:blank');
    await openLinkedFixture(page, 'rust-toyc.perf-script.txt', '&transforms=subtree:');
    await expect(page.getByRole('status', { name: 'Link notices' })).toContainText('no call path');
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(oracle.total)}`);
  });
});

test.describe('library and namespace transforms', () => {
  // Which function names are libc's: the perf script's DSO column (a name seen in one DSO only).
  const perf = readFileSync(fixturePath('rust-toyc.no-inline.perf-script.txt'), 'utf8');
  const dsos = new Map<string, Set<string>>();
  for (const line of perf.split('\n')) {
    const m = /^\s+[0-9a-f]+ (.+) \(([^()]*)\)$/.exec(line);
    if (!m) continue;
    const fn = m[1].replace(/\+0x[0-9a-f]+$/, '');
    dsos.set(fn, (dsos.get(fn) ?? new Set()).add(m[2]));
  }
  const libc = new Set([...dsos].filter(([, d]) => [...d].some((x) => x.endsWith('/libc.so.6'))).map(([fn]) => fn));
  const noInline = readFolded('rust-toyc.no-inline.folded');

  test('collapse library libc.so.6: its frame weighs what the stacks through libc weigh; focus on it keeps only libc', async ({ page }) => {
    for (const fn of libc) expect(dsos.get(fn)!.size).toBe(1);
    await openLinkedFixture(page, 'rust-toyc.no-inline.perf-script.txt');
    await page.getByRole('button', { name: 'Function table' }).click();
    // Right-click a libc frame: the menu offers its library.
    const r = (await rectOf(page, '__libc_start_call_main'))!;
    await page.mouse.click(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2, { button: 'right' });
    await expect(item(page, 'Collapse library libc.so.6')).toHaveAttribute('aria-keyshortcuts', 'Shift+C');
    await item(page, 'Collapse library libc.so.6').click();
    await waitForIdle(page);
    await expect(chips(page)).toHaveText(['Collapse library libc.so.6✕']);
    await expect.poll(() => hashParam(page, 'transforms')).toBe('collapse-lib:libc.so.6');
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(noInline.total)}`);
    const row = rowNamed(page, 'libc.so.6');
    await expect(row.getByRole('gridcell').nth(3)).toHaveText(formatNs(sum(noInline, (f) => f.some((x) => libc.has(x)))));
    for (const fn of libc) await expect(rowNamed(page, fn)).toHaveCount(0);

    // Focus on the library: only libc's functions are left; the total stays (the rest is the root's).
    await page.keyboard.press('Control+z');
    await waitForIdle(page);
    await openLinkedFixture(page, 'rust-toyc.no-inline.perf-script.txt', '&transforms=focus-lib:libc.so.6');
    await page.getByRole('button', { name: 'Function table' }).click();
    await expect(chips(page)).toHaveText(['Focus on library libc.so.6✕']);
    const present = new Set(noInline.stacks.flatMap((s) => s.frames.filter((f) => libc.has(f))));
    await expect(page.getByTestId('fn-caption')).toHaveText(`${present.size} functions`);
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(noInline.total)}`);
  });

  test('the function table menu: collapse namespace std:: on a C++ recording', async ({ page }) => {
    const maps = readFolded('cpp/maps.no-inline.folded');
    const isStd = (f: string) => /^std::/.test(f);
    await gotoAndWait(page);
    await openFixture(page, 'cpp/maps.perf-script.txt');
    await expect(page.getByTestId('recording-name')).toHaveText('maps.perf-script.txt');
    await waitForIdle(page);
    await page.getByRole('button', { name: 'Function table' }).click();
    const stdRow = grid(page).locator('.fn-body [role="row"]').filter({ has: page.locator('.fn-name-text', { hasText: /^std::/ }) }).first();
    await stdRow.click({ button: 'right' });
    await expect(menu(page)).toBeVisible();
    await expect(item(page, 'Focus on subtree only')).toHaveAttribute('aria-disabled', 'true');
    await item(page, 'Collapse namespace std::').click();
    await waitForIdle(page);
    await expect(chips(page)).toHaveText(['Collapse namespace std::✕']);
    await expect(grid(page)).toBeFocused();
    await expect(rowNamed(page, 'std::').getByRole('gridcell').nth(3)).toHaveText(formatNs(sum(maps, (f) => f.some(isStd))));
    await expect(total(page)).toHaveText(`Total weight: ${formatNs(maps.total)}`);
    // From the keyboard: the selected row's menu with Shift+F10, a letter runs its transform.
    await grid(page).focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+F10');
    await expect(menu(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(grid(page)).toBeFocused();
  });
});
