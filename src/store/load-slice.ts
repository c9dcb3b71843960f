// Loading a recording, a (the one open, "A") or b (the comparison, "B"): `recordings.{a,b}`,
// one RecordingState each (progress, errors, the open snapshot). A failed load keeps the recording that was open (only `error` is set), so nothing is
// lost; B's failures never touch A.

import type { StateCreator } from 'zustand';
import { FULL_PANE, withPanes } from './pane';
import type { LoadSlice, RecordingSlot, RecordingState, StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

/** No recording open or loading. */
export const NO_RECORDING: RecordingState = { loading: null, error: null, snapshot: null, name: null };

/** `recordings` with one slot's state patched (one place writes a slot, for every slice). */
export function withRecording(s: StoreState, slot: RecordingSlot, p: Partial<RecordingState>): Pick<StoreState, 'recordings'> {
  return { recordings: { ...s.recordings, [slot]: { ...s.recordings[slot], ...p } } };
}

export const createLoadSlice: Creator<LoadSlice> = (set, get) => {
  const patch = (slot: RecordingSlot, p: Partial<RecordingState>) => set(withRecording(get(), slot, p));
  return {
  recordings: { a: NO_RECORDING, b: NO_RECORDING },
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
  startLoading: (name, totalBytes, slot = 'a') => patch(slot, { loading: { name, bytesRead: 0, totalBytes, samples: 0 }, error: null }),
  loadProgress: (bytesRead, samples, slot = 'a') => {
    const loading = get().recordings[slot].loading;
    if (loading) patch(slot, { loading: { ...loading, bytesRead, samples } });
  },
  finishLoading: (snapshot, name, source) =>
    set({
      ...withRecording(get(), 'a', { snapshot, name, loading: null, error: null }),
      source,
      awaitingLocal: null,
      // A recording opens in the function view (without inline information the two views are
      // the same tree, snapshot.inline, and "Inline frames" is disabled).
      view: 'functions',
      panes: withPanes(get().panes, { main: FULL_PANE }),
      // The pattern stays (a link may carry it); the search controller recomputes the matches.
      search: { ...get().search, matches: null, status: get().search.pattern ? 'searching' : 'idle' },
      warningsOpen: false,
    }),
  failLoading: (message, slot = 'a') => patch(slot, { loading: null, error: message }),
  cancelLoading: (slot = 'a') => patch(slot, { loading: null }),
  dismissError: (slot = 'a') => patch(slot, { error: null }),
  requestReload: (options) => set({ reloadRequest: { seq: (get().reloadRequest?.seq ?? 0) + 1, options } }),
  };
};
