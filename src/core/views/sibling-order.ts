// The order siblings are drawn in, left to right. A call tree keeps its children by frame name
// (call-tree.ts: flamegraph.pl's order, stable across recordings); 'heavy' draws them by total
// weight instead, the heaviest first (speedscope's "left heavy"), ties by name. Only the drawing
// order changes: node indices, and so zoom, selection and search, are the same in both orders.
//
// Invariants: `before` is the one sibling comparator (the layout's permutation, the zoom
// animation's offsets and the arrow keys agree); a permutation keeps every subtree contiguous, so
// the subtree of n sits at positions [position[n], position[n] + end[n] - n).

import type { CallTree } from '../model/call-tree';
import type { NodeIndex } from '../model/types';
import type { SiblingOrder } from '../model/view-types';

export type { SiblingOrder };

/** The drawing order as a depth-first permutation of the nodes. */
export interface NodeOrder {
  /** The node drawn at each depth-first position. */
  readonly node: Int32Array;
  /** The depth-first position of each node. */
  readonly position: Int32Array;
}

/** True when sibling a is drawn left of sibling b in `order`. */
export function before(tree: CallTree, a: NodeIndex, b: NodeIndex, order: SiblingOrder): boolean {
  if (order === 'heavy') {
    const wa = tree.totalWeight[a];
    const wb = tree.totalWeight[b];
    if (wa !== wb) return wa > wb;
  }
  return a < b;
}

const heavyCache = new WeakMap<CallTree, NodeOrder>();

/**
 * The permutation for `order`, or null for 'name' (the tree's own order, the identity). Computed
 * once per tree: one pass in index order (a parent comes before its children) that places each
 * node's children, sorted by `before`, after it.
 */
export function nodeOrder(tree: CallTree, order: SiblingOrder): NodeOrder | null {
  if (order === 'name') return null;
  const cached = heavyCache.get(tree);
  if (cached) return cached;
  const n = tree.nodeCount;
  const node = new Int32Array(n);
  const position = new Int32Array(n);
  let kids = new Int32Array(64);
  const end = tree.end;
  const total = tree.totalWeight;
  const cmp = (a: number, b: number) => total[b] - total[a] || a - b;
  for (let p = 0; p < n; p++) {
    const at = position[p];
    node[at] = p;
    let k = 0;
    for (let c = p + 1; c < end[p]; c = end[c]) {
      if (k === kids.length) {
        const grown = new Int32Array(k * 2);
        grown.set(kids);
        kids = grown;
      }
      kids[k++] = c;
    }
    if (k > 1) kids.subarray(0, k).sort(cmp);
    let next = at + 1;
    for (let i = 0; i < k; i++) {
      const c = kids[i];
      position[c] = next;
      next += end[c] - c;
    }
  }
  const result = { node, position };
  heavyCache.set(tree, result);
  return result;
}
