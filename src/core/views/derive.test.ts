import { describe, expect, it } from 'vitest';
import { findChild } from '../model/call-tree';
import { makeSnapshot } from './snapshot';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import type { SampleColumns } from '../model/sample-column';
import { copyTree, derive, isIdentity, type DeriveInput, type DeriveRequest } from './derive';

const profile = profileFrom(`
  main;a;b;c 3
  main;a;b 1
  main;d;b;c 2
  main;sys_[k];irq_[k] 5
  main;x;inl_[i];y 4
`);
const snap = makeSnapshot(profile);
const base: DeriveInput = { frames: snap.frames, inline: snap.inline, functions: snap.functions, toFunction: snap.toFunction, samples: null };
const req = (p: Partial<DeriveRequest>): DeriveRequest => ({ view: 'inline', transforms: [], reversed: false, range: null, ...p });
const dump = (input: DeriveInput, r: DeriveRequest) => dumpTree(derive(input, r).tree, input.frames);

/** The node at a root-first path of frame names. */
function nodeAt(tree: typeof profile.tree, names: string[]): number {
  let at = 0;
  for (const name of names) {
    let found = -1;
    for (let f = 0; f < profile.frames.count && found < 0; f++) {
      if (profile.frames.strings[profile.frames.name[f]] === name) found = findChild(tree, at, f) >= 0 ? findChild(tree, at, f) : -1;
    }
    if (found < 0) return -1;
    at = found;
  }
  return at;
}

describe('derive', () => {
  it('an empty request is the identity, and derive gives the base tree itself', () => {
    expect(isIdentity(base, req({}))).toBe(true);
    expect(isIdentity(base, req({ range: { from: 0, to: 1 } }))).toBe(true); // no samples: no range
    expect(isIdentity(base, req({ reversed: true }))).toBe(false);
    const r = derive(base, req({}));
    expect(r.tree).toBe(snap.inline);
    expect(r.sharesInput).toBe(true);
    expect(derive(base, req({ view: 'functions' })).tree).toBe(snap.functions);
  });

  it('focus re-roots; toNew maps input nodes and drops the others', () => {
    const r = derive(base, req({ transforms: [{ kind: 'focus', name: 'b' }] }));
    expect(dumpTree(r.tree, snap.frames)).toBe(['b 6/1', '  c 5/5'].join('\n'));
    expect(r.sharesInput).toBe(false);
    const mainABC = nodeAt(snap.inline, ['main', 'a', 'b', 'c']);
    const mainDBC = nodeAt(snap.inline, ['main', 'd', 'b', 'c']);
    expect(r.toNew![mainABC]).toBe(r.toNew![mainDBC]);
    expect(r.tree.totalWeight[r.toNew![mainABC]]).toBe(5);
    expect(r.toNew![nodeAt(snap.inline, ['main', 'x'])]).toBe(-1);
  });

  it('hide kernel keeps the total and reports sharesInput when nothing is touched', () => {
    const r = derive(base, req({ transforms: [{ kind: 'hide', what: 'kernel' }] }));
    expect(r.tree.totalWeight[0]).toBe(15);
    expect(dumpTree(r.tree, snap.frames)).not.toContain('sys');
    const none = derive(base, req({ transforms: [{ kind: 'hide', what: 'unknown' }] }));
    expect(none.sharesInput).toBe(true);
    expect(copyTree(none.tree).parent.buffer).not.toBe(none.tree.parent.buffer);
  });

  it('reversed puts the leaves at the root and has no node mapping', () => {
    const r = derive(base, req({ reversed: true, transforms: [{ kind: 'hide', what: 'kernel' }] }));
    expect(r.toNew).toBeNull();
    expect(dump(base, req({ reversed: true })).split('\n').filter((l) => !l.startsWith(' '))).toEqual(['b 1/0', 'c 5/0', 'irq 5/0', 'y 4/0']);
    expect(r.tree.totalWeight[0]).toBe(15);
  });

  it('the function view merges inlined frames before the transforms', () => {
    const fn = dump(base, req({ view: 'functions', transforms: [{ kind: 'focus', name: 'x' }] }));
    const inl = dump(base, req({ view: 'inline', transforms: [{ kind: 'focus', name: 'x' }] }));
    expect(inl).toContain('inl');
    expect(fn).not.toContain('inl');
  });

  it('a time range restricts the input first, with leaves mapped to the function view', () => {
    // One sample per stack line, at times 0..4 (the stacks' leaves in the inline tree).
    const leaves = [['main', 'a', 'b', 'c'], ['main', 'a', 'b'], ['main', 'd', 'b', 'c'], ['main', 'sys', 'irq'], ['main', 'x', 'inl', 'y']].map((p) => nodeAt(snap.inline, p));
    expect(leaves).not.toContain(-1);
    const samples: SampleColumns = { count: 5, leaf: Int32Array.from(leaves), time: Float64Array.from([0, 1, 2, 3, 4]), weight: Float64Array.from([3, 1, 2, 5, 4]) };
    const input = { ...base, samples };
    const inRange = req({ view: 'functions', range: { from: 2, to: 5 } });
    expect(isIdentity(input, inRange)).toBe(false);
    const r = derive(input, inRange);
    expect(r.ranged).toBe(true);
    expect(r.tree.totalWeight[0]).toBe(11);
    expect(dumpTree(r.tree, snap.frames)).not.toContain(' a ');
    const focused = derive(input, { ...inRange, transforms: [{ kind: 'focus', name: 'b' }] });
    expect(dumpTree(focused.tree, snap.frames)).toBe(['b 2/0', '  c 2/2'].join('\n'));
  });
});
