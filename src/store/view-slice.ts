// What is on screen: the view (functions / inline frames), orientation, sibling order, and every
// pane's zoom, viewport, selection and hover (`panes`, store/pane.ts). Node indices of the main
// pane refer to the current view's tree; setView maps them across views so a toggle keeps the
// zoomed and the selected frame.

import type { StateCreator } from 'zustand';
import { FULL_PANES, FULL_VIEWPORT, withPanes, zoomed, type PaneState } from './pane';
import { currentTree, mapNode } from './tree-helpers';
import type { StoreState, ViewSlice } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export const createViewSlice: Creator<ViewSlice> = (set, get) => {
  const main = (patch: Partial<PaneState>) => set({ panes: withPanes(get().panes, { main: patch }) });
  return {
    view: 'functions',
    orientation: 'flame',
    siblingOrder: 'name',
    panes: FULL_PANES,
    setPane: (pane, patch) => set({ panes: withPanes(get().panes, { [pane]: patch }) }),
    setView: (view) => {
      const s = get();
      if (s.view === view) return;
      if (!s.recordings.a.snapshot) return set({ view });
      if (!s.recordings.a.snapshot.functions) return; // no inline information: only the function view
      const unhovered = { hoverNode: -1, hoverPos: null };
      // A derived tree (transforms, reversed) stays on screen until the other view's is derived;
      // the derive controller then carries the zoom and selection over by frame path.
      if (s.derived && s.derived.snapshot === s.recordings.a.snapshot) return set({ view, panes: withPanes(s.panes, { main: unhovered }) });
      const { zoomNode, selectedNode } = s.panes.main;
      set({
        view,
        panes: withPanes(s.panes, {
          main: { ...unhovered, zoomNode: mapNode(s.recordings.a.snapshot, zoomNode, s.view, view), selectedNode: mapNode(s.recordings.a.snapshot, selectedNode, s.view, view), viewport: FULL_VIEWPORT },
        }),
      });
    },
    setOrientation: (orientation) => set({ orientation }),
    setSiblingOrder: (siblingOrder) => {
      if (get().siblingOrder !== siblingOrder) set({ siblingOrder, panes: withPanes(get().panes, { main: { viewport: FULL_VIEWPORT } }) });
    },
    zoomTo: (node) => {
      const s = get();
      if (!s.recordings.a.snapshot || node < 0 || node >= currentTree(s)!.nodeCount) return;
      main(zoomed(node));
    },
    setViewport: (zoomNode, viewport) => main({ zoomNode, viewport }),
    select: (node) => {
      const s = get();
      if (!s.recordings.a.snapshot || node >= currentTree(s)!.nodeCount) return;
      main({ selectedNode: node < 0 ? -1 : node });
    },
    hover: (node, pos) => {
      const p = get().panes.main;
      if (p.hoverNode !== node || (pos && (!p.hoverPos || p.hoverPos.x !== pos.x || p.hoverPos.y !== pos.y))) main({ hoverNode: node, hoverPos: pos });
    },
    resetZoom: () => main(zoomed(0)),
    zoomOut: () => {
      const s = get();
      if (!s.recordings.a.snapshot) return;
      const tree = currentTree(s)!;
      const z = s.panes.main.zoomNode;
      main(zoomed(z > 0 ? tree.parent[z] : 0));
    },
  };
};
