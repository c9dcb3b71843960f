// Screenshots of every screen of the viewer in both themes, for reviewing a visual change:
//
//   npx vite build --outDir node_modules/.cache/shots && npx vite preview --port 4215 --outDir node_modules/.cache/shots &
//   npx tsx scripts/screenshots.ts http://localhost:4215/ docs/screenshots
//
// Writes <screen>-<light|dark>.png at 1400×900 (the size issue 14 measures against). Recordings
// come from fixtures/ through a routed URL, so the script needs no server of its own.

import { chromium, type Page } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const base = process.argv[2] ?? 'http://localhost:4215/';
const out = process.argv[3] ?? 'docs/screenshots';
const only = process.argv[4] ? new RegExp(process.argv[4]) : null;
mkdirSync(out, { recursive: true });

const A = 'rust-toyc.run-a.perf-script.txt';
const B = 'rust-toyc.run-b.perf-script.txt';

/** A 48-level stack (the deep-stack case) beside a shallow one. */
function deepFolded(): string {
  const frames = Array.from({ length: 48 }, (_, i) => `wl::expr::parser::Parser<std::vector<int>>::level_${i}`);
  return `${frames.join(';')} 70\nmain;shallow 30\n`;
}

async function route(page: Page) {
  await page.route('**/fx/**', async (r) => {
    const name = decodeURIComponent(new URL(r.request().url()).pathname.split('/').pop() ?? '');
    if (name === 'deep.folded') return r.fulfill({ status: 200, body: deepFolded(), headers: { 'content-type': 'text/plain' } });
    const file = path.join('fixtures', name);
    if (!existsSync(file)) return r.fulfill({ status: 404, body: 'not found' });
    return r.fulfill({ status: 200, body: readFileSync(file), headers: { 'content-type': 'text/plain' } });
  });
}

async function idle(page: Page, label = 'Flame graph') {
  await page.locator(`[aria-label="${label}"][aria-busy="false"]`).first().waitFor({ timeout: 30_000 });
}

type Screen = { name: string; run(page: Page): Promise<void> };

const screens: Screen[] = [
  { name: 'loaded', run: async (p) => (await p.goto(base), await idle(p)) },
  {
    name: 'search',
    run: async (p) => {
      await p.goto(`${base}#search=parse`);
      await idle(p);
    },
  },
  {
    name: 'zoom',
    run: async (p) => {
      await p.goto(base);
      await idle(p);
      await p.getByRole('button', { name: 'Inline frames' }).click();
      await idle(p);
      await p.locator('[aria-label="Flame graph"]').focus();
      for (const k of ['ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'Enter']) await p.keyboard.press(k);
      await idle(p);
    },
  },
  {
    name: 'function-table',
    run: async (p) => {
      await p.goto(`${base}#panel=table`);
      await idle(p);
      // toyc::interpret: the most self time, in frames wide enough to show their ring.
      await p.getByRole('grid').getByRole('row').nth(1).click();
      await idle(p);
    },
  },
  {
    name: 'compare-side',
    run: async (p) => {
      await p.goto(`${base}#profile=fx/${A}&compare=fx/${B}`);
      await idle(p, 'Baseline flame graph');
      await idle(p, 'Comparison flame graph');
    },
  },
  {
    name: 'compare-diff',
    run: async (p) => {
      await p.goto(`${base}#profile=fx/${A}&compare=fx/${B}&mode=diff`);
      await idle(p, 'Differential flame graph');
    },
  },
  {
    name: 'deep-stack',
    run: async (p) => {
      await p.goto(`${base}#profile=fx/deep.folded`);
      await idle(p);
    },
  },
  {
    // Zoomed on level_30: its 31 ancestors folded into one row, the subtree above it.
    name: 'deep-stack-zoom',
    run: async (p) => {
      const path = Array.from({ length: 31 }, (_, i) => encodeURIComponent(`wl::expr::parser::Parser<std::vector<int>>::level_${i}`)).join(';');
      await p.goto(`${base}#profile=fx/deep.folded&zoom=${path}`);
      await idle(p);
    },
  },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: scheme });
    for (const s of screens) {
      if (only && !only.test(s.name)) continue;
      const page = await context.newPage();
      await route(page);
      try {
        await s.run(page);
        await page.screenshot({ path: path.join(out, `${s.name}-${scheme}.png`) });
        console.log(`${s.name}-${scheme}.png`);
      } catch (e) {
        console.error(`${s.name}-${scheme}: ${(e as Error).message.split('\n')[0]}`);
      } finally {
        await page.close();
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
}
