// The first ten minutes: `npm start` (bin/flameview serve-demo) when its port is taken, a page
// that makes no failing request, and `#profile=` links to a second local origin, with the
// Content-Security-Policy the flameview servers send, and the message for each way a fetch can
// fail (CORS, network, HTTP status, the page's own CSP). Ports are whatever the system says is
// free, so the spec runs beside anything.

import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { fixturePath, startCli, waitForIdle, type RunningCli } from './helpers';

const folded = readFileSync(fixturePath('sqlite.folded'));

function listen(server: Server | ReturnType<typeof createNetServer>): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

/** A second origin: /cors/… allows any origin to read, /plain/… sends no CORS header. */
async function secondOrigin(): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    const cors = req.url?.startsWith('/cors/') ?? false;
    if (cors) res.setHeader('access-control-allow-origin', '*');
    if (req.url?.endsWith('/sqlite.folded')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.method === 'HEAD' ? undefined : folded);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
    }
  });
  return { base: `http://127.0.0.1:${await listen(server)}`, server };
}

/** Every request the page makes that fails or answers an error status. */
function failures(page: Page): string[] {
  const bad: string[] = [];
  page.on('requestfailed', (r) => bad.push(`${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) bad.push(`${r.url()} ${r.status()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') bad.push(`console: ${m.text()}`);
  });
  return bad;
}

test.describe('npm start and #profile= links to other origins', () => {
  let demo: RunningCli;
  let taken: ReturnType<typeof createNetServer>;
  let takenPort: number;
  let other: { base: string; server: Server };

  test.beforeAll(async () => {
    // What `npm start` meets when its port is taken: the next free one, and a line saying so.
    taken = createNetServer();
    takenPort = await listen(taken);
    demo = await startCli(['serve-demo', '--no-open', '--port', String(takenPort)]);
    other = await secondOrigin();
  });

  test.afterAll(() => {
    demo?.stop();
    taken?.close();
    other?.server.close();
  });

  test('serve-demo takes the next free port, says so, and the demo page makes no failing request', async ({ page }) => {
    const port = Number(new URL(demo.url).port);
    expect(port).not.toBe(takenPort);
    expect(demo.stderr()).toContain(`flameview: port ${takenPort} is in use; serving on ${port} instead\n`);
    const bad = failures(page);
    await page.goto(demo.url);
    await waitForIdle(page);
    await expect(page.getByRole('region', { name: 'Demo recording' })).toBeVisible();
    // No store behind this server: no Share button, and no request asked whether there is one.
    await expect(page.getByRole('button', { name: 'Share' })).toHaveCount(0);
    expect(bad).toEqual([]);
  });

  test('#profile= to a second local origin that allows CORS opens under the flameview CSP', async ({ page }) => {
    const bad = failures(page);
    await page.goto(`${demo.url}#profile=${encodeURIComponent(`${other.base}/cors/sqlite.folded`)}`);
    await expect(page.getByTestId('recording-name')).toHaveText('sqlite.folded');
    await waitForIdle(page);
    expect(bad).toEqual([]);
  });

  test('a blocked fetch names its cause: CORS, network, HTTP status', async ({ page }) => {
    const alert = page.getByRole('alert');
    const origin = new URL(demo.url).origin;

    await page.goto(`${demo.url}#profile=${encodeURIComponent(`${other.base}/plain/sqlite.folded`)}`);
    await expect(alert).toContainText(`Could not fetch ${other.base}/plain/sqlite.folded: ${other.base} answered but does not allow this page (${origin}) to read it (CORS`);
    await expect(alert).toContainText('flameview FILE');

    const closed = createNetServer();
    const nobody = await listen(closed);
    await new Promise((r) => closed.close(r));
    await page.goto(`${demo.url}#profile=${encodeURIComponent(`http://127.0.0.1:${nobody}/p.folded`)}`);
    await expect(alert).toContainText(`Could not fetch http://127.0.0.1:${nobody}/p.folded: http://127.0.0.1:${nobody} could not be reached`);

    await page.goto(`${demo.url}#profile=${encodeURIComponent(`${other.base}/cors/missing.folded`)}`);
    await expect(alert).toContainText(`Could not fetch ${other.base}/cors/missing.folded: HTTP 404`);
  });

  test('a page whose own CSP refuses the origin says it is the CSP', async ({ page }) => {
    // The app hosted somewhere stricter than flameview's servers: connect-src 'self' only.
    const origin = new URL(demo.url).origin;
    await page.route(`${origin}/**`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers(), 'content-security-policy': "default-src 'self'; connect-src 'self'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'" };
      await route.fulfill({ response, headers });
    });
    await page.goto(`${demo.url}#profile=${encodeURIComponent(`${other.base}/cors/sqlite.folded`)}`);
    await expect(page.getByRole('alert')).toContainText(
      `Could not fetch ${other.base}/cors/sqlite.folded: this page's Content-Security-Policy does not allow connecting to ${other.base} (connect-src)`,
    );
  });
});
