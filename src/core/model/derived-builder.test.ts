import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refCallees, refCollapse, refDrop } from '../testing/reference-transforms';
import { callersTree, calleesTree } from '../views/callers-callees-trees';
import { collapseRecursion, dropFrames, isUnknownName, type DerivedTree } from '../views/transforms';
import type { CallTree } from './call-tree';
import { FrameTableBuilder, type FrameTable } from './frame-table';
import { TreeBuilder } from './tree-builder';
import { FrameFlags } from './types';

// The new path must give the same trees as the TreeBuilder implementations it replaced, column
// for column, and the same node mapping.

const NAMES = ['main', 'a', 'b', 'c', 'd', '[unknown]', '[libc.so.6]', 'e', 'f'];
const FLAGS = [0, FrameFlags.INLINED, FrameFlags.KERNEL];

/** Frames: every name with every flag, interned in a shuffled order (frame index ≠ rank). */
function frameTable(order: number[]): FrameTable {
  const b = new FrameTableBuilder();
  for (const k of order) b.intern(NAMES[Math.floor(k / FLAGS.length)], FLAGS[k % FLAGS.length]);
  return b.finish();
}

const ALL = NAMES.length * FLAGS.length;
const arbFrameOrder = fc.shuffledSubarray(
  Array.from({ length: ALL }, (_, i) => i),
  { minLength: ALL, maxLength: ALL },
);
// Stacks biased to repeat a small set of frames, so merges collide and recursion occurs.
const arbStacks = fc.array(fc.tuple(fc.array(fc.nat({ max: ALL - 1 }), { maxLength: 9 }), fc.integer({ min: 1, max: 100 }), fc.nat({ max: 3 })), {
  minLength: 0,
  maxLength: 60,
  size: 'max',
});

function build(frames: FrameTable, stacks: [number[], number, number][], sortFrames: FrameTable = frames): CallTree {
  const b = new TreeBuilder();
  for (const [stack, w, s] of stacks) {
    // Fold frames into a narrower range half the time so siblings and recursion repeat more.
    const st = stack.map((f, i) => (i % 2 ? f % 6 : f));
    b.addStack(st, st.length, w + 0.1 * s, s);
  }
  return b.finish(sortFrames).tree;
}

function columns(t: CallTree): unknown {
  return {
    n: t.nodeCount,
    maxDepth: t.maxDepth,
    parent: Array.from(t.parent),
    frame: Array.from(t.frame),
    depth: Array.from(t.depth),
    end: Array.from(t.end),
    selfWeight: Array.from(t.selfWeight),
    totalWeight: Array.from(t.totalWeight),
    selfSamples: Array.from(t.selfSamples),
    totalSamples: Array.from(t.totalSamples),
  };
}

function same(a: DerivedTree, b: DerivedTree): void {
  expect(columns(a.tree)).toEqual(columns(b.tree));
  expect(Array.from(a.toNew)).toEqual(Array.from(b.toNew));
  for (const col of ['parent', 'frame', 'depth', 'end', 'selfWeight', 'totalWeight', 'selfSamples', 'totalSamples'] as const) {
    expect(a.tree[col].length).toBe(a.tree.nodeCount);
    expect(a.tree[col].constructor).toBe(b.tree[col].constructor);
  }
}

function masks(frames: FrameTable, bits: number): { drop: Uint8Array; collapse: Uint8Array } {
  const drop = new Uint8Array(frames.count);
  const collapse = new Uint8Array(frames.count);
  for (let f = 0; f < frames.count; f++) {
    drop[f] = (bits >> f % 30) & 1;
    collapse[f] = (bits >> (f + 7) % 30) & 1;
  }
  return { drop, collapse };
}

describe('derived builder', () => {
  it('property: dropFrames / collapseRecursion / calleesTree equal the TreeBuilder implementations', () => {
    fc.assert(
      fc.property(arbFrameOrder, arbStacks, fc.nat(), fc.nat({ max: NAMES.length - 1 }), (order, stacks, bits, nameK) => {
        const frames = frameTable(order);
        const tree = build(frames, stacks);
        const { drop, collapse } = masks(frames, bits);
        const hasDrop = Array.from(tree.frame).some((f, i) => i > 0 && drop[f] === 1);
        if (hasDrop) same(dropFrames(tree, frames, drop), refDrop(tree, frames, drop));
        const everyAll = collapse.fill(1, 0, bits % 2 ? frames.count : 0);
        const rec = collapseRecursion(tree, frames, everyAll);
        if (rec.tree !== tree) same(rec, refCollapse(tree, frames, everyAll));
        const name = frames.name[frames.count - 1 - ((nameK * 3) % frames.count)];
        same(calleesTree(tree, frames, name), refCallees(tree, frames, name));
      }),
      { numRuns: 400 },
    );
  });

  it('property: semantic transforms (merge a name, hide kernel/unknown) match too', () => {
    fc.assert(
      fc.property(arbFrameOrder, arbStacks, fc.nat({ max: NAMES.length - 1 }), (order, stacks, k) => {
        const frames = frameTable(order);
        const tree = build(frames, stacks);
        const byName = new Uint8Array(frames.count);
        const kernel = new Uint8Array(frames.count);
        const unknown = new Uint8Array(frames.count);
        for (let f = 0; f < frames.count; f++) {
          byName[f] = frames.strings[frames.name[f]] === NAMES[k] ? 1 : 0;
          kernel[f] = frames.flags[f] & FrameFlags.KERNEL ? 1 : 0;
          unknown[f] = isUnknownName(frames.strings[frames.name[f]]) ? 1 : 0;
        }
        for (const drop of [byName, kernel, unknown]) {
          const got = dropFrames(tree, frames, drop);
          if (got.tree !== tree) same(got, refDrop(tree, frames, drop));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: an input whose siblings are not in rank order is re-sorted as TreeBuilder would', () => {
    fc.assert(
      fc.property(arbFrameOrder, arbFrameOrder, arbStacks, fc.nat(), (order, other, stacks, bits) => {
        const frames = frameTable(order);
        // Sorted by another table's names: not this table's order.
        const tree = build(frames, stacks, frameTable(other));
        const { drop } = masks(frames, bits);
        const got = dropFrames(tree, frames, drop);
        if (got.tree !== tree) same(got, refDrop(tree, frames, drop));
        const name = frames.name[bits % frames.count];
        same(calleesTree(tree, frames, name), refCallees(tree, frames, name));
      }),
      { numRuns: 200 },
    );
  });

  it('callees of a name with no node, or of a tree with only the root, match', () => {
    const frames = frameTable(Array.from({ length: ALL }, (_, i) => i));
    const empty = new TreeBuilder().finish(frames).tree;
    same(calleesTree(empty, frames, frames.name[3]), refCallees(empty, frames, frames.name[3]));
    const tree = build(frames, [[[0, 3, 6], 5, 1]]);
    same(calleesTree(tree, frames, frames.name[9]), refCallees(tree, frames, frames.name[9]));
    expect(callersTree(tree, frames, frames.name[3]).tree.nodeCount).toBe(3);
  });
});
