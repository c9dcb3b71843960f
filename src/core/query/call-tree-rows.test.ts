import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallTree } from '../model/call-tree';
import { FrameTableBuilder } from '../model/frame-table';
import { TreeBuilder } from '../model/tree-builder';
import { profileFrom } from '../testing/tree-dsl';
import { displayOrder, expandAllBelow, initialExpansion, revealNode, searchMask, visibleRows, withExpanded } from './call-tree-rows';

// The reference: an object tree built from the parent column, children sorted heaviest first
// (ties by node index), walked recursively; a node is a row when all its ancestors are expanded
// and, under a search, when it or an ancestor or a descendant matches.
interface RefNode {
  id: number;
  kids: RefNode[];
}
function refTree(tree: CallTree): RefNode {
  const nodes: RefNode[] = [];
  for (let i = 0; i < tree.nodeCount; i++) nodes.push({ id: i, kids: [] });
  for (let i = 1; i < tree.nodeCount; i++) nodes[tree.parent[i]].kids.push(nodes[i]);
  for (const n of nodes) n.kids.sort((a, b) => tree.totalWeight[b.id] - tree.totalWeight[a.id] || a.id - b.id);
  return nodes[0];
}
function refRows(tree: CallTree, expanded: (n: number) => boolean, matches: Uint8Array | null): number[] {
  const match = (n: RefNode): boolean => matches !== null && n.id > 0 && matches[tree.frame[n.id]] === 1;
  const below = (n: RefNode): boolean => n.kids.some((k) => match(k) || below(k));
  const out: number[] = [];
  const walk = (n: RefNode, ancestorMatched: boolean) => {
    const kept = matches === null || n.id === 0 || ancestorMatched || match(n) || below(n);
    if (!kept) return;
    out.push(n.id);
    if (expanded(n.id)) for (const k of n.kids) walk(k, ancestorMatched || match(n));
  };
  walk(refTree(tree), false);
  return out;
}

const stacksTree = (stacks: [number[], number][]) => {
  const fb = new FrameTableBuilder();
  for (let k = 0; k < 5; k++) fb.intern(`f${k}`, 0);
  const frames = fb.finish();
  const b = new TreeBuilder();
  for (const [stack, w] of stacks) b.addStack(stack, stack.length, w, 1);
  return { tree: b.finish(frames).tree, frames };
};
const arbStacks = fc.array(fc.tuple(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 7 }), fc.integer({ min: 1, max: 9 })), { maxLength: 40 });

describe('call tree rows', () => {
  it('orders children heaviest first and shows only expanded subtrees', () => {
    const p = profileFrom(`
      a 3
      d;e 7
    `);
    const name = (n: number) => (n === 0 ? 'all' : p.frames.strings[p.frames.name[p.tree.frame[n]]]);
    const order = displayOrder(p.tree);
    expect([...order].map(name)).toEqual(['all', 'd', 'e', 'a']);
    const collapsed = new Uint8Array(p.tree.nodeCount);
    expect([...visibleRows(p.tree, order, collapsed)].map(name)).toEqual(['all']);
    const rootOpen = withExpanded(collapsed, 0, true);
    expect([...visibleRows(p.tree, order, rootOpen)].map(name)).toEqual(['all', 'd', 'a']);
    expect([...visibleRows(p.tree, order, expandAllBelow(p.tree, collapsed, 0))].map(name)).toEqual(['all', 'd', 'e', 'a']);
    // The heaviest path is opened while its next node carries at least a fifth of the whole.
    expect([...visibleRows(p.tree, order, initialExpansion(p.tree))].map(name)).toEqual(['all', 'd', 'e', 'a']);
  });

  it('matches the reference for random trees, expansions, reveals and searches', () => {
    fc.assert(
      fc.property(arbStacks, fc.array(fc.boolean(), { maxLength: 80 }), fc.nat(80), fc.option(fc.array(fc.boolean(), { minLength: 5, maxLength: 5 })), (stacks, bits, pick, search) => {
        const { tree } = stacksTree(stacks);
        const n = tree.nodeCount;
        let expanded: Uint8Array = new Uint8Array(n);
        for (let i = 0; i < n; i++) expanded[i] = bits[i] ? 1 : 0;
        const order = displayOrder(tree);
        expect(visibleRows(tree, order, expanded)).toEqual(Int32Array.from(refRows(tree, (i) => expanded[i] === 1, null)));

        const node = pick % n;
        const all = expandAllBelow(tree, expanded, node);
        const inside = (i: number) => i >= node && i < tree.end[node];
        expect(visibleRows(tree, order, all)).toEqual(Int32Array.from(refRows(tree, (i) => expanded[i] === 1 || inside(i), null)));
        expect(expanded).toEqual(Uint8Array.from(bits.slice(0, n).concat(Array(Math.max(0, n - bits.length)).fill(false)).map(Number)));

        expanded = revealNode(tree, expanded, node);
        expect([...visibleRows(tree, order, expanded)]).toContain(node);

        if (search) {
          const matches = Uint8Array.from(search.map(Number));
          const { keep, open } = searchMask(tree, matches);
          const opened = expanded.map((v, i) => v | open[i]);
          const rows = visibleRows(tree, order, opened, keep);
          expect(rows).toEqual(Int32Array.from(refRows(tree, (i) => opened[i] === 1, matches)));
          // Every matching node is shown once its ancestors are opened.
          for (let i = 1; i < n; i++) if (matches[tree.frame[i]]) expect([...rows]).toContain(i);
        }
      }),
      { numRuns: 300 },
    );
  });
});
