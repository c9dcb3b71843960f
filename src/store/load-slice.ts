// Loading a recording, A (the one open) or B (the comparison): progress, errors, and the open
// snapshot. A failed load keeps the recording that was open (only `error` is set), so nothing is
// lost; B's failures never touch A.

import type { StateCreator } from 'zustand';
import { FULL_PANE, withPanes } from './pane';
import type { LoadSlice, RecordingSlot, RecordingState, StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

/** No recording open or loading. */
export const NO_RECORDING: RecordingState = { loading: null, error: null, snapshot: null, name: null };

/** The recording state of a slot: A's at the top level, B's in `compare`. */
export function recordingOf(s: StoreState, slot: RecordingSlot): RecordingState {
  return slot === 'A' ? s : s.compare;
}

export const createLoadSlice: Creator<LoadSlice> = (set, get) => {
  const patch = (slot: RecordingSlot, p: Partial<RecordingState>) => set(slot === 'A' ? p : { compare: { ...get().compare, ...p } });
  return {
  ...NO_RECORDING,
  source: null,
  reloadRequest: null,
  awaitingLocal: null,
  setAwaitingLocal: (awaitingLocal) => set({ awaitingLocal }),
  original: null,
  setOriginal: (original) => {
    if (get().original !== original) set({ original });
  },
  split: 'process',
  setSplit: (split) => {
    if (get().split !== split) set({ split });
  },
  unit: 'samples',
  setUnit: (unit) => {
    if (get().unit !== unit) set({ unit });
  },
  startLoading: (name, totalBytes, slot = 'A') => patch(slot, { loading: { name, bytesRead: 0, totalBytes, samples: 0 }, error: null }),
  loadProgress: (bytesRead, samples, slot = 'A') => {
    const loading = recordingOf(get(), slot).loading;
    if (loading) patch(slot, { loading: { ...loading, bytesRead, samples } });
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
      panes: withPanes(get().panes, { main: FULL_PANE }),
      // The pattern stays (a link may carry it); the search controller recomputes the matches.
      search: { ...get().search, matches: null, status: get().search.pattern ? 'searching' : 'idle' },
      warningsOpen: false,
    }),
  failLoading: (message, slot = 'A') => patch(slot, { loading: null, error: message }),
  cancelLoading: (slot = 'A') => patch(slot, { loading: null }),
  dismissError: (slot = 'A') => patch(slot, { error: null }),
  requestReload: (options) => set({ reloadRequest: { seq: (get().reloadRequest?.seq ?? 0) + 1, options } }),
  };
};
