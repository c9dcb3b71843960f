// Layout of the visible frames of a call tree, in CSS pixels, for the canvas and for hit testing.
//
// Invariants:
// - Horizontal: the zoomed node spans the full width when the viewport is [0, 1]; the viewport
//   (x0..x1) is a fraction of the zoomed node's total weight. A child starts at its parent's left
//   edge plus the totals of its earlier siblings (children are left-aligned, self weight is the
//   gap on the right, as in flamegraph.pl). Ancestors of the zoomed node are drawn full width.
// - Frames narrower than minWidth, out of view horizontally or in rows out of view are skipped
//   with their whole subtree (i = end[i]); their weight still counts in their parents.
// - No recursion and no per-node objects: one pass over the DFS order with a cursor per depth,
//   writing into reusable typed arrays (LayoutBuffer).
// - Vertical: one row per depth. Flame: the root at the bottom of the content; icicle: at the top.
//   With `fold` > 0 (a zoom on a frame at depth `fold`), the depths 0..fold-1 (the zoomed node's
//   ancestors) share one row, the "N ancestors" row, and the zoomed node sits on the row after it,
//   so the subtree gets the canvas; the renderer draws that row, layoutFrames emits no rect there.
// - Sibling order: the tree's own (by name) or `order`'s (heaviest first, core/views/sibling-order.ts):
//   the walk goes over depth-first positions, so a subtree is still one contiguous run to skip.

import type { CallTree } from '../core/model/call-tree';
import type { NodeIndex } from '../core/model/types';
import type { Orientation, SiblingOrder, Viewport } from '../core/model/view-types';
import { nodeOrder } from '../core/views/sibling-order';

export const ROW_HEIGHT = 17;

export interface LayoutInput {
  tree: CallTree;
  zoomNode: NodeIndex;
  viewport: Viewport;
  /** Canvas width in CSS px. */
  width: number;
  /** Frames narrower than this (CSS px) are skipped with their subtree. */
  minWidth: number;
  /** Only depths in [minDepth, maxDepth] are emitted (vertical culling). */
  minDepth: number;
  maxDepth: number;
  /** Siblings left to right: by name (the tree's order, the default) or heaviest first. */
  order?: SiblingOrder;
}

/** The visible rectangles: rect k is node[k] at x[k]..x[k]+w[k] on the row of depth[k]. */
export class LayoutBuffer {
  count = 0;
  node = new Int32Array(256);
  x = new Float64Array(256);
  w = new Float64Array(256);
  depth = new Int32Array(256);
  /** Whether rect k is an ancestor of the zoomed node (drawn full width, faded). */
  ancestor = new Uint8Array(256);
  /** Scratch for layoutFrames: the next free x at each depth. */
  cursor = new Float64Array(64);

  push(node: number, x: number, w: number, depth: number, ancestor: number): void {
    const k = this.count++;
    if (k === this.node.length) this.grow();
    this.node[k] = node;
    this.x[k] = x;
    this.w[k] = w;
    this.depth[k] = depth;
    this.ancestor[k] = ancestor;
  }

  private grow(): void {
    const size = this.node.length * 2;
    const node = new Int32Array(size);
    node.set(this.node);
    const x = new Float64Array(size);
    x.set(this.x);
    const w = new Float64Array(size);
    w.set(this.w);
    const depth = new Int32Array(size);
    depth.set(this.depth);
    const ancestor = new Uint8Array(size);
    ancestor.set(this.ancestor);
    Object.assign(this, { node, x, w, depth, ancestor });
  }
}

export function layoutFrames(input: LayoutInput, out: LayoutBuffer = new LayoutBuffer()): LayoutBuffer {
  const { tree, zoomNode, viewport, width, minWidth, minDepth, maxDepth } = input;
  out.count = 0;
  if (tree.nodeCount === 0 || width <= 0) return out;
  const total = tree.totalWeight[zoomNode];
  if (!(total > 0)) return out;
  const span = (viewport.x1 - viewport.x0) * total;
  const scale = width / span;
  const origin = viewport.x0 * total;

  // Ancestors of the zoomed node (root first), full width.
  for (let n = tree.parent[zoomNode]; n >= 0; n = tree.parent[n]) {
    const d = tree.depth[n];
    if (d >= minDepth && d <= maxDepth) out.push(n, 0, width, d, 1);
  }

  // cursor[d]: where (in weight, from the zoomed node's left edge) the next node of depth d starts.
  const deepest = tree.maxDepth + 2;
  if (out.cursor.length < deepest) out.cursor = new Float64Array(deepest * 2);
  const cursor = out.cursor;
  const zoomDepth = tree.depth[zoomNode];
  cursor[zoomDepth] = 0;
  const perm = nodeOrder(tree, input.order ?? 'name');
  const nodeAt = perm?.node ?? null;
  const first = perm ? perm.position[zoomNode] : zoomNode;
  const last = first + tree.end[zoomNode] - zoomNode;
  const depthCol = tree.depth;
  const totalCol = tree.totalWeight;
  const endCol = tree.end;
  for (let k = first; k < last; ) {
    const i = nodeAt ? nodeAt[k] : k;
    const d = depthCol[i];
    const left = cursor[d];
    const weight = totalCol[i];
    cursor[d] = left + weight;
    const px = (left - origin) * scale;
    const pw = weight * scale;
    if (pw < minWidth || px >= width || px + pw <= 0 || d > maxDepth) {
      k += endCol[i] - i;
      continue;
    }
    cursor[d + 1] = left;
    if (d >= minDepth) out.push(i, px, pw, d, 0);
    k++;
  }
  return out;
}

/** Vertical geometry of the rows: content height and the y of a depth's row. */
export interface RowGeometry {
  orientation: Orientation;
  /** Number of rows on the content (depths, less the folded ones plus their one row). */
  rows: number;
  /** Depths 0..fold-1 are folded into row 0 (0: nothing folded, a row per depth). */
  fold?: number;
  /** Height of the visible canvas area, CSS px. */
  viewHeight: number;
  /** Vertical scroll offset of the content, CSS px. */
  scrollTop: number;
  rowHeight: number;
}

export function contentHeight(g: RowGeometry): number {
  return Math.max(g.viewHeight, g.rows * g.rowHeight + 2);
}

/** The row a depth is drawn on (every folded ancestor is on row 0). */
export function rowOfDepth(g: RowGeometry, depth: number): number {
  const fold = g.fold ?? 0;
  return fold > 0 ? Math.max(0, depth - fold + 1) : depth;
}

/** Top of a row, in canvas (visible) coordinates. */
export function topOfRow(g: RowGeometry, row: number): number {
  const content = g.orientation === 'icicle' ? row * g.rowHeight : contentHeight(g) - (row + 1) * g.rowHeight;
  return content - g.scrollTop;
}

/** Top of a depth's row, in canvas (visible) coordinates. */
export function rowTop(g: RowGeometry, depth: number): number {
  return topOfRow(g, rowOfDepth(g, depth));
}

/** The row that contains canvas y, or -1. */
export function rowAtY(g: RowGeometry, y: number): number {
  const contentY = y + g.scrollTop;
  const fromEdge = g.orientation === 'icicle' ? contentY : contentHeight(g) - contentY;
  const row = g.orientation === 'icicle' ? Math.floor(fromEdge / g.rowHeight) : Math.ceil(fromEdge / g.rowHeight) - 1;
  return row >= 0 && row < g.rows ? row : -1;
}

/** The depth whose row contains canvas y, or -1 (also on the folded ancestors' row). */
export function depthAtY(g: RowGeometry, y: number): number {
  const row = rowAtY(g, y);
  const fold = g.fold ?? 0;
  if (row < 0 || (fold > 0 && row === 0)) return -1;
  return fold > 0 ? row + fold - 1 : row;
}

/** The range of depths with a row (even partly) on screen (the folded row's depths excluded). */
export function visibleDepths(g: RowGeometry): { minDepth: number; maxDepth: number } {
  let lo: number;
  let hi: number;
  if (g.orientation === 'icicle') {
    lo = Math.floor(g.scrollTop / g.rowHeight);
    hi = Math.floor((g.scrollTop + g.viewHeight) / g.rowHeight);
  } else {
    const bottom = contentHeight(g) - g.scrollTop;
    lo = Math.ceil((bottom - g.viewHeight) / g.rowHeight) - 1;
    hi = Math.ceil(bottom / g.rowHeight) - 1;
  }
  lo = Math.max(0, lo);
  hi = Math.min(g.rows - 1, hi);
  const fold = g.fold ?? 0;
  if (fold === 0) return { minDepth: lo, maxDepth: hi };
  return { minDepth: Math.max(lo, 1) + fold - 1, maxDepth: hi + fold - 1 };
}

/** The depth of the deepest node under `node` (its own depth for a leaf). */
export function deepestUnder(tree: CallTree, node: NodeIndex): number {
  if (node === 0) return tree.maxDepth;
  let deepest = 0;
  const depth = tree.depth;
  for (let i = node, end = tree.end[node]; i < end; i++) if (depth[i] > deepest) deepest = depth[i];
  return deepest;
}

/** Rows cut at one edge of the view: how many levels a cue there stands for, and its height. */
export interface EdgeCue {
  /** Levels hidden beyond the edge or under the cue (0: no cue). */
  count: number;
  /** Height of the cue band from the edge, px: it covers every partly visible row there. */
  size: number;
}

/** The band that covers the rows nearer than this to a cut edge (so no row shows half). */
export const CUE_MIN = 14;

/**
 * The cues at the top and bottom edges of the view: when rows are cut off at an edge, a band
 * from that edge over every row that starts (top) or ends (bottom) within CUE_MIN px of it, so
 * no row is ever shown half cut, and the number of levels out of sight there.
 */
export function edgeCues(g: RowGeometry): { top: EdgeCue; bottom: EdgeCue } {
  const top = { count: 0, size: 0 };
  const bottom = { count: 0, size: 0 };
  let cutTop = false;
  let cutBottom = false;
  const fold = g.fold ?? 0;
  for (let r = 0; r < g.rows; r++) {
    const y = topOfRow(g, r);
    // The folded row stands for its `fold` levels.
    const levels = r === 0 && fold > 0 ? fold : 1;
    if (y < 0) cutTop = true;
    if (y + g.rowHeight > g.viewHeight) cutBottom = true;
    if (y < CUE_MIN) {
      top.count += levels;
      top.size = Math.max(top.size, Math.min(g.viewHeight, y + g.rowHeight));
    }
    if (y + g.rowHeight > g.viewHeight - CUE_MIN) {
      bottom.count += levels;
      bottom.size = Math.max(bottom.size, Math.min(g.viewHeight, g.viewHeight - y));
    }
  }
  return { top: cutTop ? top : { count: 0, size: 0 }, bottom: cutBottom ? bottom : { count: 0, size: 0 } };
}
