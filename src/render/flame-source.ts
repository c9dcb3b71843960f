// What a flame renderer draws and where its interaction goes: the main graph reads and writes
// the store's view slice (mainSource); other graphs (the comparison views) bring their own source,
// so one renderer draws them all.
//
// Invariants: read() is cheap (no tree walks beyond memoised lookups); `key` changes identity
// when a different tree set is shown (scroll resets); node indices refer to `tree`.

import { shallow } from 'zustand/shallow';
import type { CallTree } from '../core/model/call-tree';
import type { FrameTable } from '../core/model/frame-table';
import type { FrameIndex, NodeIndex } from '../core/model/types';
import { highlightOf, shortLabeller } from '../core/query/table-model';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import type { Orientation, StoreState, Viewport } from '../store/types';
import { animateZoom, cancelZoomAnimation, isAnimating } from '../controllers/zoom-animation';

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

const watched = (s: StoreState) => [
  s.snapshot,
  s.view,
  s.orientation,
  s.zoomNode,
  s.viewport,
  s.selectedNode,
  s.hoverNode,
  s.search.matches,
  s.search.status,
  s.loading !== null,
  s.derived,
  s.deriving,
  s.analysis.pending,
  s.analysis.panel !== 'none' ? s.analysis.selectedFunction : null,
  s.analysis.shortNames,
];

/** The main flame graph: the store's snapshot, view, zoom, selection, hover and search. */
export const mainSource: FlameSource = {
  read() {
    const s = useStore.getState();
    if (!s.snapshot) return null;
    return {
      tree: currentTree(s)!,
      frames: s.snapshot.frames,
      key: s.derived?.snapshot === s.snapshot ? s.derived : s.snapshot,
      orientation: s.orientation,
      zoomNode: s.zoomNode,
      viewport: s.viewport,
      selectedNode: s.selectedNode,
      hoverNode: s.hoverNode,
      matches: s.search.matches,
      busy: isAnimating() || s.loading !== null || s.search.status === 'searching' || s.deriving || s.analysis.pending,
      nodeColours: null,
      highlight: s.analysis.panel !== 'none' ? highlightOf(s.snapshot.frames, s.analysis.selectedFunction) : null,
      label: s.analysis.shortNames ? shortLabeller(s.snapshot.frames) : null,
    };
  },
  subscribe: (onChange) => useStore.subscribe(watched, onChange, { equalityFn: shallow }),
  hover: (node, pos) => useStore.getState().hover(node, pos),
  select: (node) => useStore.getState().select(node),
  zoom: (node) => animateZoom(node),
  setViewport: (zoomNode, viewport) => useStore.getState().setViewport(zoomNode, viewport),
  cancelAnimation: () => cancelZoomAnimation(),
};
