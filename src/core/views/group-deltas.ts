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
import { functionDeltas, functionWeights, type FunctionDelta } from './function-deltas';

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
export function groupDeltas(
  runsA: readonly DiffSide[],
  runsB: readonly DiffSide[],
  sumA: DiffSide,
  sumB: DiffSide,
  options: GroupDeltaOptions = {},
): GroupDelta[] {
  const weight = options.weight ?? 'period';
  const rows = functionDeltas(sumA, sumB, { norm: 'pct', weight });
  const a = shareRanges(runsA, weight === 'samples');
  const b = shareRanges(runsB, weight === 'samples');
  const spread = (name: string, which: 'self' | 'total', delta: number): Spread => {
    const sa = a.get(name)?.[which] ?? 0;
    const sb = b.get(name)?.[which] ?? 0;
    return { a: sa, b: sb, noise: Math.abs(delta) <= Math.max(sa, sb) };
  };
  return rows.map((r) => ({ ...r, selfSpread: spread(r.name, 'self', r.self.delta), totalSpread: spread(r.name, 'total', r.total.delta) }));
}

/** Per function name: the range of its self and total share (percent) over the runs. */
function shareRanges(runs: readonly DiffSide[], samples: boolean): Map<string, { self: number; total: number }> {
  const lo = new Map<string, [number, number]>();
  const hi = new Map<string, [number, number]>();
  const seen = new Map<string, number>();
  runs.forEach((run) => {
    const w = functionWeights(run.tree, run.frames, samples);
    const root = samples ? run.tree.totalSamples[0] : run.tree.totalWeight[0];
    for (let s = 0; s < w.seen.length; s++) {
      if (!w.seen[s]) continue;
      const name = run.frames.strings[s];
      const self = root > 0 ? (100 * w.self[s]) / root : 0;
      const total = root > 0 ? (100 * w.total[s]) / root : 0;
      const l = lo.get(name);
      const h = hi.get(name);
      if (!l || !h) {
        lo.set(name, [self, total]);
        hi.set(name, [self, total]);
      } else {
        l[0] = Math.min(l[0], self);
        l[1] = Math.min(l[1], total);
        h[0] = Math.max(h[0], self);
        h[1] = Math.max(h[1], total);
      }
      seen.set(name, (seen.get(name) ?? 0) + 1);
    }
  });
  const out = new Map<string, { self: number; total: number }>();
  for (const [name, [lSelf, lTotal]] of lo) {
    const [hSelf, hTotal] = hi.get(name)!;
    // A run without the function had it at 0 %.
    const missing = seen.get(name)! < runs.length;
    out.set(name, { self: hSelf - (missing ? 0 : lSelf), total: hTotal - (missing ? 0 : lTotal) });
  }
  return out;
}
