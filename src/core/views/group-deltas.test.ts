// Group compare (./group-deltas.ts) on runs recorded for it (fixtures/groups: 5 runs of a
// workload and 5 of the same with one kernel, scan_table, given 60 % more work, each run with
// its own ±10 % jitter per kernel and perf's sampling noise): the real change is flagged and at
// least 90 % of the unchanged functions are called noise.

import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../import/load';
import { mergeRecordings } from '../parallel/recordings';
import { fixtureBytes } from '../testing/fixtures';
import { profileFrom } from '../testing/tree-dsl';
import { groupDeltas, shareTable } from './group-deltas';

const runs = (side: 'a' | 'b') => Promise.all([1, 2, 3, 4, 5].map((i) => loadProfileFromText(fixtureBytes(`groups/${side}${i}.folded`))));

describe('group compare', () => {
  it('flags the real change and calls at least 90 % of the unchanged functions noise (5 + 5 recorded runs)', async () => {
    const [a, b] = await Promise.all([runs('a'), runs('b')]);
    const rows = groupDeltas(shareTable(a), shareTable(b), mergeRecordings(a), mergeRecordings(b));
    const scan = rows.find((r) => r.name === 'scan_table')!;
    expect(scan.self.delta).toBeGreaterThan(0);
    expect(scan.selfSpread.noise).toBe(false);
    expect(rows[0].name).toBe('scan_table');
    // Functions with self time on either side (one with none has Δ 0 and is trivially noise).
    const unchanged = rows.filter((r) => r.name !== 'scan_table' && (r.self.a > 0 || r.self.b > 0));
    const noise = unchanged.filter((r) => r.selfSpread.noise);
    expect(unchanged.length).toBeGreaterThan(20);
    // the eleven other kernels, 2 to 17 % of a run each, are all within their runs' spread
    const kernels = unchanged.filter((r) => r.self.a > 2);
    expect(kernels).toHaveLength(11);
    expect(kernels.filter((r) => !r.selfSpread.noise).map((r) => r.name)).toEqual([]);
    expect(noise.length / unchanged.length).toBeGreaterThanOrEqual(0.9);
  });

  it('spread: the range of the share over the runs, 0 % for a run without the function; one run per side is never noise', () => {
    const a1 = profileFrom('main;f 50\nmain;g 50');
    const a2 = profileFrom('main;f 70\nmain;g 30');
    const b1 = profileFrom('main;f 60\nmain;h 40');
    const rows = groupDeltas(shareTable([a1, a2]), shareTable([b1]), mergeRecordings([a1, a2]), b1);
    const f = rows.find((r) => r.name === 'f')!;
    expect(f.self.delta).toBeCloseTo(0);
    expect(f.selfSpread).toEqual({ a: 20, b: 0, noise: true });
    const g = rows.find((r) => r.name === 'g')!;
    expect(g.selfSpread.a).toBeCloseTo(20);
    expect(g.selfSpread.noise).toBe(false); // −40 pp: more than its 20 pp spread
    const h = rows.find((r) => r.name === 'h')!;
    expect(h.status).toBe('new');
    expect(h.selfSpread).toEqual({ a: 0, b: 0, noise: false });
    const one = groupDeltas(shareTable([a1]), shareTable([b1]), a1, b1);
    expect(one.filter((r) => r.self.delta !== 0).every((r) => !r.selfSpread.noise)).toBe(true);
  });
});
