// The team server from the browser, against a real `bin/flameview serve --upload-token FILE
// --list`: Share asks for the upload token once and keeps it for that server; "Delete shared
// copy" deletes what this browser uploaded (with the delete token the upload answered); the
// server's root page lists the recordings, names as text, with Delete only for this browser's own.

import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectDialogs, menuButton, openBytes, startStoreServer, waitForIdle, type StoreServer } from './helpers';

const TOKEN = 'e2e-team-token-0123456789abcdef';
const folded = (root: string) => `${root};main;parse;lex 30\n${root};main;emit 20\n`;
const EVIL = '<img src=x onerror=alert(1)>.folded';

let server: StoreServer | null = null;
let base = '';
let tokenDir = '';

test.beforeAll(async () => {
  tokenDir = mkdtempSync(path.join(tmpdir(), 'flameview-e2e-token-'));
  writeFileSync(path.join(tokenDir, 'token'), `${TOKEN}\n`);
  server = await startStoreServer('flameview-team-', ['--upload-token', path.join(tokenDir, 'token'), '--list']);
  base = server.base;
});

test.afterAll(() => {
  server?.stop();
  rmSync(tokenDir, { recursive: true, force: true });
});

const linkPanel = (page: Page) => page.getByRole('group', { name: 'Link' });

/** Opens folded text from "a file" on a page of the server that is not its bare root. */
async function openAt(page: Page, name: string, text: string) {
  await page.goto(`${base}/#v=1`);
  await waitForIdle(page);
  await openBytes(page, name, Buffer.from(text));
  await waitForIdle(page);
}

test('Share asks for the upload token once and keeps it; "Delete shared copy" deletes the upload', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await openAt(page, 'first.folded', folded('first'));
  await (await menuButton(page, 'More actions', 'Share')).click();
  const panel = linkPanel(page);
  await expect(panel).toContainText('This server needs its upload token');
  await panel.getByRole('textbox', { name: 'Upload token' }).fill('not-the-token-at-all');
  await panel.getByRole('button', { name: 'Save token and share' }).click();
  await expect(panel).toContainText('The server did not take that token.');
  await page.screenshot({ path: test.info().outputPath('upload-token-refused.png') });
  await panel.getByRole('textbox', { name: 'Upload token' }).fill(TOKEN);
  await panel.getByRole('button', { name: 'Save token and share' }).click();
  await expect(panel.getByRole('status')).toHaveText('Uploaded to this server: the link now opens the recording. Link copied.');
  await expect(page).toHaveURL(/\/p\/[0-9a-f]{64}#/);
  const firstUrl = page.url();
  const firstId = /\/p\/([0-9a-f]{64})/.exec(firstUrl)![1];
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('flameview:upload-token:')))).toHaveLength(1);

  // A second recording from this browser: no question asked.
  await openAt(page, 'second.folded', folded('second'));
  await (await menuButton(page, 'More actions', 'Share')).click();
  await expect(linkPanel(page).getByRole('status')).toHaveText('Uploaded to this server: the link now opens the recording. Link copied.');
  await expect(linkPanel(page)).not.toContainText('upload token');

  // Back on the first one's link: this browser uploaded it, so it may delete it.
  await page.goto(firstUrl);
  await waitForIdle(page);
  await (await menuButton(page, 'More actions', 'Copy link')).click();
  await linkPanel(page).getByRole('button', { name: 'Delete shared copy' }).click();
  await expect(linkPanel(page).getByRole('status')).toHaveText(
    'Delete the shared copy of first.folded.flameview from this server? Its links will stop opening it; it stays open in this page.',
  );
  await page.screenshot({ path: test.info().outputPath('delete-confirm.png') });
  await linkPanel(page).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(linkPanel(page).getByRole('status')).toHaveText('Deleted from this server: its links no longer open it.');
  await expect(linkPanel(page).getByRole('button', { name: 'Delete shared copy' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('deleted.png') });
  expect((await page.request.get(`${base}/api/profiles/${firstId}`)).status()).toBe(404);
  expect((await page.request.get(`${base}/p/${firstId}`)).status()).toBe(404);
});

test('the server root lists the recordings, names as text, with Delete only for this browser’s own', async ({ page, browser }) => {
  const dialogs = collectDialogs(page);
  // Someone else's upload, under a name that is markup.
  const theirs = await page.request.post(`${base}/api/profiles`, {
    data: Buffer.from(folded('theirs')),
    headers: { authorization: `Bearer ${TOKEN}`, 'x-filename': encodeURIComponent(EVIL), 'content-type': 'application/octet-stream' },
  });
  expect(theirs.status()).toBe(201);
  const theirsId = ((await theirs.json()) as { id: string }).id;

  await page.goto(`${base}/`);
  const list = page.getByRole('group', { name: 'Recordings on this server' });
  await expect(list).toBeVisible();
  await list.getByRole('textbox', { name: 'Upload token' }).fill(TOKEN);
  await list.getByRole('button', { name: 'Save token and list' }).click();
  const row = (name: string) => list.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row(EVIL)).toBeVisible();
  await expect(row(EVIL).getByRole('link')).toHaveAttribute('href', `${base}/p/${theirsId}`);
  await expect(row(EVIL).getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  // One of this browser's own, shared from a file: listed with Delete.
  await openAt(page, 'mine.folded', folded('mine'));
  await (await menuButton(page, 'More actions', 'Share')).click();
  await expect(linkPanel(page).getByRole('status')).toContainText('Uploaded to this server');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Recordings', exact: true }).click();
  await expect(row('mine.folded.flameview')).toBeVisible();
  await expect(list.getByRole('row').nth(1)).toContainText('mine.folded.flameview'); // newest first
  await expect(row('mine.folded.flameview')).toContainText('B');
  await page.screenshot({ path: test.info().outputPath('recordings-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('recordings-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await row('mine.folded.flameview').getByRole('button', { name: 'Delete mine.folded.flameview' }).click();
  await expect(row('mine.folded.flameview')).toHaveCount(0);
  await expect(row(EVIL)).toBeVisible();
  expect(dialogs).toEqual([]);

  // Another browser has neither the token nor the delete tokens: the link still opens.
  const other = await browser.newContext();
  try {
    const fresh = await other.newPage();
    await fresh.goto(`${base}/p/${theirsId}`);
    await waitForIdle(fresh);
    await expect(fresh.getByTestId('recording-name')).toContainText(EVIL);
    // The page's first script opened it (src/boot.ts), and the app took that open over.
    expect(await fresh.evaluate(() => performance.getEntriesByName('flameview:first-open').length)).toBe(1);
    await (await menuButton(fresh, 'More actions', 'Copy link')).click();
    await expect(linkPanel(fresh).getByRole('button', { name: 'Delete shared copy' })).toHaveCount(0);
  } finally {
    await other.close();
  }
});
