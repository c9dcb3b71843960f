// The two recording panes' loaders: one RecordingLoader each (recording-loader.ts), the baseline's
// answers going to the store's load slice and the comparison's to its compare slice (errors there
// never touch the baseline). The functions below are what the components and the other
// controllers call.

import { checkProfileUrl, type OpenProgress } from '../core/session/profile-session';
import { useStore, type ProfileSource, type ReloadOptions } from '../store/store';
import { compareParamsFromHash } from '../store/url/compare-hash';
import { originalFromHash } from '../store/url/profile-hash';
import { RecordingLoader, type LoadFailure, type LoadSink, type RecordingInput } from './recording-loader';

export const DEMO_PATH = 'demo/rust-toyc.perf-script.txt.gz';
export const DEMO_NAME = 'rust-toyc.perf-script.txt';

// ── The baseline (A) ──────────────────────────────────────────────────────────────────────────

const mainSink: LoadSink = {
  markPrefix: '',
  started: (input) => useStore.getState().startLoading(input.name, input.kind === 'file' ? input.file.size : null),
  progress: (input, p: OpenProgress) => {
    const s = useStore.getState();
    if (p.totalBytes !== null && s.loading && p.totalBytes !== s.loading.totalBytes) s.startLoading(input.name, p.totalBytes);
    useStore.getState().loadProgress(p.bytesRead, p.samples);
  },
  finished: (snapshot, name, input) => {
    useStore.getState().finishLoading(snapshot, name, sourceOf(input));
    performance.mark('flameview:committed', { detail: name });
  },
  failed: (failure: LoadFailure, name, message) => {
    const s = useStore.getState();
    if (failure === 'cancelled') s.cancelLoading();
    else if (failure === 'threw') s.failLoading(`Could not open ${name}: ${message}`);
    else if (failure === 'worker-stopped') s.failLoading(`The loading worker stopped: ${message}`);
    else s.failLoading(message);
  },
};

function sourceOf(input: RecordingInput): ProfileSource {
  if (input.kind === 'url') return input.demo ? { kind: 'demo', url: input.url } : { kind: 'url', url: input.linkedAs ?? input.url };
  // What a link made from it names it by (the name as chosen, not the importer's display name).
  if (input.kind === 'file') return { kind: 'file', local: { kind: 'file', name: input.name, size: input.file.size } };
  return { kind: 'paste', local: { kind: 'paste', name: null, size: input.text.length } };
}

const main = new RecordingLoader('profile', mainSink);

export const openFile = (file: File): Promise<void> => main.openFile(file);
export const openText = (text: string): Promise<void> => main.openText(text);
export const openUrl = (raw: string, base?: string): Promise<void> => main.openUrl(raw, base);
/**
 * Reads the open recording again with other options. Another event or split of a processed
 * recording (which keeps one event, its samples already split) is read from the link's original=
 * when there is one (Share kept it, or flameview FILE serves it); without one the processed form's
 * own error says to open the original.
 */
export function reload(options: ReloadOptions, win: Window = window): Promise<void> {
  const original = options.event !== undefined || options.split !== undefined ? originalFromHash(win.location.hash) : null;
  const source = useStore.getState().source;
  const opened = main.opened;
  if (original !== null && source?.kind === 'url' && source.url && opened?.kind === 'url' && opened.url === source.url) {
    return main.openOriginal(original, source.url, options);
  }
  return main.reload(options);
}
export const openedBytes = (): { body: Blob | string; name: string } | null => main.openedBytes();

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

const compareSink: LoadSink = {
  markPrefix: 'compare-',
  started: (input) => useStore.getState().startCompareLoading(input.name, input.kind === 'file' ? input.file.size : null),
  progress: (_input, p) => useStore.getState().compareProgress(p.bytesRead, p.samples),
  finished: (snapshot, name, input) => useStore.getState().finishCompare(snapshot, name, input.kind === 'url' ? input.given : null),
  failed: (failure, name, message) => {
    const s = useStore.getState();
    if (failure === 'bad-url') s.failCompare(`Comparison: ${message}`);
    else if (failure === 'threw') s.failCompare(`Could not open ${name} for comparison: ${message}`);
    else if (failure === 'cancelled') s.failCompare(`Opening ${name} for comparison was cancelled.`);
    else if (failure === 'worker-stopped') s.failCompare(`The comparison's loading worker stopped: ${message}`);
    else s.failCompare(`Comparison (${name}): ${message}`);
  },
};

const comparison = new RecordingLoader('compare', compareSink);

/** The URL (as given) of the comparison being loaded or open, or null for a file / none. */
export function requestedCompareUrl(): string | null {
  return useStore.getState().compare.requestedUrl;
}

export function openCompareFile(file: File): Promise<void> {
  useStore.getState().setCompareRequested(null);
  return comparison.openFile(file);
}

export function openCompareUrl(raw: string, base = document.baseURI): Promise<void> {
  if (checkProfileUrl(raw, base).ok) useStore.getState().setCompareRequested(raw);
  return comparison.openUrl(raw, base);
}

/**
 * The bytes of the open comparison when it came from a file (for Share to upload); null when it
 * was opened from a URL (the link already carries it) or no comparison is open.
 */
export function compareOpenedBytes(): { body: Blob; name: string } | null {
  const s = useStore.getState().compare;
  const opened = comparison.opened;
  if (!s.snapshot || s.requestedUrl !== null || opened?.kind !== 'file') return null;
  return { body: opened.file, name: s.name ?? opened.name };
}

/**
 * The open comparison is now also at `url` (Share uploaded it): the link's compare= names it from
 * now on, without reading it again.
 */
export function adoptCompareUrl(url: string): void {
  comparison.adoptUrl(url);
  useStore.getState().setCompareRequested(url);
  useStore.getState().setCompareUrl(url);
}

export function closeCompare(): void {
  comparison.close();
  useStore.getState().closeCompare();
}

/**
 * Starts loading `#compare=` at once (in parallel with the baseline) and opens what the link asks
 * for later (back/forward, an edited hash: compare.openRequest). Returns the unsubscribe.
 */
export function startCompareController(win: Window = window): () => void {
  const initial = compareParamsFromHash(win.location.hash);
  const s = useStore.getState();
  if (initial.mode) s.setCompareMode(initial.mode);
  if (initial.norm) s.setCompareNorm(initial.norm);
  if (initial.compare) void openCompareUrl(initial.compare);
  const unsubOpen = useStore.subscribe(
    (st) => st.compare.openRequest,
    (request) => {
      if (request) void openCompareUrl(request.url);
    },
  );
  // (The differential graph's zoom across a view or baseline change: flame-sources.ts, startDiffSync.)
  return unsubOpen;
}
