// Parallel parsing in the browser: a large recording opened from a file is parsed in one part per
// core (the profile worker parses the first, a part worker each of the others), each reading its
// own Blob.slice(), and shows what one parser shows.

import { expect, test } from '@playwright/test';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gotoAndWait, openFixture, waitForIdle } from './helpers';
import { syntheticPerf } from '../src/core/testing/synthetic-perf';

/**
 * A synthetic recording without recursion (its parts merge; see src/core/parallel/split.test.ts)
 * repeated past `megabytes` (cached in the temp directory).
 */
function repeatedFixture(megabytes: number): { file: string; copies: number } {
  const one = Buffer.from(syntheticPerf(532));
  const copies = Math.ceil((megabytes * 1024 * 1024) / one.length);
  const dir = path.join(tmpdir(), 'flameview-e2e');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `parallel-synthetic-${copies}x.perf-script.txt`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.concat(Array.from({ length: copies }, () => one)));
    renameSync(partial, file);
  }
  return { file, copies };
}

test('a 40 MB perf script is parsed in parts, the first by the profile worker, with every sample', async ({ page }) => {
  const { file, copies } = repeatedFixture(40);
  // Part workers are started by the profile worker (page.on('worker') does not see nested
  // workers); their scripts' requests are seen.
  const workers: string[] = [];
  page.context().on('request', (r) => workers.push(r.url()));
  // The measured minimum part (128 MiB for perf script) would need a file of 256 MiB here.
  await gotoAndWait(page, './?min-part-bytes=16777216');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  await openFixture(page, file);
  await expect(page.getByTestId('recording-name')).toHaveText(path.basename(file), { timeout: 60_000 });
  await waitForIdle(page, 60_000);
  await expect(page.getByRole('status', { name: 'Recording' })).toHaveText(`Opened ${path.basename(file)}: ${(532 * copies).toLocaleString('en-US')} samples`);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // 2 parts of 20 MB: the profile worker's own and one part worker's.
  if (cores > 1) expect(workers.filter((u) => u.includes('part.worker')).length).toBe(Math.min(cores, 2) - 1);
});

test('Cancel while a recording is parsed in parts, then another file opens', async ({ page }) => {
  // (Whether the part worker starts while the profile worker parses its own part is checked in
  // src/core/session/session-parts.test.ts: in a page, when it starts is not observable.)
  // 160 MB takes seconds to parse in parts, so the bar (shown after 300 ms) and its Cancel are
  // there to click: 40 MB could end before the bar appeared, and the click then waited for a
  // button that never came. Neither the part worker's script nor a Blob's reads can be held back
  // from a test (routes do not reach a worker's nested worker), so the size is the margin.
  const { file } = repeatedFixture(160);
  await gotoAndWait(page, './?min-part-bytes=16777216');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  let partWorker = false;
  page.context().on('request', (r) => (partWorker ||= r.url().includes('part.worker')));
  await openFixture(page, file);
  const bar = page.getByRole('group', { name: 'Loading' });
  await expect(bar).toBeVisible();
  // Cancel while the part worker is at work (it has been asked for), not before it started.
  if (cores > 1) await expect.poll(() => partWorker).toBe(true);
  await bar.getByRole('button', { name: 'Cancel' }).click();
  await expect(bar).toHaveCount(0);
  await openFixture(page, 'sqlite.folded');
  await expect(page.getByTestId('recording-name')).toHaveText('sqlite.folded', { timeout: 15_000 });
  await waitForIdle(page, 15_000);
  await expect(page.getByRole('alert')).toHaveCount(0);
});
