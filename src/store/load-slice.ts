// Loading a recording: progress, errors, and the open snapshot. A failed load keeps the recording
// that was open (only `error` is set), so nothing is lost.

import type { StateCreator } from 'zustand';
import { zoomed } from './pane';
import type { LoadSlice, StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export const createLoadSlice: Creator<LoadSlice> = (set, get) => ({
  loading: null,
  error: null,
  snapshot: null,
  name: null,
  source: null,
  reloadRequest: null,
  awaitingLocal: null,
  setAwaitingLocal: (awaitingLocal) => set({ awaitingLocal }),
  split: 'process',
  setSplit: (split) => {
    if (get().split !== split) set({ split });
  },
  startLoading: (name, totalBytes) => set({ loading: { name, bytesRead: 0, totalBytes, samples: 0 }, error: null }),
  loadProgress: (bytesRead, samples) => {
    const loading = get().loading;
    if (loading) set({ loading: { ...loading, bytesRead, samples } });
  },
  finishLoading: (snapshot, name, source) =>
    set({
      snapshot,
      name,
      source,
      loading: null,
      error: null,
      awaitingLocal: null,
      // A recording opens in the function view (without inline information the two views are
      // the same tree, snapshot.inline, and "Inline frames" is disabled).
      view: 'functions',
      ...zoomed(0),
      selectedNode: -1,
      hoverNode: -1,
      hoverPos: null,
      // The pattern stays (a link may carry it); the search controller recomputes the matches.
      search: { ...get().search, matches: null, status: get().search.pattern ? 'searching' : 'idle' },
      warningsOpen: false,
    }),
  failLoading: (message) => set({ loading: null, error: message }),
  cancelLoading: () => set({ loading: null }),
  dismissError: () => set({ error: null }),
  requestReload: (options) => set({ reloadRequest: { seq: (get().reloadRequest?.seq ?? 0) + 1, options } }),
});
