import { describe, expect, it } from 'vitest';
import { profileFrom } from '../testing/tree-dsl';
import { frameName } from '../model/frame-table';
import { pathOf } from '../model/call-tree';
import type { Profile } from '../model/profile';
import { deltaColumn, diffTotals, diffTrees, nodeDelta, pairRoots, type DiffSide } from './diff';
import { functionDeltaOf, functionDeltas } from './function-deltas';
import { findNearestPath, findSamePath, mapFrames } from './frame-path';

const side = (p: Profile): DiffSide => ({ tree: p.tree, frames: p.frames });

/** Node of a profile's tree by its `a;b;c` path (names with optional `_[i]`). */
function nodeAt(p: Profile, path: string): number {
  for (let n = 1; n < p.tree.nodeCount; n++) {
    const names = pathOf(p.tree, n).map((f) => frameName(p.frames, f) + (p.frames.flags[f] & 1 ? '_[i]' : ''));
    if (names.join(';') === path) return n;
  }
  throw new Error(`no node ${path}`);
}

function pathText(p: Profile, n: number): string {
  return pathOf(p.tree, n)
    .map((f) => frameName(p.frames, f) + (p.frames.flags[f] & 1 ? '_[i]' : ''))
    .join(';');
}

// A and B are built separately, so their frame tables number the frames differently (B interns
// `zeta` first): matching must go by name and flags, not by frame index.
const A = profileFrom(`
  main;parse;lex 4
  main;compile;optimize_[i];fold 2
  main;compile 2
  main;old_thing 2
`);
const B = profileFrom(`
  zeta 1
  main;parse;lex 4
  main;compile;optimize_[i];fold 6
  main;compile;optimize;fold 1
  main;compile 2
  main;new_thing 2
`);

describe('mapFrames', () => {
  it('matches frames by name and flags across tables, and numbers the rest after the target', () => {
    const m = mapFrames(A.frames, B.frames);
    for (let f = 0; f < A.frames.count; f++) {
      const name = frameName(A.frames, f);
      if (name === 'old_thing') {
        expect(m.map[f]).toBeGreaterThanOrEqual(B.frames.count);
      } else {
        expect(frameName(B.frames, m.map[f])).toBe(name);
        expect(B.frames.flags[m.map[f]]).toBe(A.frames.flags[f]);
      }
    }
    expect(m.sharedCount).toBe(B.frames.count + 1);
  });
});

describe('diffTrees', () => {
  it('aligns every node of the shape tree (B) with the same path in A', () => {
    const d = diffTrees(side(A), side(B));
    expect(d.shape).toBe('B');
    const fold = nodeAt(B, 'main;compile;optimize_[i];fold');
    expect(d.match[fold]).toBe(nodeAt(A, 'main;compile;optimize_[i];fold'));
    expect(d.otherTotal[fold]).toBe(2);
    expect(d.otherSelf[fold]).toBe(2);
    expect(d.otherTotalSamples[fold]).toBe(2);
    expect(d.otherTotal[nodeAt(B, 'main;compile')]).toBe(4);
    expect(d.otherSelf[nodeAt(B, 'main;compile')]).toBe(2);
    expect(d.otherTotal[0]).toBe(10);
    // `optimize` (physical) is not `optimize_[i]`: a different frame, so a path only B has.
    const physical = nodeAt(B, 'main;compile;optimize');
    expect(d.match[physical]).toBe(-1);
    expect(d.otherTotal[physical]).toBeNaN();
    expect(d.match[nodeAt(B, 'main;compile;optimize;fold')]).toBe(-1);
    for (let n = 0; n < B.tree.nodeCount; n++) if (d.match[n] >= 0) expect(d.matchBack[d.match[n]]).toBe(n);
  });

  it('lists the roots of subtrees present in one run only, heaviest first', () => {
    const d = diffTrees(side(A), side(B));
    expect([...d.onlyInB].map((n) => pathText(B, n))).toEqual(['main;new_thing', 'main;compile;optimize', 'zeta']);
    expect([...d.onlyInA].map((n) => pathText(A, n))).toEqual(['main;old_thing']);
    expect(B.tree.totalWeight[d.onlyInB[0]]).toBe(2);
  });

  it('switches the shape to A: new paths become the other side, gone paths get nodes', () => {
    const d = diffTrees(side(A), side(B), 'A');
    expect(d.shape).toBe('A');
    expect(d.match.length).toBe(A.tree.nodeCount);
    const old = nodeAt(A, 'main;old_thing');
    expect(d.match[old]).toBe(-1);
    expect(d.otherTotal[nodeAt(A, 'main')]).toBe(15);
    expect([...d.onlyInA].map((n) => pathText(A, n))).toEqual(['main;old_thing']);
    expect([...d.onlyInB].map((n) => pathText(B, n))).toEqual(['main;new_thing', 'main;compile;optimize', 'zeta']);
    // Deltas are always B − A, whichever tree gives the shape.
    expect(nodeDelta(d, old, { norm: 'abs' }).total).toEqual({ a: 2, b: 0, delta: -2, deltaPct: -100 });
    expect(nodeDelta(d, old).presentIn).toBe('A');
  });

  it('is memoised by the identity of the two trees', () => {
    expect(diffTrees(side(A), side(B))).toBe(diffTrees(side(A), side(B)));
    expect(diffTrees(side(A), side(B), 'A')).not.toBe(diffTrees(side(A), side(B), 'B'));
  });

  it('handles a run diffed with itself: everything matches, every delta is 0', () => {
    const d = diffTrees(side(A), side(A));
    expect(d.onlyInA.length + d.onlyInB.length).toBe(0);
    for (let n = 0; n < A.tree.nodeCount; n++) expect(d.match[n]).toBe(n);
    expect(deltaColumn(d).maxAbs).toBe(0);
  });

  it('handles empty trees', () => {
    const empty = profileFrom('');
    const d = diffTrees(side(empty), side(B));
    expect(d.otherTotal[0]).toBe(0);
    expect([...d.onlyInB].map((n) => pathText(B, n))).toEqual(['main', 'zeta']);
    expect(nodeDelta(d, 0).total).toEqual({ a: 0, b: 100, delta: 100, deltaPct: Infinity });
  });

  it('does not recurse: a 50,000-deep chain diffs without a stack overflow', () => {
    const deep = (n: number) => profileFrom(Array.from({ length: n }, (_, i) => `f${i % 7}`).join(';') + ' 1');
    const a = deep(50_000);
    const b = deep(40_000);
    const d = diffTrees(side(a), side(b));
    expect(d.match[b.tree.nodeCount - 1]).toBe(b.tree.nodeCount - 1);
    expect(d.onlyInA.length).toBe(1);
    expect(a.tree.depth[d.onlyInA[0]]).toBe(40_001);
  });
});

describe('normalisation', () => {
  const d = diffTrees(side(A), side(B));
  const compile = nodeAt(B, 'main;compile');

  it('"% of total" compares shares of each run', () => {
    // A: compile 4 of 10 = 40 %; B: 9 of 16 = 56.25 %.
    const t = nodeDelta(d, compile).total;
    expect(t.a).toBeCloseTo(40, 10);
    expect(t.b).toBeCloseTo(56.25, 10);
    expect(t.delta).toBeCloseTo(16.25, 10);
    expect(t.deltaPct).toBeCloseTo(40.625, 10);
    const s = nodeDelta(d, compile).self;
    expect(s.a).toBeCloseTo(20, 10);
    expect(s.b).toBeCloseTo(12.5, 10);
  });

  it('"absolute" compares weights as recorded', () => {
    expect(nodeDelta(d, compile, { norm: 'abs' }).total).toEqual({ a: 4, b: 9, delta: 5, deltaPct: 125 });
    const lex = nodeAt(B, 'main;parse;lex');
    // Same weight, but a smaller share of a longer run: abs says unchanged, pct says shrank.
    expect(nodeDelta(d, lex, { norm: 'abs' }).total.delta).toBe(0);
    expect(nodeDelta(d, lex).total.delta).toBeCloseTo(25 - 40, 10);
  });

  it('a path new in B has a = 0 and an infinite relative change', () => {
    const n = nodeAt(B, 'main;new_thing');
    expect(nodeDelta(d, n, { norm: 'abs' }).total).toEqual({ a: 0, b: 2, delta: 2, deltaPct: Infinity });
    expect(nodeDelta(d, n).presentIn).toBe('B');
  });

  it('deltaColumn agrees with nodeDelta for every node, in both modes and both weights', () => {
    for (const norm of ['pct', 'abs'] as const) {
      for (const kind of ['total', 'self'] as const) {
        for (const shape of ['A', 'B'] as const) {
          const dd = diffTrees(side(A), side(B), shape);
          const { delta, maxAbs } = deltaColumn(dd, kind, { norm, weight: 'samples' });
          let max = 0;
          for (let n = 0; n < delta.length; n++) {
            const expected = nodeDelta(dd, n, { norm, weight: 'samples' })[kind].delta;
            expect(delta[n]).toBeCloseTo(expected, 10);
            max = Math.max(max, Math.abs(expected));
          }
          expect(maxAbs).toBeCloseTo(max, 10);
        }
      }
    }
  });

  it('reports both runs\' totals', () => {
    expect(diffTotals(d)).toEqual({ a: 10, b: 16 });
  });
});

describe('functionDeltas', () => {
  it('sums self over call sites, counts recursion once in total, and includes new and gone', () => {
    const a = profileFrom('main;rec;rec;leaf 3\nmain;x;leaf 1\nmain;gone 2');
    const b = profileFrom('main;rec;rec;rec;leaf 3\nmain;x;leaf 5\nmain;fresh 4');
    const rows = functionDeltas(side(a), side(b), { norm: 'abs' });
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(by.leaf.self).toEqual({ a: 4, b: 8, delta: 4, deltaPct: 100 });
    expect(by.rec.total).toEqual({ a: 3, b: 3, delta: 0, deltaPct: 0 });
    expect(by.main.total).toEqual({ a: 6, b: 12, delta: 6, deltaPct: 100 });
    expect(by.gone.status).toBe('gone');
    expect(by.gone.self.b).toBe(0);
    expect(by.fresh.status).toBe('new');
    expect(by.fresh.self.deltaPct).toBe(Infinity);
    expect(by.x.status).toBe('both');
    // Sorted by |self Δ|: fresh +4 and leaf +4 (equal |total Δ| too, so by name), gone −2; then
    // the self-less ones by |total Δ|: main +6, x +4, rec 0.
    expect(rows.map((r) => r.name)).toEqual(['fresh', 'leaf', 'gone', 'main', 'x', 'rec']);
  });

  it('merges an inlined and a physical frame of the same name into one function', () => {
    const a = profileFrom('main;f_[i] 2\nmain;g;f 2');
    const b = profileFrom('main;f 1');
    const f = functionDeltas(side(a), side(b), { norm: 'abs' }).find((r) => r.name === 'f')!;
    expect(f.self).toEqual({ a: 4, b: 1, delta: -3, deltaPct: -75 });
  });

  it('normalises to shares by default', () => {
    const a = profileFrom('main;f 1\nmain;g 3');
    const b = profileFrom('main;f 3\nmain;g 3');
    const f = functionDeltas(side(a), side(b)).find((r) => r.name === 'f')!;
    expect(f.self.a).toBeCloseTo(25, 10);
    expect(f.self.b).toBeCloseTo(50, 10);
  });
});

describe('findSamePath / findNearestPath', () => {
  it('finds the node with the same frame path in another tree, or the deepest existing ancestor', () => {
    const fold = nodeAt(A, 'main;compile;optimize_[i];fold');
    expect(findSamePath(side(A), fold, side(B))).toBe(nodeAt(B, 'main;compile;optimize_[i];fold'));
    const old = nodeAt(A, 'main;old_thing');
    expect(findSamePath(side(A), old, side(B))).toBe(-1);
    expect(findNearestPath(side(A), old, side(B))).toEqual({ node: nodeAt(B, 'main'), fromNode: nodeAt(A, 'main'), exact: false });
    expect(findNearestPath(side(A), fold, side(B)).exact).toBe(true);
    expect(findSamePath(side(A), 0, side(B))).toBe(0);
  });
});

describe('the rust-toyc A/B pair (optimize_module does twice the work in B)', async () => {
  const { readFileSync } = await import('node:fs');
  const { loadProfileFromText } = await import('../import/load');
  const { functionView } = await import('./function-view');
  const load = (name: string) => loadProfileFromText(readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url)));
  const [runA, runB] = await Promise.all([load('rust-toyc.run-a.perf-script.txt'), load('rust-toyc.run-b.perf-script.txt')]);

  it('inline view: optimize_module\'s share of the total rises from about 26 % to about 45 %', () => {
    const row = functionDeltas(side(runA), side(runB)).find((r) => r.name === 'toyc::optimize_module')!;
    expect(row.status).toBe('both');
    // fixtures/README: 127 of 482 samples (26.3 %) → 342 of 752 (45.5 %).
    expect(row.total.a).toBeCloseTo((100 * 127) / 482, 1);
    expect(row.total.b).toBeCloseTo((100 * 342) / 752, 1);
    // The tooltip's function figures: the same, looked up by name.
    const one = functionDeltaOf(side(runA), side(runB), 'toyc::optimize_module')!;
    expect(one.total).toEqual(row.total);
    expect(functionDeltaOf(side(runA), side(runB), 'no such function')).toBeNull();
    const bySamples = functionDeltas(side(runA), side(runB), { norm: 'abs', weight: 'samples' }).find((r) => r.name === 'toyc::optimize_module')!;
    expect([bySamples.total.a, bySamples.total.b]).toEqual([127, 342]);

    // The same figures per path: the shape (B) nodes of optimize_module, with their A counterparts.
    const d = diffTrees(side(runA), side(runB));
    let a = 0;
    let b = 0;
    for (let n = 1; n < runB.tree.nodeCount; n++) {
      if (frameName(runB.frames, runB.tree.frame[n]) !== 'toyc::optimize_module') continue;
      const delta = nodeDelta(d, n, { norm: 'abs', weight: 'samples' });
      a += delta.total.a;
      b += delta.total.b;
    }
    // Paths only A has would be missed here; none of optimize_module's are.
    expect(b).toBe(342);
    expect(a).toBeGreaterThan(120);
    expect(a).toBeLessThanOrEqual(127);
  });

  it('function view: optimize_module is merged into compile_module, which carries its growth', () => {
    const fa = { tree: functionView(runA).tree, frames: runA.frames };
    const fb = { tree: functionView(runB).tree, frames: runB.frames };
    const abs = { norm: 'abs', weight: 'samples' } as const;
    const rows = functionDeltas(fa, fb, abs);
    expect(rows.find((r) => r.name === 'toyc::optimize_module')).toBeUndefined();
    const compile = rows.find((r) => r.name === 'toyc::compile_module')!;
    // optimize_module grew by 342 − 127 = 215 samples; in the function view that growth is
    // compile_module's (which also holds lexing, parsing, lowering, … so it grows by more).
    expect(compile.total.delta).toBeGreaterThanOrEqual(215);
    expect(functionDeltas(fa, fb).find((r) => r.name === 'toyc::compile_module')!.total.delta).toBeGreaterThan(0);
    // Every optimize_module node of the inline view lies inside a compile_module node.
    const fv = functionView(runB);
    for (let n = 1; n < runB.tree.nodeCount; n++) {
      if (frameName(runB.frames, runB.tree.frame[n]) !== 'toyc::optimize_module') continue;
      expect(frameName(runB.frames, fb.tree.frame[fv.toFunction[n]])).toBe('toyc::compile_module');
    }
    // In the differential tree shaped by B, compile_module's nodes carry that growth too.
    const d = diffTrees(fa, fb);
    let grown = 0;
    for (let n = 1; n < fb.tree.nodeCount; n++) {
      if (frameName(runB.frames, fb.tree.frame[n]) === 'toyc::compile_module') grown += nodeDelta(d, n, abs).total.delta;
    }
    expect(grown).toBeGreaterThanOrEqual(215);
  });
});

describe('diffTrees against a brute-force path match (property)', async () => {
  const fc = (await import('fast-check')).default;
  const frameArb = fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.boolean()).map(([n, i]) => (i ? `${n}_[i]` : n));
  const stackArb = fc.tuple(fc.array(frameArb, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 5 }));
  const profileArb = fc.array(stackArb, { maxLength: 12 }).map((stacks) => profileFrom(stacks.map(([s, w]) => `${s.join(';')} ${w}`).join('\n')));

  const byPath = (p: Profile) => {
    const m = new Map<string, number>();
    for (let n = 1; n < p.tree.nodeCount; n++) m.set(pathText(p, n), n);
    return m;
  };

  it('matches exactly the nodes whose frame path exists in the other tree, with its weights', () => {
    fc.assert(
      fc.property(profileArb, profileArb, fc.constantFrom('A', 'B'), (a, b, shape) => {
        const d = diffTrees(side(a), side(b), shape as 'A' | 'B');
        const [s, o] = shape === 'B' ? [b, a] : [a, b];
        const oPaths = byPath(o);
        const sPaths = byPath(s);
        for (let n = 1; n < s.tree.nodeCount; n++) {
          const expected = oPaths.get(pathText(s, n)) ?? -1;
          expect(d.match[n]).toBe(expected);
          if (expected >= 0) {
            expect(d.otherTotal[n]).toBe(o.tree.totalWeight[expected]);
            expect(d.otherSelf[n]).toBe(o.tree.selfWeight[expected]);
          } else expect(d.otherTotal[n]).toBeNaN();
        }
        // Topmost nodes present in one tree only.
        const topmost = (p: Profile, other: Map<string, number>) =>
          [...byPath(p)].filter(([path, n]) => !other.has(path) && (p.tree.parent[n] === 0 || other.has(pathText(p, p.tree.parent[n])))).map(([, n]) => n).sort();
        const onlyS = topmost(s, oPaths);
        const onlyO = topmost(o, sPaths);
        const [onlyA, onlyB] = shape === 'B' ? [onlyO, onlyS] : [onlyS, onlyO];
        expect([...d.onlyInA].sort()).toEqual(onlyA);
        expect([...d.onlyInB].sort()).toEqual(onlyB);
        // Weights that vanish from the shape are exactly those of the other tree's only-in roots.
        let gone = 0;
        for (const n of shape === 'B' ? d.onlyInA : d.onlyInB) gone += o.tree.totalWeight[n];
        let matched = 0;
        for (let n = 1; n < s.tree.nodeCount; n++) if (d.match[n] >= 0) matched += o.tree.selfWeight[d.match[n]];
        expect(matched + gone).toBe(o.tree.totalWeight[0]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('comparing ignoring the root names (issue 33: renamed binaries shared nothing)', () => {
  const RA = profileFrom(`
    shapes;main;draw;circle 5
    shapes;main;draw;square 3
    shapes;main;load 2
  `);
  const RB = profileFrom(`
    shapes_b;main;draw;circle 7
    shapes_b;main;draw;triangle 1
    shapes_b;main;load 2
  `);

  it('without the option, a renamed process matches nothing below the root', () => {
    const diff = diffTrees(side(RA), side(RB));
    expect(diff.match.filter((m, n) => n > 0 && m >= 0).length).toBe(0);
  });

  it('with it, the stacks under the two roots match level by level, and only real changes are left', () => {
    const diff = diffTrees(side(RA), side(RB), 'B', { ignoreRoot: true });
    expect(diff.match[nodeAt(RB, 'shapes_b')]).toBe(nodeAt(RA, 'shapes'));
    expect(diff.match[nodeAt(RB, 'shapes_b;main;draw;circle')]).toBe(nodeAt(RA, 'shapes;main;draw;circle'));
    expect(nodeDelta(diff, nodeAt(RB, 'shapes_b;main;draw;circle'), { norm: 'abs' }).total).toMatchObject({ a: 5, b: 7, delta: 2 });
    expect([...diff.onlyInB].map((n) => pathText(RB, n))).toEqual(['shapes_b;main;draw;triangle']);
    expect([...diff.onlyInA].map((n) => pathText(RA, n))).toEqual(['shapes;main;draw;square']);
    // The inverse map agrees, and shaped by A the pairing is the same.
    const byA = diffTrees(side(RA), side(RB), 'A', { ignoreRoot: true });
    expect(byA.match[nodeAt(RA, 'shapes;main;load')]).toBe(nodeAt(RB, 'shapes_b;main;load'));
    // Memoised per option: the plain diff is another object.
    expect(diffTrees(side(RA), side(RB), 'B', { ignoreRoot: true })).toBe(diff);
    expect(diffTrees(side(RA), side(RB))).not.toBe(diff);
  });

  it('pairRoots: same names first, then heaviest with heaviest; extra roots stay unpaired', () => {
    const r = (name: string, weight: number) => ({ name, weight });
    expect([...pairRoots([r('shapes', 10)], [r('shapes_b', 3)])]).toEqual([0]);
    // `sh` keeps its namesake although `prog` is heavier; then prog (9) ↔ prog2 (5), a (1) ↔ b (2).
    expect([...pairRoots([r('a', 1), r('prog', 9), r('sh', 1)], [r('b', 2), r('sh', 8), r('prog2', 5)])]).toEqual([0, 2, 1]);
    expect([...pairRoots([r('x', 1), r('y', 2)], [r('z', 1)])]).toEqual([-1, 0]);
    expect([...pairRoots([], [r('z', 1)])]).toEqual([]);
  });
});
