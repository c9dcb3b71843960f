// The state of one flame graph pane, one shape for every pane: the main graph keeps it at the
// store's top level (ViewSlice extends PaneState), the others as objects (compare.side,
// compare.diff, analysis.callers / analysis.callees). One clamp, one zoom and one reset serve
// them all.
//
// Invariants: 0 ≤ viewport.x0 < viewport.x1 ≤ 1 (an empty or inverted one becomes the whole
// width); zooming to a node shows the whole node.

import type { NodeIndex } from '../core/model/types';
import type { Viewport } from '../core/model/view-types';

export interface PaneState {
  /** The node drawn full width; its ancestors are drawn full width below (flame) it. */
  zoomNode: NodeIndex;
  /** The visible part of the zoomed node's width (a wheel zoom or a pan inside it). */
  viewport: Viewport;
  selectedNode: NodeIndex;
  hoverNode: NodeIndex;
  /** Last hover position in CSS px relative to the graph's container (for the tooltip). */
  hoverPos: { x: number; y: number } | null;
}

export const FULL_VIEWPORT: Viewport = { x0: 0, x1: 1 };

export const FULL_PANE: PaneState = { zoomNode: 0, viewport: FULL_VIEWPORT, selectedNode: -1, hoverNode: -1, hoverPos: null };

/** The viewport inside [0, 1], or the whole width when it is empty. */
export function clampViewport(viewport: Viewport): Viewport {
  const x0 = Math.max(0, Math.min(viewport.x0, 1));
  const x1 = Math.max(x0, Math.min(viewport.x1, 1));
  return x1 > x0 ? { x0, x1 } : FULL_VIEWPORT;
}

/** What zooms a pane to `node` (the whole node in view); `zoomed(0)` resets the zoom. */
export function zoomed(node: NodeIndex): Pick<PaneState, 'zoomNode' | 'viewport'> {
  return { zoomNode: node, viewport: FULL_VIEWPORT };
}

/** The pane with `patch` applied, its viewport clamped. */
export function patchPane(pane: PaneState, patch: Partial<PaneState>): PaneState {
  return patch.viewport ? { ...pane, ...patch, viewport: clampViewport(patch.viewport) } : { ...pane, ...patch };
}
