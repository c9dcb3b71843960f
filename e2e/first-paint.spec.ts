// A linked recording is drawn once: the first draw is final, with no redraw from the first resize
// report or from the draw's own scroll to the root (src/render/flame-renderer.ts).

import { expect, test } from '@playwright/test';
import { fixturePath } from './helpers';
import { readFileSync } from 'node:fs';

const NAME = 'rust-toyc.perf-script.txt';

// Page-side text: counts the flame graph's aria-busy turning "true" after it was "false" once,
// i.e. redraws after the first picture.
const COUNT_REDRAWS = `
  window.__redrawsAfterFirst = 0;
  let drawn = false;
  new MutationObserver((list) => {
    for (const m of list) {
      const el = m.target;
      if (m.attributeName !== 'aria-busy' || el.getAttribute('aria-label') !== 'Flame graph') continue;
      if (el.getAttribute('aria-busy') === 'false') drawn = true;
      else if (drawn) window.__redrawsAfterFirst++;
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
`;

test('a linked recording is fetched once and its first picture is the last one drawn', async ({ page }) => {
  const body = readFileSync(fixturePath(NAME));
  let fetches = 0;
  await page.route('**/e2e-fixtures/**', (route) => {
    fetches++;
    return route.fulfill({ status: 200, body, headers: { 'content-type': 'text/plain', 'content-length': String(body.length) } });
  });
  await page.addInitScript({ content: COUNT_REDRAWS });

  await page.goto(`./#profile=e2e-fixtures/${NAME}`);
  const graph = page.getByRole('application', { name: 'Flame graph' });
  await expect(page.getByTestId('recording-name')).toHaveText(NAME);
  await expect(graph).toHaveAttribute('aria-busy', 'false');
  expect(fetches).toBe(1);

  // The resize report and the scroll event of the first draw come within the next frames: after
  // three more frames the first picture is still the last one drawn.
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => done())))));
  expect(await page.evaluate(() => (window as unknown as { __redrawsAfterFirst: number }).__redrawsAfterFirst)).toBe(0);
  await expect(graph).toHaveAttribute('aria-busy', 'false');
});
