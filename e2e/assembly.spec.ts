// The Assembly panel in Chromium: with the disassembly `bin/flameview FILE` serves (fixtures/asm,
// a perf.data whose binary is in the repository, found with --symfs), without binaries (the page
// alone: `--raw`, no route), and with a binary that is gone (the route says why); names and
// operands with markup in them render as text. A pprof profile alone lists its sampled addresses
// (fixtures/asm-pprof); a processed file the page exports keeps the offsets the panel shows.

import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportAs, startCli, waitForIdle, type RunningCli, REPO_ROOT } from './helpers';

const ASM = path.join(REPO_ROOT, 'fixtures', 'asm');
const HOSTILE = '<img src=x onerror=window.__pwned=1>';
// A function whose name is markup, sampled at two offsets, in a binary that is not on this machine.
const sample = (t: number, offset: string) => `prog 100/100 ${t.toFixed(6)}: 1000 cpu-clock:ppp: \n\t    401019 ${HOSTILE}+${offset} (/nonexistent/prog)\n\t    401100 main+0x10 (/nonexistent/prog)\n\n`;
const PERF = [0, 1, 2].map((i) => sample(1 + i / 10, '0x195')).join('') + sample(1.5, '0x20');

const panel = (page: Page) => page.getByRole('complementary', { name: 'Assembly panel' });

/** The README's screenshots, in both themes. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await waitForIdle(page);
    await page.screenshot({ path: `docs/screenshots/${name}-${scheme}.png` });
  }
}

let dir = '';
const clis: RunningCli[] = [];
test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'flameview-asm-'));
  writeFileSync(path.join(dir, 'hostile.perf-script.txt'), PERF);
});
test.afterAll(() => {
  for (const c of clis.splice(0)) c.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function open(page: Page, args: string[], fn: string): Promise<void> {
  const cli = await startCli(args);
  clis.push(cli);
  await page.goto(`${cli.url}&panel=asm&fn=${encodeURIComponent(fn)}`);
  await waitForIdle(page);
  await expect(panel(page).locator('[aria-busy="false"]').first()).toBeVisible();
}

test('flameview perf.data --symfs: the served instructions with shares, hottest in view, source lines, jumps that scroll', async ({ page }) => {
  await open(page, ['--no-open', '--symfs', ASM, path.join(ASM, 'loops.perf.data')], 'chase');
  const listing = panel(page).getByRole('table', { name: 'Instructions of chase' });
  await expect(listing).toBeVisible();
  await expect(panel(page)).toContainText('build id matches');
  // perf annotate puts 99.97 % of chase on the cmp at +0x16, after the load (fixtures/asm/loops.annotate.1.txt).
  const hottest = listing.locator('tr[aria-current="true"]');
  await expect(hottest).toContainText('+0x16');
  await expect(hottest).toBeInViewport();
  await expect(listing.locator('tr.al-note', { hasText: /loops\.c:17$/ }).first()).toBeVisible();
  // objdump's `<chase+0x10>` operand is text, and its jump is a button that scrolls to the target.
  const jne = listing.locator('tr', { hasText: 'jne' });
  await expect(jne.locator('.al-text')).toContainText('<chase+0x10>');
  await jne.getByRole('button', { name: '→ +0x10' }).click();
  const target = listing.locator('tr', { has: page.locator('td.al-gutter', { hasText: /^\+0x10$/ }) });
  await expect(target).toBeFocused();
  await shoot(page, 'assembly');
});

test('the page alone (no route): the hottest offsets as a table, and a name with markup stays text', async ({ page }) => {
  await open(page, ['--no-open', '--raw', path.join(dir, 'hostile.perf-script.txt')], HOSTILE);
  await expect(panel(page)).toContainText('This page has no disassembler');
  const table = panel(page).getByRole('table', { name: `Hottest offsets of ${HOSTILE}` });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('+0x195');
  await expect(rows.nth(0).locator('.al-self')).toHaveText('75.0%');
  await expect(rows.nth(1)).toContainText('+0x20');
  await expect(panel(page).locator('.al-caption')).toHaveText(HOSTILE);
  await expect(panel(page).locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await shoot(page, 'assembly-alone');
});

test('a binary that is gone: the route says why and what to pass, and the offsets are shown', async ({ page }) => {
  await open(page, ['--no-open', path.join(dir, 'hostile.perf-script.txt')], HOSTILE);
  await expect(panel(page).getByRole('note')).toHaveText(/^\/nonexistent\/prog is not on this machine: pass --symfs DIR/);
  await expect(panel(page)).not.toContainText('This page has no disassembler');
  await expect(panel(page).getByRole('table', { name: `Hottest offsets of ${HOSTILE}` }).locator('tbody tr')).toHaveCount(2);
  await expect(panel(page).locator('img')).toHaveCount(0);
});

/** The rows of the page-alone table: each gutter and share, heaviest first. */
async function tableRows(page: Page, name: string): Promise<string[][]> {
  const rows = panel(page).getByRole('table', { name }).locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  return rows.evaluateAll((trs) => trs.map((tr) => [tr.querySelector('.al-gutter')?.textContent ?? '', tr.querySelector('.al-self')?.textContent ?? '']));
}

test('a pprof profile alone: the sampled addresses, labelled as addresses, at the shares go tool pprof -disasm gives', async ({ page }) => {
  const dir = path.join(REPO_ROOT, 'fixtures', 'asm-pprof');
  await open(page, ['--no-open', '--raw', path.join(dir, 'loops-go.pb.gz')], 'main.divide');
  await expect(panel(page)).toContainText("pprof records each sample's address in the process, not its offset in the function");
  await expect(panel(page).getByRole('columnheader', { name: 'Address' })).toBeVisible();
  // The third column holds each address's self weight, not an instruction's text.
  await expect(panel(page).getByRole('columnheader', { name: 'Self weight' })).toBeVisible();
  // The oracle: pprof's own flat times per instruction (record.sh), as shares of the function.
  const flat = [...readFileSync(path.join(dir, 'loops-go.disasm.divide.txt'), 'utf8').matchAll(/^\s+(\d+)ms\s+(?:\.|\d+ms)\s+([0-9a-f]+):/gm)].map((m) => ({ address: `0x${m[2]}`, ms: Number(m[1]) }));
  const total = flat.reduce((a, f) => a + f.ms, 0);
  const want = flat.sort((a, b) => b.ms - a.ms || parseInt(a.address, 16) - parseInt(b.address, 16)).map((f) => [f.address, `${((100 * f.ms) / total).toFixed(1)}%`]);
  expect(await tableRows(page, 'Hottest addresses of main.divide')).toEqual(want);
  await shoot(page, 'assembly-pprof');
});

test('Export → processed recording → opened again: the same offsets in the Assembly panel', async ({ page }) => {
  await open(page, ['--no-open', '--raw', path.join(ASM, 'loops.perf-script.txt.gz')], 'divide');
  const before = await tableRows(page, 'Hottest offsets of divide');
  expect(before.length).toBeGreaterThan(1);
  const saved = await exportAs(page, dir, 'Processed recording (.flameview)');
  await open(page, ['--no-open', '--raw', saved.file], 'divide');
  expect(await tableRows(page, 'Hottest offsets of divide')).toEqual(before);
});
