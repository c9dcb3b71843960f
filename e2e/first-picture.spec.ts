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
  const state = { fetches: 0, names: [] as string[], release: () => {} };
  const gate = new Promise<void>((r) => (state.release = r));
  if (!held) state.release();
  await page.route('**/e2e-fixtures/**', async (route) => {
    state.fetches++;
    state.names.push(new URL(route.request().url()).pathname.split('/').pop() ?? '');
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

const marks = (page: Page) => page.evaluate(() => performance.getEntriesByType('mark').map((m) => m.name));

const rectOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  });

// The plain link in both themes (the README's screenshots), the view state the app writes
// beside it (what a reload finds), and the shortest window that gets a picture (src/boot.ts).
const CASES = [
  { scheme: 'light', hash: `#profile=e2e-fixtures/${NAME}`, shot: true, size: null },
  { scheme: 'dark', hash: `#profile=e2e-fixtures/${NAME}`, shot: true, size: null },
  { scheme: 'light', hash: `#v=1&profile=e2e-fixtures/${NAME}&view=inline&orient=icicle&order=heavy`, shot: false, size: null },
  { scheme: 'dark', hash: `#profile=e2e-fixtures/${NAME}`, shot: false, size: { width: 700, height: 400 } },
] as const;

for (const { scheme, hash, shot, size } of CASES) {
  test(`the first picture is drawn before the app loads, where and as the app draws it (${scheme}, ${hash.replace(/e2e-fixtures\/[^&]*/, 'R')}${size ? `, ${size.width}×${size.height}` : ''})`, async ({ page }) => {
    if (size) await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: scheme });
    const fixture = await serveFixture(page);
    const app = await holdApp(page);
    await page.goto(`./${hash}`);

    const first = page.locator('[data-first-picture]');
    await expect(first).toHaveAttribute('aria-busy', 'false');
    await expect(page).toHaveTitle(`${NAME} · flameview`);
    // The app is not running: no graph of its own, no store handle.
    await expect(page.getByRole('application', { name: 'Flame graph' })).toHaveCount(0);
    expect(await page.evaluate(() => 'flameview' in window)).toBe(false);
    // The picture needed the first script and the profile worker, nothing of the app (whose
    // chunks are asked for after it).
    const before = await page.evaluate(() => {
      const drawn = performance.getEntriesByName('flameview:first-picture')[0].startTime;
      return performance.getEntriesByType('resource').filter((r) => r.startTime < drawn && r.name.endsWith('.js')).map((r) => r.name);
    });
    expect(before.map((u) => u.split('/').pop()!.replace(/-[\w-]+\.js$/, ''))).toEqual(['index', 'profile.worker']);
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
    // The app is asked for after the picture, in the next task, with every chunk index.html lists
    // for it preloaded at once: its own is held here, so none of them was found by its imports.
    await expect.poll(() => app.requested).toBe(true);
    const listed = (await page.evaluate(() => JSON.parse(document.getElementById('flameview-app-chunks')?.textContent ?? '[]'))) as string[];
    const names = listed.map((f) => f.split('/').pop()!);
    expect(names.filter((f) => APP_SCRIPT.test(`/assets/${f}`))).toHaveLength(1);
    const others = names.filter((f) => !APP_SCRIPT.test(`/assets/${f}`));
    expect(others.length).toBeGreaterThan(0);
    await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name.split('/').pop()))).toEqual(expect.arrayContaining(others));

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

test('the first picture is drawn as the answer arrives, without waiting for an animation frame', async ({ page }) => {
  // Animation frames are held until released: the picture must not need one.
  await page.addInitScript(() => {
    // Held callbacks keep ids of their own (negative, so a real id is never one), which cancel honours.
    const held = new Map<number, FrameRequestCallback>();
    let last = 0;
    const request = window.requestAnimationFrame.bind(window);
    const cancel = window.cancelAnimationFrame.bind(window);
    const w = window as unknown as { releaseFrames: () => void; framesHeld: boolean };
    w.framesHeld = true;
    window.requestAnimationFrame = (run) => {
      if (!w.framesHeld) return request(run);
      const id = --last;
      held.set(id, run);
      return id;
    };
    window.cancelAnimationFrame = (id) => (id < 0 ? void held.delete(id) : cancel(id));
    w.releaseFrames = () => {
      w.framesHeld = false;
      for (const run of held.values()) request(run);
      held.clear();
    };
  });
  await serveFixture(page);
  const app = await holdApp(page);
  await page.goto(`./#profile=e2e-fixtures/${NAME}`);
  await expect(page.locator('[data-first-picture]')).toHaveAttribute('aria-busy', 'false');
  expect(await marks(page)).toContain('flameview:first-picture');
  await page.evaluate(() => (window as unknown as { releaseFrames: () => void }).releaseFrames());
  app.release();
  await expect(page.getByRole('application', { name: 'Flame graph' })).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator('.first-picture')).toHaveCount(0);
});

test('an app that loads before the answer (a slow server) takes over the load in flight: one fetch, its progress, no first picture', async ({ page }) => {
  const fixture = await serveFixture(page, true);
  await page.goto(`./#profile=e2e-fixtures/${NAME}`);
  // The app loads after its wait and shows the load under way.
  await expect(page.getByRole('progressbar')).toBeVisible();
  await expect.poll(() => fixture.fetches).toBe(1);
  fixture.release();
  await expect(page.getByRole('application', { name: 'Flame graph' })).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('recording-name')).toHaveText(NAME);
  expect(await marks(page)).not.toContain('flameview:first-picture');
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

test('the hash edited before the answer: no picture, the app opens what the hash names, and Back reads the first link again', async ({ page }) => {
  const fixture = await serveFixture(page, true);
  await page.goto('./#profile=e2e-fixtures/a.perf-script.txt');
  await expect.poll(() => fixture.names).toEqual(['a.perf-script.txt']);
  await page.evaluate(() => (location.hash = '#profile=e2e-fixtures/b.perf-script.txt'));
  fixture.release();
  const graph = page.getByRole('application', { name: 'Flame graph' });
  await expect(page.getByTestId('recording-name')).toHaveText('b.perf-script.txt');
  await expect(graph).toHaveAttribute('aria-busy', 'false');
  expect(await marks(page)).not.toContain('flameview:first-picture');
  await expect(page.locator('.first-picture')).toHaveCount(0);
  await page.goBack();
  await expect(page.getByTestId('recording-name')).toHaveText('a.perf-script.txt');
  await expect(graph).toHaveAttribute('aria-busy', 'false');
  // The first open was dropped for b: a is read again, not an answer the worker no longer holds.
  expect(fixture.names).toEqual(['a.perf-script.txt', 'b.perf-script.txt', 'a.perf-script.txt']);
});

test('the hash edited after the picture, before the app: the app opens what the hash names; Back reads the first link again, its source lines with it', async ({ page }) => {
  const fixture = await serveFixture(page);
  const app = await holdApp(page);
  await page.goto('./#profile=e2e-fixtures/a.perf-script.txt');
  await expect(page.locator('[data-first-picture]')).toHaveAttribute('aria-busy', 'false');
  await page.evaluate(() => (location.hash = '#profile=e2e-fixtures/b.perf-script.txt'));
  await expect(page.locator('.first-picture')).toHaveCount(0);
  app.release();
  const graph = page.getByRole('application', { name: 'Flame graph' });
  await expect(page.getByTestId('recording-name')).toHaveText('b.perf-script.txt');
  await expect(graph).toHaveAttribute('aria-busy', 'false');
  await page.goBack();
  await expect(page.getByTestId('recording-name')).toHaveText('a.perf-script.txt');
  await expect(graph).toHaveAttribute('aria-busy', 'false');
  expect(fixture.names).toEqual(['a.perf-script.txt', 'b.perf-script.txt', 'a.perf-script.txt']);
  // The worker holds a again (its panels ask it): the function table reads it.
  await page.getByRole('button', { name: 'Function table' }).click();
  await expect(page.getByTestId('fn-caption')).toHaveText(/^[\d,]+ functions$/);
});

// The first picture fails: no 2D context for its canvas, or its draw throws (the first fill of a
// canvas, its background, throws once). The app draws, and nothing of the picture is left over it.
const FAILURES = [
  {
    what: 'a picture that cannot be drawn (no 2D canvas at first)',
    sabotage: () => {
      const original = HTMLCanvasElement.prototype.getContext;
      let refused = false;
      HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, ...args: Parameters<typeof original>) {
        if (!refused) {
          refused = true;
          return null;
        }
        return original.apply(this, args);
      } as typeof original;
    },
  },
  {
    what: 'a first picture whose draw fails',
    sabotage: () => {
      const original = CanvasRenderingContext2D.prototype.fillRect;
      let failed = false;
      CanvasRenderingContext2D.prototype.fillRect = function (this: CanvasRenderingContext2D, ...args: Parameters<typeof original>) {
        if (!failed) {
          failed = true;
          throw new Error('a failing draw');
        }
        return original.apply(this, args);
      };
    },
  },
];

for (const { what, sabotage } of FAILURES) {
  test(`${what} leaves nothing over the app`, async ({ page }) => {
    await page.addInitScript(sabotage);
    const fixture = await serveFixture(page);
    await page.goto(`./#profile=e2e-fixtures/${NAME}`);
    await expect(page.getByRole('application', { name: 'Flame graph' })).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('recording-name')).toHaveText(NAME);
    await expect(page.locator('.first-picture')).toHaveCount(0);
    expect(await marks(page)).toContain('flameview:first-received');
    expect(await marks(page)).not.toContain('flameview:first-picture');
    expect(fixture.fetches).toBe(1);
  });
}

test('a window too short for the picture (the viewer scrolls there) gets the app alone', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 320 });
  const fixture = await serveFixture(page);
  await page.goto(`./#profile=e2e-fixtures/${NAME}`);
  await expect(page.getByRole('application', { name: 'Flame graph' })).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('recording-name')).toHaveText(NAME);
  expect(await marks(page)).not.toContain('flameview:first-open');
  expect(fixture.fetches).toBe(1);
});
