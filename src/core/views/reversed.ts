// The reversed (bottom-up) flamegraph, as flamegraph.pl --reverse draws it: every stack is
// reversed, so the leaves (where the time is spent) are the roots and their callers grow upward.
//
//   profile          reversedTree
//   a;b;c 3          all
//   a;c 2            └─ c 5/0
//   a 1              │  ├─ a 2/2
//                    │  └─ b 3/0
//                    │     └─ a 3/3
//                    └─ a 1/1
// Invariants: the root total is preserved; a depth-1 node's total is the self weight of its
// function's frame (over all call sites); a node's self is the weight of the stacks that end there
// (a root frame of the original). Not the icicle switch, which only flips the picture. Built
// iteratively, O(sum of the depths of nodes with self weight); memoised by (tree, frames).

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { TreeBuilder } from '../model/tree-builder';

const cache = new WeakMap<CallTree, WeakMap<FrameTable, CallTree>>();

/** The bottom-up tree (see the module comment), over the same FrameTable. */
export function reversedTree(tree: CallTree, frames: FrameTable): CallTree {
  let inner = cache.get(tree);
  if (!inner) cache.set(tree, (inner = new WeakMap()));
  let out = inner.get(frames);
  if (!out) inner.set(frames, (out = computeReversed(tree, frames)));
  return out;
}

function computeReversed(tree: CallTree, frames: FrameTable): CallTree {
  const builder = new TreeBuilder(tree.nodeCount);
  // Root self (a sample with an empty stack) stays at the root.
  builder.addSelf(0, tree.selfWeight[0], tree.selfSamples[0]);
  for (let i = 1; i < tree.nodeCount; i++) {
    const w = tree.selfWeight[i];
    const s = tree.selfSamples[i];
    if (w === 0 && s === 0) continue;
    let at = 0;
    for (let p = i; p > 0; p = tree.parent[p]) at = builder.child(at, tree.frame[p]);
    builder.addSelf(at, w, s);
  }
  return builder.finish(frames).tree;
}
