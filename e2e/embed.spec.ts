// Embedding: a host page on another origin (a second local server) frames the viewer served by
// `flameview serve --allow-embed <host origin>`, sends it a recording by postMessage through
// public/flameview-embed.js and reads back "loaded"; sets view, search and zoom. A malformed
// message gets an error and changes nothing; a page of an origin not listed cannot frame the
// viewer (the header is read, and the browser refuses), and what it posts to a viewer it opened
// is ignored.

import { expect, test, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStoreServer, type StoreServer } from './helpers';

const FOLDED = 'app;main;parse;lex 30\napp;main;parse;expr 20\napp;main;emit 10\n';

/** A static host of its own: the host page, on 127.0.0.1 or localhost (two origins). */
async function startHost(): Promise<{ port: number; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/small.folded') return res.writeHead(200, { 'content-type': 'text/plain' }).end(FOLDED);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>host</title><div id="box" style="width:900px;height:600px"></div>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

let viewer: StoreServer;
let host: { port: number; server: Server };
let allowed: string;

test.beforeAll(async () => {
  host = await startHost();
  allowed = `http://127.0.0.1:${host.port}`;
  viewer = await startStoreServer('flameview-embed-', ['--allow-embed', allowed]);
});
test.afterAll(() => {
  viewer?.stop();
  host?.server.close();
});

/** The host page with the viewer framed through the helper, as `window.fv`. */
async function embedded(page: Page) {
  await page.goto(`${allowed}/`);
  await page.evaluate(async (base) => {
    const { embedFlameview } = await import(`${base}/flameview-embed.js`);
    (window as unknown as { fv: unknown }).fv = await embedFlameview(document.getElementById('box'), `${base}/`);
  }, viewer.base);
  const frame = page.frameLocator('iframe[title="flameview"]');
  return frame;
}

test('the header names only the listed origins; without --allow-embed framing stays refused', async ({ request }) => {
  const csp = (await request.get(`${viewer.base}/`)).headers()['content-security-policy'];
  expect(csp).toContain(`frame-ancestors ${allowed}`);
  expect(csp).not.toContain("frame-ancestors 'none'");
  const plain = await startStoreServer('flameview-embed-none-');
  try {
    expect((await request.get(`${plain.base}/`)).headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  } finally {
    plain.stop();
  }
});

test('a host page on an allowed origin sends a recording, reads back loaded, and sets view, search and zoom', async ({ page }) => {
  const frame = await embedded(page);
  // Embedded: no header, no demo while waiting for the host.
  await expect(frame.getByRole('button', { name: 'Open file…' })).toHaveCount(0);
  const loaded = await page.evaluate(async () => {
    const fv = (window as unknown as { fv: { open(b: ArrayBuffer, n: string): Promise<unknown> } }).fv;
    const bytes = await (await fetch('/small.folded')).arrayBuffer();
    return fv.open(bytes, 'small.folded');
  });
  expect(loaded).toMatchObject({ type: 'flameview:loaded', name: 'small.folded', samples: 60 });
  await expect(frame.locator('[aria-label="Flame graph"][aria-busy="false"]')).toBeVisible();

  await page.evaluate(() => (window as unknown as { fv: { set(s: unknown): Promise<unknown> } }).fv.set({ zoom: ['app', 'main', 'parse'], search: 'lex' }));
  await expect(frame.locator('nav[aria-label="Zoom path"] li')).toHaveText(['all', 'app', 'main', 'parse']);
  await expect(frame.getByRole('searchbox', { name: 'Search' })).toHaveValue('lex');
  await expect(frame.getByRole('status').filter({ hasText: /^Matched/ })).toHaveText('Matched: 50.0% (60.0% of zoom)');

  // Malformed: an error with the reason, and the view as it was.
  const reasons = await page.evaluate(async () => {
    const fv = (window as unknown as { fv: { set(s: unknown): Promise<unknown>; open(b: unknown, n?: string): Promise<unknown> } }).fv;
    const out: string[] = [];
    for (const bad of [() => fv.set({ view: 'sideways' }), () => fv.open({ not: 'bytes' } as unknown, 'x'), () => fv.set({ zoom: 'app' })]) {
      try {
        await bad();
        out.push('answered without an error');
      } catch (e) {
        out.push((e as Error).message);
      }
    }
    return out;
  });
  expect(reasons).toEqual(['"view" must be "functions" or "inline"', '"bytes" must be an ArrayBuffer, a typed array or a Blob', '"zoom" must be an array of frame names, root first']);
  await expect(frame.locator('nav[aria-label="Zoom path"] li')).toHaveText(['all', 'app', 'main', 'parse']);
  await expect(frame.getByTestId('recording-name')).toHaveCount(0);
});

test('a page of an origin not listed cannot frame the viewer, and what it posts to a viewer it opened is ignored', async ({ page, context }) => {
  // localhost and 127.0.0.1 are different origins; only the latter is allowed.
  const stranger = `http://localhost:${host.port}`;
  await page.goto(`${stranger}/`);
  const refused = await page.evaluate(async (base) => {
    const frame = document.createElement('iframe');
    frame.src = `${base}/?embed=1`;
    document.body.append(frame);
    await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    return frame.src;
  }, viewer.base);
  expect(refused).toContain(viewer.base);
  const child = page.frames().find((f) => f !== page.mainFrame());
  // Chromium shows its error page in place of a frame that frame-ancestors refused.
  await expect.poll(() => child?.url()).toMatch(/^chrome-error:/);

  const popupOpened = context.waitForEvent('page');
  await page.evaluate((base) => {
    (window as unknown as { viewer: Window | null }).viewer = window.open(`${base}/?embed=1`, '_blank');
  }, viewer.base);
  const popup = await popupOpened;
  await popup.waitForFunction(() => 'flameview' in window);
  // The popup sees the message too (its own listener, registered after the viewer's, so it runs
  // after the viewer looked at the same event): then nothing may have started loading.
  await popup.evaluate(() => {
    (window as unknown as { seen: number }).seen = 0;
    window.addEventListener('message', () => ((window as unknown as { seen: number }).seen += 1));
  });
  await page.evaluate(() => {
    const w = (window as unknown as { viewer: Window }).viewer;
    w.postMessage({ type: 'flameview:open', bytes: new TextEncoder().encode('a;b 1\n'), name: 'evil.folded' }, '*');
  });
  await popup.waitForFunction(() => (window as unknown as { seen: number }).seen === 1);
  const state = await popup.evaluate(() => {
    const s = (window as unknown as { flameview: { store: { getState(): { recordings: { a: { loading: unknown; snapshot: unknown } } } } } }).flameview.store.getState();
    return { loading: s.recordings.a.loading, snapshot: s.recordings.a.snapshot !== null };
  });
  expect(state).toEqual({ loading: null, snapshot: false });
});
