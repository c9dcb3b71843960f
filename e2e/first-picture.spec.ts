// The first picture of a plain `#profile=` link (src/boot.ts, src/first-picture.ts) is drawn
// before the app loads, where the app's graph will be and as the app draws it, and the app takes
// over the same worker and answer: one fetch, no picture changing at the hand-over. The app's
// script is held back by a route until the first picture is there, so nothing races.

import { expect, test, type Page, type Route } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fixturePath } from './helpers';

const NAME = 'rust-toyc.perf-script.txt';
const APP_SCRIPT = /\/assets\/main-[\w-]+\.js$/;

/** Serves the fixture (counting fetches) once `open()` is called, or at once when not held. */
async function serveFixture(page: Page, held = false) {
  const body = readFileSync(fixturePath(NAME));
  const state = { fetches: 0, release: () => {} };
  const gate = new Promise<void>((r) => (state.release = r));
  if (!held) state.release();
  await page.route('**/e2e-fixtures/**', async (route) => {
    state.fetches++;
    await gate;
    await route.fulfill({ status: 200, body, headers: { 'content-type': 'text/plain', 'content-length': String(body.length) } });
  });
  return state;
}

/** Holds the app's script until `release()`; `requested` says whether the page asked for it. */
async function holdApp(page: Page) {
  const state = { requested: false, release: () => {} };
  const gate = new Promise<void>((r) => (state.release = r));
  await page.route(APP_SCRIPT, async (route: Route) => {
    state.requested = true;
    await gate;
    await route.continue();
  });
  return state;
}

/** The canvas's pixels as drawn (its backing store, not a screenshot of the composited page): a digest. */
const pixelsOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let h = 2166136261;
    for (let i = 0; i < data.length; i++) h = Math.imul(h ^ data[i], 16777619);
    return { width: c.width, height: c.height, digest: h >>> 0 };
  });

const rectOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  });

// The plain link in both themes (the README's screenshots), and the view state the app writes
// beside it (what a reload finds).
const CASES = [
  { scheme: 'light', hash: `#profile=e2e-fixtures/${NAME}`, shot: true },
  { scheme: 'dark', hash: `#profile=e2e-fixtures/${NAME}`, shot: true },
  { scheme: 'light', hash: `#v=1&profile=e2e-fixtures/${NAME}&view=inline&orient=icicle&order=heavy`, shot: false },
] as const;

for (const { scheme, hash, shot } of CASES) {
  test(`the first picture is drawn before the app loads, where and as the app draws it (${scheme}, ${hash.replace(/e2e-fixtures\/[^&]*/, 'R')})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const fixture = await serveFixture(page);
    const app = await holdApp(page);
    const scripts: string[] = [];
    page.on('request', (r) => {
      const file = new URL(r.url()).pathname.split('/').pop() ?? '';
      if (file.endsWith('.js')) scripts.push(file);
    });
    await page.goto(`./${hash}`);

    const first = page.locator('[data-first-picture]');
    await expect(first).toHaveAttribute('aria-busy', 'false');
    await expect(page).toHaveTitle(`${NAME} · flameview`);
    // The app is not running: no graph of its own, no store handle.
    await expect(page.getByRole('application', { name: 'Flame graph' })).toHaveCount(0);
    expect(await page.evaluate(() => 'flameview' in window)).toBe(false);
    // The picture needed the first script and the profile worker, nothing of the app.
    expect(scripts.filter((f) => !APP_SCRIPT.test(`/assets/${f}`)).map((f) => f.replace(/-[\w-]+\.js$/, ''))).toEqual(['index', 'profile.worker']);
    // The cover is out of the accessibility tree and lets clicks through.
    await expect(page.locator('.first-picture')).toHaveAttribute('aria-hidden', 'true');
    expect(await page.locator('.first-picture').evaluate((e) => getComputedStyle(e).pointerEvents)).toBe('none');
    const firstRect = await rectOf(page, '[data-first-picture] canvas');
    const firstPixels = await pixelsOf(page, '[data-first-picture] canvas');
    // What the screen shows where the graph is, its cut-off cues included (inside the rounded
    // corners, where what lies behind the box shows through).
    const [x, y, width, height] = await rectOf(page, '[data-first-picture]');
    const inside = { x: x + 8, y: y + 8, width: width - 16, height: height - 16 };
    const firstShot = await page.screenshot({ clip: inside });
    if (shot) await page.screenshot({ path: `docs/screenshots/first-picture-${scheme}.png` });
    // The app is asked for after the picture, in the next task.
    await expect.poll(() => app.requested).toBe(true);

    // Whatever the first script no longer holds is collected before the app takes the worker
    // over (a comlink proxy collected then released the worker: it answered nothing more).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    app.release();
    const graph = page.getByRole('application', { name: 'Flame graph' });
    await expect(graph).toHaveAttribute('aria-busy', 'false');
    await expect(page.locator('.first-picture')).toHaveCount(0);
    await expect(page.getByTestId('recording-name')).toHaveText(NAME);
    expect(await rectOf(page, '[aria-label="Flame graph"] canvas')).toEqual(firstRect);
    expect(await pixelsOf(page, '[aria-label="Flame graph"] canvas'), 'the app draws the first picture again, pixel for pixel').toEqual(firstPixels);
    expect(await rectOf(page, '[aria-label="Flame graph"]')).toEqual([x, y, width, height]);
    expect((await page.screenshot({ clip: inside })).equals(firstShot), 'the screen shows the same graph after the hand-over').toBe(true);
    // The app took over the first open's answer: the recording was fetched once.
    expect(fixture.fetches).toBe(1);
    // The worker it took over answers the next open (another link in the hash).
    await page.evaluate(() => (location.hash = '#profile=e2e-fixtures/next.perf-script.txt'));
    await expect(page.getByTestId('recording-name')).toHaveText('next.perf-script.txt');
    await expect(graph).toHaveAttribute('aria-busy', 'false');
    expect(fixture.fetches).toBe(2);
  });
}

test('an app that loads before the answer (a slow server) takes over the load in flight: one fetch, its progress, no first picture', async ({ page }) => {
  const fixture = await serveFixture(page, true);
  await page.goto(`./#profile=e2e-fixtures/${NAME}`);
  // The app loads after its wait and shows the load under way.
  await expect(page.getByRole('progressbar')).toBeVisible();
  await expect.poll(() => fixture.fetches).toBe(1);
  fixture.release();
  await expect(page.getByRole('application', { name: 'Flame graph' })).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('recording-name')).toHaveText(NAME);
  await expect(page.locator('.first-picture')).toHaveCount(0);
  expect(fixture.fetches).toBe(1);
  // The worker the app took over answers its later questions (the open recording is there).
  await page.getByRole('button', { name: 'Function table' }).click();
  await expect(page.getByTestId('fn-caption')).toHaveText(/^[\d,]+ functions$/);
});

test('a link with state to apply (a search) is opened by the app alone (no first picture)', async ({ page }) => {
  const fixture = await serveFixture(page);
  const app = await holdApp(page);
  await page.goto(`./#profile=e2e-fixtures/${NAME}&view=inline&search=toyc`);
  // The app is asked for at once, before anything is fetched.
  await expect.poll(() => app.requested).toBe(true);
  expect(fixture.fetches).toBe(0);
  app.release();
  await expect(page.getByRole('application', { name: 'Flame graph' })).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('button', { name: 'Inline frames' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('toyc');
  await expect(page.locator('.first-picture')).toHaveCount(0);
  expect(fixture.fetches).toBe(1);
});
