// Off-CPU and wall-clock time in the viewer (issue 27): a recording of CPU samples and sched_switch
// opens on its CPU samples; picking Wall clock reads it again with the off-CPU leaves, drawn in
// their own colours with a legend entry, searchable, in both themes.

import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fixturePath, hashParam, menu, openFixture, waitForIdle } from './helpers';

test('pick Wall clock: off-CPU leaves, their legend, search and the link’s event', async ({ page }) => {
  await page.goto('./');
  await waitForIdle(page);
  await openFixture(page, 'offcpu/waits-a.perf-script.txt.gz');
  await waitForIdle(page);
  const picker = (await menu(page, 'View')).getByLabel('Event');
  await expect(picker).toHaveValue('cpu-clock/freq=999/');
  const legend = page.getByRole('list', { name: 'Frame colours' });
  await expect(legend.getByText('off-CPU')).toHaveCount(0);

  await picker.selectOption('Wall clock');
  await waitForIdle(page);
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
  await (await menu(page, 'View')).getByLabel('Event').selectOption('Off-CPU');
  await waitForIdle(page);
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

  // (The recording has no inline frames, printed with --no-inline: the view toggle is off.)
  await page.reload();
  await waitForIdle(page);
  await expect((await menu(page, 'View')).getByLabel('Event')).toHaveValue('Wall clock');
  await expect.poll(() => hashParam(page, 'zoom')).toBe(zoom);
  await expect(page.getByRole('status').filter({ hasText: /^Matched: .*\(99\.\d% of zoom\)$/ })).toBeVisible();
});
