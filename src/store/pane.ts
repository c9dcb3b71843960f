// The state of one flame graph pane, one shape for every pane, all kept in one map of the store,
// `panes` (view-slice.ts): the main graph, the comparison graph (B) of the side-by-side view, the
// differential graph, and the callers and callees graphs. One clamp, one zoom and one reset serve
// them all; a new graph pane is one entry in PaneId and FULL_PANES.
//
// Invariants: 0 ≤ viewport.x0 < viewport.x1 ≤ 1 (an empty or inverted one becomes the whole
// width); zooming to a node shows the whole node. Node indices of each pane refer to its own
// tree: main's to currentTree, side's to B's tree of the view, diff's to the shaping run's,
// callers'/callees' to the selected function's callers & callees trees.

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

/** Every flame graph pane of the page. */
export type PaneId = 'main' | 'side' | 'diff' | 'callers' | 'callees';

export type Panes = Readonly<Record<PaneId, PaneState>>;

/** Every pane whole and unselected (nothing open yet). */
export const FULL_PANES: Panes = { main: FULL_PANE, side: FULL_PANE, diff: FULL_PANE, callers: FULL_PANE, callees: FULL_PANE };

/** `panes` with each pane of `patches` patched (FULL_PANE as a patch resets one). */
export function withPanes(panes: Panes, patches: Partial<Record<PaneId, Partial<PaneState>>>): Panes {
  const next = { ...panes };
  for (const id of Object.keys(patches) as PaneId[]) next[id] = patchPane(panes[id], patches[id]!);
  return next;
}
