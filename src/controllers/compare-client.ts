// Loading the comparison recording (B) in a worker of its own, so A and B load in parallel on
// two cores. Mirrors loading/client.ts: only the File handle or the URL crosses into the worker,
// typed-array buffers come back by transfer, and the latest request wins (stale answers are
// dropped). Errors go to compare.error and never touch the baseline.
//
// The hash carries `compare=<url>` beside `profile=` (and `mode=side|diff`, `norm=pct|abs`):
// startCompareController reads them at start-up; url-params.ts registers them with the URL state.

import * as Comlink from 'comlink';
import { checkProfileUrl, type OpenProgress } from '../core/session/profile-session';
import { fromTransfer } from '../core/session/snapshot';
import { FULL_PANE } from '../store/compare-slice';
import { useStore } from '../store/store';
import type { ProfileWorkerApi, WorkerOpenResult } from '../../workers/profile.worker';
import { ProfileWorkerHandle } from './profile-worker';
import { compareParamsFromHash } from '../store/url/compare-hash';
// Registers compare=, mode=, norm= with the URL state (a cycle back to this module, used lazily).
import '../store/url/compare-params';

let seq = 0;
/** The URL (as given) of the comparison being loaded or open, or null for a file / none. */
let requested: string | null = null;
/** The file the open comparison was read from (for Share to upload), or null. */
let openedFile: File | null = null;

export function requestedCompareUrl(): string | null {
  return requested;
}

const workerHandle = new ProfileWorkerHandle('compare', (reason) => {
  seq++;
  useStore.getState().failCompare(`The comparison's loading worker stopped: ${reason}`);
});

function worker(): Comlink.Remote<ProfileWorkerApi> {
  return workerHandle.get();
}

export function openCompareFile(file: File): Promise<void> {
  requested = null;
  return open(file.name || 'file', null, (w, o, p) => w.openBlob(file, o, p), file.size, file);
}

/**
 * The bytes of the open comparison when it came from a file (for Share to upload); null when it
 * was opened from a URL (the link already carries it) or no comparison is open.
 */
export function compareOpenedBytes(): { body: Blob; name: string } | null {
  const s = useStore.getState().compare;
  if (!s.snapshot || requested !== null || !openedFile) return null;
  return { body: openedFile, name: s.name ?? (openedFile.name || 'file') };
}

/**
 * The open comparison is now also at `url` (Share uploaded it): the link's compare= names it from
 * now on, without reading it again.
 */
export function adoptCompareUrl(url: string): void {
  requested = url;
  openedFile = null;
  useStore.getState().setCompareUrl(url);
}

export function openCompareUrl(raw: string, base = document.baseURI): Promise<void> {
  const checked = checkProfileUrl(raw, base);
  if (!checked.ok) {
    useStore.getState().failCompare(`Comparison: ${checked.message}`);
    return Promise.resolve();
  }
  const url = checked.url;
  requested = raw;
  return open(nameOfUrl(url), raw, (w, o, p) => w.openUrl(url, o, p), null);
}

export function closeCompare(): void {
  seq++;
  requested = null;
  openedFile = null;
  void workerHandle.current?.cancel();
  useStore.getState().closeCompare();
}

type Call = (w: Comlink.Remote<ProfileWorkerApi>, options: { name: string }, progress: (p: OpenProgress) => void) => Promise<WorkerOpenResult>;

async function open(name: string, url: string | null, call: Call, total: number | null, file: File | null = null): Promise<void> {
  const id = ++seq;
  // Marks for the browser benchmark (bench/browser), beside the baseline's flameview:open/received.
  performance.mark('flameview:compare-open', { detail: name });
  useStore.getState().startCompareLoading(name, total);
  const onProgress = Comlink.proxy((p: OpenProgress) => {
    if (id === seq) useStore.getState().compareProgress(p.bytesRead, p.samples);
  });
  let result: WorkerOpenResult;
  try {
    result = await call(worker(), { name }, onProgress);
  } catch (e) {
    if (id === seq) useStore.getState().failCompare(`Could not open ${name} for comparison: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if (id !== seq) return;
  performance.mark('flameview:compare-received', { detail: name });
  const s = useStore.getState();
  if (result.ok) {
    openedFile = file;
    s.finishCompare(fromTransfer(result.wire), result.name ?? name, url);
  }
  else if (result.error.kind === 'cancelled') s.failCompare(`Opening ${name} for comparison was cancelled.`);
  else s.failCompare(`Comparison (${name}): ${result.error.message}`);
}

function nameOfUrl(href: string): string {
  const url = new URL(href);
  const last = url.pathname.split('/').filter(Boolean).pop();
  try {
    return last ? decodeURIComponent(last) : url.host;
  } catch {
    return last ?? url.host;
  }
}

let started = false;

/** Starts loading `#compare=` at once (in parallel with the baseline) and registers the link parameters. */
export function startCompareController(win: Window = window): void {
  if (started) return;
  started = true;
  const initial = compareParamsFromHash(win.location.hash);
  const s = useStore.getState();
  if (initial.mode) s.setCompareMode(initial.mode);
  if (initial.norm) s.setCompareNorm(initial.norm);
  if (initial.compare) void openCompareUrl(initial.compare);
  // Node indices of the differential graph belong to one view's tree of one pair of recordings.
  useStore.subscribe(
    (st) => [st.view, st.snapshot] as const,
    () => useStore.getState().setPane('diff', FULL_PANE),
    { equalityFn: (a, b) => a[0] === b[0] && a[1] === b[1] },
  );
}
