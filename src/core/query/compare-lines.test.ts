// A function's lines in A and B: shares of each run's own samples with lines, one row per line
// of either run (0 where a run lacks it), file order with the unknown line last.

import { describe, expect, it } from 'vitest';
import { byChange, compareLines } from './compare-lines';
import type { FunctionLines, LineWeight } from './source-lines';

const line = (file: string | null, n: number, self: number, total: number): LineWeight => ({ file, line: n, self, total, selfSamples: self, totalSamples: total });
const fn = (all: number, lines: LineWeight[]): FunctionLines => ({ self: 0, total: 0, selfSamples: 0, totalSamples: 0, all, allSamples: all, lines, callSites: [] });

describe('compareLines', () => {
  it('puts both runs on one row per line, as shares of each run', () => {
    const a = fn(100, [line('a.c', 3, 10, 40), line('a.c', 1, 0, 20), line(null, 0, 5, 5)]);
    const b = fn(50, [line('a.c', 3, 10, 10), line('b.c', 7, 5, 5)]);
    expect(compareLines(a, b)).toEqual([
      { file: 'a.c', line: 1, aSelf: 0, bSelf: 0, aTotal: 0.2, bTotal: 0 },
      { file: 'a.c', line: 3, aSelf: 0.1, bSelf: 0.2, aTotal: 0.4, bTotal: 0.2 },
      { file: 'b.c', line: 7, aSelf: 0, bSelf: 0.1, aTotal: 0, bTotal: 0.1 },
      { file: null, line: 0, aSelf: 0.05, bSelf: 0, aTotal: 0.05, bTotal: 0 },
    ]);
    expect(byChange(compareLines(a, b)).map((r) => `${r.file}:${r.line}`)).toEqual(['a.c:3', 'a.c:1', 'b.c:7', 'null:0']); // a tie in total (0.2) goes to the larger change of self
    expect(compareLines(null, b).every((r) => r.aSelf === 0 && r.aTotal === 0)).toBe(true);
  });
});
