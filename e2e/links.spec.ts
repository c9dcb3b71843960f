// Links: the hash state (#v=1&profile=…&view=…&zoom=<frame path>&search=…&case=i) opens the same
// recording in the same view, zoomed to the same frame, with the same search; reload, back and
// forward, the view toggle; a missing frame falls back to its closest ancestor with a notice; bad
// values give notices. Copy link / Share, the latter against a real `bin/flameview serve`.

import { expect, test, type Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { hashParam, menu, menuButton, openBytes, startStoreServer, waitForIdle, type StoreServer } from './helpers';

// A physical `lex` and an inlined `lex_[i]` are siblings under parse: the suffix tells them apart.
const FOLDED = [
  'app;main;parse;lex_[i];next_token 30',
  'app;main;parse;lex_[i];skip_ws 10',
  'app;main;parse;lex;peek 5',
  'app;main;parse;expr 20',
  'app;main;emit;write 15',
  'app;main;emit;lex 5',
  '',
].join('\n');
const TOTAL = 85;

// Folded text cannot carry `;` inside a name; speedscope JSON can.
const ODD = 'a;b&c#d%e f';
const SPEEDSCOPE = JSON.stringify({
  $schema: 'https://www.speedscope.app/file-format-schema.json',
  shared: { frames: [{ name: 'main' }, { name: ODD }, { name: 'leaf' }, { name: 'other' }] },
  profiles: [{ type: 'sampled', name: 'odd', unit: 'none', startValue: 0, endValue: 4, samples: [[0, 1, 2], [0, 1, 2], [0, 1], [0, 3]], weights: [1, 1, 1, 1] }],
});

// Two events, two threads of one process (perf script): for event= and split=.
const sample = (tid: number, event: string, leaf: string) => `prog 100/${tid} 1.000000: 1000 ${event}: \n\t    1 ${leaf}+0x1 (/bin/prog)\n\t    2 main+0x1 (/bin/prog)\n\t    3 _start+0x1 (/bin/prog)\n\n`;
const PERF = [sample(100, 'cpu-clock:ppp', 'clock_a'), sample(101, 'cpu-clock:ppp', 'clock_b'), sample(101, 'cpu-clock:ppp', 'clock_b'), sample(100, 'cycles', 'cyc_a'), sample(101, 'cycles', 'cyc_b')].join('');

// By name alpha, beta, gamma in both; heaviest first beta, gamma, alpha in A and alpha, gamma, beta in B.
const HEAVY_A = 'app;alpha 10\napp;beta;deep 30\napp;gamma 20\n';
const HEAVY_B = 'app;alpha 40\napp;beta;deep 5\napp;gamma 20\n';
const BODIES: Record<string, string> = { 'links.folded': FOLDED, 'odd.speedscope.json': SPEEDSCOPE, 'two.perf-script.txt': PERF, 'heavy-a.folded': HEAVY_A, 'heavy-b.folded': HEAVY_B };

async function serveFixtures(page: Page): Promise<void> {
  await page.route('**/e2e-fixtures/**', async (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop() ?? '';
    const body = BODIES[name] ?? null;
    if (body === null) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ status: 200, body, headers: { 'content-type': 'text/plain' } });
  });
}

const crumbs = (page: Page) => page.locator('nav[aria-label="Zoom path"] li');
const pressed = (page: Page, name: string) => page.getByRole('group', { name: 'Frames' }).getByRole('button', { name });
const summary = (page: Page) => page.getByRole('status').filter({ hasText: /^(Matched|Searching)/ });
const notices = (page: Page) => page.getByRole('status', { name: 'Link notices' });
const noNotices = (page: Page) => expect(page.locator('.link-notice')).toHaveCount(0);

const LEX_I = 'app;main;parse;lex_%5Bi%5D';
const LINK = `./#v=1&profile=e2e-fixtures/links.folded&view=inline&zoom=${LEX_I}&search=TOKEN&case=i`;

test.describe('links', () => {
  test.beforeEach(async ({ page }) => serveFixtures(page));

  test('a link opens the recording in its view, zoom and search, and a reload keeps them', async ({ page }) => {
    await page.goto(LINK);
    await waitForIdle(page);
    for (let round = 0; round < 2; round++) {
      await expect(crumbs(page)).toHaveText(['all', 'app', 'main', 'parse', 'lex']);
      await expect(pressed(page, 'Inline frames')).toHaveAttribute('aria-pressed', 'true');
      await expect(summary(page)).toHaveText(`Matched: ${((100 * 30) / TOTAL).toFixed(1)}% (75.0% of zoom)`);
      await expect(page.getByLabel('Ignore case')).toBeChecked();
      await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('TOKEN');
      await noNotices(page);
      await expect.poll(() => hashParam(page, 'zoom')).toBe(LEX_I);
      await page.reload();
      await waitForIdle(page);
    }
    // The physical sibling of the same name is another frame.
    await page.goto('./#profile=e2e-fixtures/links.folded&view=inline&zoom=app;main;parse;lex');
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'app', 'main', 'parse', 'lex']);
    await noNotices(page);
    await expect.poll(() => hashParam(page, 'zoom')).toBe('app;main;parse;lex');
  });

  test('toggling the view keeps the zoom and rewrites the path; back and forward step through zooms', async ({ page }) => {
    await page.goto(LINK);
    await waitForIdle(page);
    const start = await page.evaluate(() => history.length);
    // Function view: lex_[i] is merged into parse, so the zoom lands on parse (replacing the entry).
    await pressed(page, 'Functions').click();
    await expect(pressed(page, 'Functions')).toHaveAttribute('aria-pressed', 'true');
    await expect(crumbs(page)).toHaveText(['all', 'app', 'main', 'parse']);
    await expect.poll(() => hashParam(page, 'view')).toBe('functions');
    await expect.poll(() => hashParam(page, 'zoom')).toBe('app;main;parse');
    expect(await page.evaluate(() => history.length)).toBe(start);
    // Typing a search replaces the entry too.
    await page.getByRole('searchbox', { name: 'Search' }).fill('write');
    await expect.poll(() => hashParam(page, 'search')).toBe('write');
    expect(await page.evaluate(() => history.length)).toBe(start);
    // Zooms push.
    await page.getByRole('button', { name: 'main', exact: true }).click();
    await expect.poll(() => hashParam(page, 'zoom')).toBe('app;main');
    await page.getByRole('button', { name: 'app', exact: true }).click();
    await expect.poll(() => hashParam(page, 'zoom')).toBe('app');
    expect(await page.evaluate(() => history.length)).toBe(start + 2);
    await page.goBack();
    await expect(crumbs(page)).toHaveText(['all', 'app', 'main']);
    await page.goBack();
    await expect(crumbs(page)).toHaveText(['all', 'app', 'main', 'parse']);
    await page.goForward();
    await expect(crumbs(page)).toHaveText(['all', 'app', 'main']);
    await page.goForward();
    await expect(crumbs(page)).toHaveText(['all', 'app']);
    await expect(pressed(page, 'Functions')).toHaveAttribute('aria-pressed', 'true');
    await noNotices(page);
  });

  test('a frame name with ; & # % and a space survives the link, a reload and a zoom', async ({ page }) => {
    const encoded = encodeURIComponent(ODD);
    expect(encoded).toBe('a%3Bb%26c%23d%25e%20f');
    await page.goto(`./#profile=e2e-fixtures/odd.speedscope.json&zoom=main;${encoded};leaf`);
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'main', ODD, 'leaf']);
    await page.reload();
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'main', ODD, 'leaf']);
    await page.getByRole('button', { name: ODD, exact: true }).click();
    await expect.poll(() => hashParam(page, 'zoom')).toBe(`main;${encoded}`);
    await page.goBack();
    await expect(crumbs(page)).toHaveText(['all', 'main', ODD, 'leaf']);
    await noNotices(page);
  });

  test('event= and split= read the recording again with that event and per-thread roots', async ({ page }) => {
    await page.goto('./#profile=e2e-fixtures/two.perf-script.txt&event=cycles&split=tid&zoom=prog-100%2F101;_start;main');
    await waitForIdle(page);
    await expect(page.locator('footer')).toContainText('Event: cycles');
    await expect(crumbs(page)).toHaveText(['all', 'prog-100/101', '_start', 'main']);
    await noNotices(page);
    await expect.poll(() => hashParam(page, 'split')).toBe('tid');
    await expect.poll(() => hashParam(page, 'event')).toBe('cycles');
    // Another event keeps the split and the zoom.
    const picker = (await menu(page, 'View')).getByLabel('Event');
    await picker.selectOption({ label: (await picker.locator('option', { hasText: 'cpu-clock' }).textContent())! });
    await expect(page.locator('footer')).toContainText('Event: cpu-clock');
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'prog-100/101', '_start', 'main']);
    await expect.poll(() => hashParam(page, 'event')).toBe('cpu-clock%3Appp');
    await expect.poll(() => hashParam(page, 'split')).toBe('tid');
    await page.reload();
    await waitForIdle(page);
    await expect(page.locator('footer')).toContainText('Event: cpu-clock');
    await expect(crumbs(page)).toHaveText(['all', 'prog-100/101', '_start', 'main']);
  });

  test('a path that no longer exists falls back to its longest prefix, with a notice', async ({ page }) => {
    await page.goto('./#profile=e2e-fixtures/links.folded&view=inline&zoom=app;main;parse;gone;deeper&search=expr');
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'app', 'main', 'parse']);
    await expect(notices(page)).toContainText('The linked frame app → main → parse → gone → deeper was not found in this recording; showing its closest ancestor: app → main → parse.');
    await expect(summary(page)).toHaveText(`Matched: ${((100 * 20) / TOTAL).toFixed(1)}% (${((100 * 20) / 65).toFixed(1)}% of zoom)`);
    await expect.poll(() => hashParam(page, 'zoom')).toBe('app;main;parse');
    await page.getByRole('button', { name: 'Dismiss this notice' }).click();
    await noNotices(page);
  });

  test('bad values and unknown versions give notices, never a crash', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('./#profile=e2e-fixtures/links.folded&view=bogus&orient=sideways&zoom=app;%E0%A4%A&case=x');
    await waitForIdle(page);
    await expect(notices(page)).toContainText('The link\'s view value "bogus" is not one of functions, inline; it was ignored.');
    await expect(notices(page)).toContainText('orient value "sideways"');
    await expect(notices(page)).toContainText('zoom path has a badly percent-encoded frame name');
    await expect(pressed(page, 'Functions')).toHaveAttribute('aria-pressed', 'true');
    await expect(crumbs(page)).toHaveText(['all']);
    await expect.poll(() => hashParam(page, 'view')).toBe('functions');

    // A fresh page (the app rewrites the hash to v=1 once it has applied what it could).
    await page.goto('about:blank');
    await page.goto(`./#v=9&profile=e2e-fixtures/links.folded&view=inline&zoom=${LEX_I}`);
    await waitForIdle(page);
    await expect(notices(page)).toContainText('This link uses link format v=9; this flameview reads v=1, so its view settings were ignored.');
    await expect(crumbs(page)).toHaveText(['all']);
    await page.screenshot({ path: test.info().outputPath('link-notices.png') });
    expect(errors).toEqual([]);
  });

  test('Copy link copies the address; for a dropped file it says the recording is not in the link', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(LINK);
    await waitForIdle(page);
    await (await menuButton(page, 'More actions', 'Copy link')).click();
    await expect(page.getByRole('group', { name: 'Link' }).getByRole('status')).toHaveText('Link copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    expect(page.url()).toContain(`zoom=${LEX_I}`);
    await page.keyboard.press('Escape');

    await openBytes(page, 'links.folded', Buffer.from(FOLDED));
    await waitForIdle(page);
    await expect.poll(() => hashParam(page, 'profile')).toBeNull();
    await (await menuButton(page, 'More actions', 'Copy link')).click();
    const panel = page.getByRole('group', { name: 'Link' });
    await expect(panel).toContainText('The recording itself is not in the link: it was opened from a file on your computer.');
    // vite preview has no /api/profiles: no Share.
    await expect((await menu(page, 'More actions')).getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
    await expect(panel.getByRole('textbox', { name: 'Link' })).toHaveValue(page.url());
    await page.screenshot({ path: test.info().outputPath('copy-link-file.png') });
  });
});

test.describe('a link made from a local file', () => {
  const fileBytes = Buffer.from(FOLDED);
  const chips = (page: Page) => page.getByRole('region', { name: 'Transforms' }).getByRole('listitem');
  const needs = (page: Page) => page.getByRole('region', { name: 'This link needs its recording' });
  const dropped = `Matched: ${((100 * 30) / (TOTAL - 20)).toFixed(1)}% (75.0% of zoom)`;

  /** Opens the file in a page, sets view, search, panel, zoom and a transform, and returns its link. */
  async function makeLink(page: Page): Promise<string> {
    await page.goto('./');
    await waitForIdle(page);
    await openBytes(page, 'links.folded', fileBytes);
    await waitForIdle(page);
    await expect(page.getByTestId('recording-name')).toHaveText('links.folded');
    await pressed(page, 'Inline frames').click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('TOKEN');
    await page.getByLabel('Ignore case').check();
    await page.getByRole('button', { name: 'Function table' }).click();
    // The hash is written after a short delay: edit it only once it holds the panel.
    await expect.poll(() => hashParam(page, 'panel')).toBe('table');
    // The zoom and a transform as a script (or a frame's menu) would set them.
    await page.evaluate((extra) => (location.hash = `${location.hash}${extra}`), `&zoom=${LEX_I}&transforms=drop:expr`);
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'app', 'main', 'parse', 'lex']);
    await expect(chips(page)).toHaveText(['Drop samples with expr✕']);
    for (const [key, value] of Object.entries({ file: 'links.folded', size: String(fileBytes.length), view: 'inline', zoom: LEX_I, search: 'TOKEN', case: 'i', transforms: 'drop:expr', panel: 'table' })) {
      await expect.poll(() => hashParam(page, key)).toBe(value);
    }
    expect(await hashParam(page, 'profile')).toBeNull();
    return page.url();
  }

  test('opened in a fresh browser it asks for the file, then the file restores view, zoom, search, transforms and panel', async ({ page, browser }) => {
    const link = await makeLink(page);
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const other = await fresh.newPage();
    const errors: string[] = [];
    other.on('pageerror', (e) => errors.push(e.message));
    await other.goto(link);
    await expect(needs(other)).toContainText(
      `This link was made from the local file links.folded (${fileBytes.length} bytes), which is not in the link: open that file to restore its view, zoom, search, transforms and panel.`,
    );
    await expect(needs(other)).toContainText('It holds the inline-frame view, the zoom on app → main → parse → lex [inlined], the search “TOKEN”, 1 transform and the function table.');
    // No demo was opened to take the link's state: no banner, no "frame not found", the hash intact.
    await expect(other.getByRole('region', { name: 'Demo recording' })).toHaveCount(0);
    await expect(other.locator('.link-notice')).toHaveCount(0);
    expect(other.url()).toBe(link);
    await other.screenshot({ path: test.info().outputPath('link-needs-file-light.png') });
    await other.emulateMedia({ colorScheme: 'dark' });
    await other.screenshot({ path: test.info().outputPath('link-needs-file-dark.png') });
    await other.emulateMedia({ colorScheme: 'light' });

    const [chooser] = await Promise.all([other.waitForEvent('filechooser'), needs(other).getByRole('button', { name: 'Choose links.folded…' }).click()]);
    await chooser.setFiles({ name: 'links.folded', mimeType: 'text/plain', buffer: fileBytes });
    await waitForIdle(other);
    await expect(crumbs(other)).toHaveText(['all', 'app', 'main', 'parse', 'lex']);
    await expect(pressed(other, 'Inline frames')).toHaveAttribute('aria-pressed', 'true');
    await expect(other.getByRole('searchbox', { name: 'Search' })).toHaveValue('TOKEN');
    await expect(other.getByLabel('Ignore case')).toBeChecked();
    await expect(summary(other)).toHaveText(dropped);
    await expect(chips(other)).toHaveText(['Drop samples with expr✕']);
    await expect(other.getByRole('button', { name: 'Function table' })).toHaveAttribute('aria-pressed', 'true');
    await expect(other.locator('.link-notice')).toHaveCount(0);
    // The first write of the hash by the opened file keeps every key of the link.
    for (const key of ['file', 'size', 'view', 'zoom', 'search', 'case', 'transforms', 'panel']) await expect.poll(() => hashParam(other, key)).toBe(await hashParamOf(link, key));
    expect(errors).toEqual([]);
    await fresh.close();
  });

  test('another file gets the link applied with a notice; Open the demo instead starts afresh', async ({ page, browser }) => {
    const link = await makeLink(page);
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await other.goto(link);
    await expect(needs(other)).toBeVisible();
    await openBytes(other, 'renamed.folded', Buffer.from(FOLDED + 'app;main;emit 1\n'));
    await waitForIdle(other);
    await expect(crumbs(other)).toHaveText(['all', 'app', 'main', 'parse', 'lex']);
    await expect(notices(other)).toContainText(`This link was made from the local file links.folded (${fileBytes.length} bytes), but the local file renamed.folded (${fileBytes.length + 16} bytes) was opened`);
    await expect.poll(() => hashParam(other, 'file')).toBe('renamed.folded');

    const third = await fresh.newPage();
    await third.goto(link);
    await needs(third).getByRole('button', { name: 'Open the demo instead' }).click();
    await waitForIdle(third);
    await expect(third.getByRole('region', { name: 'Demo recording' })).toBeVisible();
    await expect(third.locator('.link-notice')).toHaveCount(0);
    await expect(crumbs(third)).toHaveText(['all']);
    expect(await hashParam(third, 'file')).toBeNull();
    await fresh.close();
  });

  test('a link made from pasted text asks for the text, and pasting it restores the zoom and search', async ({ page, browser }) => {
    await page.goto('./');
    await waitForIdle(page);
    const paste = async (p: Page) => {
      await p.getByRole('button', { name: 'Paste…' }).click();
      await p.getByLabel('Recording text').fill(FOLDED);
      await p.getByRole('button', { name: 'Load' }).click();
      await waitForIdle(p);
    };
    await paste(page);
    await page.getByRole('searchbox', { name: 'Search' }).fill('skip');
    await expect.poll(() => hashParam(page, 'search')).toBe('skip');
    await page.evaluate(() => (location.hash = `${location.hash}&zoom=app;main;emit`));
    await expect.poll(() => hashParam(page, 'pasted')).toBe(String(FOLDED.length));
    await expect.poll(() => hashParam(page, 'zoom')).toBe('app;main;emit');
    const link = page.url();
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await other.goto(link);
    await expect(needs(other)).toContainText(`This link was made from pasted text (${FOLDED.length} characters), which is not in the link: paste that text again to restore`);
    await expect(other.getByRole('region', { name: 'Demo recording' })).toHaveCount(0);
    await paste(other);
    await expect(crumbs(other)).toHaveText(['all', 'app', 'main', 'emit']);
    await expect(other.getByRole('searchbox', { name: 'Search' })).toHaveValue('skip');
    await expect(other.locator('.link-notice')).toHaveCount(0);
    await fresh.close();
  });

  test('in a tab showing another recording, the link waits for its file', async ({ page }) => {
    const link = await makeLink(page);
    await page.goto('about:blank');
    await page.goto('./');
    await waitForIdle(page);
    await page.goto(link);
    await expect(notices(page)).toContainText('This link was made from the local file links.folded');
    // The demo keeps its own state; the hash keeps the link's until the file is opened.
    await expect(crumbs(page)).toHaveText(['all']);
    expect(page.url()).toBe(link);
    await openBytes(page, 'links.folded', fileBytes);
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'app', 'main', 'parse', 'lex']);
    await expect(summary(page)).toHaveText(dropped);
    await noNotices(page);
  });
});

/** A parameter of a link's hash as written (still percent-encoded), or null. */
function hashParamOf(link: string, key: string): string | null {
  return new URL(link).hash.slice(1).split('&').find((p) => p.startsWith(`${key}=`))?.slice(key.length + 1) ?? null;
}

type FramesHook = { flameviewFrames: { rect(label: string, name: string): { x: number } | null } };

/** The frames named, left to right as the graph draws them (each name's widest rectangle). */
async function drawnOrder(page: Page, label: string, names: string[]): Promise<string> {
  const xs = await page.evaluate(([l, ns]) => (ns as string[]).map((n) => (window as unknown as FramesHook).flameviewFrames.rect(l as string, n)?.x ?? NaN), [label, names] as const);
  return names
    .map((n, i) => [n, xs[i]] as const)
    .sort((a, b) => a[1] - b[1])
    .map(([n]) => n)
    .join(' ');
}

test.describe('heaviest-first order', () => {
  test.beforeEach(async ({ page }) => serveFixtures(page));
  const graphIdle = (page: Page, label: string) => expect(page.locator(`[aria-label="${label}"][aria-busy="false"]`)).toBeVisible({ timeout: 30_000 });
  const orderButton = async (page: Page, name: string) => (await menu(page, 'View')).getByRole('group', { name: 'Order' }).getByRole('button', { name, exact: true });

  test('the View menu orders siblings heaviest first, the link keeps it, a reload restores it', async ({ page }) => {
    await page.goto('./#profile=e2e-fixtures/heavy-a.folded&zoom=app');
    await waitForIdle(page);
    const names = ['alpha', 'beta', 'gamma'];
    await expect.poll(() => drawnOrder(page, 'Flame graph', names)).toBe('alpha beta gamma');
    await expect(await orderButton(page, 'A–Z')).toHaveAttribute('aria-pressed', 'true');
    await page.screenshot({ path: test.info().outputPath('order-menu-name.png') });
    await (await orderButton(page, 'Heaviest first')).click();
    await expect(await orderButton(page, 'Heaviest first')).toHaveAttribute('aria-pressed', 'true');
    await waitForIdle(page);
    await expect.poll(() => drawnOrder(page, 'Flame graph', names)).toBe('beta gamma alpha');
    // The zoom is the same frame; the link says order=heavy.
    await expect(crumbs(page)).toHaveText(['all', 'app']);
    await expect.poll(() => hashParam(page, 'order')).toBe('heavy');
    await page.screenshot({ path: test.info().outputPath('order-menu-heavy-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitForIdle(page);
    await page.screenshot({ path: test.info().outputPath('order-menu-heavy-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    // ArrowRight walks the siblings in the order drawn.
    await page.getByRole('button', { name: 'Heaviest first', exact: true }).press('Escape');
    const graph = page.getByLabel('Flame graph', { exact: true });
    await graph.focus();
    await page.keyboard.press('ArrowUp'); // selects the zoomed app
    await page.keyboard.press('ArrowUp'); // its heaviest child, beta
    await expect(page.getByLabel('Selected frame')).toContainText('beta');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByLabel('Selected frame')).toContainText('gamma');
    await page.reload();
    await waitForIdle(page);
    await expect.poll(() => drawnOrder(page, 'Flame graph', names)).toBe('beta gamma alpha');
    await expect(await orderButton(page, 'Heaviest first')).toHaveAttribute('aria-pressed', 'true');
    // Back to A–Z: the link drops the key.
    await (await orderButton(page, 'A–Z')).click();
    await waitForIdle(page);
    await expect.poll(() => drawnOrder(page, 'Flame graph', names)).toBe('alpha beta gamma');
    await expect.poll(() => hashParam(page, 'order')).toBeNull();
  });

  test('the comparison panes and the differential graph follow the order', async ({ page }) => {
    await page.goto('./#profile=e2e-fixtures/heavy-a.folded&compare=e2e-fixtures/heavy-b.folded&order=heavy');
    await graphIdle(page, 'Baseline flame graph');
    await graphIdle(page, 'Comparison flame graph');
    const names = ['alpha', 'beta', 'gamma'];
    await expect.poll(() => drawnOrder(page, 'Baseline flame graph', names)).toBe('beta gamma alpha');
    await expect.poll(() => drawnOrder(page, 'Comparison flame graph', names)).toBe('alpha gamma beta');
    await (await orderButton(page, 'A–Z')).click();
    await expect.poll(() => drawnOrder(page, 'Baseline flame graph', names)).toBe('alpha beta gamma');
    await expect.poll(() => drawnOrder(page, 'Comparison flame graph', names)).toBe('alpha beta gamma');
    await (await orderButton(page, 'Heaviest first')).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Differential', exact: true }).click();
    await graphIdle(page, 'Differential flame graph');
    // Shaped by B: B's weights order it.
    await expect.poll(() => drawnOrder(page, 'Differential flame graph', names)).toBe('alpha gamma beta');
    await expect.poll(() => hashParam(page, 'order')).toBe('heavy');
  });
});

test('without a clipboard, Copy link shows the link selected in a read-only field', async ({ page }) => {
  await serveFixtures(page);
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
  });
  await page.goto(LINK);
  await waitForIdle(page);
  await (await menuButton(page, 'More actions', 'Copy link')).click();
  const panel = page.getByRole('group', { name: 'Link' });
  await expect(panel.getByRole('status')).toHaveText('The clipboard is not available here: copy the selected link below.');
  const field = panel.getByRole('textbox', { name: 'Link' });
  await expect(field).toHaveValue(page.url());
  await expect(field).toHaveAttribute('readonly', '');
  expect(await field.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0))).toBe(page.url());
  await page.screenshot({ path: test.info().outputPath('copy-link-manual.png') });
});

test.describe('Share against bin/flameview serve', () => {
  let server: StoreServer | null = null;
  let store = '';
  let base = '';

  test.beforeAll(async () => {
    server = await startStoreServer('flameview-share-');
    ({ store, base } = server);
  });

  test.afterAll(() => server?.stop());

  test('Share uploads a dropped recording, lands on /p/<id> with the view state, and a reload reopens it', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.goto(`${base}/`);
    await waitForIdle(page);
    await openBytes(page, 'links.folded', Buffer.from(FOLDED));
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all']);
    await pressed(page, 'Inline frames').click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('skip');
    await (await menuButton(page, 'More actions', 'Copy link')).click();
    const panel = page.getByRole('group', { name: 'Link' });
    await expect(panel).toContainText('Share uploads it to this server');
    await page.screenshot({ path: test.info().outputPath('copy-link-with-share.png') });
    await panel.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(panel.getByRole('status')).toHaveText('Uploaded to this server: the link now opens the recording. Link copied.');
    await expect(page).toHaveURL(/\/p\/[0-9a-f]{64}#/);
    // On the server now: the link no longer names the local file.
    expect(await hashParam(page, 'file')).toBeNull();
    expect(await hashParam(page, 'size')).toBeNull();
    await page.screenshot({ path: test.info().outputPath('shared.png') });
    const url = page.url();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect(readdirSync(store).length).toBeGreaterThan(0);
    await expect(panel).not.toContainText('not in the link');
    // What was uploaded is the processed form, named after the file it was made from.
    const id = /\/p\/([0-9a-f]{64})/.exec(url)![1];
    const stored = await page.request.get(`${base}/api/profiles/${id}`);
    expect(gunzipSync(await stored.body()).subarray(0, 20).toString()).toBe('flameview-processed\n');
    expect(stored.headers()['content-disposition']).toContain('links.folded.flameview');

    await page.reload();
    await waitForIdle(page);
    await expect(page.getByTestId('recording-name')).toHaveText('links.folded.flameview');
    await expect(pressed(page, 'Inline frames')).toHaveAttribute('aria-pressed', 'true');
    await expect(summary(page)).toHaveText(`Matched: ${((100 * 10) / TOTAL).toFixed(1)}%`);
    expect(page.url()).toBe(url);
    // Opened from the server, the recording is in the link: no Share, no caveat.
    await (await menuButton(page, 'More actions', 'Copy link')).click();
    await expect(page.getByRole('group', { name: 'Link' })).not.toContainText('not in the link');
    await expect((await menu(page, 'More actions')).getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
  });

  test('Share uploads pasted text the same way, and the zoom travels with it', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.goto(`${base}/`);
    await waitForIdle(page);
    await page.getByRole('button', { name: 'Paste…' }).click();
    await page.getByLabel('Recording text').fill(FOLDED.replace(/app/g, 'pasted'));
    await page.getByRole('button', { name: 'Load' }).click();
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all']);
    await (await menu(page, 'More actions')).getByRole('button', { name: 'Share', exact: true }).click();
    const panel = page.getByRole('group', { name: 'Link' });
    await expect(panel.getByRole('status')).toHaveText('Uploaded to this server: the link now opens the recording. Link copied.');
    await expect(page).toHaveURL(/\/p\/[0-9a-f]{64}#/);
    // Zoom on the shared page, then open its link afresh.
    await page.keyboard.press('Escape');
    await page.evaluate(() => (location.hash = `${location.hash}&zoom=pasted;main;emit`));
    await expect(crumbs(page)).toHaveText(['all', 'pasted', 'main', 'emit']);
    const url = page.url();
    await page.goto('about:blank');
    await page.goto(url);
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all', 'pasted', 'main', 'emit']);
    await expect((await menu(page, 'More actions')).getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
  });

  const footer = (page: Page) => page.locator('footer');
  async function pickEvent(page: Page, name: string) {
    const picker = (await menu(page, 'View')).getByLabel('Event');
    await picker.selectOption({ label: (await picker.locator('option', { hasText: name }).textContent())! });
  }

  test('Share with "Keep the original recording": the link opens the processed form, and another event reads the original', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.goto(`${base}/`);
    await waitForIdle(page);
    await openBytes(page, 'two.perf-script.txt', Buffer.from(PERF), 'text/plain');
    await waitForIdle(page);
    await expect(footer(page)).toContainText('Event: cpu-clock');
    await (await menuButton(page, 'More actions', 'Copy link')).click();
    const panel = page.getByRole('group', { name: 'Link' });
    const keep = panel.getByRole('checkbox', { name: /Keep the original recording too/ });
    await expect(keep).toHaveAccessibleName(/holds the event shown, cpu-clock:ppp; with the original the link can switch to the other event/);
    await keep.check();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: test.info().outputPath(`share-keep-original-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await panel.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(panel.getByRole('status')).toHaveText('Uploaded to this server: the link now opens the recording, with the original kept. Link copied.');
    await expect(page).toHaveURL(/\/p\/[0-9a-f]{64}#/);
    const original = decodeURIComponent((await hashParam(page, 'original')) ?? '');
    expect(original).toMatch(/^\/api\/profiles\/[0-9a-f]{64}$/);
    expect(await (await page.request.get(`${base}${original}`)).text()).toBe(PERF);
    const url = page.url();

    // A recipient: the processed form, then the other event from the original, the link unchanged but for event=.
    await page.goto('about:blank');
    await page.goto(url);
    await waitForIdle(page);
    await expect(page.getByTestId('recording-name')).toHaveText('two.perf-script.txt.flameview');
    await expect(footer(page)).toContainText('Event: cpu-clock');
    await pickEvent(page, 'cycles');
    await expect(footer(page)).toContainText('Event: cycles');
    await waitForIdle(page);
    await expect(crumbs(page)).toHaveText(['all']);
    await expect.poll(() => hashParam(page, 'event')).toBe('cycles');
    expect(await hashParam(page, 'profile')).toBeNull();
    expect(new URL(page.url()).pathname).toBe(new URL(url).pathname);
    // The link with event= opens that event again (through the original), and back.
    await page.reload();
    await waitForIdle(page);
    await expect(footer(page)).toContainText('Event: cycles');
    await pickEvent(page, 'cpu-clock');
    await expect(footer(page)).toContainText('Event: cpu-clock');

    // This browser uploaded both: "Delete shared copy" deletes the original with the recording.
    await (await menuButton(page, 'More actions', 'Copy link')).click();
    await panel.getByRole('button', { name: 'Delete shared copy' }).click();
    await panel.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(panel.getByRole('status')).toHaveText('Deleted from this server: its links no longer open it.');
    expect((await page.request.get(`${base}${original}`)).status()).toBe(404);
    expect((await page.request.get(`${base}/api/profiles/${/\/p\/([0-9a-f]{64})/.exec(url)![1]}`)).status()).toBe(404);
  });

  test('Share without the original: the other event says to open the original', async ({ page }) => {
    await page.goto(`${base}/`);
    await waitForIdle(page);
    await openBytes(page, 'two-b.perf-script.txt', Buffer.from(PERF.replace(/prog/g, 'progb')), 'text/plain');
    await waitForIdle(page);
    await (await menu(page, 'More actions')).getByRole('button', { name: 'Share', exact: true }).click();
    await expect(page.getByRole('group', { name: 'Link' }).getByRole('status')).toHaveText('Uploaded to this server: the link now opens the recording. Link copied.');
    expect(await hashParam(page, 'original')).toBeNull();
    await page.reload();
    await waitForIdle(page);
    await pickEvent(page, 'cycles');
    await expect(page.getByRole('alert')).toContainText('a request for "cycles": open the original recording for it');
  });
});
