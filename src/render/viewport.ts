// Viewport maths: wheel zoom around the cursor, drag pan, and the from/to ranges of an animated
// zoom between two nodes. Pure functions over (tree, zoomNode, viewport); d3-scale maps between
// fractions of the zoomed node and pixels.
//
// Invariants: a returned viewport satisfies 0 ≤ x0 < x1 ≤ 1 of its zoom node; a zoom out past
// the whole zoomed node re-expresses the viewport in an ancestor's coordinates, so the wheel can
// zoom out all the way to the root.

import { scaleLinear } from 'd3-scale';
import type { CallTree } from '../core/model/call-tree';
import type { NodeIndex } from '../core/model/types';
import { commonAncestor, offsetWithin } from '../core/query/tree-walks';
import type { SiblingOrder, Viewport } from '../core/model/view-types';

export interface ZoomState {
  zoomNode: NodeIndex;
  viewport: Viewport;
}

/** The smallest viewport span, so zooming in stops at a sane depth (float precision). */
const MIN_SPAN = 1e-9;

export function pixelScale(viewport: Viewport, width: number) {
  return scaleLinear().domain([viewport.x0, viewport.x1]).range([0, width]);
}

/** The range of `node` (inside `ancestor`) as fractions of the ancestor's total weight. */
export function rangeWithin(tree: CallTree, node: NodeIndex, ancestor: NodeIndex, order: SiblingOrder = 'name'): Viewport {
  const total = tree.totalWeight[ancestor];
  const x0 = offsetWithin(tree, node, ancestor, order) / total;
  return { x0, x1: x0 + tree.totalWeight[node] / total };
}

/** A viewport of `zoomNode` re-expressed in the coordinates of its ancestor. */
export function toAncestor(tree: CallTree, state: ZoomState, ancestor: NodeIndex, order: SiblingOrder = 'name'): Viewport {
  const r = rangeWithin(tree, state.zoomNode, ancestor, order);
  const s = r.x1 - r.x0;
  return { x0: r.x0 + state.viewport.x0 * s, x1: r.x0 + state.viewport.x1 * s };
}

/** Keeps the span, sliding the window back inside [0, 1]. */
function clampWindow(x0: number, x1: number): Viewport {
  const span = Math.min(1, x1 - x0);
  if (x0 < 0) return { x0: 0, x1: span };
  if (x1 > 1) return { x0: 1 - span, x1: 1 };
  return { x0, x1 };
}

/**
 * Zooms by `factor` (< 1 zooms in, > 1 out) keeping the point under pixel `px` fixed. Zooming
 * out past the zoomed node continues in its parent's coordinates, up to the root.
 */
export function wheelZoom(tree: CallTree, state: ZoomState, px: number, width: number, factor: number, order: SiblingOrder = 'name'): ZoomState {
  const scale = pixelScale(state.viewport, width);
  const at = scale.invert(px);
  const span = Math.max(MIN_SPAN, (state.viewport.x1 - state.viewport.x0) * factor);
  let zoomNode = state.zoomNode;
  let x0 = at - (px / width) * span;
  let x1 = x0 + span;
  while ((x0 < -1e-12 || x1 > 1 + 1e-12) && zoomNode > 0) {
    const parent = tree.parent[zoomNode];
    const v = toAncestor(tree, { zoomNode, viewport: { x0, x1 } }, parent, order);
    zoomNode = parent;
    x0 = v.x0;
    x1 = v.x1;
  }
  return { zoomNode, viewport: clampWindow(x0, x1) };
}

/** Pans by dx pixels (positive drags the content right, showing what is to the left). */
export function pan(state: ZoomState, dx: number, width: number): ZoomState {
  const df = (dx / width) * (state.viewport.x1 - state.viewport.x0);
  return { zoomNode: state.zoomNode, viewport: clampWindow(state.viewport.x0 - df, state.viewport.x1 - df) };
}

/**
 * An animated zoom from the current state to `target` happens in the coordinates of the common
 * ancestor of the zoomed node and the target: from where the view is to where the target is.
 */
export function zoomPath(tree: CallTree, state: ZoomState, target: NodeIndex, order: SiblingOrder = 'name'): { frame: NodeIndex; from: Viewport; to: Viewport } {
  const frame = commonAncestor(tree, state.zoomNode, target);
  return { frame, from: toAncestor(tree, state, frame, order), to: rangeWithin(tree, target, frame, order) };
}

/** Ease in-out cubic. */
export function ease(t: number): number {
  return t < 0.5 ? 4 * t * t * t : 1 - Math.pow(-2 * t + 2, 3) / 2;
}

/**
 * The viewport at time t (0..1) of an animated zoom. Interpolates the span geometrically so the
 * zoom speed feels constant, and the centre linearly.
 */
export function interpolate(from: Viewport, to: Viewport, t: number): Viewport {
  const e = ease(Math.max(0, Math.min(1, t)));
  const s0 = from.x1 - from.x0;
  const s1 = to.x1 - to.x0;
  const span = s0 * Math.pow(s1 / s0, e);
  // Keep the edges consistent: the fraction of the way through the span change.
  const k = s1 === s0 ? e : (span - s0) / (s1 - s0);
  const x0 = from.x0 + (to.x0 - from.x0) * k;
  return { x0, x1: x0 + span };
}
