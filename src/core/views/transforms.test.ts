import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../import/load';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { functionTable, rowOf } from './function-table';
import { applyTransform, applyTransforms, describeTransform, isUnknownName, type Transform } from './transforms';
import { decodeTransforms, encodeTransforms, MAX_TRANSFORMS } from './transforms-codec';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

const p = profileFrom(`
  main;a;b;c 3
  main;a;b 1
  main;d;b;c 2
  main;a;a;a;e 4
  main;sys_[k];irq_[k] 5
  main;[unknown];f 6
`);
const dump = (list: Transform[]) => dumpTree(applyTransforms(p.tree, p.frames, list).tree, p.frames);

describe('transforms', () => {
  it('focus re-roots at the function, merging every call site', () => {
    expect(dump([{ kind: 'focus', name: 'b' }])).toBe(['b 6/1', '  c 5/5'].join('\n'));
    expect(dump([{ kind: 'focus', name: 'nope' }])).toBe('');
  });

  it('merge drops the frames: self to the caller, callees to the caller', () => {
    expect(dump([{ kind: 'merge', name: 'b' }])).toBe(
      [
        'main 21/0',
        '  [unknown] 6/0',
        '    f 6/6',
        '  a 8/1',
        '    a 4/0',
        '      a 4/0',
        '        e 4/4',
        '    c 3/3',
        '  d 2/0',
        '    c 2/2',
        '  sys 5/0',
        '    irq 5/5',
      ].join('\n'),
    );
  });

  it('direct-rec collapses direct recursion of one function, or of all with drec', () => {
    const out = dump([{ kind: 'direct-rec', name: 'a' }]);
    expect(out).toContain('  a 8/0\n    b 4/1\n      c 3/3\n    e 4/4');
    expect(dump([{ kind: 'direct-rec', name: null }])).toBe(out);
    expect(dump([{ kind: 'direct-rec', name: 'b' }])).toBe(dumpTree(p.tree, p.frames));
  });

  it('direct-rec merges an inlined and a physical frame of the same name', () => {
    const q = profileFrom('m;f;f_[i];g 2');
    expect(dumpTree(applyTransform(q.tree, q.frames, { kind: 'direct-rec', name: null }).tree, q.frames)).toBe('m 2/0\n  f 2/0\n    g 2/2');
  });

  it('hide:kernel gives kernel weight to the nearest user frame', () => {
    expect(dump([{ kind: 'hide', what: 'kernel' }])).toContain('main 21/5\n');
    expect(dump([{ kind: 'hide', what: 'kernel' }])).not.toContain('sys');
  });

  it('hide:unknown merges bracketed names', () => {
    expect(dump([{ kind: 'hide', what: 'unknown' }])).toContain('  f 6/6');
    expect(dump([{ kind: 'hide', what: 'unknown' }])).not.toContain('[unknown]');
    expect(isUnknownName('[unknown]')).toBe(true);
    expect(isUnknownName('[libc.so.6]')).toBe(true);
    expect(isUnknownName('[x]::y[z]')).toBe(false);
    expect(isUnknownName('operator[]')).toBe(false);
    expect(isUnknownName('[')).toBe(false);
  });

  it('compose in order, map nodes, keep totals (except focus), and memoise', () => {
    const list: Transform[] = [{ kind: 'hide', what: 'kernel' }, { kind: 'merge', name: 'a' }, { kind: 'focus', name: 'b' }];
    const r = applyTransforms(p.tree, p.frames, list);
    expect(dumpTree(r.tree, p.frames)).toBe('b 6/1\n  c 5/5');
    expect(applyTransforms(p.tree, p.frames, list)).toBe(r);
    for (let n = 0; n < p.tree.nodeCount; n++) {
      const name = p.frames.strings[p.frames.name[p.tree.frame[n]]];
      if (name === 'b') expect(r.toNew[n]).toBe(1);
      if (name === 'main' || name === 'a' || name === 'sys') expect(r.toNew[n]).toBe(-1);
    }
    const noFocus = applyTransforms(p.tree, p.frames, list.slice(0, 2));
    expect(noFocus.tree.totalWeight[0]).toBe(p.tree.totalWeight[0]);
    expect(noFocus.tree.totalSamples[0]).toBe(p.tree.totalSamples[0]);
    expect(applyTransforms(p.tree, p.frames, []).tree).toBe(p.tree);
    // a transform that touches nothing returns the same tree
    expect(applyTransform(p.tree, p.frames, { kind: 'merge', name: 'zzz' }).tree).toBe(p.tree);
  });

  it('describes each transform', () => {
    expect(describeTransform({ kind: 'focus', name: 'x' })).toBe('Focus on x');
    expect(describeTransform({ kind: 'direct-rec', name: null })).toBe('Collapse all direct recursion');
    expect(describeTransform({ kind: 'direct-rec', name: 'f' })).toBe('Collapse direct recursion of f');
    expect(describeTransform({ kind: 'rec', name: 'f' })).toBe('Collapse recursion of f');
    expect(describeTransform({ kind: 'drop', name: 'f' })).toBe('Drop samples with f');
    expect(describeTransform({ kind: 'collapse-group', group: 'lib', name: 'libc.so.6' })).toBe('Collapse library libc.so.6');
    expect(describeTransform({ kind: 'focus-group', group: 'ns', name: 'std::' })).toBe('Focus on namespace std::');
    expect(describeTransform({ kind: 'subtree', path: [{ name: 'm', inlined: false }, { name: 'g', inlined: true }] })).toBe('Focus on subtree g [inlined]');
    expect(describeTransform({ kind: 'hide', what: 'unknown' })).toBe('Hide [unknown] frames');
  });

  it('on a real profile, merge and hide keep the function table totals of the other functions consistent', async () => {
    const profile = await loadProfile(createReadStream(`${FIXTURES}sqlite.perf-script.txt`));
    const hidden = applyTransform(profile.tree, profile.frames, { kind: 'hide', what: 'kernel' }).tree;
    expect(hidden.totalWeight[0]).toBe(profile.tree.totalWeight[0]);
    for (let n = 1; n < hidden.nodeCount; n++) expect(profile.frames.flags[hidden.frame[n]] & 2).toBe(0);
    const before = functionTable(profile.tree, profile.frames);
    const after = functionTable(hidden, profile.frames);
    // a user function's total is unchanged by hiding kernel frames (they sit below it)
    const main = rowOf(before, profile.frames, 'main');
    expect(after.totalWeight[rowOf(after, profile.frames, 'main')]).toBe(before.totalWeight[main]);
    // focus: the root total is the function's total
    const focused = applyTransform(profile.tree, profile.frames, { kind: 'focus', name: 'main' }).tree;
    expect(focused.totalWeight[0]).toBe(before.totalWeight[main]);
  });
});

describe('transform codec', () => {
  it('round-trips and percent-encodes names', () => {
    const list: Transform[] = [
      { kind: 'focus', name: 'std::vec::Vec<T>::push' },
      { kind: 'merge', name: 'a,b:c%d' },
      { kind: 'direct-rec', name: null },
      { kind: 'direct-rec', name: 'f' },
      { kind: 'hide', what: 'kernel' },
      { kind: 'hide', what: 'unknown' },
      { kind: 'rec', name: 'g' },
      { kind: 'drop', name: 'malloc' },
      { kind: 'collapse', name: 'h' },
      { kind: 'focus-group', group: 'lib', name: 'libc.so.6' },
      { kind: 'collapse-group', group: 'ns', name: 'std::' },
      { kind: 'subtree', path: [{ name: 'a;b', inlined: false }, { name: 'c', inlined: true }] },
    ];
    const s = encodeTransforms(list);
    expect(s).toBe(
      'focus:std%3A%3Avec%3A%3AVec%3CT%3E%3A%3Apush,merge:a%2Cb%3Ac%25d,drec,drec:f,hide:kernel,hide:unknown,anyrec:g,drop:malloc,collapse:h,focus-lib:libc.so.6,collapse-ns:std%3A%3A,subtree:a%3Bb;c_%5Bi%5D',
    );
    expect(decodeTransforms(s)).toEqual({ ok: true, transforms: list });
    expect(decodeTransforms('')).toEqual({ ok: true, transforms: [] });
  });

  it('decodes the old rec form as direct recursion, as before', () => {
    expect(decodeTransforms('rec,rec:f')).toEqual({
      ok: true,
      transforms: [
        { kind: 'direct-rec', name: null },
        { kind: 'direct-rec', name: 'f' },
      ],
    });
  });

  it('property: any list of transforms round-trips', () => {
    const name = fc.string({ minLength: 1 });
    const t: fc.Arbitrary<Transform> = fc.oneof(
      name.map((n) => ({ kind: 'focus' as const, name: n })),
      name.map((n) => ({ kind: 'merge' as const, name: n })),
      fc.option(name, { nil: null }).map((n) => ({ kind: 'direct-rec' as const, name: n })),
      fc.constantFrom('kernel' as const, 'unknown' as const).map((w) => ({ kind: 'hide' as const, what: w })),
      fc.tuple(fc.constantFrom('rec' as const, 'drop' as const, 'collapse' as const), name).map(([kind, n]) => ({ kind, name: n })),
      fc.tuple(fc.constantFrom('focus-group' as const, 'collapse-group' as const), fc.constantFrom('lib' as const, 'ns' as const), name).map(([kind, group, n]) => ({ kind, group, name: n })),
      fc.array(fc.record({ name, inlined: fc.boolean() }), { minLength: 1, maxLength: 4 }).map((path) => ({ kind: 'subtree' as const, path })),
    );
    fc.assert(
      fc.property(fc.array(t, { maxLength: 10 }), (list) => {
        // lone surrogates cannot be percent-encoded; encodeURIComponent throws on them
        const names = list.flatMap((x) => ('path' in x ? x.path.map((s) => s.name) : 'name' in x && x.name !== null ? [x.name] : []));
        if (names.some((n) => /[\ud800-\udfff]/.test(n))) return;
        expect(decodeTransforms(encodeTransforms(list))).toEqual({ ok: true, transforms: list });
      }),
    );
  });

  it('rejects bad input with an error value naming the item and what was found', () => {
    const bad = (s: string) => {
      const r = decodeTransforms(s);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.error;
    };
    expect(bad('zoom:x')).toMatch(/item 1: expected focus:NAME.*found the kind 'zoom'/);
    expect(bad('rec,focus')).toMatch(/item 2: .*no function name/);
    expect(bad('merge:')).toMatch(/no function name/);
    expect(bad('hide:user')).toMatch(/'user' to hide/);
    expect(bad('hide')).toMatch(/nothing to hide/);
    expect(bad('subtree:')).toMatch(/no call path/);
    expect(bad('subtree:a;%E0%A4%A')).toMatch(/badly percent-encoded/);
    expect(bad('focus-lib:')).toMatch(/no library name/);
    expect(bad('anyrec')).toMatch(/no function name/);
    expect(bad('focus:%E0%A4%A')).toMatch(/malformed percent-encoding/);
    expect(bad(Array(MAX_TRANSFORMS + 1).fill('rec').join(','))).toMatch(/at most 64 transforms/);
    expect(bad('focus:' + 'x'.repeat(20000))).toMatch(/at most 16384 characters/);
    expect(bad('<img src=x onerror=alert(1)>')).toMatch(/kind '<img src=x onerror=alert\(1\)>'/);
  });
});
