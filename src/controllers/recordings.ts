// The two recordings' loaders, A (the baseline) and B (the comparison): one RecordingLoader each
// (recording-loader.ts) with one sink, the store's load actions for its slot (errors in B never
// touch A). The functions below are what the components and the other controllers call.

import type { LinesScope, OpenProgress } from '../core/session/profile-session';
import { checkProfileUrl } from '../core/session/profile-url';
import type { ProfileSnapshot } from '../core/views/snapshot';
import { useStore, type ProfileSource, type RecordingSlot, type ReloadOptions } from '../store/store';
import type { SymbolOffsets } from '../core/query/leaf-addresses';
import type { FunctionLines, LinesView } from '../core/query/source-lines';
import type { KeptColumns } from '../core/export/processed';
import { firstOpen } from './first-open';
import { RecordingLoader, type LoadFailure, type LoadSink, type RecordingInput } from './recording-loader';

export const DEMO_PATH = 'demo/rust-toyc.perf-script.txt.gz';
export const DEMO_NAME = 'rust-toyc.perf-script.txt';

// ── One sink for both recordings ──────────────────────────────────────────────────────────────

/** How a failure reads in each slot: B's say "comparison"; a cancelled load of A says nothing. */
const FAILURE_TEXT: Record<RecordingSlot, Record<LoadFailure, (name: string, message: string) => string | null>> = {
  a: {
    'bad-url': (_, message) => message,
    threw: (name, message) => `Could not open ${name}: ${message}`,
    unreadable: (_, message) => message,
    cancelled: () => null,
    'worker-stopped': (_, message) => `The loading worker stopped: ${message}`,
  },
  b: {
    'bad-url': (_, message) => `Comparison: ${message}`,
    threw: (name, message) => `Could not open ${name} for comparison: ${message}`,
    unreadable: (name, message) => `Comparison (${name}): ${message}`,
    cancelled: (name) => `Opening ${name} for comparison was cancelled.`,
    'worker-stopped': (_, message) => `The comparison's loading worker stopped: ${message}`,
  },
};

/** What opening a recording does: A becomes the recording shown (its source kept for links), B is compared with it. */
const OPENED: Record<RecordingSlot, (snapshot: ProfileSnapshot, name: string, input: RecordingInput) => void> = {
  a: (snapshot, name, input) => {
    useStore.getState().finishLoading(snapshot, name, sourceOf(input));
    performance.mark('flameview:committed', { detail: name });
  },
  b: (snapshot, name, input) => useStore.getState().finishCompare(snapshot, name, input.kind === 'url' ? input.given : null),
};

/** Where a slot's loader puts its answers: the store's load actions for that slot. */
function sinkOf(slot: RecordingSlot): LoadSink {
  return {
    markPrefix: slot === 'a' ? '' : 'compare-',
    started: (input) => useStore.getState().startLoading(input.name, input.kind === 'file' ? input.file.size : null, slot),
    progress: (input, p: OpenProgress) => {
      const s = useStore.getState();
      const loading = s.recordings[slot].loading;
      if (p.totalBytes !== null && loading && p.totalBytes !== loading.totalBytes) s.startLoading(input.name, p.totalBytes, slot);
      useStore.getState().loadProgress(p.bytesRead, p.samples, slot);
    },
    finished: OPENED[slot],
    failed: (failure, name, message) => {
      const text = FAILURE_TEXT[slot][failure](name, message);
      if (text === null) useStore.getState().cancelLoading(slot);
      else useStore.getState().failLoading(text, slot);
    },
  };
}

function sourceOf(input: RecordingInput): ProfileSource {
  if (input.kind === 'url') return input.demo ? { kind: 'demo', url: input.url } : { kind: 'url', url: input.linkedAs ?? input.url };
  // What a link made from it names it by (the name as chosen, not the importer's display name).
  if (input.kind === 'file') return { kind: 'file', local: { kind: 'file', name: input.name, size: input.file.size } };
  // A link's several profile= stay its address (the first is `url`, what a single-URL check reads).
  if (input.kind === 'urls') return { kind: 'url', url: input.given[0], urls: input.given };
  if (input.kind === 'files') return { kind: 'file', local: { kind: 'file', name: input.name, size: input.files.reduce((n, f) => n + f.blob.size, 0) } };
  return { kind: 'paste', local: { kind: 'paste', name: null, size: input.text.length } };
}

// Each recording loads in a profile worker of its own (the worker sessions, beside the store).
const main = new RecordingLoader('profile', sinkOf('a'), firstOpen.current);
const comparison = new RecordingLoader('compare', sinkOf('b'));

// ── The baseline (A) ──────────────────────────────────────────────────────────────────────────

export const openFile = (file: File): Promise<void> => main.openFile(file);
/** The open recording's sampled offsets of function `name` (the Assembly panel). */
export const functionOffsets = (name: string): Promise<SymbolOffsets[] | null> => main.functionOffsets(name);
/** Several files as one graph of their sum (issue 31, item 2). */
export const openFiles = (files: readonly File[]): Promise<void> => main.openFiles(files);
/** Several files open: each as a root frame of its own, or not. */
export const showEachRecording = (byRecording: boolean): Promise<void> => main.regroup(byRecording);
export const openText = (text: string): Promise<void> => main.openText(text);
export const openUrl = (raw: string, base?: string): Promise<void> => main.openUrl(raw, base);
/** Several URLs (a link's several profile=) as one graph of their sum. */
export const openUrls = (raws: readonly string[], base?: string): Promise<void> => main.openUrls(raws, base);
/**
 * Reads the open recording again with other options. Another event or split of a processed
 * recording (which keeps one event, its samples already split) is read from its original, the
 * store's `original` (the link's original=, applied by the URL sync), when there is one (Share
 * kept it, or flameview FILE serves it); without one the processed form's own error says to
 * open the original.
 */
export function reload(options: ReloadOptions): Promise<void> {
  const { source, original: stored } = useStore.getState();
  const original = options.event !== undefined || options.split !== undefined || options.unit !== undefined ? stored : null;
  const opened = main.opened;
  if (original !== null && source?.kind === 'url' && source.url && opened?.kind === 'url' && opened.url === source.url) {
    return main.openOriginal(original, source.url, options);
  }
  return main.reload(options);
}
export const openedBytes = (): { body: Blob | string; name: string } | null => main.openedBytes();
/** A function's per-line weights in the open recording (A), or in the comparison (B). */
export const functionLinesOf = (side: 'A' | 'B', view: LinesView, name: string, scope: LinesScope | null = null): Promise<FunctionLines | null> =>
  (side === 'A' ? main : comparison).functionLines(view, name, scope);

/**
 * What Export and Share write with `snapshot` beyond its own columns (its profile worker keeps
 * them), when it is the open recording or the comparison; else null.
 */
export function keptColumnsOf(snapshot: ProfileSnapshot): Promise<KeptColumns | null> {
  const { a, b } = useStore.getState().recordings;
  if (snapshot === a.snapshot) return main.keptColumns();
  if (snapshot === b.snapshot) return comparison.keptColumns();
  return Promise.resolve(null);
}

/** Pasted text: a lone http(s) link is fetched, anything else is read as a recording. */
export function openPasted(text: string): Promise<void> {
  const trimmed = text.trim();
  if (/^https?:\/\/\S+$/i.test(trimmed)) return openUrl(trimmed);
  return openText(text);
}

export function openDemo(base = document.baseURI): Promise<void> {
  return main.openDemo(new URL(DEMO_PATH, base).href, DEMO_NAME);
}

export function cancel(): void {
  main.cancel();
  useStore.getState().cancelLoading();
}

// ── The comparison (B) ────────────────────────────────────────────────────────────────────────

/** The URL (as given) of the comparison being loaded or open, or null for files / none / several URLs (a sum Share uploads as one). */
export function requestedCompareUrl(): string | null {
  const urls = useStore.getState().compare.requestedUrls;
  return urls?.length === 1 ? urls[0] : null;
}

export function openCompareFile(file: File): Promise<void> {
  return openCompareFiles([file]);
}

/** Several files as the comparison, one graph of their sum (a group of runs against A's). */
export function openCompareFiles(files: readonly File[]): Promise<void> {
  useStore.getState().setCompareRequested(null);
  return comparison.openFiles(files);
}

export function openCompareUrl(raw: string, base = document.baseURI): Promise<void> {
  return openCompareUrls([raw], base);
}

/** Several URLs (a link's several `compare=`) as the comparison, one graph of their sum. */
export function openCompareUrls(raws: readonly string[], base = document.baseURI): Promise<void> {
  if (raws.every((raw) => checkProfileUrl(raw, base).ok)) useStore.getState().setCompareRequested(raws);
  return comparison.openUrls(raws, base);
}

/**
 * The bytes of the open comparison when it came from a file (for Share to upload); null when it
 * was opened from a URL (the link already carries it) or no comparison is open.
 */
export function compareOpenedBytes(): { body: Blob; name: string } | null {
  const { compare, recordings } = useStore.getState();
  const opened = comparison.opened;
  if (!recordings.b.snapshot || compare.requestedUrls !== null || opened?.kind !== 'file') return null;
  return { body: opened.file, name: recordings.b.name ?? opened.name };
}

/**
 * The open comparison is now also at `url` (Share uploaded it): the link's compare= names it from
 * now on, without reading it again.
 */
export function adoptCompareUrl(url: string): void {
  comparison.adoptUrl(url);
  useStore.getState().setCompareRequested([url]);
  useStore.getState().setCompareUrl(url);
}

export function closeCompare(): void {
  comparison.close();
  useStore.getState().closeCompare();
}

/**
 * Opens the comparison a link asks for after start-up (back/forward, an edited hash:
 * compare.openRequest; the start-up one is url-sync.ts's startLinkedLoads). Returns the unsubscribe.
 */
export function startCompareController(): () => void {
  const unsubOpen = useStore.subscribe(
    (st) => st.compare.openRequest,
    (request) => {
      if (request) void openCompareUrls(request.urls);
    },
  );
  // (The differential graph's zoom across a view or baseline change: flame-sources.ts, startDiffSync.)
  return unsubOpen;
}
