// Several recordings as one (issue 31, item 2): files chosen together in the Open file dialog
// open as one graph of their sum, formats mixed; the status bar lists them, and "each as a root
// frame" puts each file's stacks under a frame of its name. Figures from the folded oracles.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { fixturePath, gotoAndWait, serveFixtures, waitForIdle } from './helpers';
import { readFolded } from './viewer-oracle';
import { formatCount } from '../src/format';

const FILES = ['groups/a1.folded', 'groups/b2.folded', 'rust-toyc.no-inline.perf-script.txt'];
// The perf script recording's folded twin (stackcollapse-perf.pl): the same stacks and weights.
const TOTALS = [readFolded('groups/a1.folded'), readFolded('groups/b2.folded'), readFolded('rust-toyc.no-inline.folded')].map((f) => f.total);
const footer = (page: Page) => page.locator('footer');
const details = (page: Page) => page.getByRole('region', { name: 'Selected frame' });

test('several files opened together: one graph of their sum, listed in the status bar, each as a root frame on demand', async ({ page }) => {
  await gotoAndWait(page);
  await page.getByLabel('Open file').setInputFiles(FILES.map(fixturePath));
  await expect(page.getByTestId('recording-name')).toHaveText('a1.folded + b2.folded + rust-toyc.no-inline.perf-script.txt');
  await waitForIdle(page);
  const listed = page.getByTestId('status-recordings');
  // Mixed formats: each recording is labelled with its own, and the format is 'mixed'.
  await expect(listed).toContainText('3 recordings: a1.folded (folded stacks), b2.folded (folded stacks), rust-toyc.no-inline.perf-script.txt (perf script)');
  await expect(footer(page)).toContainText('Format: mixed');
  // Mixed units (folded counts and perf's nanoseconds) are added as numbers: the total is the sum.
  await expect(footer(page)).toContainText(`Total weight: ${formatCount(TOTALS.reduce((a, b) => a + b, 0))}`);

  const roots = listed.getByRole('checkbox', { name: 'each as a root frame' });
  await expect(roots).not.toBeChecked();
  // Controlled by the recording: checked once the files are read again with root frames.
  await roots.click();
  await expect(roots).toBeChecked();
  await waitForIdle(page);
  // The root's heaviest child is now the heaviest recording, by its file name.
  const heaviest = FILES[TOTALS.indexOf(Math.max(...TOTALS))].split('/').pop()!;
  await page.getByRole('application', { name: 'Flame graph' }).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(details(page).locator('.frame-name-text')).toHaveText(heaviest);
  await expect(footer(page)).toContainText(`Total weight: ${formatCount(TOTALS.reduce((a, b) => a + b, 0))}`);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.mouse.move(0, 0);
    await waitForIdle(page);
    await page.screenshot({ path: `docs/screenshots/many-recordings-${scheme}.png` });
  }
});

test('a file that cannot be read among several names it, and the open recording stays', async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flameview-many-'));
  try {
    const broken = path.join(dir, 'broken.txt');
    writeFileSync(broken, 'this is not a profile\nnor is this\n');
    await gotoAndWait(page);
    await page.getByLabel('Open file').setInputFiles([fixturePath('groups/a1.folded'), broken]);
    await expect(page.getByRole('alert')).toContainText('broken.txt');
    await expect(page.getByTestId('recording-name')).toHaveText('rust-toyc.perf-script.txt');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('several profile= in a link: one graph of their sum, listed, and the link keeps naming them all', async ({ page }) => {
  await serveFixtures(page);
  const runs = ['a1', 'a2', 'a3', 'b1', 'b2'].map((r) => `groups/${r}.folded`);
  // The slash is encoded so that the route's last path segment names the fixture.
  const profiles = runs.map((f) => `profile=e2e-fixtures/${encodeURIComponent(encodeURIComponent(f))}`).join('&');
  await page.goto(`./#v=1&${profiles}`);
  await waitForIdle(page);
  const listed = page.getByTestId('status-recordings');
  // One format: the list has no labels, the format is the recordings'.
  await expect(listed).toHaveText(new RegExp(`^5 recordings: ${runs.join(', ').replaceAll('.', '\\.')} ?each as a root frame$`));
  await expect(footer(page)).toContainText('Format: folded stacks');
  const total = runs.map((f) => readFolded(f).total).reduce((a, b) => a + b, 0);
  await expect(footer(page)).toContainText(`Total weight: ${formatCount(total)}`);
  // The URL sync keeps every profile= (in order), so a reload opens the same sum.
  await expect.poll(() => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).getAll('profile').length)).toBe(5);
  await page.reload();
  await waitForIdle(page);
  await expect(page.getByTestId('status-recordings')).toContainText(`5 recordings: ${runs.join(', ')}`);
  await expect(footer(page)).toContainText(`Total weight: ${formatCount(total)}`);
});

test('a link naming a missing recording among several says which, and opens nothing in its place', async ({ page }) => {
  await serveFixtures(page);
  await page.goto(`./#v=1&profile=e2e-fixtures/${encodeURIComponent(encodeURIComponent('groups/a1.folded'))}&profile=e2e-fixtures/missing.folded`);
  await expect(page.getByRole('alert')).toContainText('missing.folded');
  await expect(page.getByRole('alert')).toContainText('404');
});

test('groups compared: five runs as A, five chosen together as the comparison B, each side summed; the real change leads the table', async ({ page }) => {
  const side = (s: 'a' | 'b') => [1, 2, 3, 4, 5].map((i) => `groups/${s}${i}.folded`);
  await gotoAndWait(page);
  await page.getByLabel('Open file').setInputFiles(side('a').map(fixturePath));
  await expect(page.getByTestId('recording-name')).toHaveText(side('a').map((f) => f.split('/')[1]).join(' + '));
  await waitForIdle(page);
  await page.getByLabel('Compare with file').setInputFiles(side('b').map(fixturePath));
  await expect(page.locator('.compare-names')).toContainText(`B ${side('b').map((f) => f.split('/')[1]).join(' + ')}`);
  await page.getByRole('group', { name: 'Comparison view' }).getByRole('button', { name: 'Differential' }).click();
  const table = page.getByRole('region', { name: 'Changed functions' });
  await expect(table).toHaveAttribute('aria-busy', 'false');
  // Each side normalised by its own total: scan_table's share grows by some 3 points, more
  // than any other kernel's (fixtures/groups/README.md), so it heads the table.
  await expect(table.getByRole('row').nth(1)).toContainText('scan_table');

  // Each side's spread over its runs, from the compare worker: the real change stands out of
  // its spread; of the unchanged functions with self weight (leaves of the runs' stacks), at
  // least 90 % are marked noise, as the CLI's --table oracle asks (src/cli/diff-groups.test.ts).
  await expect(table.getByRole('columnheader', { name: 'Spread A / B' })).toBeVisible();
  const selfNames = new Set([...side('a'), ...side('b')].flatMap((f) => readFolded(f).stacks.map((x) => x.frames[x.frames.length - 1])));
  const rows = await table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({ name: tr.querySelector('.compare-fn')?.textContent ?? '', noise: tr.querySelector('.compare-badge.noise') !== null, spread: tr.querySelector('.compare-spread')?.textContent ?? '' })),
  );
  expect(rows.length).toBeLessThan(200); // every function on the first page
  const scan = rows.find((r) => r.name === 'scan_table')!;
  expect(scan.noise).toBe(false);
  await expect(table.getByRole('row').nth(1).locator('.compare-badge')).toHaveText('change');
  expect(scan.spread).toMatch(/^\d+\.\d\d \/ \d+\.\d\d pp$/);
  const unchanged = rows.filter((r) => r.name !== 'scan_table' && selfNames.has(r.name));
  expect(unchanged.length).toBeGreaterThan(20);
  expect(unchanged.filter((r) => r.noise).length / unchanged.length).toBeGreaterThanOrEqual(0.9);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.mouse.move(0, 0);
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await table.screenshot({ path: `docs/screenshots/group-compare-table-${scheme}.png` });
  }
});

test('several compare= in a link: B is the sum of those runs, the change table has their spread, and the URL sync keeps them all', async ({ page }) => {
  await serveFixtures(page);
  const link = (s: 'a' | 'b', key: string) => [1, 2, 3, 4, 5].map((i) => `${key}=e2e-fixtures/${encodeURIComponent(encodeURIComponent(`groups/${s}${i}.folded`))}`).join('&');
  await page.goto(`./#v=1&${link('a', 'profile')}&${link('b', 'compare')}&mode=diff`);
  await expect(page.locator('.compare-names')).toContainText(`B ${[1, 2, 3, 4, 5].map((i) => `groups/b${i}.folded`).join(' + ')}`);
  const table = page.getByRole('region', { name: 'Changed functions' });
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(table.getByRole('row').nth(1)).toContainText('scan_table');
  await expect(table.getByRole('row').nth(1).locator('.compare-badge')).toHaveText('change');
  await expect(table.getByRole('columnheader', { name: 'Spread A / B' })).toBeVisible();
  const compares = () => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).getAll('compare'));
  await expect.poll(compares).toEqual([1, 2, 3, 4, 5].map((i) => `e2e-fixtures/${encodeURIComponent(`groups/b${i}.folded`)}`));
  await page.reload();
  await expect(page.locator('.compare-names')).toContainText(`B ${[1, 2, 3, 4, 5].map((i) => `groups/b${i}.folded`).join(' + ')}`);
  await expect.poll(compares).toHaveLength(5);
});
