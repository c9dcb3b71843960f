// The transform stack (core/views/transforms.ts: focus, merge, drop, collapse, hide, …) and the
// reversed (bottom-up) switch. Both change which tree the main flame graph shows: see
// currentTree in tree-helpers.ts. The derived tree is computed off the main thread
// (src/controllers/derive-controller.ts) and stored in `derived` once it arrives; until then the
// previous tree stays on screen and `deriving` is true (the graph reports aria-busy).
//
// Invariants: zoomNode/selectedNode always refer to currentTree; applyDerived swaps the tree
// and the mapped node indices in one update, so no reader sees a tree with stale indices.

import type { StateCreator } from 'zustand';
import type { CallTree } from '../core/model/call-tree';
import type { NodeIndex } from '../core/model/types';
import type { PathSegment } from '../core/views/zoom-path';
import type { Transform } from '../core/views/transforms';
import type { BaseMap } from '../core/views/derive';
import { withPanes, zoomed } from './pane';
import type { StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export interface DerivedView {
  /** What the tree was derived for; a mismatch with the store means it is stale. */
  snapshot: object;
  view: StoreState['view'];
  transforms: readonly Transform[];
  reversed: boolean;
  range: StoreState['timeRange'];
  tree: CallTree;
  /** Node of the transforms' input (base or range-restricted tree) → node of `tree`; null when reversed. */
  toNew: Int32Array | null;
  /** Whether the time range was applied (the input is the range-restricted tree). */
  ranged: boolean;
  /** The base tree's nodes in the shown stacks (core/views/derive.ts BaseMap; the Source panel's figures). */
  base?: BaseMap;
}

/**
 * A zoom path from a link that must wait for the derived tree: the link's transforms (or reversed
 * switch) are applied before its zoom (url-state order), but the derived tree arrives later from
 * the analysis worker, and the path names frames of that tree. The zoom codec parks the path; the
 * derive controller resolves it when the tree arrives. While parked, the URL keeps the path.
 */
export interface ParkedZoom {
  path: PathSegment[];
  /** Resolves the path against the then-current tree; `notify` reports a frame not found. */
  run(notify: (message: string) => void): void;
}

export interface TransformSlice {
  transforms: readonly Transform[];
  reversed: boolean;
  derived: DerivedView | null;
  /** A derivation for the current state is under way (the previous tree is still shown). */
  deriving: boolean;
  pushTransform(t: Transform): void;
  /** Drops the transform at `index` and every one after it (undo back to there). */
  popTransforms(index: number): void;
  setTransforms(list: readonly Transform[]): void;
  setReversed(on: boolean): void;
  setDerived(derived: DerivedView | null): void;
  setDeriving(on: boolean): void;
  parkedZoom: ParkedZoom | null;
  parkZoom(p: ParkedZoom | null): void;
  /** Takes the parked zoom (at most once). */
  takeParkedZoom(): ParkedZoom | null;
  /** Shows a derived tree (or the base tree: null) with the zoom and selection mapped onto it. */
  applyDerived(derived: DerivedView | null, nodes: { zoomNode: NodeIndex; selectedNode: NodeIndex }): void;
}

const sameList = (a: readonly Transform[], b: readonly Transform[]) => a.length === b.length && a.every((t, i) => JSON.stringify(t) === JSON.stringify(b[i]));

export const createTransformSlice: Creator<TransformSlice> = (set, get) => ({
  transforms: [],
  reversed: false,
  derived: null,
  deriving: false,
  parkedZoom: null,
  parkZoom: (parkedZoom) => {
    if (get().parkedZoom !== parkedZoom) set({ parkedZoom });
  },
  takeParkedZoom: () => {
    const p = get().parkedZoom;
    if (p) set({ parkedZoom: null });
    return p;
  },
  pushTransform: (t) => set({ transforms: [...get().transforms, t] }),
  popTransforms: (index) => {
    if (index < get().transforms.length) set({ transforms: get().transforms.slice(0, Math.max(0, index)) });
  },
  setTransforms: (list) => {
    if (!sameList(get().transforms, list)) set({ transforms: [...list] });
  },
  setReversed: (reversed) => {
    if (get().reversed !== reversed) set({ reversed });
  },
  setDerived: (derived) => set({ derived }),
  setDeriving: (deriving) => {
    if (get().deriving !== deriving) set({ deriving });
  },
  applyDerived: (derived, { zoomNode, selectedNode }) =>
    set({ derived, panes: withPanes(get().panes, { main: { ...zoomed(zoomNode), selectedNode, hoverNode: -1, hoverPos: null } }) }),
});
