// What is on screen: the view (functions / inline frames), orientation, zoom, viewport, selection
// and hover. Node indices refer to the current view's tree; setView maps them across views so a
// toggle keeps the zoomed and the selected frame.

import type { StateCreator } from 'zustand';
import { clampViewport, FULL_VIEWPORT, zoomed } from './pane';
import { currentTree, mapNode } from './tree-helpers';
import type { StoreState, ViewSlice } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export const createViewSlice: Creator<ViewSlice> = (set, get) => ({
  view: 'functions',
  orientation: 'flame',
  siblingOrder: 'name',
  zoomNode: 0,
  viewport: FULL_VIEWPORT,
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
      viewport: FULL_VIEWPORT,
      hoverNode: -1,
      hoverPos: null,
    });
  },
  setOrientation: (orientation) => set({ orientation }),
  setSiblingOrder: (siblingOrder) => {
    if (get().siblingOrder !== siblingOrder) set({ siblingOrder, viewport: FULL_VIEWPORT });
  },
  zoomTo: (node) => {
    const s = get();
    if (!s.snapshot || node < 0 || node >= currentTree(s)!.nodeCount) return;
    set(zoomed(node));
  },
  setViewport: (zoomNode, viewport) => {
    set({ zoomNode, viewport: clampViewport(viewport) });
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
  resetZoom: () => set(zoomed(0)),
  zoomOut: () => {
    const s = get();
    if (!s.snapshot) return;
    const tree = currentTree(s)!;
    const parent = s.zoomNode > 0 ? tree.parent[s.zoomNode] : 0;
    set(zoomed(parent));
  },
});
