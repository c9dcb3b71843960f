import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { frameName } from '../model/frame-table';
import { profileFrom } from '../testing/tree-dsl';
import { nextSibling, offsetWithin, previousSibling } from '../query/tree-walks';
import { nodeOrder } from './sibling-order';

// By name: all [a 1 [x 1], b 5 [p 1, q 3], c 2, d 2]; heaviest first: b [q, p], c, d, a.
const { tree, frames } = profileFrom('a;x 1\nb;p 1\nb;q 3\nb 1\nc 2\nd 2');
const name = (n: number) => (n === 0 ? 'all' : frameName(frames, tree.frame[n]));

describe('sibling order', () => {
  it('is the identity by name, and heaviest first (ties by name) as a depth-first permutation', () => {
    expect(nodeOrder(tree, 'name')).toBeNull();
    const order = nodeOrder(tree, 'heavy')!;
    expect(Array.from(order.node, name)).toEqual(['all', 'b', 'q', 'p', 'c', 'd', 'a', 'x']);
    for (let n = 0; n < tree.nodeCount; n++) expect(order.node[order.position[n]]).toBe(n);
    expect(nodeOrder(tree, 'heavy')).toBe(order); // once per tree
  });

  it('gives offsets and neighbours in the order drawn', () => {
    const at = (label: string) => Array.from({ length: tree.nodeCount }, (_, i) => i).find((n) => name(n) === label)!;
    expect(offsetWithin(tree, at('a'), 0, 'name')).toBe(0);
    expect(offsetWithin(tree, at('a'), 0, 'heavy')).toBe(9);
    expect(offsetWithin(tree, at('p'), 0, 'heavy')).toBe(3);
    expect(offsetWithin(tree, at('d'), 0, 'heavy')).toBe(7);
    expect(name(nextSibling(tree, at('b'), 'heavy'))).toBe('c');
    expect(name(nextSibling(tree, at('c'), 'heavy'))).toBe('d');
    expect(nextSibling(tree, at('a'), 'heavy')).toBe(-1);
    expect(previousSibling(tree, at('b'), 'heavy')).toBe(-1);
    expect(name(previousSibling(tree, at('a'), 'heavy'))).toBe('d');
    expect(name(previousSibling(tree, at('p'), 'heavy'))).toBe('q');
    expect(name(nextSibling(tree, at('a'), 'name'))).toBe('b');
  });

  it('keeps every subtree contiguous and its children heaviest first, on random trees', () => {
    const line = fc.tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 9 }));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), (lines) => {
        const { tree: t } = profileFrom(lines.map(([path, w]) => `${path.join(';')} ${w}`).join('\n'));
        const { node, position } = nodeOrder(t, 'heavy')!;
        expect(new Set(node).size).toBe(t.nodeCount);
        for (let n = 0; n < t.nodeCount; n++) {
          // The subtree's positions are exactly its nodes.
          const inside = Array.from(node.subarray(position[n], position[n] + t.end[n] - n)).sort((x, y) => x - y);
          expect(inside).toEqual(Array.from({ length: t.end[n] - n }, (_, i) => n + i));
          // Children follow one another by weight, and the offset is the sum of those before.
          let prev = -1;
          let offset = 0;
          for (let k = position[n] + 1; k < position[n] + t.end[n] - n; k += t.end[node[k]] - node[k]) {
            const c = node[k];
            if (prev >= 0) expect(t.totalWeight[c]).toBeLessThanOrEqual(t.totalWeight[prev]);
            expect(offsetWithin(t, c, n, 'heavy')).toBe(offset);
            expect(previousSibling(t, c, 'heavy')).toBe(prev);
            offset += t.totalWeight[c];
            prev = c;
          }
        }
      }),
    );
  });
});
