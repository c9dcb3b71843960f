import { createReadStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { functionSumsFromFolded } from '../testing/folded-oracle';
import { tidyName } from '../export/tidy-name';
import { loadProfile } from '../import/load';
import type { FrameTable } from '../model/frame-table';
import { StringTable } from '../model/string-table';
import { profileFrom } from '../testing/tree-dsl';
import { filterRows, framesNamed, functionColumn, functionTable, FunctionFlags, rowOf, shareOf, sortRows } from './function-table';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

const oracle = functionSumsFromFolded;

function tableAsMap(p: { tree: Parameters<typeof functionTable>[0]; frames: FrameTable }): Map<string, [number, number]> {
  const t = functionTable(p.tree, p.frames);
  const out = new Map<string, [number, number]>();
  for (let r = 0; r < t.count; r++) out.set(p.frames.strings[t.name[r]], [t.selfWeight[r], t.totalWeight[r]]);
  return out;
}

/** stackcollapse-perf.pl's tidying of one frame (as in perf-golden.test.ts). */
function perlTidy(frame: string): string {
  let f = frame;
  if (!/\.\(.*\)\./.test(f)) f = f.replace(/\((?!anonymous namespace\)).*/, '');
  return f.replace(/["']/g, '');
}

/** The same frames with names rewritten (so several frames can share a new name). */
function renamed(frames: FrameTable, rename: (s: string) => string): FrameTable {
  const strings = new StringTable();
  const name = new Int32Array(frames.count);
  for (let f = 0; f < frames.count; f++) name[f] = strings.intern(rename(frames.strings[frames.name[f]]));
  return { ...frames, name, strings: strings.strings };
}

describe('functionTable', () => {
  it('sums self over call sites and counts recursion once in total', () => {
    const p = profileFrom(`
      main;a;b;a;c 3
      main;a 2
      main;d;a_[i] 4
      main;d 1
    `);
    const t = functionTable(p.tree, p.frames);
    const get = (name: string) => {
      const r = rowOf(t, p.frames, name);
      return [t.selfWeight[r], t.totalWeight[r], t.selfSamples[r], t.totalSamples[r], t.flags[r]];
    };
    expect(get('main')).toEqual([0, 10, 0, 10, FunctionFlags.PHYSICAL]);
    expect(get('a')).toEqual([6, 9, 6, 9, FunctionFlags.PHYSICAL | FunctionFlags.INLINED]);
    expect(get('b')).toEqual([0, 3, 0, 3, FunctionFlags.PHYSICAL]);
    expect(get('c')).toEqual([3, 3, 3, 3, FunctionFlags.PHYSICAL]);
    expect(get('d')).toEqual([1, 5, 1, 5, FunctionFlags.PHYSICAL]);
    expect(t.count).toBe(5);
    expect(t.rootWeight).toBe(10);
    expect(shareOf(t, t.totalWeight[rowOf(t, p.frames, 'a')])).toBeCloseTo(0.9);
    expect(rowOf(t, p.frames, 'zzz')).toBe(-1);
    expect(functionTable(p.tree, p.frames)).toBe(t); // memoised
  });

  it('flags kernel functions', () => {
    const p = profileFrom('main;sys_read_[k] 1');
    const t = functionTable(p.tree, p.frames);
    expect(t.flags[rowOf(t, p.frames, 'sys_read')] & FunctionFlags.KERNEL).toBeTruthy();
  });

  it('sorts by self, total or name, with deterministic ties, and filters', () => {
    const p = profileFrom(`
      main;x 2
      main;y 2
      main;z 5
      main;y;w 1
    `);
    const t = functionTable(p.tree, p.frames);
    const names = (rows: Int32Array) => [...rows].map((r) => p.frames.strings[t.name[r]]);
    expect(names(sortRows(t, p.frames, { by: 'self' }))).toEqual(['z', 'y', 'x', 'w', 'main']);
    expect(names(sortRows(t, p.frames, { by: 'total' }))).toEqual(['main', 'z', 'y', 'x', 'w']);
    expect(names(sortRows(t, p.frames, { by: 'total', descending: false }))).toEqual(['w', 'x', 'y', 'z', 'main']);
    expect(names(sortRows(t, p.frames, { by: 'name' }))).toEqual(['main', 'w', 'x', 'y', 'z']);
    const rows = filterRows(t, p.frames, (n) => /^[xyz]$/.test(n));
    expect(names(sortRows(t, p.frames, { by: 'self', rows }))).toEqual(['z', 'y', 'x']);
    expect(functionColumn(t, 'self', 'samples')).toBe(t.selfSamples);
  });

  it('framesNamed marks every frame of a name (inlined and physical)', () => {
    const p = profileFrom('main;a;a_[i] 1');
    const s = p.frames.name[[...Array(p.frames.count).keys()].find((f) => p.frames.strings[p.frames.name[f]] === 'a')!];
    const mask = framesNamed(p.frames, s);
    expect([...mask].filter(Boolean).length).toBe(2);
  });

  it('an empty tree has no rows', () => {
    const p = profileFrom('');
    expect(functionTable(p.tree, p.frames).count).toBe(0);
  });

  for (const name of ['rust-toyc', 'sqlite']) {
    it(`${name}.folded loaded as folded: every function's self and total equal the oracle's sums`, async () => {
      const path = `${FIXTURES}${name}.folded`;
      const lines = readFileSync(path, 'utf8').split('\n');
      const profile = await loadProfile(createReadStream(path));
      const ours = tableAsMap(profile);
      const want = oracle(lines);
      expect(ours.size).toBeGreaterThan(100);
      expect(ours).toEqual(want);
    });

    it(`${name}.perf-script.txt: sums equal the folded oracle's, perl shortening on both sides`, async () => {
      const profile = await loadProfile(createReadStream(`${FIXTURES}${name}.perf-script.txt`));
      const frames = renamed(profile.frames, (s) => perlTidy(tidyName(s)));
      const ours = tableAsMap({ tree: profile.tree, frames });
      const want = oracle(readFileSync(`${FIXTURES}${name}.folded`, 'utf8').split('\n'), perlTidy);
      expect(ours.size).toBeGreaterThan(100);
      expect(ours).toEqual(want);
    });
  }
});
