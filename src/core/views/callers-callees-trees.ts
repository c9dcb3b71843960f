// Callers and callees of one function (speedscope's "sandwich", others' "butterfly"; flameview says callers & callees).
//
//   profile            calleesTree(main→…, "b")      callersTree("b")
//   a;b;c 3            all                           all
//   a;b 1              └─ b 6/1                      └─ b 6/0
//   d;b;c 2               └─ c 5/5                      ├─ a 4/4
//                                                       └─ d 2/2
// Invariants:
// - a function is a frame name (StringIndex): inlined and physical frames of the name are one
//   function; the root function node uses one canonical frame of that name (the first physical
//   one, else the first), deeper frames keep their own frames;
// - recursion is counted once: only the outermost F node of each path contributes (a nested F
//   is part of its outer F's subtree), so both trees' totals equal F's total in functionTable;
// - calleesTree merges every outermost F subtree into one tree under F (self weights kept);
// - callersTree is inverted: under F hang F's callers, under each caller its callers, …; a
//   node's total is the weight of F spent on that caller path, a node's self is the part whose
//   path ends there (the caller is a root frame);
// - both are CallTrees over the same FrameTable, built iteratively (callees by derived-builder.ts,
//   which copies the F subtrees as blocks when there is only one; callers with TreeBuilder); a name
//   with no frame gives a tree with only the root. memoised by (tree, frames, name).

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { mergeSubtrees } from '../model/derived-builder';
import { TreeBuilder } from '../model/tree-builder';
import { FrameFlags, type FrameIndex, type StringIndex } from '../model/types';
import { Memo } from '../util/memo';

export interface DerivedTree {
  tree: CallTree;
  /** For each node of the input tree: its node in the derived tree, or -1 when it was dropped. */
  toNew: Int32Array;
}

/** The frame that stands for a function name at the root of a derived tree, or -1. */
export function canonicalFrame(frames: FrameTable, name: StringIndex): FrameIndex {
  let any = -1;
  for (let f = 0; f < frames.count; f++) {
    if (frames.name[f] !== name) continue;
    if (!(frames.flags[f] & (FrameFlags.INLINED | FrameFlags.FOLDED))) return f;
    if (any < 0) any = f;
  }
  return any;
}

// A handful of recent functions per tree is what a user clicks through.
const calleesCache = new Memo<DerivedTree>({ maxPrimitives: 8 });
const callersCache = new Memo<DerivedTree>({ maxPrimitives: 8 });

/** Everything F calls, merged over all its call sites, rooted at F (see the module comment). */
export function calleesTree(tree: CallTree, frames: FrameTable, name: StringIndex): DerivedTree {
  return calleesCache.get([tree, frames, name], () => computeCallees(tree, frames, name));
}

function computeCallees(tree: CallTree, frames: FrameTable, name: StringIndex): DerivedTree {
  const n = tree.nodeCount;
  const root = canonicalFrame(frames, name);
  if (root < 0) return finishDerived(new TreeBuilder(), frames, new Int32Array(n).fill(-1));
  // The outermost F nodes, in order; their subtrees merge under one F.
  const roots = new Int32Array(n);
  let count = 0;
  const fname = frames.name;
  const { frame, end } = tree;
  for (let i = 1; i < n; ) {
    if (fname[frame[i]] === name) {
      roots[count++] = i;
      i = end[i];
    } else {
      i++;
    }
  }
  return mergeSubtrees(tree, frames, root, roots.subarray(0, count));
}

/** Everything that calls F, inverted: F at the top, its callers below (see the module comment). */
export function callersTree(tree: CallTree, frames: FrameTable, name: StringIndex): DerivedTree {
  return callersCache.get([tree, frames, name], () => computeCallers(tree, frames, name));
}

function computeCallers(tree: CallTree, frames: FrameTable, name: StringIndex): DerivedTree {
  const n = tree.nodeCount;
  const builder = new TreeBuilder();
  const mapped = new Int32Array(n).fill(-1);
  const root = canonicalFrame(frames, name);
  if (root >= 0) {
    const fNode = builder.child(0, root);
    let outerEnd = 0;
    for (let i = 1; i < n; i++) {
      if (i < outerEnd || frames.name[tree.frame[i]] !== name) continue;
      outerEnd = tree.end[i];
      mapped[i] = fNode;
      // Walk up the callers; each step is one hashed child lookup.
      let at = fNode;
      for (let p = tree.parent[i]; p > 0; p = tree.parent[p]) at = builder.child(at, tree.frame[p]);
      builder.addSelf(at, tree.totalWeight[i], tree.totalSamples[i]);
    }
  }
  return finishDerived(builder, frames, mapped);
}

/** Freezes a builder and turns builder indices in `mapped` into frozen-tree indices (in place). */
export function finishDerived(builder: TreeBuilder, frames: FrameTable, mapped: Int32Array): DerivedTree {
  const { tree, order } = builder.finish(frames);
  for (let i = 0; i < mapped.length; i++) if (mapped[i] >= 0) mapped[i] = order[mapped[i]];
  return { tree, toNew: mapped };
}
