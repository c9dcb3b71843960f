// `bin/flameview FILE` in the browser: the CLI parses the file and serves its processed form, which
// the page opens without parsing (time order included); the file itself is the link's original=,
// from which the event picker reads another event.

import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashParam, menu, startCli, waitForIdle, type RunningCli } from './helpers';

// Two events in time order: cpu-clock samples at 1.0-1.4 s, cycles at 2.0-2.1 s.
const sample = (t: number, event: string, leaf: string) => `prog 100/100 ${t.toFixed(6)}: 1000 ${event}: \n\t    1 ${leaf}+0x1 (/bin/prog)\n\t    2 main+0x1 (/bin/prog)\n\t    3 _start+0x1 (/bin/prog)\n\n`;
const PERF = [0, 1, 2, 3, 4].map((i) => sample(1 + i / 10, 'cpu-clock:ppp', i % 2 ? 'clock_a' : 'clock_b')).join('') + [0, 1].map((i) => sample(2 + i / 10, 'cycles', 'cyc')).join('');

let dir = '';
let cli: RunningCli | null = null;

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'flameview-open-file-'));
  writeFileSync(path.join(dir, 'two.perf-script.txt'), PERF);
  cli = await startCli(['--no-open', path.join(dir, 'two.perf-script.txt')]);
});

test.afterAll(() => {
  cli?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const footer = (page: Page) => page.locator('footer');

test('flameview FILE: the page opens the processed form with its time order; another event comes from the file', async ({ page }) => {
  expect(cli!.url).toMatch(/#profile=\/api\/local\/[0-9a-f]{32}\/two\.perf-script\.txt&original=\/api\/local\/[0-9a-f]{32}\/two\.perf-script\.txt&source=\/api\/source\/[0-9a-f]{32}&asm=\/api\/asm\/[0-9a-f]{32}$/);
  const fetched: string[] = [];
  page.on('request', (r) => r.url().includes('/api/local/') && fetched.push(r.url()));
  await page.goto(cli!.url);
  await waitForIdle(page);
  await expect(page.getByTestId('recording-name')).toHaveText('two.perf-script.txt');
  await expect(footer(page)).toContainText('Event: cpu-clock:ppp');
  await expect(footer(page)).toContainText('Samples: 5');
  // Only the processed form was read.
  const profile = new URL(decodeURIComponent((await hashParam(page, 'profile'))!), cli!.url).href;
  expect(fetched.every((u) => u === profile)).toBe(true);
  const timeOrder = page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Time order' });
  await timeOrder.click();
  await expect(page.locator('.time-chart[aria-busy="false"]')).toBeVisible();
  expect(Number(await page.getByRole('img', { name: 'Stack chart of the samples in time order' }).getAttribute('data-rects'))).toBeGreaterThan(0);
  await timeOrder.click();

  const picker = (await menu(page, 'View')).getByLabel('Event');
  await picker.selectOption({ label: (await picker.locator('option', { hasText: 'cycles' }).textContent())! });
  await expect(footer(page)).toContainText('Event: cycles');
  await expect(footer(page)).toContainText('Samples: 2');
  await waitForIdle(page);
  await expect.poll(() => hashParam(page, 'event')).toBe('cycles');
  // The link still opens the processed form (and its original for the event).
  expect(new URL(decodeURIComponent((await hashParam(page, 'profile'))!), cli!.url).href).toBe(profile);
  await page.reload();
  await waitForIdle(page);
  await expect(footer(page)).toContainText('Event: cycles');
});
