// The tree the main flame graph shows, read from the store's state; the pure tree walks live in
// core/query/tree-walks.ts and are re-exported here for the store's users.

import type { CallTree } from '../core/model/call-tree';
import { treeOf } from '../core/query/tree-walks';
import type { StoreState } from './types';

export { ancestry, commonAncestor, heaviestChild, mapNode, nextMatch, nextSibling, offsetWithin, previousSibling, treeOf } from '../core/query/tree-walks';

/**
 * The tree the main flame graph shows: the derived tree (transforms, reversed, time range) when
 * one was derived for the current snapshot, else the view's tree. Node indices in the view slice
 * (zoom, selection, hover) refer to this tree. While a new derivation is under way (another
 * transform, or the other view) the previous derived tree stays current; the derive controller
 * swaps it, with the node indices mapped, in one update (applyDerived).
 */
export function currentTree(s: Pick<StoreState, 'recordings' | 'view' | 'derived'>): CallTree | null {
  const snapshot = s.recordings.a.snapshot;
  if (!snapshot) return null;
  const d = s.derived;
  if (d && d.snapshot === snapshot) return d.tree;
  return treeOf(snapshot, s.view);
}

/** currentTree for callers that already checked the snapshot. */
export function shownTree(s: Pick<StoreState, 'recordings' | 'view' | 'derived'>): CallTree {
  return currentTree(s) as CallTree;
}

