// Off-CPU and wall-clock time in the viewer (issue 27): a recording of CPU samples and sched_switch
// opens on its CPU samples; picking Wall clock reads it again with the off-CPU leaves, drawn in
// their own colours with a legend entry, searchable, in both themes; both views of a recording
// with inline frames keep the event and the zoom, and a copied link reopens them.

import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fixturePath, hashParam, menu, menuButton, openFixture, pickEvent, waitForIdle } from './helpers';

test('pick Wall clock: off-CPU leaves, their legend, search and the link’s event', async ({ page }) => {
  await page.goto('./');
  await waitForIdle(page);
  await openFixture(page, 'offcpu/waits-a.perf-script.txt.gz');
  await waitForIdle(page);
  const picker = (await menu(page, 'View')).getByLabel('Event');
  await expect(picker).toHaveValue('cpu-clock/freq=999/');
  const legend = page.getByRole('list', { name: 'Frame colours' });
  await expect(legend.getByText('off-CPU')).toHaveCount(0);

  await pickEvent(page, 'Wall clock');
  await expect((await menu(page, 'View')).getByLabel('Event')).toHaveValue('Wall clock');
  await waitForIdle(page);
  await expect.poll(() => hashParam(page, 'event')).toBe(encodeURIComponent('Wall clock'));
  await expect(legend.getByText('off-CPU')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill('off-CPU: sleeping');
  await expect(page.getByRole('status').filter({ hasText: /^Matched/ })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await page.keyboard.press('Escape');
  await waitForIdle(page);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await waitForIdle(page);
    await page.screenshot({ path: `docs/screenshots/offcpu-wall-${scheme}.png` });
  }

  // The other derived event: the off-CPU time alone.
  await pickEvent(page, 'Off-CPU');
  await expect((await menu(page, 'View')).getByLabel('Event')).toHaveValue('Off-CPU');
  await waitForIdle(page);
  await expect.poll(() => hashParam(page, 'event')).toBe('Off-CPU');
});

test('a link to Wall clock and a zoom reopens at the same event, zoom and search, and a reload keeps them', async ({ page }) => {
  const body = readFileSync(fixturePath('offcpu/waits-a.perf-script.txt.gz'));
  await page.route('**/e2e-fixtures/**', (route) => route.fulfill({ status: 200, body, headers: { 'content-type': 'application/gzip' } }));
  const zoom = 'waits;clone3;start_thread;sleeper;sleep_known';
  await page.goto(`./#v=1&profile=e2e-fixtures/waits-a.perf-script.txt.gz&event=Wall%20clock&zoom=${zoom}`);
  await waitForIdle(page);
  await expect((await menu(page, 'View')).getByLabel('Event')).toHaveValue('Wall clock');
  await expect.poll(() => hashParam(page, 'zoom')).toBe(zoom);
  // In the zoom, the sleeper's time is almost all off CPU, asleep.
  await page.getByRole('searchbox', { name: 'Search' }).fill('off-CPU: sleeping');
  await expect(page.getByRole('status').filter({ hasText: /^Matched: .*\(99\.\d% of zoom\)$/ })).toBeVisible();
  // And its sleeps end by their timer: the waker frame above the state leaf says so.
  await page.getByRole('searchbox', { name: 'Search' }).fill('woken by: timer');
  await expect(page.getByRole('status').filter({ hasText: /^Matched: .*\(9\d\.\d% of zoom\)$/ })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('off-CPU: sleeping');
  // The link follows the search after a short delay (url-sync's write): reload once it has.
  await expect.poll(async () => decodeURIComponent((await hashParam(page, 'search')) ?? '')).toBe('off-CPU: sleeping');

  // (The recording has no inline frames, printed with --no-inline: the view toggle is off.)
  await page.reload();
  await waitForIdle(page);
  await expect((await menu(page, 'View')).getByLabel('Event')).toHaveValue('Wall clock');
  await expect.poll(() => hashParam(page, 'zoom')).toBe(zoom);
  await expect(page.getByRole('status').filter({ hasText: /^Matched: .*\(99\.\d% of zoom\)$/ })).toBeVisible();
});

test('Wall clock of a recording with inline frames: both views keep the event and the zoom, and a copied link reopens them', async ({ page, context }) => {
  // locks.c was printed with inline frames (spin is inlined into worker): the view toggle is on.
  const body = readFileSync(fixturePath('offcpu/locks-a.perf-script.txt.gz'));
  await context.route('**/e2e-fixtures/**', (route) => route.fulfill({ status: 200, body, headers: { 'content-type': 'application/gzip' } }));
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('./#v=1&profile=e2e-fixtures/locks-a.perf-script.txt.gz');
  await waitForIdle(page);
  await (await menu(page, 'View')).getByLabel('Event').selectOption('Wall clock');
  await waitForIdle(page);
  await page.keyboard.press('Escape');
  const legend = page.getByRole('list', { name: 'Frame colours' });
  await expect(legend.getByText('off-CPU')).toBeVisible();
  // Zoom to worker by a click on it.
  const rect = (await page.evaluate(() => (window as unknown as { flameviewFrames: { rect(l: string, n: string): { x: number; y: number; width: number; height: number } | null } }).flameviewFrames.rect('Flame graph', 'worker')))!;
  await page.mouse.click(rect.x + rect.width / 2, rect.y + rect.height / 2);
  await waitForIdle(page);
  await expect.poll(() => hashParam(page, 'zoom')).toMatch(/;worker$/);
  const zoom = await hashParam(page, 'zoom');
  // The waits under worker: the lock's and usleep's.
  await page.getByRole('searchbox', { name: 'Search' }).fill('off-CPU: sleeping');
  await expect(page.getByRole('status').filter({ hasText: /^Matched: .*% of zoom\)$/ })).toBeVisible();

  for (const view of ['Inline frames', 'Functions']) {
    await page.getByRole('button', { name: view }).click();
    await waitForIdle(page);
    await expect(page.getByRole('button', { name: view })).toHaveAttribute('aria-pressed', 'true');
    await expect((await menu(page, 'View')).getByLabel('Event')).toHaveValue('Wall clock');
    await page.keyboard.press('Escape');
    await expect(legend.getByText('off-CPU')).toBeVisible();
    await expect.poll(() => hashParam(page, 'zoom')).toBe(zoom);
    await expect(page.getByRole('status').filter({ hasText: /^Matched: .*% of zoom\)$/ })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Inline frames' }).click();
  await waitForIdle(page);
  await (await menuButton(page, 'More actions', 'Copy link')).click();
  await expect(page.getByRole('group', { name: 'Link' }).getByRole('status')).toHaveText('Link copied.');
  const link = await page.evaluate(() => navigator.clipboard.readText());

  const fresh = await context.newPage();
  await fresh.goto(link);
  await waitForIdle(fresh);
  await expect((await menu(fresh, 'View')).getByLabel('Event')).toHaveValue('Wall clock');
  await fresh.keyboard.press('Escape');
  await expect(fresh.getByRole('button', { name: 'Inline frames' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => hashParam(fresh, 'zoom')).toBe(zoom);
  await expect(fresh.getByRole('list', { name: 'Frame colours' }).getByText('off-CPU')).toBeVisible();
});

test('without sched_switch the derived events are absent and the picker says how to record them; with it, what they are', async ({ page }) => {
  await page.goto('./');
  await waitForIdle(page);
  await openFixture(page, 'rust-toyc.perf-script.txt');
  await waitForIdle(page);
  const picker = (await menu(page, 'View')).getByLabel('Event');
  await expect(picker.locator('option')).toHaveCount(1);
  await expect(picker.locator('option', { hasText: /Off-CPU|Wall clock/ })).toHaveCount(0);
  await expect(page.locator('label.picker', { has: page.getByLabel('Event') })).toHaveAttribute('title', /need sched:sched_switch: perf record -e cpu-clock -e sched:sched_switch --call-graph dwarf/);
  await page.keyboard.press('Escape');

  await openFixture(page, 'offcpu/waits-a.perf-script.txt.gz');
  await waitForIdle(page);
  const derived = (await menu(page, 'View')).getByLabel('Event');
  await expect(derived.locator('option', { hasText: /^Wall clock/ })).toHaveCount(1);
  await expect(page.locator('label.picker', { has: page.getByLabel('Event') })).toHaveAttribute('title', /derived from sched:sched_switch/);
});
