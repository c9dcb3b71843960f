// The call tree panel's model: which nodes of a call tree are rows, in which order, given which
// nodes are expanded and what the search keeps. Pure functions over typed arrays; the component
// only reads the result.
//
//   tree (preorder, siblings by name)     display order (siblings by total, heaviest first)
//   all 10                                 pos 0: all 10
//   ├─ a 3                                 pos 1: └ d 7        subtree of d: positions 1..2
//   └─ d 7                                 pos 2:   └ e 7
//      └─ e 7                              pos 3: └ a 3
//
// Invariants:
// - `displayOrder` is a preorder of the tree with every node's children by total weight,
//   heaviest first (ties: tree order, i.e. by name). A subtree is still one contiguous range:
//   node n at position p covers positions [p, p + end[n] - n). So the rows of an expansion are
//   one pass over the order that jumps over every collapsed subtree: O(rows shown), no recursion.
// - `expanded` is a per-node Uint8Array (1 = children shown); the root is always shown.
// - a `keep` mask (search) is closed under ancestors: a kept node's ancestors are kept, so
//   skipping an unkept node's whole subtree never hides a kept node.
// - expanding every node below one is a fill of the node range [n, end[n]), independent of order.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { FrameFlags, type NodeIndex } from '../model/types';
import type { RowFigures } from './table-model';

const orderCache = new WeakMap<CallTree, Int32Array>();

/** Sorts `buf[0..k)` (child nodes) by total weight, heaviest first, ties by node index. */
function sortChildren(tree: CallTree, buf: Int32Array, k: number): void {
  const total = tree.totalWeight;
  if (k <= 24) {
    for (let i = 1; i < k; i++) {
      const c = buf[i];
      const w = total[c];
      let j = i - 1;
      while (j >= 0 && (total[buf[j]] < w || (total[buf[j]] === w && buf[j] > c))) {
        buf[j + 1] = buf[j];
        j--;
      }
      buf[j + 1] = c;
    }
    return;
  }
  const part = Array.from(buf.subarray(0, k)).sort((a, b) => total[b] - total[a] || a - b);
  buf.set(part);
}

/** Position → node: the preorder with each node's children heaviest first. Memoised per tree. */
export function displayOrder(tree: CallTree): Int32Array {
  const hit = orderCache.get(tree);
  if (hit) return hit;
  const n = tree.nodeCount;
  const { end } = tree;
  const order = new Int32Array(n);
  // A stack of nodes still to emit (popped from the top: children are pushed lightest first).
  const stack = new Int32Array(n);
  const kids = new Int32Array(n);
  let top = 0;
  let pos = 0;
  if (n > 0) stack[top++] = 0;
  while (top > 0) {
    const node = stack[--top];
    order[pos++] = node;
    const first = node + 1;
    const stop = end[node];
    if (first >= stop) continue;
    if (end[first] === stop) {
      stack[top++] = first; // one child: nothing to sort (most nodes of a deep tree)
      continue;
    }
    let k = 0;
    for (let c = first; c < stop; c = end[c]) kids[k++] = c;
    sortChildren(tree, kids, k);
    for (let i = k - 1; i >= 0; i--) stack[top++] = kids[i];
  }
  orderCache.set(tree, order);
  return order;
}

/**
 * The nodes shown as rows, top to bottom: the root, and the children of every shown node that
 * is expanded, in display order; with `keep`, only kept nodes.
 */
export function visibleRows(tree: CallTree, order: Int32Array, expanded: Uint8Array, keep: Uint8Array | null = null): Int32Array {
  const n = tree.nodeCount;
  const { end } = tree;
  let out = new Int32Array(Math.min(n, 1024));
  let k = 0;
  for (let p = 0; p < n; ) {
    const node = order[p];
    const size = end[node] - node;
    if (keep && !keep[node]) {
      p += size;
      continue;
    }
    if (k === out.length) {
      const grown = new Int32Array(Math.min(n, out.length * 2));
      grown.set(out);
      out = grown;
    }
    out[k++] = node;
    p += expanded[node] ? 1 : size;
  }
  return out.subarray(0, k);
}

/**
 * The root expanded, then the heaviest path down while its next node carries at least a fifth of
 * the whole (as the Firefox Profiler opens a call tree on its hot path).
 */
export function initialExpansion(tree: CallTree, order: Int32Array = displayOrder(tree)): Uint8Array {
  const expanded = new Uint8Array(tree.nodeCount);
  if (tree.nodeCount === 0) return expanded;
  // In display order a node's first child (its heaviest) is at the next position, so the hot
  // path is order[0], order[1], order[2]… for as long as each is the child of the one before.
  for (let p = 0; p < 32; p++) {
    const node = order[p];
    expanded[node] = 1;
    if (tree.end[node] === node + 1) break;
    const child = order[p + 1];
    if (tree.totalWeight[child] * 5 < tree.totalWeight[0]) break;
  }
  return expanded;
}

/** A copy of `expanded` with one node's state set. */
export function withExpanded(expanded: Uint8Array, node: NodeIndex, on: boolean): Uint8Array {
  const next = expanded.slice();
  next[node] = on ? 1 : 0;
  return next;
}

/** A copy of `expanded` with `node` and every node below it expanded (the `*` key). */
export function expandAllBelow(tree: CallTree, expanded: Uint8Array, node: NodeIndex): Uint8Array {
  const next = expanded.slice();
  next.fill(1, node, tree.end[node]);
  return next;
}

/** `expanded`, or a copy with every ancestor of `node` expanded so that its row is shown. */
export function revealNode(tree: CallTree, expanded: Uint8Array, node: NodeIndex): Uint8Array {
  let next = expanded;
  for (let a = tree.parent[node]; a >= 0; a = tree.parent[a]) {
    if (next[a]) continue;
    if (next === expanded) next = expanded.slice();
    next[a] = 1;
  }
  return next;
}

/**
 * The nodes on a path through a search match (per-frame `matches`): the matching nodes, their
 * ancestors and everything below them; null for no search. `open` is set on the ancestors of
 * every match, to expand them so that matches show.
 */
export function searchMask(tree: CallTree, matches: Uint8Array): { keep: Uint8Array; open: Uint8Array } {
  const n = tree.nodeCount;
  const { parent, frame } = tree;
  const keep = new Uint8Array(n);
  const open = new Uint8Array(n);
  // Down: a node is kept when it or an ancestor matches (parents come first in preorder).
  for (let i = 1; i < n; i++) {
    const f = frame[i];
    if ((f >= 0 && f < matches.length && matches[f]) || keep[parent[i]]) keep[i] = 1;
  }
  // Up: a node with a matching node below it is kept too, and opened (children before parents).
  for (let i = n - 1; i > 0; i--) {
    const f = frame[i];
    const below = open[i] || (f >= 0 && f < matches.length && matches[f]);
    if (below) {
      open[parent[i]] = 1;
      keep[parent[i]] = 1;
    }
    if (open[i]) keep[i] = 1;
  }
  if (n > 0) keep[0] = 1;
  return { keep, open };
}

/** `expanded` with every node of `open` expanded too (a copy). */
export function mergeExpanded(expanded: Uint8Array, open: Uint8Array): Uint8Array {
  const next = expanded.slice();
  for (let i = 0; i < next.length; i++) next[i] |= open[i];
  return next;
}

/** True when the node has children (a row that can expand). */
export function hasChildren(tree: CallTree, node: NodeIndex): boolean {
  return tree.end[node] > node + 1;
}

const maskCache = new WeakMap<CallTree, { matches: Uint8Array; mask: ReturnType<typeof searchMask> }>();

/** searchMask, memoised per tree for the last search. */
export function searchMaskOf(tree: CallTree, matches: Uint8Array): { keep: Uint8Array; open: Uint8Array } {
  const hit = maskCache.get(tree);
  if (hit && hit.matches === matches) return hit.mask;
  const mask = searchMask(tree, matches);
  maskCache.set(tree, { matches, mask });
  return mask;
}

const rowsCache = new WeakMap<Uint8Array, { tree: CallTree; matches: Uint8Array | null; rows: Int32Array }>();

/** The rows of a tree for an expansion and a search (per-frame matches, or null), memoised. */
export function callTreeRows(tree: CallTree, expanded: Uint8Array, matches: Uint8Array | null): Int32Array {
  const hit = rowsCache.get(expanded);
  if (hit && hit.tree === tree && hit.matches === matches) return hit.rows;
  const rows = visibleRows(tree, displayOrder(tree), expanded, matches ? searchMaskOf(tree, matches).keep : null);
  rowsCache.set(expanded, { tree, matches, rows });
  return rows;
}

/** The figures of one call tree row (a node): its running total and self, shares of the root. */
export function nodeFigures(tree: CallTree, frames: FrameTable, node: NodeIndex): RowFigures & { flags: number } {
  const root = tree.totalWeight[0];
  const self = tree.selfWeight[node];
  const total = tree.totalWeight[node];
  const f = tree.frame[node];
  const flags = f >= 0 ? frames.flags[f] : 0;
  return {
    name: f >= 0 ? frames.strings[frames.name[f]] : 'all',
    self,
    total,
    selfShare: root > 0 ? self / root : 0,
    totalShare: root > 0 ? total / root : 0,
    inlined: (flags & FrameFlags.INLINED) !== 0,
    kernel: (flags & FrameFlags.KERNEL) !== 0,
    flags,
  };
}
