// Extreme but valid recordings in the page (issue 32, item 2): a 1 MB frame name, a 100,000-deep
// stack, 10,000 threads, weights near 2^53, one sample. Each is drawn, the page answers a click
// while it is open, and long names are cut where they are shown (labels, tooltip, details).

import { expect, test, type Page } from '@playwright/test';
import { menuButton, openBytes, waitForIdle } from './helpers';

type Hook = { flameviewFrames: { rect(l: string, n: string): { x: number; y: number; width: number; height: number } | null } };

/** The input delay of a click on a toolbar control: from the event's time to its handler. */
async function clickDelay(page: Page): Promise<number> {
  const icicle = await menuButton(page, 'View', 'Icicle');
  await icicle.evaluate((el) => el.addEventListener('click', (e) => ((window as unknown as { inputDelay: number }).inputDelay = performance.now() - e.timeStamp), { once: true }));
  await icicle.click();
  await expect(icicle).toHaveAttribute('aria-pressed', 'true');
  return page.evaluate(() => (window as unknown as { inputDelay: number }).inputDelay);
}

async function hover(page: Page, name: string): Promise<void> {
  await expect.poll(() => page.evaluate((n) => (window as unknown as Hook).flameviewFrames.rect('Flame graph', n) !== null, name)).toBe(true);
  const r = (await page.evaluate((n) => (window as unknown as Hook).flameviewFrames.rect('Flame graph', n), name))!;
  await page.mouse.move(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`a 1 MB frame name is drawn, cut in the tooltip and the details, and the page answers (${scheme})`, async ({ page }) => {
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
    expect(await clickDelay(page)).toBeLessThan(200);
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
  expect(await clickDelay(page)).toBeLessThan(200);
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
  expect(await clickDelay(page)).toBeLessThan(200);
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
