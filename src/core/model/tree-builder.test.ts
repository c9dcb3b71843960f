import { describe, expect, it } from 'vitest';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { childrenOf, isInside, pathOf } from './call-tree';
import { FrameTableBuilder } from './frame-table';
import { TreeBuilder } from './tree-builder';

describe('TreeBuilder', () => {
  it('merges shared prefixes, sorts siblings by name and sums totals', () => {
    const p = profileFrom(`
      main;parse;lex 3
      main;emit 2
      main;parse 1
      other 4
    `);
    expect(dumpTree(p.tree, p.frames)).toBe(
      ['main 6/0', '  emit 2/2', '  parse 4/1', '    lex 3/3', 'other 4/4'].join('\n'),
    );
    expect(p.tree.totalWeight[0]).toBe(10);
    expect(p.tree.maxDepth).toBe(3);
  });

  it('keeps subtrees as contiguous index ranges', () => {
    const p = profileFrom('a;b;c 1\na;d 1\ne 1');
    const [a, e] = childrenOf(p.tree, 0);
    for (let n = a + 1; n < p.tree.end[a]; n++) expect(isInside(p.tree, n, a)).toBe(true);
    expect(isInside(p.tree, e, a)).toBe(false);
    expect(p.tree.end[0]).toBe(p.tree.nodeCount);
  });

  it('treats an inlined and a physical frame of one name as different siblings', () => {
    const p = profileFrom('a;b 1\na;b_[i] 2');
    expect(dumpTree(p.tree, p.frames)).toBe(['a 3/0', '  b 1/1', '  b_[i] 2/2'].join('\n'));
  });

  it('handles a 10,000-deep stack without recursion', () => {
    const frames = new FrameTableBuilder();
    const builder = new TreeBuilder();
    const stack = Array.from({ length: 10_000 }, (_, i) => frames.intern(`f${i % 7}`, 0));
    builder.addStack(stack, stack.length, 5, 1);
    const { tree } = builder.finish(frames.finish());
    expect(tree.maxDepth).toBe(10_000);
    expect(tree.totalWeight[1]).toBe(5);
    expect(pathOf(tree, tree.nodeCount - 1)).toHaveLength(10_000);
  });

  it('grows past its initial capacity and hash table size', () => {
    const frames = new FrameTableBuilder();
    const builder = new TreeBuilder();
    for (let i = 0; i < 20_000; i++) builder.addStack([frames.intern(`f${i}`, 0), frames.intern('leaf', 0)], 2, 1, 1);
    const { tree } = builder.finish(frames.finish());
    expect(tree.nodeCount).toBe(40_001);
    expect(tree.totalSamples[0]).toBe(20_000);
  });

  it('orders siblings by name for short and long child lists, whatever the insertion order', () => {
    for (const count of [2, 3, 17, 32, 33, 200]) {
      const frames = new FrameTableBuilder();
      const builder = new TreeBuilder();
      const names = Array.from({ length: count }, (_, i) => `n${String(i).padStart(3, '0')}`);
      // A fixed shuffle (multiplicative step coprime with the count), under two parents.
      for (let k = 0; k < count; k++) {
        const name = names[(k * 7919) % count];
        builder.addStack([frames.intern('p', 0), frames.intern(name, 0)], 2, 1, 1);
        builder.addStack([frames.intern(name, 0)], 1, 1, 1);
      }
      const table = frames.finish();
      const { tree } = builder.finish(table);
      const under = (node: number) => childrenOf(tree, node).map((c) => table.strings[table.name[tree.frame[c]]]);
      const p = childrenOf(tree, 0).find((c) => table.strings[table.name[tree.frame[c]]] === 'p')!;
      expect(under(p)).toEqual(names);
      expect(under(0)).toEqual([...names, 'p'].sort());
    }
  });

  it('finds the same child before and after its parent has enough children to be hashed', () => {
    for (const count of [1, 7, 8, 9, 100, 5000]) {
      const builder = new TreeBuilder();
      const under = builder.child(0, 1_000_000);
      const first: number[] = [];
      for (let f = 0; f < count; f++) first.push(builder.child(under, f), builder.child(0, f));
      const nodes = builder.nodeCount;
      const again: number[] = [];
      for (let f = count - 1; f >= 0; f--) again.unshift(builder.child(under, f), builder.child(0, f));
      expect(again).toEqual(first);
      expect(builder.nodeCount).toBe(nodes);
      expect(new Set(first).size).toBe(2 * count);
      for (let k = 0; k < first.length; k++) expect(builder.parentOf(first[k])).toBe(k % 2 === 0 ? under : 0);
    }
  });

  it('keeps sample counts apart from weights once they differ, whenever that happens', () => {
    for (const firstDiffering of [0, 1, 2, 3]) {
      const frames = new FrameTableBuilder();
      const builder = new TreeBuilder();
      const a = frames.intern('a', 0);
      const b = frames.intern('b', 0);
      const adds: [number[], number, number][] = [[[a], 2, 2], [[a, b], 5, 5], [[a], 3, 3]];
      if (firstDiffering < adds.length) adds[firstDiffering][2] = 1;
      for (const [stack, w, s] of adds) builder.addStack(stack, stack.length, w, s);
      const { tree } = builder.finish(frames.finish());
      const samples = adds.map(([, , s]) => s);
      expect(Array.from(tree.selfWeight)).toEqual([0, 5, 5]);
      expect(Array.from(tree.selfSamples)).toEqual([0, samples[0] + samples[2], samples[1]]);
      expect(Array.from(tree.totalSamples)).toEqual([samples[0] + samples[1] + samples[2], samples[0] + samples[1] + samples[2], samples[1]]);
      expect(Array.from(tree.totalWeight)).toEqual([10, 10, 5]);
    }
  });
});
