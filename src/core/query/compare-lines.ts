// A function's per-line figures in two recordings side by side (the Source panel with a
// comparison open): for each line either run has, A's and B's self and total as shares of each
// run's samples with lines, and B − A in percentage points, as `pprof -diff_base` and the Firefox
// Profiler's comparison read a change: a run that is longer overall does not make every line hotter.
//
// Invariants: one row per (file, line) of either run (the unknown line is one row, file null);
// a line only one run has is 0 in the other; rows in file order (unknown last); pure.

import { byFileOrder, type FunctionLines } from './source-lines';

export interface CompareLineRow {
  file: string | null;
  line: number;
  /** Shares of each run's samples with lines (0..1). */
  aSelf: number;
  bSelf: number;
  aTotal: number;
  bTotal: number;
}

export function compareLines(a: FunctionLines | null, b: FunctionLines | null): CompareLineRow[] {
  const rows = new Map<string, CompareLineRow>();
  const add = (fl: FunctionLines | null, side: 'a' | 'b') => {
    if (!fl) return;
    const all = fl.all || 1;
    for (const l of fl.lines) {
      const key = l.file === null ? '' : `${l.line}:${l.file}`;
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { file: l.file, line: l.line, aSelf: 0, bSelf: 0, aTotal: 0, bTotal: 0 }));
      row[side === 'a' ? 'aSelf' : 'bSelf'] += l.self / all;
      row[side === 'a' ? 'aTotal' : 'bTotal'] += l.total / all;
    }
  };
  add(a, 'a');
  add(b, 'b');
  return [...rows.values()].sort(byFileOrder);
}

/** The rows by the largest change of total share first (then of self), as the change table ranks functions. */
export function byChange(rows: readonly CompareLineRow[]): CompareLineRow[] {
  const d = (r: CompareLineRow) => Math.abs(r.bTotal - r.aTotal);
  const s = (r: CompareLineRow) => Math.abs(r.bSelf - r.aSelf);
  return [...rows].sort((x, y) => d(y) - d(x) || s(y) - s(x));
}
