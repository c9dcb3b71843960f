// What a flame renderer draws and where its interaction goes. One renderer draws every graph;
// each pane brings its own source (controllers/flame-sources.ts binds them to the store).
//
// Invariants: read() is cheap (no tree walks beyond memoised lookups); `key` changes identity
// when a different tree set is shown (scroll resets); node indices refer to `tree`.

import type { CallTree } from '../core/model/call-tree';
import type { FrameTable } from '../core/model/frame-table';
import type { FrameIndex, NodeIndex } from '../core/model/types';
import type { Orientation, SiblingOrder, Viewport } from '../core/model/view-types';

/** Per-node colours that replace the palette by name (the differential graph). */
export interface NodeColours {
  /** Colour id of each node of `tree` (index into css). */
  ids: Uint16Array;
  css: readonly string[];
  /** Nodes drawn hatched (1), e.g. frames only the shaping run has; or null. */
  marked: Uint8Array | null;
}

export interface FlameState {
  tree: CallTree;
  frames: FrameTable;
  /** Identity of what is shown: a new key resets the scroll. */
  key: object;
  orientation: Orientation;
  /** Siblings left to right: by name or heaviest first (the layout's order). */
  order: SiblingOrder;
  zoomNode: NodeIndex;
  viewport: Viewport;
  selectedNode: NodeIndex;
  hoverNode: NodeIndex;
  /** Search matches per frame of `frames`, or null. */
  matches: Uint8Array | null;
  /** Something is under way (a load, a search, an animation): aria-busy stays "true". */
  busy: boolean;
  nodeColours: NodeColours | null;
  /** Frames drawn outlined (the function selected in the analysis table), per frame, or null. */
  highlight?: Uint8Array | null;
  /** The frames not in `highlight` fade as a search's non-matches do (the main graph). */
  fadeUnhighlighted?: boolean;
  /** The label of a frame (e.g. a shortened name); the full name when absent. Stable identity. */
  label?: ((frame: FrameIndex) => string) | null;
}

export interface FlameSource {
  read(): FlameState | null;
  /** Calls `onChange` when what read() returns may have changed; returns the unsubscribe. */
  subscribe(onChange: () => void): () => void;
  hover(node: NodeIndex, pos: { x: number; y: number } | null): void;
  select(node: NodeIndex): void;
  /** Zoom to a node (animated where the source supports it). */
  zoom(node: NodeIndex): void;
  setViewport(zoomNode: NodeIndex, viewport: Viewport): void;
  /** Stops an animated zoom (a drag or the wheel takes over). */
  cancelAnimation(): void;
}

/**
 * Zooms a graph out one level (Escape): to the zoomed node's parent, or out of a wheel zoom to
 * the whole node. False when there is nothing to zoom out of.
 */
export function zoomOutOf(source: FlameSource): boolean {
  const s = source.read();
  if (!s) return false;
  const whole = s.viewport.x0 <= 0 && s.viewport.x1 >= 1;
  if (s.zoomNode <= 0 && whole) return false;
  source.zoom(whole ? s.tree.parent[s.zoomNode] : s.zoomNode);
  return true;
}
