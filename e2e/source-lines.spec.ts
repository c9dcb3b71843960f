// Source lines in the page (issue 25): a perf script -F +srcline recording opened from a file, the
// tooltip and the selected frame's details give `file:line`; a recording without lines gives none.

import { expect, test, type Page } from '@playwright/test';
import { gotoAndWait, openFixture, waitForIdle } from './helpers';

type FramesHook = { flameviewFrames: { rect(label: string, name: string): { x: number; y: number; width: number; height: number } | null } };

/** Hovers the widest `name` frame of the graph and waits for its tooltip's figures; returns where. */
async function hoverFrame(page: Page, name: string): Promise<{ x: number; y: number }> {
  const r = await page.evaluate((n) => (window as unknown as FramesHook).flameviewFrames.rect('Flame graph', n), name);
  expect(r, name).not.toBeNull();
  const at = { x: r!.x + Math.min(r!.width / 2, 40), y: r!.y + r!.height / 2 };
  await page.mouse.move(at.x, at.y);
  // The tooltip's own figures, for this frame (the details panel has figures of its own).
  const tip = page.getByRole('tooltip');
  await expect(tip.locator('.frame-figures')).toBeVisible();
  await expect(tip).toContainText(name);
  return at;
}

test.describe('source lines', () => {
  test('the tooltip and the details show file:line of a -F +srcline recording', async ({ page }) => {
    await gotoAndWait(page);
    await openFixture(page, 'srcline/hashack.srcline.perf-script.txt.gz');
    await waitForIdle(page);
    await expect(page.getByTestId('recording-name')).toHaveText('hashack.srcline.perf-script.txt.gz');
    const { x, y } = await hoverFrame(page, 'main');
    const line = page.getByRole('tooltip').locator('.frame-line');
    await expect(line).toHaveText(/^hashack\.c:\d+( \(the heaviest of \d+\))?$/);
    const text = (await line.innerText()).trim();
    await page.mouse.click(x, y);
    const details = page.getByRole('region', { name: 'Selected frame' });
    await expect(details.locator('.frame-line')).toHaveText(text);
  });

  test('a recording without lines shows no Line', async ({ page }) => {
    await gotoAndWait(page);
    await openFixture(page, 'srcline/hashack.perf-script.txt.gz');
    await waitForIdle(page);
    await expect(page.getByTestId('recording-name')).toHaveText('hashack.perf-script.txt.gz');
    await hoverFrame(page, 'main');
    await expect(page.getByRole('tooltip').locator('.frame-line')).toHaveCount(0);
  });
});
