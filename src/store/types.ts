// The shape of the one UI store, split into slices. Node indices always refer to the tree of the
// current view (see currentTree); a view toggle maps them through snapshot.toFunction/toInline.

import type { RootSplit } from '../core/import/importer';
import type { FoldedUnit } from '../core/model/weight-text';
import type { ProfileSnapshot } from '../core/views/snapshot';
import type { NodeIndex } from '../core/model/types';
import type { AnalysisSlice } from './analysis-slice';
import type { CallTreeSlice } from './call-tree-slice';
import type { AsmSlice } from './asm-slice';
import type { CompareSlice } from './compare-slice';
import type { PaneId, PaneState, Panes } from './pane';
import type { TimeSlice } from './time-slice';
import type { SourceSlice } from './source-slice';
import type { TransformSlice } from './transform-slice';

import type { Orientation, SiblingOrder, ViewKind, Viewport } from '../core/model/view-types';

export type { Orientation, RootSplit, SiblingOrder, ViewKind, Viewport };

export interface LoadingState {
  name: string;
  bytesRead: number;
  totalBytes: number | null;
  samples: number;
}

export interface ProfileSource {
  kind: 'demo' | 'file' | 'paste' | 'url';
  url?: string;
  /** Several URLs opened as one summed recording (a link's several profile=), `url` the first. */
  urls?: string[];
  /** A file's name and size in bytes, or pasted text's length: what a link names it by. */
  local?: LocalRecording;
}

/**
 * A recording opened from this computer (a file, or pasted text), as a link names it: the link
 * cannot carry the bytes, so it says which file to open (file=NAME&size=BYTES, or pasted=CHARS).
 */
export interface LocalRecording {
  kind: 'file' | 'paste';
  /** The file's name (null for pasted text). */
  name: string | null;
  /** Bytes of a file, characters of pasted text; null when the link does not say. */
  size: number | null;
}

/** What the shell should reload the current recording with (e.g. another event). */
export interface ReloadOptions {
  event?: string;
  /** perf script roots: per command name ('process', the default), per process or per thread. */
  split?: RootSplit;
  /** Folded stacks: what the numbers count ('samples', the default, or a time unit). */
  unit?: FoldedUnit;
}

/** Which recording: a, the one open (the baseline, "A"), or b, the comparison beside it ("B"). */
export type RecordingSlot = 'a' | 'b';

/** A recording's load, one shape for both: progress, error, and the open snapshot and its name. */
export interface RecordingState {
  loading: LoadingState | null;
  error: string | null;
  snapshot: ProfileSnapshot | null;
  name: string | null;
}

/** Both recordings, one shape each: `recordings.a` the baseline, `recordings.b` the comparison. */
export type Recordings = Readonly<Record<RecordingSlot, RecordingState>>;

/**
 * The recordings (one map of one RecordingState); the load actions serve both (`slot`, 'a' by
 * default). Opening differs: finishLoading for a, finishCompare (store/compare-slice.ts) for b.
 */
export interface LoadSlice {
  recordings: Recordings;
  source: ProfileSource | null;
  /** Set by requestReload; the shell subscribes, reloads, and calls finishLoading. seq grows. */
  reloadRequest: { seq: number; options: ReloadOptions } | null;
  startLoading(name: string, totalBytes: number | null, slot?: RecordingSlot): void;
  loadProgress(bytesRead: number, samples: number, slot?: RecordingSlot): void;
  finishLoading(snapshot: ProfileSnapshot, name: string, source: ProfileSource): void;
  /** The load failed: the recording that was open stays, only `error` is set. */
  failLoading(message: string, slot?: RecordingSlot): void;
  cancelLoading(slot?: RecordingSlot): void;
  dismissError(slot?: RecordingSlot): void;
  requestReload(options: ReloadOptions): void;
  /**
   * The page was opened with a link made from a local recording and nothing else to open: the
   * page asks for that file instead of opening the demo (null otherwise, and once one opens).
   */
  awaitingLocal: LocalRecording | null;
  setAwaitingLocal(local: LocalRecording | null): void;
  /**
   * Where the open recording's original bytes are (the link's original=), or null: a processed
   * recording keeps one event and its roots as saved, so another event or split reads these.
   */
  original: string | null;
  setOriginal(url: string | null): void;
  /** The split the open recording was read with ('process' unless a link or the picker asked otherwise). */
  split: RootSplit;
  setSplit(split: RootSplit): void;
  /** The unit the open folded recording was read with ('samples' unless a link asked otherwise). */
  unit: FoldedUnit;
  setUnit(unit: FoldedUnit): void;
}

/** What is on screen: the view and orientation every graph shares, and every pane's own state. */
export interface ViewSlice {
  /** Every flame graph pane's zoom, viewport, selection and hover (store/pane.ts). */
  panes: Panes;
  /** Patches one pane (its viewport clamped). */
  setPane(pane: PaneId, patch: Partial<PaneState>): void;
  view: ViewKind;
  orientation: Orientation;
  /** Siblings by name (flamegraph.pl) or heaviest first, in every flame graph. */
  siblingOrder: SiblingOrder;
  setView(view: ViewKind): void;
  setOrientation(orientation: Orientation): void;
  /** The zoom and selection stay (node indices do not change); a wheel zoom's window is reset. */
  setSiblingOrder(order: SiblingOrder): void;
  // The main pane's actions, checked against the tree it shows (currentTree).
  /** Zoom (without animation; the renderer animates through setViewport). */
  zoomTo(node: NodeIndex): void;
  setViewport(zoomNode: NodeIndex, viewport: Viewport): void;
  select(node: NodeIndex): void;
  hover(node: NodeIndex, pos: { x: number; y: number } | null): void;
  resetZoom(): void;
  /** Zoom to the parent of the zoomed node. */
  zoomOut(): void;
}

export type SearchStatus = 'idle' | 'searching' | 'done' | 'timeout';
/** Which recording a search ran over: the open one (A) or the comparison's (B). */
export type SearchSide = 'main' | 'compare';

export interface SearchSlice {
  search: {
    pattern: string;
    caseInsensitive: boolean;
    /** Per frame (FrameIndex) 1 when its name matches, or null when no search is active. */
    matches: Uint8Array | null;
    /** Inline message for an invalid pattern. */
    error: string | null;
    status: SearchStatus;
    /** The same over the comparison's recording (B), from its own search worker. */
    compare: { matches: Uint8Array | null; status: SearchStatus };
  };
  setSearchPattern(pattern: string): void;
  setCaseInsensitive(on: boolean): void;
  /**
   * Results from a search worker for (pattern, caseInsensitive), over the open recording or the
   * comparison's (`side`); stale results are dropped.
   */
  searchResult(pattern: string, caseInsensitive: boolean, matches: Uint8Array | null, status: SearchStatus, side?: SearchSide): void;
}

export interface UiSlice {
  shortcutsOpen: boolean;
  warningsOpen: boolean;
  toggleShortcuts(open?: boolean): void;
  toggleWarnings(open?: boolean): void;
}

export type StoreState = LoadSlice & ViewSlice & SearchSlice & UiSlice & CompareSlice & AnalysisSlice & CallTreeSlice & TransformSlice & TimeSlice & AsmSlice & SourceSlice;

/** The store while A's recording is open (callers that checked `recordings.a.snapshot`). */
export type OpenStoreState = StoreState & { recordings: { a: { snapshot: ProfileSnapshot } } };
