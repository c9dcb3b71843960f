// Source lines in the page (issue 25): a perf script -F +srcline recording opened from a file, the
// tooltip and the selected frame's details give `file:line`; a recording without lines gives none.

import { expect, test, type Page } from '@playwright/test';
import { gotoAndWait, openFixture, waitForIdle } from './helpers';

const graph = (page: Page) => page.getByRole('application', { name: 'Flame graph' });

/** Hovers the graph's rows from the bottom up until a tooltip gives a Line; returns it and where. */
async function hoverForLine(page: Page): Promise<{ text: string | null; x: number; y: number }> {
  const box = (await graph(page).locator('canvas').first().boundingBox())!;
  for (let dy = 9; dy < 160; dy += 17) {
    const x = box.x + box.width * 0.5;
    const y = box.y + box.height - dy;
    await page.mouse.move(x, y);
    // The tooltip renders on the next frame: wait for its figures (absent over empty space).
    await expect(page.locator('.frame-figures').first()).toBeVisible({ timeout: 2_000 }).catch(() => undefined);
    const line = page.locator('.frame-line');
    if (await line.count()) return { text: (await line.first().innerText()).trim(), x, y };
  }
  return { text: null, x: 0, y: 0 };
}

test.describe('source lines', () => {
  test('the tooltip and the details show file:line of a -F +srcline recording', async ({ page }) => {
    await gotoAndWait(page);
    await openFixture(page, 'srcline/hashack.srcline.perf-script.txt.gz');
    await waitForIdle(page);
    await expect(page.getByTestId('recording-name')).toHaveText('hashack.srcline.perf-script.txt.gz');
    const { text, x, y } = await hoverForLine(page);
    expect(text).toMatch(/^[\w.-]+\.c:\d+( \(the heaviest of \d+\))?$/);
    await page.mouse.click(x, y);
    const details = page.getByRole('region', { name: 'Selected frame' });
    await expect(details.locator('.frame-line')).toHaveText(text!);
  });

  test('a recording without lines shows no Line', async ({ page }) => {
    await gotoAndWait(page);
    await openFixture(page, 'srcline/hashack.perf-script.txt.gz');
    await waitForIdle(page);
    await expect(page.getByTestId('recording-name')).toHaveText('hashack.perf-script.txt.gz');
    expect((await hoverForLine(page)).text).toBeNull();
  });
});
