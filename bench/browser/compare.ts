// The comparison rows of the browser benchmark (run.ts --compare): opening a comparison of two
// recordings of one size from navigation, against opening one of them.
//
//   single:  <app>#profile=<A>             until "Flame graph" is drawn with A open
//   compare: <app>#profile=<A>&compare=<B> until "Baseline flame graph" and "Comparison flame
//            graph" are both drawn (A and B load in two workers at once)
//
// Each run uses a fresh browser context (no HTTP cache, no warm worker); single and comparison
// runs alternate so a change in the machine's load hits both. Times are from navigation start
// (performance.now() in the page), taken from the probe's records (probe.ts), not from polling.

import type { Browser, Page } from '@playwright/test';
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { PageProbe } from './probe';

export interface CompareRow {
  inputA: string;
  inputB: string;
  bytesA: number;
  bytesB: number;
  runs: number;
  /** Medians over the runs, ms from navigation. */
  singleMs: number;
  compareMs: number;
  /** compareMs / singleMs (target ≤ 2.2). */
  ratio: number;
  /** Medians of the worker phases in the comparison runs (open mark → answer), A and B. */
  workerAMs: number;
  workerBMs: number;
  singleRunsMs: number[];
  compareRunsMs: number[];
  loadavgBefore: number[];
  loadavgAfter: number[];
}

export const COMPARE_TARGET = 2.2;

interface File {
  name: string;
  path: string;
}

function median(values: number[]): number {
  const s = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

type Probe = Pick<PageProbe, 'drawn' | 'graphsDrawn' | 'marks'>;

async function probeOf(page: Page): Promise<Probe> {
  return page.evaluate(() => {
    const p = (window as unknown as { __probe: PageProbe }).__probe;
    return { drawn: p.drawn, graphsDrawn: p.graphsDrawn, marks: p.marks };
  });
}

const mark = (p: Probe, name: string) => p.marks.filter((m) => m.name === name).at(-1)?.t ?? NaN;

async function openSingle(browser: Browser, url: string, a: File, init: string, timeout: number): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(init);
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(
      (n) => document.title.startsWith(n + ' ·') && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false',
      a.name,
      { timeout, polling: 100 },
    );
    const p = await probeOf(page);
    return p.drawn.find((d) => d.title.startsWith(a.name + ' ·'))?.t ?? NaN;
  } finally {
    await context.close();
  }
}

async function openComparison(browser: Browser, url: string, init: string, timeout: number): Promise<{ ms: number; workerA: number; workerB: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(init);
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(
      () => ['Baseline flame graph', 'Comparison flame graph'].every((l) => document.querySelector(`[aria-label="${l}"]`)?.getAttribute('aria-busy') === 'false'),
      undefined,
      { timeout, polling: 100 },
    );
    const p = await probeOf(page);
    const first = (label: string) => p.graphsDrawn.find((d) => d.label === label)?.t ?? NaN;
    return {
      ms: Math.max(first('Baseline flame graph'), first('Comparison flame graph')),
      workerA: mark(p, 'flameview:received') - mark(p, 'flameview:open'),
      workerB: mark(p, 'flameview:compare-received') - mark(p, 'flameview:compare-open'),
    };
  } finally {
    await context.close();
  }
}

export async function measureCompare(browser: Browser, appUrl: string, origin: string, pair: { a: File; b: File }, runs: number, init: string, timeout = 600_000): Promise<CompareRow> {
  const href = (f: File) => encodeURIComponent(`${origin}/${f.name}`);
  const single: number[] = [];
  const compare: number[] = [];
  const workerA: number[] = [];
  const workerB: number[] = [];
  const loadavgBefore = loadavg();
  for (let r = 0; r < runs; r++) {
    single.push(await openSingle(browser, `${appUrl}#profile=${href(pair.a)}`, pair.a, init, timeout));
    const c = await openComparison(browser, `${appUrl}#profile=${href(pair.a)}&compare=${href(pair.b)}`, init, timeout);
    compare.push(c.ms);
    workerA.push(c.workerA);
    workerB.push(c.workerB);
    console.error(`compare ${pair.a.name} + ${pair.b.name}, run ${r + 1}/${runs}: single ${single.at(-1)!.toFixed(0)} ms, comparison ${c.ms.toFixed(0)} ms (load ${loadavg()[0].toFixed(1)})`);
  }
  const singleMs = median(single);
  const compareMs = median(compare);
  return {
    inputA: pair.a.name,
    inputB: pair.b.name,
    bytesA: statSync(pair.a.path).size,
    bytesB: statSync(pair.b.path).size,
    runs,
    singleMs,
    compareMs,
    ratio: compareMs / singleMs,
    workerAMs: median(workerA),
    workerBMs: median(workerB),
    singleRunsMs: single,
    compareRunsMs: compare,
    loadavgBefore,
    loadavgAfter: loadavg(),
  };
}

export function printCompare(rows: CompareRow[]): void {
  const f = (v: number, d = 0) => (Number.isNaN(v) ? '–' : v.toFixed(d));
  const head = ['comparison (A + B)', 'MB', 'runs', 'single', 'compare', 'ratio', 'worker A', 'worker B', 'load before→after'];
  const lines = rows.map((r) => [
    `${r.inputA} + ${r.inputB}`,
    `${(r.bytesA / 1e6).toFixed(0)}+${(r.bytesB / 1e6).toFixed(0)}`,
    String(r.runs),
    f(r.singleMs),
    f(r.compareMs),
    `${f(r.ratio, 2)} ${r.ratio <= COMPARE_TARGET ? 'ok' : 'MISS'}`,
    f(r.workerAMs),
    f(r.workerBMs),
    `${r.loadavgBefore[0].toFixed(1)}→${r.loadavgAfter[0].toFixed(1)}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(fmt(head));
  for (const l of lines) console.log(fmt(l));
  console.log(`single = #profile=A until drawn; compare = #profile=A&compare=B until both graphs are drawn (ms from navigation, medians);`);
  console.log(`target: compare ≤ ${COMPARE_TARGET} × single. Worker = open → answer of each recording's worker in the comparison runs.`);
}
