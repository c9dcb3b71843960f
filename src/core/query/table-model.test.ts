import { describe, expect, it } from 'vitest';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { reversedTree } from '../views/reversed';
import { paneOrientation, callersCalleesNodeInfo, callersCalleesOf, topPane } from './callers-callees';
import { DEFAULT_SORT, displayName, displayRows, functionTable, highlightOf, tableFor, matchingRows, nameIndex, positionOf, rowFigures, shortLabel, shortLabeller } from './table-model';

const p = profileFrom(`
  main;a;b;a;c 3
  main;a 2
  main;d;a_[i] 4
  main;d 1
  main;std::vector<int, std::allocator<int> >::push_back(int const&) 5
`);
const table = functionTable(p.tree, p.frames);
const names = (rows: Int32Array) => [...rows].map((r) => p.frames.strings[table.name[r]]);
const frameOf = (name: string) => {
  for (let f = 0; f < p.frames.count; f++) if (p.frames.strings[p.frames.name[f]] === name) return f;
  return -1;
};

describe('displayRows', () => {
  it('sorts by self (default), by total and by name, both ways', () => {
    expect(names(displayRows(table, p.frames, DEFAULT_SORT, null))).toEqual(['a', 'std::vector<int, std::allocator<int> >::push_back(int const&)', 'c', 'd', 'main', 'b']);
    expect(names(displayRows(table, p.frames, { by: 'total', descending: true }, null))[0]).toBe('main');
    expect(names(displayRows(table, p.frames, { by: 'total', descending: false }, null))[0]).toBe('b');
    expect(names(displayRows(table, p.frames, { by: 'name', descending: false }, null))).toEqual(['a', 'b', 'c', 'd', 'main', 'std::vector<int, std::allocator<int> >::push_back(int const&)']);
    expect(names(displayRows(table, p.frames, { by: 'name', descending: true }, null))[0]).toMatch(/^std::vector/);
  });

  it('keeps the rows whose function has a matching frame, and is memoised', () => {
    const matches = new Uint8Array(p.frames.count);
    matches[frameOf('a')] = 1; // either frame of `a` (physical or inlined) matches the function
    matches[frameOf('c')] = 1;
    const rows = displayRows(table, p.frames, DEFAULT_SORT, matches);
    expect(names(rows)).toEqual(['a', 'c']);
    expect(displayRows(table, p.frames, DEFAULT_SORT, matches)).toBe(rows);
    expect([...matchingRows(table, p.frames, matches)].reduce((s, x) => s + x, 0)).toBe(2);
    expect(displayRows(table, p.frames, DEFAULT_SORT, new Uint8Array(p.frames.count))).toHaveLength(0);
  });

  it('finds the position of the selected function among the rows shown', () => {
    const rows = displayRows(table, p.frames, { by: 'name', descending: false }, null);
    expect(positionOf(table, p.frames, rows, 'c')).toBe(2);
    expect(positionOf(table, p.frames, rows, 'nope')).toBe(-1);
    expect(positionOf(table, p.frames, rows, null)).toBe(-1);
  });
});

describe('rowFigures', () => {
  it('gives self, total (recursion once), shares and the inlined flag', () => {
    const a = rowFigures(table, p.frames, table.rowOfName[nameIndex(p.frames, 'a')]);
    expect(a).toMatchObject({ name: 'a', self: 6, total: 9, inlined: true, kernel: false });
    expect(a.totalShare).toBeCloseTo(9 / 15);
    expect(a.selfShare).toBeCloseTo(6 / 15);
  });
});

describe('highlightOf', () => {
  it('marks every frame of the name (inlined and physical), null for an unknown name', () => {
    const mask = highlightOf(p.frames, 'a')!;
    expect([...mask].reduce((s, x) => s + x, 0)).toBe(2);
    expect(highlightOf(p.frames, 'a')).toBe(mask);
    expect(highlightOf(p.frames, 'zzz')).toBeNull();
    expect(highlightOf(p.frames, null)).toBeNull();
  });
});

describe('short labels', () => {
  it('shortens per frame, keeps the root as "all", and gives a stable labeller', () => {
    const f = frameOf('std::vector<int, std::allocator<int> >::push_back(int const&)');
    expect(shortLabel(p.frames, f)).toBe('std::vector<…>::push_back()');
    expect(shortLabel(p.frames, -1)).toBe('all');
    expect(shortLabeller(p.frames)).toBe(shortLabeller(p.frames));
    expect(shortLabeller(p.frames)(f)).toBe('std::vector<…>::push_back()');
    expect(displayName('toyc::parse::h0123456789abcdef', true)).toBe('toyc::parse');
    expect(displayName('toyc::parse::h0123456789abcdef', false)).toBe('toyc::parse::h0123456789abcdef');
  });
});

describe('callersCallees', () => {
  it('builds callers and callees of a name, memoised, with figures per node', () => {
    const s = callersCalleesOf(p.tree, p.frames, 'a')!;
    expect(callersCalleesOf(p.tree, p.frames, 'a')).toBe(s);
    expect(s.total).toBe(9);
    expect(dumpTree(s.callees, p.frames)).toContain('b');
    expect(dumpTree(s.callers, p.frames)).toContain('main');
    const root = callersCalleesNodeInfo(s.callers, p.frames, 1)!;
    expect(root).toMatchObject({ name: 'a', totalWeight: 9, ofFunction: 1 });
    expect(callersCalleesNodeInfo(s.callers, p.frames, 999)).toBeNull();
    expect(callersCalleesOf(p.tree, p.frames, 'nope')).toBeNull();
  });

  it('puts the function between the graphs in either orientation', () => {
    expect([topPane('flame'), paneOrientation('callees', 'flame'), paneOrientation('callers', 'flame')]).toEqual(['callees', 'flame', 'icicle']);
    expect([topPane('icicle'), paneOrientation('callers', 'icicle'), paneOrientation('callees', 'icicle')]).toEqual(['callers', 'flame', 'icicle']);
  });
});

describe('reversed trees', () => {
  it('give every function the self and total of the original tree', () => {
    const rev = reversedTree(p.tree, p.frames);
    const t = tableFor(rev, p.frames, true);
    expect(tableFor(rev, p.frames, true)).toBe(t);
    expect(tableFor(p.tree, p.frames)).toBe(table);
    for (let r = 0; r < table.count; r++) {
      const rr = t.rowOfName[table.name[r]];
      const what = p.frames.strings[table.name[r]];
      expect([what, t.selfWeight[rr], t.totalWeight[rr], t.selfSamples[rr]]).toEqual([what, table.selfWeight[r], table.totalWeight[r], table.selfSamples[r]]);
    }
  });

  it('swap callers and callees, so each graph still shows what its name says', () => {
    const rev = reversedTree(p.tree, p.frames);
    const s = callersCalleesOf(rev, p.frames, 'a', true)!;
    const plain = callersCalleesOf(p.tree, p.frames, 'a')!;
    expect(s.total).toBe(plain.total);
    expect(dumpTree(s.callers, p.frames)).toContain('main');
    expect(dumpTree(s.callers, p.frames)).not.toContain('c');
    expect(dumpTree(s.callees, p.frames)).toContain('c');
  });
});
