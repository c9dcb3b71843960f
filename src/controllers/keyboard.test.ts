import { describe, expect, it } from 'vitest';
import { profileFrom } from '../core/testing/tree-dsl';
import { arrowTarget } from './keyboard';

// all: main 8 [a 6, b 2], other 2   (nodes: 0 all, 1 main, 2 a, 3 b, 4 other)
const { tree } = profileFrom('main;a 6\nmain;b 2\nother 2');

describe('arrowTarget', () => {
  it('walks up to the heaviest child and down to the parent in a flame graph', () => {
    expect(arrowTarget(tree, 'flame', 0, 'ArrowUp')).toBe(1);
    expect(arrowTarget(tree, 'flame', 1, 'ArrowUp')).toBe(2);
    expect(arrowTarget(tree, 'flame', 2, 'ArrowUp')).toBe(-1);
    expect(arrowTarget(tree, 'flame', 3, 'ArrowDown')).toBe(1);
    expect(arrowTarget(tree, 'flame', 0, 'ArrowDown')).toBe(-1);
  });

  it('swaps up and down in an icicle graph', () => {
    expect(arrowTarget(tree, 'icicle', 1, 'ArrowDown')).toBe(2);
    expect(arrowTarget(tree, 'icicle', 2, 'ArrowUp')).toBe(1);
  });

  it('moves between siblings', () => {
    expect(arrowTarget(tree, 'flame', 2, 'ArrowRight')).toBe(3);
    expect(arrowTarget(tree, 'flame', 3, 'ArrowRight')).toBe(-1);
    expect(arrowTarget(tree, 'flame', 3, 'ArrowLeft')).toBe(2);
    expect(arrowTarget(tree, 'flame', 1, 'ArrowRight')).toBe(4);
    expect(arrowTarget(tree, 'flame', 1, 'ArrowLeft')).toBe(-1);
  });
});
