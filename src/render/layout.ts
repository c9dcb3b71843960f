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

import type { CallTree } from '../core/model/call-tree';
import type { NodeIndex } from '../core/model/types';
import type { Orientation, Viewport } from '../core/model/view-types';

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
  const end = tree.end[zoomNode];
  const depthCol = tree.depth;
  const totalCol = tree.totalWeight;
  for (let i = zoomNode; i < end; ) {
    const d = depthCol[i];
    const left = cursor[d];
    const weight = totalCol[i];
    cursor[d] = left + weight;
    const px = (left - origin) * scale;
    const pw = weight * scale;
    if (pw < minWidth || px >= width || px + pw <= 0 || d > maxDepth) {
      i = tree.end[i];
      continue;
    }
    cursor[d + 1] = left;
    if (d >= minDepth) out.push(i, px, pw, d, 0);
    i++;
  }
  return out;
}

/** Vertical geometry of the rows: content height and the y of a depth's row. */
export interface RowGeometry {
  orientation: Orientation;
  /** Number of rows (tree.maxDepth + 1). */
  rows: number;
  /** Height of the visible canvas area, CSS px. */
  viewHeight: number;
  /** Vertical scroll offset of the content, CSS px. */
  scrollTop: number;
  rowHeight: number;
}

export function contentHeight(g: RowGeometry): number {
  return Math.max(g.viewHeight, g.rows * g.rowHeight + 2);
}

/** Top of a depth's row, in canvas (visible) coordinates. */
export function rowTop(g: RowGeometry, depth: number): number {
  const content = g.orientation === 'icicle' ? depth * g.rowHeight : contentHeight(g) - (depth + 1) * g.rowHeight;
  return content - g.scrollTop;
}

/** The depth whose row contains canvas y, or -1. */
export function depthAtY(g: RowGeometry, y: number): number {
  const contentY = y + g.scrollTop;
  const fromEdge = g.orientation === 'icicle' ? contentY : contentHeight(g) - contentY;
  const depth = g.orientation === 'icicle' ? Math.floor(fromEdge / g.rowHeight) : Math.ceil(fromEdge / g.rowHeight) - 1;
  return depth >= 0 && depth < g.rows ? depth : -1;
}

/** The range of depths with a row (even partly) on screen. */
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
  return { minDepth: Math.max(0, lo), maxDepth: Math.min(g.rows - 1, hi) };
}
