// Opening recordings: the demo, the file input, `#profile=`, gzip, paste, drop, bad files,
// perf.data, Cancel, and a responsive main thread while a large file loads.

import { expect, test, type Page } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { collectDialogs, fixturePath, gotoAndWait, mainThreadEvents, menu, openBytes, openFixture, pickEvent, serveFixtures, timelineTrace, traceMainThread, waitForIdle } from './helpers';

const recordingName = (page: Page) => page.getByTestId('recording-name');

/** A large perf script file made of the real fixture repeated (cached between runs). */
function bigPerfScript(megabytes: number, tag = ''): string {
  const dir = path.join(tmpdir(), 'flameview-e2e');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `big-${megabytes}mb${tag}.perf-script.txt`);
  if (!existsSync(file)) {
    const one = readFileSync(fixturePath('rust-toyc.perf-script.txt'));
    const copies = Math.ceil((megabytes * 1024 * 1024) / one.length);
    // Written whole, then renamed: a run killed mid-write leaves no truncated cache behind.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.concat(Array.from({ length: copies }, () => one)));
    renameSync(partial, file);
  }
  return file;
}

test.describe('opening recordings', () => {
  test('with nothing given, the demo opens with its banner', async ({ page }) => {
    await gotoAndWait(page);
    await expect(recordingName(page)).toHaveText('rust-toyc.perf-script.txt');
    const banner = page.getByRole('region', { name: 'Demo recording' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('Rust toy compiler');
    await expect(banner.getByRole('button', { name: /Open your recording/ })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('demo.png') });
  });

  test('a fixture opens through the file input', async ({ page }) => {
    await gotoAndWait(page);
    await openFixture(page, 'sqlite.perf-script.txt');
    await expect(recordingName(page)).toHaveText('sqlite.perf-script.txt');
    await waitForIdle(page);
    await expect(page).toHaveTitle('sqlite.perf-script.txt · flameview');
    await expect(page.getByRole('status', { name: 'Recording' })).toHaveText(/^Opened sqlite\.perf-script\.txt: [\d,]+ samples$/);
    await expect(page.getByRole('region', { name: 'Demo recording' })).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('#profile= with a relative URL is fetched and opened', async ({ page }) => {
    await serveFixtures(page);
    await page.goto('./#profile=e2e-fixtures/rust-toyc.fp.perf-script.txt');
    await expect(recordingName(page)).toHaveText('rust-toyc.fp.perf-script.txt');
    await waitForIdle(page);
    await expect(page.getByRole('region', { name: 'Demo recording' })).toHaveCount(0);
    // A later hash change opens the new URL.
    await page.evaluate(() => (location.hash = '#profile=e2e-fixtures/sqlite.folded'));
    await expect(recordingName(page)).toHaveText('sqlite.folded');
    await waitForIdle(page);
    // Opening a file drops `profile` from the hash, so a reload does not reopen the URL.
    await openFixture(page, 'rust-toyc.fp.folded');
    await expect(recordingName(page)).toHaveText('rust-toyc.fp.folded');
    await expect.poll(() => page.evaluate(() => location.hash)).not.toContain('profile=');
  });

  test('#profile= that cannot be fetched says so and suggests the CLI', async ({ page }) => {
    await page.route('http://flameview-unreachable.invalid/**', (route) => route.abort('connectionrefused'));
    await page.goto('./#profile=http://flameview-unreachable.invalid/p.txt');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Could not fetch http://flameview-unreachable.invalid/p.txt: http://flameview-unreachable.invalid could not be reached');
    await expect(alert).toContainText('flameview FILE');
  });

  test('#profile= with a 404 names the status', async ({ page }) => {
    await serveFixtures(page);
    await page.goto('./#profile=e2e-fixtures/missing.txt');
    await expect(page.getByRole('alert')).toContainText('HTTP 404');
  });

  test('#profile=javascript: is refused and nothing runs', async ({ page }) => {
    const dialogs = collectDialogs(page);
    await page.goto('./#profile=javascript:alert(1)');
    await expect(page.getByRole('alert')).toContainText('only http and https');
    expect(dialogs).toEqual([]);
  });

  test('a gzip-compressed file opens like the plain one', async ({ page }) => {
    await gotoAndWait(page);
    const opened = page.getByRole('status', { name: 'Recording' });
    await openFixture(page, 'sqlite.perf-script.txt');
    await expect(recordingName(page)).toHaveText('sqlite.perf-script.txt');
    await waitForIdle(page);
    const plain = /: ([\d,]+) samples$/.exec((await opened.textContent()) ?? '')?.[1];
    expect(Number(plain?.replace(/,/g, ''))).toBeGreaterThan(0);
    await openBytes(page, 'sqlite.perf-script.txt.gz', gzipSync(readFileSync(fixturePath('sqlite.perf-script.txt'))));
    await expect(recordingName(page)).toHaveText('sqlite.perf-script.txt.gz');
    await waitForIdle(page);
    // The same samples as the plain file, not merely a graph with the right name.
    await expect(opened).toHaveText(`Opened sqlite.perf-script.txt.gz: ${plain} samples`);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('a bad file shows one line of error and the open recording stays open', async ({ page }) => {
    await gotoAndWait(page);
    const garbage = Buffer.alloc(8192);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 256;
    await openBytes(page, 'garbage.bin', garbage);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(/garbage\.bin: line \d+: expected .*perf script.* found binary data/);
    await expect(recordingName(page)).toHaveText('rust-toyc.perf-script.txt');
    await expect(page.locator('[aria-label="Flame graph"]')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('bad-file.png') });
    await alert.getByRole('button', { name: 'Dismiss error' }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('a perf.data file gets the flameview advice for an installed user and a checkout', async ({ page }) => {
    await gotoAndWait(page);
    const data = Buffer.alloc(4096);
    data.write('PERFILE2', 0, 'latin1');
    await openBytes(page, 'perf.data', data);
    await expect(page.getByRole('alert')).toContainText('Run `flameview perf.data` (`bin/flameview perf.data` in a flameview checkout)');
    await expect(recordingName(page)).toHaveText('rust-toyc.perf-script.txt');
  });

  test('a file name with markup renders as text', async ({ page }) => {
    const dialogs = collectDialogs(page);
    await gotoAndWait(page);
    const name = '<img src=x onerror=alert(1)>.folded';
    await openBytes(page, name, Buffer.from('main;<img src=x onerror=alert(1)> 3\n'), 'text/plain');
    await expect(recordingName(page)).toHaveText(name);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test('pasted text opens from the Paste dialog and from Ctrl+V on the page', async ({ page }) => {
    await gotoAndWait(page);
    await page.getByRole('button', { name: 'Paste…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Paste a recording' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Recording text').fill('main;parse;lex 12\nmain;optimise 30\n');
    await page.screenshot({ path: test.info().outputPath('paste.png') });
    await dialog.getByRole('button', { name: 'Load' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(recordingName(page)).toHaveText('pasted text');
    await waitForIdle(page);
    // The graph has the focus once the recording is open: its keys work without a click.
    await expect(page.getByRole('application', { name: 'Flame graph' })).toBeFocused();

    // Ctrl+V with no input focused: a paste event on the document.
    await gotoAndWait(page);
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'app;run 5\n');
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    });
    await expect(recordingName(page)).toHaveText('pasted text');

    // A pasted link is fetched rather than parsed.
    await serveFixtures(page);
    await page.evaluate((url) => {
      const data = new DataTransfer();
      data.setData('text/plain', ` ${url}\n`);
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    }, new URL('e2e-fixtures/sqlite.folded', page.url()).href);
    await expect(recordingName(page)).toHaveText('sqlite.folded');
    await waitForIdle(page);
  });

  test('dropping a file anywhere shows the overlay and opens it', async ({ page }) => {
    await gotoAndWait(page);
    const text = readFileSync(fixturePath('sqlite.folded'), 'utf8');
    await page.evaluate((content) => {
      const data = new DataTransfer();
      data.items.add(new File([content], 'dropped.folded', { type: 'text/plain' }));
      (window as unknown as { __drop: DataTransfer }).__drop = data;
      document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
      document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, text);
    await expect(page.getByText('Drop to open')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('drop.png') });
    await page.evaluate(() => {
      const data = (window as unknown as { __drop: DataTransfer }).__drop;
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect(page.getByText('Drop to open')).toHaveCount(0);
    await expect(recordingName(page)).toHaveText('dropped.folded');
    await waitForIdle(page);
    await expect(page.getByRole('application', { name: 'Flame graph' })).toBeFocused();
  });

  test('picking another event reads the same recording again for that event', async ({ page }) => {
    const block = (event: string, fn: string, t: number) =>
      `prog 100 ${t.toFixed(3)}: 1 ${event}: \n\t401000 ${fn}+0x10 (/bin/prog)\n\t401100 main+0x20 (/bin/prog)\n\n`;
    let text = '';
    for (let i = 0; i < 6; i++) text += block('cycles', 'alpha', i) + block('instructions', 'beta', i + 0.5);
    await gotoAndWait(page);
    await openBytes(page, 'two-events.perf-script.txt', Buffer.from(text), 'text/plain');
    await expect(recordingName(page)).toHaveText('two-events.perf-script.txt');
    await waitForIdle(page);
    const picker = (await menu(page, 'View')).getByLabel('Event');
    await expect(picker).toHaveValue('cycles');
    const stacks = () => page.evaluate(() => {
      const s = (window as unknown as { flameview: { store: { getState(): { recordings: { a: { snapshot: { frames: { strings: string[] } } | null } } } } } }).flameview.store.getState();
      return s.recordings.a.snapshot?.frames.strings ?? [];
    });
    expect(await stacks()).toContain('alpha');
    await pickEvent(page, 'instructions');
    await expect((await menu(page, 'View')).getByLabel('Event')).toHaveValue('instructions');
    expect(await stacks()).toContain('beta');
    expect(await stacks()).not.toContain('alpha');
    await expect(recordingName(page)).toHaveText('two-events.perf-script.txt');
  });

  test('a slow load shows progress and Cancel keeps the open recording (and closes the connection)', async ({ page }) => {
    // A server that trickles a large perf script: 64 KB every 25 ms, with a Content-Length.
    const one = readFileSync(fixturePath('rust-toyc.perf-script.txt'));
    const total = one.length * 40;
    let closedEarly = false;
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(total), 'access-control-allow-origin': '*' });
      let sent = 0;
      const timer = setInterval(() => {
        const n = Math.min(65536, total - sent);
        const chunk = Buffer.alloc(n);
        for (let i = 0; i < n; i++) chunk[i] = one[(sent + i) % one.length];
        res.write(chunk);
        sent += n;
        if (sent >= total) {
          clearInterval(timer);
          res.end();
        }
      }, 25);
      res.on('close', () => {
        clearInterval(timer);
        if (sent < total) closedEarly = true;
      });
      req.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await gotoAndWait(page);
      await page.evaluate((url) => (location.hash = `#profile=${encodeURIComponent(url)}`), `http://127.0.0.1:${port}/slow.perf-script.txt`);
      const bar = page.getByRole('group', { name: 'Loading' });
      await expect(bar).toBeVisible();
      await expect(bar).toContainText('slow.perf-script.txt');
      await expect(bar).toContainText(/[\d.]+ (KB|MB) of 7[\d.]* MB · [\d,]+ samples/);
      await expect(page.getByRole('progressbar', { name: 'Loading slow.perf-script.txt' })).toBeVisible();
      // The page lays out once per progress report (at most every 80 ms), not every frame: a
      // transition on the bar did (574 frames and 1.4 s of main-thread CPU during a 1 GB load),
      // CPU the parser needs on 2 cores.
      const trace = await timelineTrace(page, () => page.waitForTimeout(1000));
      const layouts = mainThreadEvents(trace, 'Layout');
      expect(layouts).toBeGreaterThan(0);
      expect(layouts).toBeLessThan(25);
      await page.screenshot({ path: test.info().outputPath('loading.png') });
      await bar.getByRole('button', { name: 'Cancel' }).click();
      await expect(bar).toHaveCount(0);
      await expect(recordingName(page)).toHaveText('rust-toyc.perf-script.txt');
      await expect(page.getByRole('alert')).toHaveCount(0);
      await waitForIdle(page);
      // Cancel reaches the worker's fetch: the server sees the connection closed before the end.
      await expect.poll(() => closedEarly).toBe(true);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  test('the main thread stays responsive while a 20 MB file loads', async ({ page }) => {
    await gotoAndWait(page);
    // Best of two loads (two names, so each is a new recording): a shared 2-core machine can
    // stretch one task now and then; a real regression shows in both.
    let best = Infinity;
    for (const tag of ['', '-again']) {
      const file = bigPerfScript(20, tag);
      const started = Date.now();
      const tasks = await traceMainThread(page, async () => {
        await openFixture(page, file);
        await expect(recordingName(page)).toHaveText(path.basename(file), { timeout: 60_000 });
        await waitForIdle(page, 60_000);
      });
      const line =
        `20 MB perf script: drawn in ${Date.now() - started} ms; ${tasks.tasks} main-thread tasks, longest ${tasks.longestCpuMs.toFixed(1)} ms CPU ` +
        `(${tasks.longestWallMs.toFixed(0)} ms wall), ${tasks.overBudget} over 50 ms CPU`;
      console.log(line);
      test.info().annotations.push({ type: 'main-thread', description: line });
      expect(tasks.tasks).toBeGreaterThan(0);
      best = Math.min(best, tasks.longestCpuMs);
      if (best <= 250) break;
    }
    // Loading runs in the worker; the main thread only receives buffers and draws (longest task
    // 20-50 ms of CPU, bench:browser keeps the figure). The bound here only tells a parse on the
    // main thread (over 1 s of CPU for 20 MB) from the machine's load, which stretched 50 ms
    // tasks past any tight bound: it is a guard against the regression, not a budget.
    expect(best).toBeLessThanOrEqual(250);
  });
});
