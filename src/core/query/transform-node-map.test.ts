import { describe, expect, it } from 'vitest';
import { findChild } from '../model/call-tree';
import { profileFrom } from '../testing/tree-dsl';
import { derive } from '../views/derive';
import { mapShownNode, mapShownNodes, type ShownTree } from './transform-node-map';

const p = profileFrom(`
  main;a;b;c 3
  main;a;b 1
  main;d;b;c 2
  main;sys_[k];b 5
`);
const input = { frames: p.frames, inline: p.tree, functions: null, toFunction: null, samples: null };
const frameOf = (name: string) => p.frames.name.findIndex((s) => p.frames.strings[s] === name);
const at = (tree: typeof p.tree, names: string[]) => names.reduce((n, name) => (n < 0 ? -1 : findChild(tree, n, frameOf(name))), 0);
const base: ShownTree = { tree: p.tree, inputKey: 'k', input: p.tree, toNew: null };
const shown = (transforms: Parameters<typeof derive>[1]['transforms'], reversed = false): ShownTree => {
  const r = derive(input, { view: 'inline', transforms, reversed, range: null });
  return { tree: r.tree, inputKey: 'k', input: p.tree, toNew: r.toNew ?? 'none' };
};

describe('mapShownNode', () => {
  it('base → focus goes through toNew; a node outside the focus falls back to the root', () => {
    const focus = shown([{ kind: 'focus', name: 'b' }]);
    const c = mapShownNode(p.frames, base, at(p.tree, ['main', 'a', 'b', 'c']), focus);
    expect(c).toBe(at(focus.tree, ['b', 'c']));
    expect(mapShownNode(p.frames, base, at(p.tree, ['main', 'd']), focus)).toBe(0);
    expect(mapShownNode(p.frames, base, -1, focus)).toBe(-1);
  });

  it('undoing a focus goes back to the heaviest call site', () => {
    const focus = shown([{ kind: 'focus', name: 'b' }]);
    const b = mapShownNode(p.frames, focus, at(focus.tree, ['b']), base);
    expect(b).toBe(at(p.tree, ['main', 'sys', 'b']));
    // The zoom and the selection in one pass.
    expect(mapShownNodes(p.frames, focus, [at(focus.tree, ['b', 'c']), -1, 0, at(focus.tree, ['b'])], base)).toEqual([
      at(p.tree, ['main', 'a', 'b', 'c']),
      -1,
      0,
      b,
    ]);
  });

  it('between two transform lists: through the input', () => {
    const hidden = shown([{ kind: 'hide', what: 'kernel' }]);
    const both = shown([{ kind: 'hide', what: 'kernel' }, { kind: 'merge', name: 'a' }]);
    expect(mapShownNode(p.frames, hidden, at(hidden.tree, ['main', 'a', 'b', 'c']), both)).toBe(at(both.tree, ['main', 'b', 'c']));
  });

  it('the reversed tree maps by path, so mostly to the root', () => {
    const rev = shown([], true);
    expect(mapShownNode(p.frames, base, at(p.tree, ['main', 'a']), rev)).toBe(0);
    expect(mapShownNode(p.frames, rev, at(rev.tree, ['c']), base)).toBe(0);
  });

  it('another input (view, range) maps by path', () => {
    const other: ShownTree = { ...shown([{ kind: 'hide', what: 'kernel' }]), inputKey: 'other' };
    expect(mapShownNode(p.frames, base, at(p.tree, ['main', 'a', 'b']), other)).toBe(at(other.tree, ['main', 'a', 'b']));
    expect(mapShownNode(p.frames, base, at(p.tree, ['main', 'sys', 'b']), other)).toBe(at(other.tree, ['main']));
  });
});
