// `collapse --view functions` of an inline recording against the --no-inline twin of the same
// perf.data, as collapsed by stackcollapse-perf.pl (fixtures/cpp/README.md): the weighted
// histograms of stack depth must agree. Per-sample figures: src/core/import/perf/perf-twins.test.ts.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCollapse } from './collapse';
import { runInMemory } from './run-in-memory';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** Weighted depth histogram of folded text (depth = frames per line, the process frame included). */
function depthHistogram(folded: string): Map<number, number> {
  const h = new Map<number, number>();
  for (const line of folded.split('\n')) {
    if (!line) continue;
    const space = line.lastIndexOf(' ');
    const depth = line.slice(0, space).split(';').length;
    h.set(depth, (h.get(depth) ?? 0) + Number(line.slice(space + 1)));
  }
  return h;
}

/** The share of weight two histograms have in common. */
function agreement(a: Map<number, number>, b: Map<number, number>): number {
  let common = 0;
  let totalA = 0;
  let totalB = 0;
  for (const [d, w] of a) {
    totalA += w;
    common += Math.min(w, b.get(d) ?? 0);
  }
  for (const w of b.values()) totalB += w;
  return common / Math.max(totalA, totalB);
}

describe('collapse --view functions against stackcollapse-perf.pl of the --no-inline twin', () => {
  const figures: string[] = [];
  // The recordings made for issue 33 (fib inlined into itself among other code, sorts over
  // std::unique_ptr, a C hash table and ack) must agree exactly.
  const exact = ['cpp/fibmix', 'cpp/sortptr', 'cpp/hashack'];
  for (const name of ['rust-toyc', 'sqlite', 'cpp/funcs', 'cpp/maps', 'cpp/recur', 'cpp/mixed-clang', ...exact]) {
    it(`${name}: the weighted depth histograms agree (≥ 98 %), and so do the totals`, async () => {
      const r = await runInMemory(runCollapse, ['--view', 'functions', `${FIXTURES}${name}.perf-script.txt`], '');
      expect(r.code).toBe(0);
      const ours = depthHistogram(r.stdout);
      const oracle = depthHistogram(readFileSync(`${FIXTURES}${name}.no-inline.folded`, 'utf8'));
      const share = agreement(ours, oracle);
      figures.push(`${name}: ${(share * 100).toFixed(1)} %`);
      const total = (h: Map<number, number>) => [...h.values()].reduce((a, b) => a + b, 0);
      expect(total(ours)).toBe(total(oracle));
      expect(share).toBeGreaterThanOrEqual(0.98);
      if (exact.includes(name)) expect(Object.fromEntries([...ours].sort((a, b) => a[0] - b[0]))).toEqual(Object.fromEntries([...oracle].sort((a, b) => a[0] - b[0])));
    });
  }
  it('prints the figures', () => {
    console.log(`weighted depth histogram agreement:\n${figures.join('\n')}`);
    expect(figures.length).toBe(9);
  });
});
