import { describe, expect, it } from 'vitest';
import { profileFrom } from '../testing/tree-dsl';
import { makeSnapshot } from '../views/snapshot';
import { CompareSession } from './compare-session';
import { changeRows, recordingWire, replyBuffers } from './compare-protocol';
import { deltaColumn, diffTrees, nodeDelta } from '../views/diff';
import { functionDeltaOf, functionDeltas } from '../views/function-deltas';
import { frameName } from '../model/frame-table';
import { loadProfileFromText } from '../import/load';
import { mergeRecordings } from '../parallel/recordings';
import { fixtureBytes } from '../testing/fixtures';
import { groupDeltas, shareTable } from '../views/group-deltas';

// Inline frames make the two views differ: the function view merges `inl` into `parse`.
const A = makeSnapshot(profileFrom('main;parse;inl_[i];lex 4\nmain;emit 4\nmain;gone 1'));
const B = makeSnapshot(profileFrom('main;parse;inl_[i];lex 5\nmain;optimize;fold 8\nmain;emit 2'));

function session(): CompareSession {
  const s = new CompareSession();
  // What crosses is the wire, as from the page (structuredClone stands in for postMessage).
  for (const [slot, id, snap] of [['A', 1, A], ['B', 2, B]] as const) {
    const { wire, transfer } = recordingWire(snap);
    s.setRecording(slot, id, structuredClone(wire, { transfer }));
  }
  return s;
}

const ids = { a: 1, b: 2 };

describe('compare session', () => {
  for (const view of ['functions', 'inline'] as const) {
    const sideA = { tree: view === 'functions' ? A.functions! : A.inline, frames: A.frames };
    const sideB = { tree: view === 'functions' ? B.functions! : B.inline, frames: B.frames };

    it(`answers what the diff computes on the page's own trees (${view} view)`, () => {
      const s = session();
      for (const shape of ['A', 'B'] as const) {
        const diff = diffTrees(sideA, sideB, shape);
        for (const norm of ['pct', 'abs'] as const) {
          const expected = deltaColumn(diff, 'total', { norm });
          const c = s.colours(ids, view, shape, norm)!;
          expect([...c.delta]).toEqual([...expected.delta]);
          expect(c.maxAbs).toBe(expected.maxAbs);
          expect([...c.match]).toEqual([...diff.match]);
          const tree = shape === 'B' ? sideB.tree : sideA.tree;
          const frames = shape === 'B' ? B.frames : A.frames;
          for (let n = 0; n < tree.nodeCount; n++) {
            const f = s.figures(ids, view, shape, n, norm)!;
            const name = n === 0 ? 'all' : frameName(frames, tree.frame[n]);
            expect(f.name).toBe(name);
            expect(f.path).toEqual(nodeDelta(diff, n, { norm }));
            expect(f.fn).toEqual(n === 0 ? null : functionDeltaOf(sideA, sideB, name, { norm }));
          }
          expect(s.figures(ids, view, shape, tree.nodeCount, norm)).toBeNull();
        }
      }
      for (const norm of ['pct', 'abs'] as const) expect(changeRows(s.changeTable(ids, view, norm)!)).toEqual(functionDeltas(sideA, sideB, { norm }));
    });
  }

  it('answers null for recordings it does not hold', () => {
    const s = session();
    expect(s.colours({ a: 1, b: 3 }, 'inline', 'B', 'pct')).toBeNull();
    expect(s.figures({ a: 9, b: 2 }, 'inline', 'B', 1, 'pct')).toBeNull();
    expect(s.changeTable({ a: 2, b: 1 }, 'inline', 'pct')).toBeNull();
    expect(new CompareSession().colours(ids, 'inline', 'B', 'pct')).toBeNull();
  });

  it('replies own their buffers: transferring one leaves the memoised diff intact', () => {
    const s = session();
    const first = s.colours(ids, 'inline', 'B', 'pct')!;
    const copy = { delta: [...first.delta], match: [...first.match] };
    structuredClone(first, { transfer: replyBuffers(first) });
    expect(first.delta.length).toBe(0); // detached
    const again = s.colours(ids, 'inline', 'B', 'pct')!;
    expect([...again.delta]).toEqual(copy.delta);
    expect([...again.match]).toEqual(copy.match);
    const table = s.changeTable(ids, 'inline', 'abs')!;
    const rows = changeRows(table);
    structuredClone(table, { transfer: replyBuffers(table) });
    expect(changeRows(s.changeTable(ids, 'inline', 'abs')!)).toEqual(rows);
  });
});

describe('compare session ignoring the root names', () => {
  it('passes ignoreRoot to the diff: renamed processes match in colours and figures', () => {
    const RA = makeSnapshot(profileFrom('shapes;main;draw 5\nshapes;main;load 2'));
    const RB = makeSnapshot(profileFrom('shapes_b;main;draw 7\nshapes_b;main;load 2'));
    const s = new CompareSession();
    for (const [slot, id, snap] of [['A', 1, RA], ['B', 2, RB]] as const) {
      const { wire, transfer } = recordingWire(snap);
      s.setRecording(slot, id, structuredClone(wire, { transfer }));
    }
    const byName = s.colours(ids, 'inline', 'B', 'abs')!;
    const ignoring = s.colours(ids, 'inline', 'B', 'abs', true)!;
    const matched = (m: Int32Array) => [...m].filter((x, n) => n > 0 && x >= 0).length;
    expect(matched(byName.match)).toBe(0);
    expect(matched(ignoring.match)).toBe(RB.inline.nodeCount - 1);
    let draw = 1;
    while (frameName(RB.frames, RB.inline.frame[draw]) !== 'draw') draw++;
    expect(s.figures(ids, 'inline', 'B', draw, 'abs', true)!.path.total).toMatchObject({ a: 5, b: 7, delta: 2 });
    expect(s.figures(ids, 'inline', 'B', draw, 'abs')!.path.presentIn).toBe('B');
  });
});

describe('compare session: groups of runs (issue 31, item 3)', () => {
  const runs = (side: 'a' | 'b') => Promise.all([1, 2, 3, 4, 5].map((i) => loadProfileFromText(fixtureBytes(`groups/${side}${i}.folded`))));

  it("the change table's spread and noise are groupDeltas' of the runs, from the shares that crossed with the sums", async () => {
    const [a, b] = await Promise.all([runs('a'), runs('b')]);
    const s = new CompareSession();
    for (const [slot, id, snap] of [['A', 1, makeSnapshot(mergeRecordings(a), a)], ['B', 2, makeSnapshot(mergeRecordings(b), b)]] as const) {
      const { wire, transfer } = recordingWire(snap);
      s.setRecording(slot, id, structuredClone(wire, { transfer }));
    }
    const expected = new Map(groupDeltas(shareTable(a), shareTable(b), mergeRecordings(a), mergeRecordings(b)).map((g) => [g.name, g.selfSpread]));
    for (const norm of ['pct', 'abs'] as const) {
      const rows = changeRows(s.changeTable(ids, 'inline', norm)!);
      for (const r of rows) {
        const g = expected.get(r.name)!;
        expect(r.spread!.a).toBeCloseTo(g.a, 9);
        expect(r.spread!.b).toBeCloseTo(g.b, 9);
        expect(r.spread!.noise).toBe(g.noise);
      }
      // The recorded runs' oracle (as the CLI's --table test): the real change flagged, >= 90 % of the rest noise.
      expect(rows.find((r) => r.name === 'scan_table')!.spread!.noise).toBe(false);
      const others = rows.filter((r) => r.name !== 'scan_table' && (r.self.a > 0 || r.self.b > 0));
      expect(others.filter((r) => r.spread!.noise).length / others.length).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('one recording per side: no spread column', () => {
    expect(changeRows(session().changeTable(ids, 'inline', 'pct')!).every((r) => r.spread === undefined)).toBe(true);
  });
});
