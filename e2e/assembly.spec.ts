// The Assembly panel in Chromium: with the disassembly `bin/flameview FILE` serves (fixtures/asm,
// a perf.data whose binary is in the repository, found with --symfs), without binaries (the page
// alone: `--raw`, no route), and with a binary that is gone (the route says why); names and
// operands with markup in them render as text.

import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startCli, waitForIdle, type RunningCli, REPO_ROOT } from './helpers';

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
