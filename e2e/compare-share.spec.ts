// Share with a comparison open, against a real `bin/flameview serve --store`: both recordings are
// uploaded (in parallel) and the link (/p/<id A>#…&compare=<…/api/profiles/<id B>>) reopens both,
// compared, in a fresh page. A failed upload of either links nothing and says which one failed.

import { expect, test, type Page } from '@playwright/test';
import { fixturePath, menu, menuButton, openFixture, startStoreServer, waitForIdle, type StoreServer } from './helpers';

const A = 'rust-toyc.run-a.perf-script.txt';
const B = 'rust-toyc.run-b.perf-script.txt';
const ID = '[0-9a-f]{64}';

async function idle(page: Page, label: string) {
  await expect(page.locator(`[aria-label="${label}"][aria-busy="false"]`)).toBeVisible({ timeout: 60_000 });
}

let server: StoreServer | null = null;
let base = '';

test.beforeAll(async () => {
  server = await startStoreServer('flameview-compare-share-', ['--list']);
  base = server.base;
});

test.afterAll(() => server?.stop());

/** The page at the server's root with A opened from a file and B from "Compare with file". */
async function openBothFromFiles(page: Page) {
  await page.goto(`${base}/`);
  await waitForIdle(page);
  await openFixture(page, A);
  await expect(page.getByTestId('recording-name')).toContainText(A);
  await waitForIdle(page);
  await page.getByLabel('Compare with file').setInputFiles(fixturePath(B));
  await idle(page, 'Comparison flame graph');
}

test('Share with a comparison open uploads both; the link reopens both, compared, in a new page', async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await openBothFromFiles(page);
  await page.getByRole('button', { name: 'Inline frames' }).click();
  await page.getByRole('button', { name: 'Differential' }).click();
  await idle(page, 'Differential flame graph');

  await (await menuButton(page, 'More actions', 'Copy link')).click();
  const panel = page.getByRole('group', { name: 'Link' });
  await expect(panel).toContainText('Neither recording is in the link');
  await expect(panel).toContainText('Share uploads both to this server so that the link opens them: processed, a compact form that opens without parsing.');
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/profiles')) posts.push(decodeURIComponent(r.headers()['x-filename'] ?? ''));
  });
  await panel.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(panel.getByRole('status')).toHaveText('Uploaded to this server: the link now opens both recordings. Link copied.');
  // Each as its processed form, named after its file.
  expect(posts.sort()).toEqual([`${A}.flameview`, `${B}.flameview`]);
  await expect(page).toHaveURL(new RegExp(`/p/${ID}#.*compare=%2Fapi%2Fprofiles%2F${ID}`));
  const url = page.url();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  expect(url).toMatch(/mode=diff/);
  await expect(panel).not.toContainText('not in the link');
  await expect(panel.getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
  const listed = (await (await page.request.get(`${base}/api/profiles`)).json()) as { name: string }[];
  expect(listed.map((r) => r.name).sort()).toEqual([`${A}.flameview`, `${B}.flameview`]);
  // Later writes of the hash (a view toggle) keep the comparison in the link.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Functions' }).click();
  await expect.poll(() => page.url()).not.toMatch(/view=inline/);
  expect(page.url()).toMatch(new RegExp(`compare=%2Fapi%2Fprofiles%2F${ID}`));

  // The link in a fresh page: A from the path, B from compare=, both named as uploaded.
  const fresh = await context.newPage();
  await fresh.goto(url);
  await idle(fresh, 'Differential flame graph');
  await expect(fresh.getByTestId('recording-name')).toContainText(A);
  await expect(fresh.locator('.compare-names')).toContainText(B);
  await expect(fresh.getByRole('button', { name: 'Inline frames' })).toHaveAttribute('aria-pressed', 'true');
  await expect(fresh.getByRole('region', { name: 'Changed functions' }).getByRole('row').nth(1)).toBeVisible();
  await fresh.getByRole('button', { name: 'Side by side' }).click();
  await idle(fresh, 'Baseline flame graph');
  await idle(fresh, 'Comparison flame graph');
  await fresh.screenshot({ path: test.info().outputPath('shared-comparison.png') });
  // Both came from the link: nothing to upload.
  await (await menuButton(fresh, 'More actions', 'Copy link')).click();
  await expect(fresh.getByRole('group', { name: 'Link' })).not.toContainText('not in the link');
  await expect((await menu(fresh, 'More actions')).getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
});

test('a failed upload of the comparison links nothing and says so; Share again then links both', async ({ page }) => {
  await openBothFromFiles(page);
  const before = page.url();
  await page.route('**/api/profiles', (route) =>
    route.request().method() === 'POST' && route.request().headers()['x-filename'] === encodeURIComponent(`${B}.flameview`) ? route.abort('failed') : route.fallback(),
  );
  await (await menu(page, 'More actions')).getByRole('button', { name: 'Share', exact: true }).click();
  const panel = page.getByRole('group', { name: 'Link' });
  await expect(panel.getByRole('status')).toContainText(`Could not share the recordings: the comparison (${B}): the upload failed`);
  await expect(panel.getByRole('status')).toContainText('nothing was linked');
  expect(page.url()).toBe(before);
  await expect(panel).toContainText('Neither recording is in the link');
  await page.screenshot({ path: test.info().outputPath('share-comparison-failed.png') });

  await page.unrouteAll();
  await panel.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(panel.getByRole('status')).toHaveText('Uploaded to this server: the link now opens both recordings. Link copied.');
  await expect(page).toHaveURL(new RegExp(`/p/${ID}#.*compare=%2Fapi%2Fprofiles%2F${ID}`));
});
