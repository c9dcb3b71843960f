// The small bench's DevTools-pipe driver (pipe-browser.ts) on a real Chromium: a script added
// before the page's own sees the new document, a page's promise is awaited, a worker the page
// starts answers without anyone resuming it, and closing removes the browser's profile; failures
// fail at once; and small.ts's wait for a condition times it once it holds, or gives up.

import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PipeBrowser } from './pipe-browser';
import { timedAt, waitScript } from './small';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGE = `data:text/html,<title>pipe</title><script>
window.fromWorker = new Promise((r) => { const w = new Worker(URL.createObjectURL(new Blob(['postMessage(6 * 7)']))); w.onmessage = (e) => r(e.data); });
</script>`;

it('drives a page over the pipe: early script, evaluation, an unheld worker, a clean close', { timeout: 60_000 }, async () => {
  const browser = PipeBrowser.launch(CHROMIUM, ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage']);
  const profile = (browser as unknown as { profile: string }).profile;
  try {
    const page = await browser.page({ width: 800, height: 600 });
    await browser.send('Page.addScriptToEvaluateOnNewDocument', { source: 'window.early = document.readyState;' }, page);
    await browser.send('Page.navigate', { url: PAGE }, page);
    await expect.poll(() => browser.evaluate<string>(page, 'document.title').catch(() => ''), { timeout: 20_000 }).toBe('pipe');
    expect(await browser.evaluate<string>(page, 'window.early')).toBe('loading');
    expect(await browser.evaluate<number>(page, 'window.fromWorker')).toBe(42);
    expect(await browser.evaluate<number[]>(page, '[innerWidth, innerHeight]')).toEqual([800, 600]);
    await expect(browser.evaluate(page, 'missing.value')).rejects.toThrow(/missing is not defined/);
  } finally {
    await browser.close();
  }
  expect(existsSync(profile)).toBe(false);
});

it('a browser that cannot start, a navigation that fails and a browser that dies each fail at once, leaving no profile', { timeout: 60_000 }, async () => {
  const missing = PipeBrowser.launch('/nonexistent/chromium', []);
  await expect(missing.page({ width: 800, height: 600 })).rejects.toThrow(/ENOENT|exited/);
  await missing.close();
  expect(existsSync((missing as unknown as { profile: string }).profile)).toBe(false);

  const browser = PipeBrowser.launch(CHROMIUM, ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage']);
  const profile = (browser as unknown as { profile: string }).profile;
  const page = await browser.page({ width: 800, height: 600 });
  // Port 1: nothing listens there (or the browser refuses the port): either way an error, not a wait.
  await expect(browser.navigate(page, 'http://127.0.0.1:1/')).rejects.toThrow(/127\.0\.0\.1:1\/: net::ERR_/);
  (browser as unknown as { child: { kill: (s: string) => void } }).child.kill('SIGKILL');
  await expect(browser.evaluate(page, '1 + 1')).rejects.toThrow(/the browser exited|pipe broke/);
  await browser.close();
  expect(existsSync(profile)).toBe(false);
});

it('waitScript and timedAt: the time a condition is first seen after a frame, and a bounded wait for one that never holds', { timeout: 60_000 }, async () => {
  const browser = PipeBrowser.launch(CHROMIUM, ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage']);
  try {
    const page = await browser.page({ width: 800, height: 600 });
    await browser.send('Page.addScriptToEvaluateOnNewDocument', { source: waitScript({ drawn: `document.title === NAME`, never: 'false' }, 'late title') }, page);
    await browser.navigate(page, `data:text/html,<script>setTimeout(() => (document.title = 'late title'), 300)</script>`);
    const evaluate = (expression: string) => browser.evaluate(page, expression);
    const drawn = await timedAt(evaluate, 'page', 'drawn');
    expect(drawn).toBeGreaterThanOrEqual(300);
    expect(drawn).toBeLessThan(5_000);
    await expect(timedAt(evaluate, 'page', 'never', 500)).rejects.toThrow('page: not never after 0.5 s');
  } finally {
    await browser.close();
  }
});
