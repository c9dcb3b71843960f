// The small bench's DevTools-pipe driver (pipe-browser.ts) on a real Chromium: a script added
// before the page's own sees the new document, a page's promise is awaited, a worker the page
// starts answers without anyone resuming it, and closing removes the browser's profile.

import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PipeBrowser } from './pipe-browser';

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
