// What is on screen: the view (functions / inline frames), orientation, zoom, viewport, selection
// and hover. Node indices refer to the current view's tree; setView maps them across views so a
// toggle keeps the zoomed and the selected frame.

import type { StateCreator } from 'zustand';
import { currentTree, mapNode } from './tree-helpers';
import type { StoreState, ViewSlice } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

const FULL = { x0: 0, x1: 1 };

export const createViewSlice: Creator<ViewSlice> = (set, get) => ({
  view: 'functions',
  orientation: 'flame',
  zoomNode: 0,
  viewport: FULL,
  selectedNode: -1,
  hoverNode: -1,
  hoverPos: null,
  setView: (view) => {
    const s = get();
    if (s.view === view) return;
    if (!s.snapshot) return set({ view });
    if (!s.snapshot.functions) return; // no inline information: only the function view
    // A derived tree (transforms, reversed) stays on screen until the other view's is derived;
    // the derive controller then carries the zoom and selection over by frame path.
    if (s.derived && s.derived.snapshot === s.snapshot) return set({ view, hoverNode: -1, hoverPos: null });
    set({
      view,
      zoomNode: mapNode(s.snapshot, s.zoomNode, s.view, view),
      selectedNode: mapNode(s.snapshot, s.selectedNode, s.view, view),
      viewport: FULL,
      hoverNode: -1,
      hoverPos: null,
    });
  },
  setOrientation: (orientation) => set({ orientation }),
  zoomTo: (node) => {
    const s = get();
    if (!s.snapshot || node < 0 || node >= currentTree(s)!.nodeCount) return;
    set({ zoomNode: node, viewport: FULL });
  },
  setViewport: (zoomNode, viewport) => {
    const x0 = Math.max(0, Math.min(viewport.x0, 1));
    const x1 = Math.max(x0, Math.min(viewport.x1, 1));
    set({ zoomNode, viewport: x1 > x0 ? { x0, x1 } : FULL });
  },
  select: (node) => {
    const s = get();
    if (!s.snapshot || node >= currentTree(s)!.nodeCount) return;
    set({ selectedNode: node < 0 ? -1 : node });
  },
  hover: (node, pos) => {
    const s = get();
    if (s.hoverNode !== node || (pos && (!s.hoverPos || s.hoverPos.x !== pos.x || s.hoverPos.y !== pos.y))) {
      set({ hoverNode: node, hoverPos: pos });
    }
  },
  resetZoom: () => set({ zoomNode: 0, viewport: FULL }),
  zoomOut: () => {
    const s = get();
    if (!s.snapshot) return;
    const tree = currentTree(s)!;
    const parent = s.zoomNode > 0 ? tree.parent[s.zoomNode] : 0;
    set({ zoomNode: parent, viewport: FULL });
  },
});
