// The comparison: a second recording (B, "comparison") beside the open one (A, "baseline"), how
// the two are shown (side by side or one differential graph), the normalisation, and the compare
// worker's results. The comparison's two graphs are panes of the one map (panes.side, panes.diff:
// store/pane.ts); this slice resets them when B opens or closes or the shaping run changes.
//
// B's recording is `recordings.b`, of A's shape and with A's load actions (store/load-slice.ts,
// slot 'b'): a failed comparison load keeps the baseline and any comparison already open.

import type { StateCreator } from 'zustand';
import type { NodeIndex } from '../core/model/types';
import type { ProfileSnapshot } from '../core/views/snapshot';
import type { CallTree } from '../core/model/call-tree';
import type { ColoursReply, FiguresReply } from '../core/session/compare-protocol';
import type { DiffNorm, DiffShape } from '../core/views/diff';
import type { ChangeRow } from '../core/session/compare-protocol';
import type { PathSegment } from '../core/views/zoom-path';
import { resolvePath } from '../core/views/zoom-path';
import { treeOf } from '../core/query/tree-walks';
import { FULL_PANE, patchPane, withPanes, zoomed, type PaneState } from './pane';
import { NO_RECORDING, withRecording } from './load-slice';
import type { StoreState } from './types';

export type CompareMode = 'side' | 'diff';

/** The graphs of a comparison: the baseline (the main graph), the comparison (B) and the differential graph. */
export type ComparePane = 'main' | 'side' | 'diff';

/** What the compare worker answered for (the shaping run's tree, the other run's, the normalisation). */
export interface DiffKey {
  shapeTree: CallTree;
  otherTree: CallTree;
  norm: DiffNorm;
  /** Compared ignoring the root (process) names. */
  ignoreRoot: boolean;
}

/** A node's figures in both runs, for the pane and node they were asked for. */
export interface PaneFigures extends DiffKey {
  pane: ComparePane;
  node: NodeIndex;
  reply: FiguresReply;
}

/** Results of the compare worker (controllers/compare-results.ts) for what is on screen. */
export interface CompareResults {
  colours: (DiffKey & ColoursReply) | null;
  table: { a: CallTree; b: CallTree; norm: DiffNorm; rows: ChangeRow[] } | null;
  /** The hovered node's figures (tooltips). */
  hover: PaneFigures | null;
  /** The selected node's figures (the details); `pane` is where it was selected last. */
  selected: PaneFigures | null;
}

/** How B (its recording is `recordings.b`) is compared with A. */
export interface CompareState {
  /** The URL B was fetched from (kept in the hash as `compare=`), or null for a file. */
  url: string | null;
  /** The URLs (as given) of the comparison being loaded or open (several: B is their sum), or null for files / none. */
  requestedUrls: readonly string[] | null;
  /** A comparison the link asks for (back/forward, an edited hash); the loader opens it. */
  openRequest: { urls: readonly string[] } | null;
  mode: CompareMode;
  norm: DiffNorm;
  /** Compare ignoring the root (process or thread) names: a renamed binary matches (diff.ts's pairRoots). */
  ignoreRoot: boolean;
  shape: DiffShape;
  /** Said in a status region when a synchronised zoom could not find the same path. */
  syncNotice: string | null;
  results: CompareResults;
  /** A link's dzoom= path waiting for B to open (B usually arrives after the link is applied). */
  pendingDiffZoom: PathSegment[] | null;
}

export interface CompareSlice {
  compare: CompareState;
  finishCompare(snapshot: ProfileSnapshot, name: string, url: string | null): void;
  closeCompare(): void;
  setCompareMode(mode: CompareMode): void;
  setCompareNorm(norm: DiffNorm): void;
  setCompareIgnoreRoot(ignoreRoot: boolean): void;
  setCompareShape(shape: DiffShape): void;
  setSyncNotice(text: string | null): void;
  setCompareResults(patch: Partial<CompareResults>): void;
  /** The open comparison is also at this URL now (Share uploaded it). */
  setCompareUrl(url: string): void;
  setCompareRequested(urls: readonly string[] | null): void;
  requestCompareOpen(urls: readonly string[]): void;
  /** Zooms the differential graph to a frame path of the shaping run, now or once B opens. */
  zoomDiffTo(path: PathSegment[]): void;
}


export const NO_RESULTS: CompareResults = { colours: null, table: null, hover: null, selected: null };

export const INITIAL_COMPARE: CompareState = {
  url: null,
  requestedUrls: null,
  openRequest: null,
  mode: 'side',
  norm: 'pct',
  ignoreRoot: false,
  shape: 'B',
  syncNotice: null,
  results: NO_RESULTS,
  pendingDiffZoom: null,
};

/** The diff pane (`from`) zoomed to `path` in the shaping run's tree, or null while a run is missing. */
function diffZoomed(s: StoreState, compare: CompareState, from: PaneState, path: PathSegment[]): PaneState | null {
  const a = s.recordings.a.snapshot;
  const b = s.recordings.b.snapshot;
  if (!a || !b) return null;
  const shape = compare.shape === 'B' ? b : a;
  return patchPane(from, zoomed(resolvePath(shape.frames, treeOf(shape, s.view), path).node));
}

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export const createCompareSlice: Creator<CompareSlice> = (set, get) => {
  const patch = (p: Partial<CompareState>) => set({ compare: { ...get().compare, ...p } });
  return {
    compare: INITIAL_COMPARE,
    finishCompare: (snapshot, name, url) => {
      const next: CompareState = { ...get().compare, url, syncNotice: null, results: NO_RESULTS };
      const recordings = withRecording(get(), 'b', { snapshot, name, loading: null, error: null });
      const path = next.pendingDiffZoom;
      const diff = path ? diffZoomed({ ...get(), ...recordings }, next, FULL_PANE, path) : null;
      set({
        ...recordings,
        compare: diff ? { ...next, pendingDiffZoom: null } : next,
        panes: withPanes(get().panes, { side: FULL_PANE, diff: diff ?? FULL_PANE }),
      });
    },
    closeCompare: () =>
      set({
        ...withRecording(get(), 'b', NO_RECORDING),
        compare: { ...INITIAL_COMPARE, mode: get().compare.mode, norm: get().compare.norm, ignoreRoot: get().compare.ignoreRoot },
        panes: withPanes(get().panes, { side: FULL_PANE, diff: FULL_PANE }),
      }),
    setCompareMode: (mode) => patch({ mode, syncNotice: null }),
    setCompareNorm: (norm) => patch({ norm }),
    setCompareIgnoreRoot: (ignoreRoot) => patch({ ignoreRoot }),
    setCompareShape: (shape) => {
      if (shape !== get().compare.shape) set({ compare: { ...get().compare, shape }, panes: withPanes(get().panes, { diff: FULL_PANE }) });
    },
    setCompareUrl: (url) => {
      if (get().recordings.b.snapshot) patch({ url });
    },
    setCompareRequested: (requestedUrls) => patch({ requestedUrls }),
    requestCompareOpen: (urls) => patch({ openRequest: { urls } }),
    zoomDiffTo: (path) => {
      const diff = diffZoomed(get(), get().compare, get().panes.diff, path);
      if (diff) set({ compare: { ...get().compare, pendingDiffZoom: null }, panes: withPanes(get().panes, { diff }) });
      else patch({ pendingDiffZoom: path });
    },
    setCompareResults: (p) => patch({ results: { ...get().compare.results, ...p } }),
    setSyncNotice: (text) => {
      if (text !== get().compare.syncNotice) patch({ syncNotice: text });
    },
  };
};
