import { describe, expect, it } from 'vitest';
import { profileFrom } from '../testing/tree-dsl';
import { ancestry, commonAncestor, heaviestChild, nextMatch, nextSibling, offsetWithin, previousSibling } from './tree-walks';

// 0 all 10: 1 main 8 [2 a 6 [3 x 6], 4 b 2], 5 other 2
const { tree, frames } = profileFrom('main;a;x 6\nmain;b 2\nother 2');

describe('tree helpers', () => {
  it('walks parents, children and siblings', () => {
    expect(ancestry(tree, 3)).toEqual([0, 1, 2, 3]);
    expect(heaviestChild(tree, 1)).toBe(2);
    expect(heaviestChild(tree, 3)).toBe(-1);
    expect(nextSibling(tree, 2)).toBe(4);
    expect(previousSibling(tree, 4)).toBe(2);
    expect(previousSibling(tree, 0)).toBe(-1);
    expect(commonAncestor(tree, 3, 4)).toBe(1);
    expect(commonAncestor(tree, 3, 5)).toBe(0);
    expect(commonAncestor(tree, 3, 2)).toBe(2);
  });

  it('measures offsets inside an ancestor', () => {
    expect(offsetWithin(tree, 4, 0)).toBe(6);
    expect(offsetWithin(tree, 5, 0)).toBe(8);
    expect(offsetWithin(tree, 4, 1)).toBe(6);
    expect(offsetWithin(tree, 3, 0)).toBe(0);
  });

  it('finds the next and previous match in DFS order, wrapping', () => {
    const matches = new Uint8Array(frames.count);
    const frameOf = (name: string) => frames.strings.indexOf(name);
    for (const name of ['x', 'b']) matches[frames.name.indexOf(frameOf(name))] = 1;
    expect(nextMatch(tree, matches, 0, 1)).toBe(3);
    expect(nextMatch(tree, matches, 3, 1)).toBe(4);
    expect(nextMatch(tree, matches, 4, 1)).toBe(3);
    expect(nextMatch(tree, matches, 3, -1)).toBe(4);
    expect(nextMatch(tree, new Uint8Array(frames.count), 0, 1)).toBe(-1);
  });
});
