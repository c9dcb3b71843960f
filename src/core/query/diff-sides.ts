// The two runs of a comparison as diff sides for the current view (Functions / Inline frames),
// plus small lookups the comparison UI needs on the page. Pure apart from memoisation by identity;
// the diff itself is the compare session's (session/compare-session.ts), never the page's.
//
// Invariants: a side's tree is snapshot.functions ?? snapshot.inline for the function view, so a
// recording without inline information compares by its one tree in both views.

import type { CallTree } from '../model/call-tree';
import type { NodeIndex } from '../model/types';
import type { ProfileSnapshot } from '../views/snapshot';
import type { DiffSide } from '../views/diff';
import { treeOf } from './tree-walks';
import type { ViewKind } from '../model/view-types';

const sideCache = new WeakMap<CallTree, DiffSide>();

export function sideOf(snapshot: ProfileSnapshot, view: ViewKind): DiffSide {
  const tree = treeOf(snapshot, view);
  let side = sideCache.get(tree);
  if (!side || side.frames !== snapshot.frames) sideCache.set(tree, (side = { tree, frames: snapshot.frames }));
  return side;
}

/** The node with the largest total among the nodes named `name`, or -1. */
export function heaviestNodeNamed(side: DiffSide, name: string): NodeIndex {
  const { tree, frames } = side;
  let best = -1;
  for (let n = 1; n < tree.nodeCount; n++) {
    const f = tree.frame[n];
    if (frames.strings[frames.name[f]] === name && (best < 0 || tree.totalWeight[n] > tree.totalWeight[best])) best = n;
  }
  return best;
}

/** `^name$` with every regular-expression character escaped: a search for exactly this name. */
export function exactPattern(name: string): string {
  return `^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;
}
