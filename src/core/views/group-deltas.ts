// Group compare (issue 31, item 3): A and B are each several runs (five of the old build against
// five of the new), and the change table says, per function, how much its share moves between
// runs of one side, so that a change smaller than that is called noise.
//
// Invariants:
// - a function's share of a run is its weight over that run's total, in percent (each run
//   normalised by its own total, as the differential normalises each side);
// - a side's spread is the range (max − min) of the function's share over the side's runs; a run
//   without the function counts as 0 %;
// - the change itself is the merged sides' (functionDeltas of the summed runs, pct: each side by
//   its own total), so the table's Δ is the differential graph's;
// - a change is noise when |Δ| ≤ the larger of the two spreads: a real change moves the share by
//   more than it moves between runs of one build. With one run per side both spreads are 0 and
//   nothing is noise; with several, a function whose runs all agree has spread 0 too;
// - rows keep functionDeltas' order (heaviest |self Δ| first).

import type { DiffSide } from './diff';
import { functionDeltas, type FunctionDelta } from './function-deltas';
import type { ShareTable } from './function-weights';

export { shareTable, type ShareTable } from './function-weights';

export interface Spread {
  /** max − min of the function's share (percent of the run's total) over A's runs, and B's. */
  a: number;
  b: number;
  /** |Δ| (percentage points) is at most max(a, b). */
  noise: boolean;
}

export interface GroupDelta extends FunctionDelta {
  selfSpread: Spread;
  totalSpread: Spread;
}

export interface GroupDeltaOptions {
  weight?: 'period' | 'samples';
}

/** Per function of the runs' sums: the change in percent of each side's total, with each side's spread. */
export function groupDeltas(runsA: ShareTable, runsB: ShareTable, sumA: DiffSide, sumB: DiffSide, options: GroupDeltaOptions = {}): GroupDelta[] {
  const weight = options.weight ?? 'period';
  const rows = functionDeltas(sumA, sumB, { norm: 'pct', weight });
  const a = shareRanges(runsA);
  const b = shareRanges(runsB);
  const spread = (name: string, which: 'self' | 'total', delta: number): Spread => {
    const sa = a.get(name)?.[which] ?? 0;
    const sb = b.get(name)?.[which] ?? 0;
    return { a: sa, b: sb, noise: Math.abs(delta) <= Math.max(sa, sb) };
  };
  return rows.map((r) => ({ ...r, selfSpread: spread(r.name, 'self', r.self.delta), totalSpread: spread(r.name, 'total', r.total.delta) }));
}

/** Per function name: the range (max − min) of its self and total share over the runs; a run without it had it at 0 %. */
function shareRanges(table: ShareTable): Map<string, { self: number; total: number }> {
  const n = table.names.length;
  const range = (col: Float64Array, f: number) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (let r = 0; r < table.runs; r++) {
      lo = Math.min(lo, col[r * n + f]);
      hi = Math.max(hi, col[r * n + f]);
    }
    return table.runs > 0 ? hi - lo : 0;
  };
  const out = new Map<string, { self: number; total: number }>();
  table.names.forEach((name, f) => out.set(name, { self: range(table.self, f), total: range(table.total, f) }));
  return out;
}
