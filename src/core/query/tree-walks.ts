// Pure walks over a call tree, used by the store actions, the renderer and the keyboard
// navigation. No recursion: every walk is a loop over parent links or sibling ranges.

import type { CallTree } from '../model/call-tree';
import type { NodeIndex } from '../model/types';
import type { ProfileSnapshot } from '../views/snapshot';
import type { SiblingOrder, ViewKind } from '../model/view-types';
import { before } from '../views/sibling-order';

export function treeOf(snapshot: ProfileSnapshot, view: ViewKind): CallTree {
  return view === 'functions' && snapshot.functions ? snapshot.functions : snapshot.inline;
}

/** Maps a node of `from`'s tree to the other view's tree (identity without inline info). */
export function mapNode(snapshot: ProfileSnapshot, node: NodeIndex, from: ViewKind, to: ViewKind): NodeIndex {
  if (from === to || node < 0) return node;
  if (node === 0) return 0;
  if (to === 'functions') return snapshot.toFunction ? snapshot.toFunction[node] : node;
  if (!snapshot.toInline) return node;
  const mapped = snapshot.toInline[node];
  return mapped < 0 ? 0 : mapped;
}

/** The child with the largest total weight (the first on ties), or -1 for a leaf. */
export function heaviestChild(tree: CallTree, node: NodeIndex): NodeIndex {
  let best = -1;
  let bestWeight = -1;
  for (let c = node + 1; c < tree.end[node]; c = tree.end[c]) {
    if (tree.totalWeight[c] > bestWeight) {
      best = c;
      bestWeight = tree.totalWeight[c];
    }
  }
  return best;
}

/** The sibling drawn left of a node in `order`, or -1. */
export function previousSibling(tree: CallTree, node: NodeIndex, order: SiblingOrder = 'name'): NodeIndex {
  if (node <= 0) return -1;
  const p = tree.parent[node];
  let prev = -1;
  for (let c = p + 1; c < tree.end[p]; c = tree.end[c]) if (c !== node && before(tree, c, node, order) && (prev < 0 || before(tree, prev, c, order))) prev = c;
  return prev;
}

/** The sibling drawn right of a node in `order`, or -1. */
export function nextSibling(tree: CallTree, node: NodeIndex, order: SiblingOrder = 'name'): NodeIndex {
  if (node <= 0) return -1;
  if (order === 'name') {
    const next = tree.end[node];
    return next < tree.end[tree.parent[node]] ? next : -1;
  }
  const p = tree.parent[node];
  let found = -1;
  for (let c = p + 1; c < tree.end[p]; c = tree.end[c]) if (c !== node && before(tree, node, c, order) && (found < 0 || before(tree, c, found, order))) found = c;
  return found;
}

/** Root-first path from the root (node 0) to `node`, both included. */
export function ancestry(tree: CallTree, node: NodeIndex): NodeIndex[] {
  const path: NodeIndex[] = [];
  for (let n = node; n >= 0; n = tree.parent[n]) path.push(n);
  return path.reverse();
}

/** The deepest node that contains both a and b. */
export function commonAncestor(tree: CallTree, a: NodeIndex, b: NodeIndex): NodeIndex {
  let x = a;
  let y = b;
  while (x !== y) {
    if (x > y) x = tree.parent[x];
    else y = tree.parent[y];
  }
  return x;
}

/**
 * The weight of `node`'s left edge measured from `ancestor`'s left edge (node inside ancestor):
 * the sum of the totals of the siblings drawn before it (in `order`) at every level between them.
 */
export function offsetWithin(tree: CallTree, node: NodeIndex, ancestor: NodeIndex, order: SiblingOrder = 'name'): number {
  let offset = 0;
  for (let n = node; n !== ancestor && n > 0; n = tree.parent[n]) {
    const p = tree.parent[n];
    if (order === 'name') for (let c = p + 1; c < n; c = tree.end[c]) offset += tree.totalWeight[c];
    else for (let c = p + 1; c < tree.end[p]; c = tree.end[c]) if (c !== n && before(tree, c, n, order)) offset += tree.totalWeight[c];
  }
  return offset;
}

/** Next (dir 1) or previous (dir -1) node in DFS order whose frame matches, wrapping; or -1. */
export function nextMatch(tree: CallTree, matches: Uint8Array, from: NodeIndex, dir: 1 | -1): NodeIndex {
  const n = tree.nodeCount;
  for (let k = 1; k <= n; k++) {
    const i = (((from + dir * k) % n) + n) % n;
    if (i > 0 && matches[tree.frame[i]]) return i;
  }
  return -1;
}
