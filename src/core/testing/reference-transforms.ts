// The TreeBuilder implementations of dropFrames, collapseRecursion, calleesTree and reversedTree
// that derived-builder.ts and the grouped reversed.ts replaced (hashed child lookups for every
// node, then finish() re-sorts every child list). Kept as the oracles of the property tests and
// as the "before" of bench/transform-bench.ts --ref.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { TreeBuilder } from '../model/tree-builder';
import type { StringIndex } from '../model/types';
import { canonicalFrame, finishDerived, type DerivedTree } from '../views/butterfly';

export function refDrop(tree: CallTree, frames: FrameTable, drop: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  const builder = new TreeBuilder(n);
  const mapped = new Int32Array(n);
  builder.addSelf(0, tree.selfWeight[0], tree.selfSamples[0]);
  for (let i = 1; i < n; i++) {
    const f = tree.frame[i];
    const p = mapped[tree.parent[i]];
    const m = drop[f] ? p : builder.child(p, f);
    mapped[i] = m;
    builder.addSelf(m, tree.selfWeight[i], tree.selfSamples[i]);
  }
  return finishDerived(builder, frames, mapped);
}

export function refCollapse(tree: CallTree, frames: FrameTable, collapse: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  const { parent, frame } = tree;
  const builder = new TreeBuilder(n);
  const mapped = new Int32Array(n);
  builder.addSelf(0, tree.selfWeight[0], tree.selfSamples[0]);
  for (let i = 1; i < n; i++) {
    const f = frame[i];
    const p = parent[i];
    const m = p > 0 && collapse[f] && frames.name[frame[p]] === frames.name[f] ? mapped[p] : builder.child(mapped[p], f);
    mapped[i] = m;
    builder.addSelf(m, tree.selfWeight[i], tree.selfSamples[i]);
  }
  return finishDerived(builder, frames, mapped);
}

export function refCallees(tree: CallTree, frames: FrameTable, name: StringIndex): DerivedTree {
  const n = tree.nodeCount;
  const builder = new TreeBuilder(n);
  const mapped = new Int32Array(n).fill(-1);
  const root = canonicalFrame(frames, name);
  if (root >= 0) {
    const fNode = builder.child(0, root);
    let outerEnd = 0;
    for (let i = 1; i < n; i++) {
      if (i >= outerEnd) {
        if (frames.name[tree.frame[i]] !== name) continue;
        outerEnd = tree.end[i];
        mapped[i] = fNode;
      } else {
        mapped[i] = builder.child(mapped[tree.parent[i]], tree.frame[i]);
      }
      builder.addSelf(mapped[i], tree.selfWeight[i], tree.selfSamples[i]);
    }
  }
  return finishDerived(builder, frames, mapped);
}

export function refReversed(tree: CallTree, frames: FrameTable): CallTree {
  const builder = new TreeBuilder(tree.nodeCount);
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
