// Extreme but valid recordings in the page (issue 32, item 2): a 1 MB frame name, a 100,000-deep
// stack, a million distinct frames (5 million with FLAMEVIEW_EXTREME=1), 10,000 threads, weights
// near 2^53, one sample. Each is drawn, the page answers a click while it is open, and long names
// are cut where they are shown (labels, tooltip, details).

import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { menuButton, openBytes, traceMainThread, waitForIdle } from './helpers';

type Hook = { flameviewFrames: { rect(l: string, n: string): { x: number; y: number; width: number; height: number } | null; drawn(l: string): number } };

/**
 * The input delay of a click on a toolbar control: from the event's time to its handler. The test
 * asserts that the click is handled (the page answers); the delay is logged, not bounded: on a
 * shared 2-core machine it measures the other processes too (bench:browser keeps the figures).
 */
async function clickDelay(page: Page): Promise<number> {
  const icicle = await menuButton(page, 'View', 'Icicle');
  await icicle.evaluate((el) => el.addEventListener('click', (e) => ((window as unknown as { inputDelay: number }).inputDelay = performance.now() - e.timeStamp), { once: true }));
  await icicle.click();
  await expect(icicle).toHaveAttribute('aria-pressed', 'true');
  const delay = await page.evaluate(() => (window as unknown as { inputDelay: number }).inputDelay);
  console.log(`${test.info().title}: click input delay ${delay.toFixed(1)} ms`);
  return delay;
}

/** How many rectangles the flame graph's last layout emitted (render/debug-hook.ts). */
function drawn(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as Hook).flameviewFrames.drawn('Flame graph'));
}

/**
 * A click on a toolbar control that redraws the graph (icicle ⇄ flame), timed from the event to
 * the first task after the next frame: the handler ran and the redraw it asked for was painted.
 */
async function clickAndPaint(page: Page): Promise<{ handler: number; painted: number }> {
  const icicle = await menuButton(page, 'View', 'Icicle');
  const pressed = await icicle.getAttribute('aria-pressed');
  type Answer = { answer?: { handler: number; painted: number } };
  await icicle.evaluate((el) => {
    delete (window as Answer).answer;
    el.addEventListener(
      'click',
      (e) => {
        const handler = performance.now() - e.timeStamp;
        requestAnimationFrame(() => setTimeout(() => ((window as Answer).answer = { handler, painted: performance.now() - e.timeStamp })));
      },
      { once: true },
    );
  });
  await icicle.click();
  await expect(icicle).toHaveAttribute('aria-pressed', pressed === 'true' ? 'false' : 'true');
  await expect.poll(() => page.evaluate(() => (window as Answer).answer ?? null)).not.toBeNull();
  return page.evaluate(() => (window as Answer).answer!);
}

async function hover(page: Page, name: string): Promise<void> {
  await expect.poll(() => page.evaluate((n) => (window as unknown as Hook).flameviewFrames.rect('Flame graph', n) !== null, name)).toBe(true);
  const r = (await page.evaluate((n) => (window as unknown as Hook).flameviewFrames.rect('Flame graph', n), name))!;
  await page.mouse.move(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`a 1 MB frame name is drawn, cut in the tooltip and the details, and the page answers (${scheme})`, async ({ page }) => {
    // Reading and drawing a 1 MB name took 42-56 s of the default 60 on a loaded 2-core machine.
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('./');
    await waitForIdle(page);
    const long = 'x'.repeat(1_000_000);
    await openBytes(page, 'long-name.folded', Buffer.from(`main;${long};leaf 5\nmain;other 3\n`));
    await expect(page.locator('footer').getByTestId('status-samples')).toHaveText('Samples: 8');
    await waitForIdle(page);
    await hover(page, long);
    const tip = page.getByRole('tooltip');
    await expect(tip).toBeVisible();
    await expect(tip).toContainText('(1,000,000 characters)');
    expect(((await tip.textContent()) ?? '').length).toBeLessThan(1_000);
    await page.screenshot({ path: `docs/screenshots/long-name-tooltip-${scheme}.png` });
    // A click selects it: the details show more of the name, still cut.
    await page.mouse.down();
    await page.mouse.up();
    const details = page.getByRole('region', { name: 'Selected frame' });
    await expect(details).toContainText('(1,000,000 characters)');
    expect(((await details.textContent()) ?? '').length).toBeLessThan(3_000);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `docs/screenshots/long-name-details-${scheme}.png` });
    await clickDelay(page);
  });
}

test('a 100,000-deep stack is drawn and the page answers', async ({ page }, info) => {
  await page.goto('./');
  await waitForIdle(page);
  const deep = Array.from({ length: 100_000 }, (_, i) => `f${i}`).join(';');
  await openBytes(page, 'deep.folded', Buffer.from(`${deep} 7\nmain 1\n`));
  await expect(page.locator('footer').getByTestId('status-samples')).toHaveText('Samples: 8');
  await waitForIdle(page);
  await page.screenshot({ path: info.outputPath('deep-stack.png') });
  await clickDelay(page);
  // A redraw lays out and draws only the rows in view (render/layout.ts, minDepth..maxDepth),
  // not 100,000 of them.
  const redraw = await traceMainThread(page, async () => {
    await clickAndPaint(page);
  });
  console.log(`click on a 100,000-deep stack: main thread ${JSON.stringify(redraw)}`);
  // Measured: 11 ms of CPU; 128 ms when every row is laid out and drawn. The test counts the rows
  // drawn, not the milliseconds: the canvas holds well under 200 rows of 17 px.
  const rects = await drawn(page);
  expect(rects).toBeGreaterThan(10);
  expect(rects).toBeLessThan(200);
});

test('zero and negative weights in folded text: zero adds nothing, a negative line is skipped and named', async ({ page }) => {
  await page.goto('./');
  await waitForIdle(page);
  await openBytes(page, 'signs.folded', Buffer.from('main;a 0\nmain;b 4\nmain;c -3\nmain;d 2\n'));
  await expect(page.locator('footer').getByTestId('status-samples')).toHaveText('Samples: 6');
  await expect(page.locator('footer')).toContainText('Total weight: 6');
  await page.locator('footer').getByRole('button', { name: '1 line skipped' }).click();
  await expect(page.getByRole('region', { name: 'Warnings' })).toContainText('line 3: negative count "-3"');
  await waitForIdle(page);
  await hover(page, 'b');
  await expect(page.getByRole('tooltip')).toContainText('4 samples');
});

test('a million distinct frames (5 million with FLAMEVIEW_EXTREME=1) load whole, and a click is answered and painted', async ({ page }, info) => {
  const n = process.env.FLAMEVIEW_EXTREME === '1' ? 5_000_000 : 1_000_000;
  // About 50 s a million on a loaded 2-core machine (measured: 44 s for 1 M, 322 s for 5 M).
  test.setTimeout(120_000 + n * 0.15);
  // On disk: Playwright refuses in-memory files over 50 MB (5 M lines are 79 MB).
  const file = info.outputPath('distinct.folded');
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`main;g${i} 1\n`);
  writeFileSync(file, parts.join(''));
  await page.goto('./');
  await waitForIdle(page);
  const loading = await traceMainThread(page, async () => {
    await page.getByLabel('Open file').setInputFiles(file);
    await expect(page.locator('footer').getByTestId('status-samples')).toHaveText(`Samples: ${n.toLocaleString('en-US')}`, { timeout: n * 0.15 });
    await waitForIdle(page, 60_000);
  });
  // The names arrive as one string and are split on the main thread (util/wire.ts): one task
  // that grows with the frames, reported, not bounded here (docs/robustness.md has the figures).
  console.log(`${n} distinct frames, main thread while loading: ${JSON.stringify(loading)}`);
  // Each g<i> is 1/n of the width: the layout skips frames under half a pixel with their
  // subtrees (render/layout.ts, minWidth), so a redraw walks the frames but draws three.
  let answer = { handler: 0, painted: 0 };
  const redraw = await traceMainThread(page, async () => {
    answer = await clickAndPaint(page);
  });
  console.log(`click on ${n} distinct frames: ${JSON.stringify(answer)} ms wall; main thread ${JSON.stringify(redraw)}`);
  // The redraw draws the root, main and the frames at least half a pixel wide: none of the g<i>
  // (its CPU time, 30-110 ms here depending on the machine's load, is logged, not bounded).
  expect(answer.painted).toBeGreaterThan(0);
  expect(await drawn(page)).toBeLessThanOrEqual(3);
  await hover(page, 'main');
  await expect(page.getByRole('tooltip')).toContainText(`${n.toLocaleString('en-US')} samples`);
  // A search over every name: a match, or the page says it ran out of its time (1.5 s), never a freeze.
  await page.getByRole('searchbox', { name: 'Search' }).fill(`^g${n - 1}$`);
  await expect(page.getByRole('status').filter({ hasText: /^(Matched|Search timed out)/ })).toBeVisible({ timeout: 60_000 });
});

test('10,000 threads of perf script are drawn and the page answers', async ({ page }, info) => {
  await page.goto('./');
  await waitForIdle(page);
  const lines: string[] = [];
  for (let t = 0; t < 10_000; t++) lines.push(`prog 1000/${10_000 + t} [000] ${(1 + t * 0.001).toFixed(6)}: 1000000 cpu-clock:ppp:\n\t401000 work+0x10 (/bin/prog)\n\t402000 main+0x20 (/bin/prog)\n`);
  await openBytes(page, 'threads.perf-script.txt', Buffer.from(lines.join('\n')));
  await expect(page.locator('footer').getByTestId('status-samples')).toHaveText('Samples: 10,000');
  await waitForIdle(page);
  await page.screenshot({ path: info.outputPath('threads.png') });
  await clickDelay(page);
});

test('weights near 2^53 and a recording of one sample', async ({ page }) => {
  await page.goto('./');
  await waitForIdle(page);
  await openBytes(page, 'big.folded', Buffer.from(`main;a ${2 ** 53 - 1}\nmain;b ${2 ** 52}\nmain;a 1\n`));
  await waitForIdle(page);
  await hover(page, 'a');
  await expect(page.getByRole('tooltip')).toContainText('9,007,199,254,740,992');
  await openBytes(page, 'one.folded', Buffer.from('main;a 1\n'));
  await expect(page.locator('footer').getByTestId('status-samples')).toHaveText('Samples: 1');
  await waitForIdle(page);
  await hover(page, 'a');
  await expect(page.getByRole('tooltip')).toContainText('1 sample');
});
