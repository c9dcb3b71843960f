// The comparison: a second recording (B, "comparison") beside the open one (A, "baseline"), how
// the two are shown (side by side or one differential graph), the normalisation, and the zoom,
// hover and selection of the graphs the main view slice does not drive: the comparison graph of
// the side-by-side view and the differential graph. Node indices of `side` refer to B's tree of
// the current view; those of `diff` to the shaping run's tree.
//
// A failed comparison load keeps the baseline and any comparison already open (only
// compare.error is set).

import type { StateCreator } from 'zustand';
import type { NodeIndex } from '../core/model/types';
import type { ProfileSnapshot } from '../core/session/snapshot';
import type { DiffNorm, DiffShape } from '../core/views/diff';
import type { LoadingState, StoreState, Viewport } from './types';

export type CompareMode = 'side' | 'diff';

export interface PaneState {
  zoomNode: NodeIndex;
  viewport: Viewport;
  selectedNode: NodeIndex;
  hoverNode: NodeIndex;
  hoverPos: { x: number; y: number } | null;
}

export interface CompareState {
  loading: LoadingState | null;
  error: string | null;
  snapshot: ProfileSnapshot | null;
  name: string | null;
  /** The URL B was fetched from (kept in the hash as `compare=`), or null for a file. */
  url: string | null;
  /** The URL (as given) of the comparison being loaded or open, or null for a file / none. */
  requestedUrl: string | null;
  /** A comparison the link asks for (back/forward, an edited hash); the loader opens it. */
  openRequest: { url: string } | null;
  mode: CompareMode;
  norm: DiffNorm;
  shape: DiffShape;
  side: PaneState;
  diff: PaneState;
  /** Said in a status region when a synchronised zoom could not find the same path. */
  syncNotice: string | null;
}

export interface CompareSlice {
  compare: CompareState;
  startCompareLoading(name: string, totalBytes: number | null): void;
  compareProgress(bytesRead: number, samples: number): void;
  finishCompare(snapshot: ProfileSnapshot, name: string, url: string | null): void;
  failCompare(message: string): void;
  dismissCompareError(): void;
  closeCompare(): void;
  setCompareMode(mode: CompareMode): void;
  setCompareNorm(norm: DiffNorm): void;
  setCompareShape(shape: DiffShape): void;
  setPane(pane: 'side' | 'diff', patch: Partial<PaneState>): void;
  setSyncNotice(text: string | null): void;
  /** The open comparison is also at this URL now (Share uploaded it). */
  setCompareUrl(url: string): void;
  setCompareRequested(url: string | null): void;
  requestCompareOpen(url: string): void;
}

export const FULL_PANE: PaneState = { zoomNode: 0, viewport: { x0: 0, x1: 1 }, selectedNode: -1, hoverNode: -1, hoverPos: null };

export const INITIAL_COMPARE: CompareState = {
  loading: null,
  error: null,
  snapshot: null,
  name: null,
  url: null,
  requestedUrl: null,
  openRequest: null,
  mode: 'side',
  norm: 'pct',
  shape: 'B',
  side: FULL_PANE,
  diff: FULL_PANE,
  syncNotice: null,
};

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export const createCompareSlice: Creator<CompareSlice> = (set, get) => {
  const patch = (p: Partial<CompareState>) => set({ compare: { ...get().compare, ...p } });
  return {
    compare: INITIAL_COMPARE,
    startCompareLoading: (name, totalBytes) => patch({ loading: { name, bytesRead: 0, totalBytes, samples: 0 }, error: null }),
    compareProgress: (bytesRead, samples) => {
      const loading = get().compare.loading;
      if (loading) patch({ loading: { ...loading, bytesRead, samples } });
    },
    finishCompare: (snapshot, name, url) =>
      patch({ snapshot, name, url, loading: null, error: null, side: FULL_PANE, diff: FULL_PANE, syncNotice: null }),
    failCompare: (message) => patch({ loading: null, error: message }),
    dismissCompareError: () => patch({ error: null }),
    closeCompare: () => set({ compare: { ...INITIAL_COMPARE, mode: get().compare.mode, norm: get().compare.norm } }),
    setCompareMode: (mode) => patch({ mode, syncNotice: null }),
    setCompareNorm: (norm) => patch({ norm }),
    setCompareShape: (shape) => {
      if (shape !== get().compare.shape) patch({ shape, diff: FULL_PANE });
    },
    setPane: (pane, p) => {
      const current = get().compare[pane];
      const next = { ...current, ...p };
      if (p.viewport) {
        const x0 = Math.max(0, Math.min(p.viewport.x0, 1));
        const x1 = Math.max(x0, Math.min(p.viewport.x1, 1));
        next.viewport = x1 > x0 ? { x0, x1 } : FULL_PANE.viewport;
      }
      patch({ [pane]: next } as Partial<CompareState>);
    },
    setCompareUrl: (url) => {
      if (get().compare.snapshot) patch({ url });
    },
    setCompareRequested: (requestedUrl) => patch({ requestedUrl }),
    requestCompareOpen: (url) => patch({ openRequest: { url } }),
    setSyncNotice: (text) => {
      if (text !== get().compare.syncNotice) patch({ syncNotice: text });
    },
  };
};
