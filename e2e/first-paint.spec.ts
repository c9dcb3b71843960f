// The first picture loads only what it needs: a linked recording is drawn without fetching the
// lazy chunks (the analysis panels, the comparison), which are fetched when first shown; and the
// link's recording is read once, by one profile worker.

import { expect, test } from '@playwright/test';
import { e2eDist, fixturePath, waitForIdle } from './helpers';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LAZY = ['CallTreePanel', 'FunctionTable', 'CallersCalleesView', 'CompareView'];
const scriptName = (url: string) => new URL(url).pathname.split('/').pop() ?? '';

test('a linked recording is drawn without the lazy chunks, read once by one worker; a panel fetches its chunk', async ({ page }) => {
  const NAME = 'rust-toyc.perf-script.txt';
  const body = readFileSync(fixturePath(NAME));
  let reads = 0;
  await page.route('**/e2e-fixtures/**', (route) => {
    reads++;
    return route.fulfill({ status: 200, body, headers: { 'content-type': 'text/plain', 'content-length': String(body.length) } });
  });
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script' || r.url().endsWith('.js')) scripts.push(scriptName(r.url()));
  });
  await page.goto(`./#v=1&profile=e2e-fixtures/${NAME}`);
  await waitForIdle(page);
  await expect(page.getByTestId('recording-name')).toHaveText(NAME);
  await expect.poll(() => page.evaluate(() => document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy'))).toBe('false');

  // Each lazy component is a chunk of its own in this build (a static import would fold it in).
  const built = readdirSync(join(e2eDist(), 'assets'));
  for (const chunk of LAZY) expect(built.some((f) => f.startsWith(`${chunk}-`) && f.endsWith('.js')), `${chunk} has no chunk of its own`).toBe(true);
  for (const chunk of LAZY) expect(scripts.filter((s) => s.startsWith(`${chunk}-`)), `${chunk} fetched before it was shown: ${scripts.join(', ')}`).toEqual([]);
  // One profile worker and one read of the recording.
  expect(scripts.filter((s) => s.startsWith('profile.worker-'))).toHaveLength(1);
  expect(reads).toBe(1);

  // The chunks exist and are fetched on demand: the call tree opens with its rows.
  await page.getByRole('button', { name: 'Call tree' }).click();
  await expect(page.getByRole('treegrid', { name: 'Call tree' })).toBeVisible();
  await expect.poll(() => scripts.some((s) => s.startsWith('CallTreePanel-'))).toBe(true);
});
