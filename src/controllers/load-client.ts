// The page's side of loading: owns the profile worker, turns user intents (a file, a URL, pasted
// text, the demo) into worker calls and worker answers into store actions. Only the File handle
// crosses into the worker; typed-array buffers come back by transfer.
//
// The latest request wins twice over: the worker aborts the previous open, and this client drops
// any answer whose request is no longer the current one.

import * as Comlink from 'comlink';
import { checkProfileUrl, type OpenProgress } from '../core/session/profile-session';
import { fromTransfer } from '../core/session/snapshot';
import { useStore, type ProfileSource, type ReloadOptions } from '../store/store';
import type { ProfileWorkerApi, WorkerOpenOptions, WorkerOpenResult } from '../../workers/profile.worker';
import { ProfileWorkerHandle } from './profile-worker';

export const DEMO_PATH = 'demo/rust-toyc.perf-script.txt.gz';
export const DEMO_NAME = 'rust-toyc.perf-script.txt';

type Input =
  | { kind: 'file'; file: Blob; name: string }
  | { kind: 'url'; url: string; name: string; demo: boolean }
  | { kind: 'paste'; text: string; name: string };

let seq = 0;
/** What is open, so a reload (another event) can read it again. */
let lastInput: Input | null = null;

const workerHandle = new ProfileWorkerHandle('profile', (reason) => {
  seq++;
  useStore.getState().failLoading(`The loading worker stopped: ${reason}`);
});

function worker(): Comlink.Remote<ProfileWorkerApi> {
  return workerHandle.get();
}

/**
 * The bytes of the open recording when they came from the page (a dropped file or pasted text),
 * for Share to upload; null for a recording opened from a URL (the link already carries it).
 */
export function openedBytes(): { body: Blob | string; name: string } | null {
  if (!lastInput || lastInput.kind === 'url') return null;
  return lastInput.kind === 'file' ? { body: lastInput.file, name: lastInput.name } : { body: lastInput.text, name: lastInput.name };
}

export function openFile(file: File): Promise<void> {
  return open({ kind: 'file', file, name: file.name || 'file' });
}

export function openText(text: string): Promise<void> {
  return open({ kind: 'paste', text, name: 'pasted text' });
}

/** Pasted text: a lone http(s) link is fetched, anything else is read as a recording. */
export function openPasted(text: string): Promise<void> {
  const trimmed = text.trim();
  if (/^https?:\/\/\S+$/i.test(trimmed)) return openUrl(trimmed);
  return openText(text);
}

/** Opens a URL typed or linked by the user; relative URLs resolve against the page. */
export function openUrl(raw: string, base = document.baseURI): Promise<void> {
  const checked = checkProfileUrl(raw, base);
  if (!checked.ok) {
    useStore.getState().failLoading(checked.message);
    return Promise.resolve();
  }
  return open({ kind: 'url', url: checked.url, name: nameOfUrl(checked.url), demo: false });
}

export function openDemo(base = document.baseURI): Promise<void> {
  return open({ kind: 'url', url: new URL(DEMO_PATH, base).href, name: DEMO_NAME, demo: true });
}

export function cancel(): void {
  seq++;
  void workerHandle.current?.cancel();
  useStore.getState().cancelLoading();
}

/** The options the open recording was last read with (a reload keeps the ones it does not set). */
let lastOptions: ReloadOptions = {};

/** Reads the open recording again with other options (e.g. another event, or a split). */
export function reload(options: ReloadOptions): Promise<void> {
  const input = lastInput ?? null;
  if (!input) return Promise.resolve();
  lastOptions = { ...lastOptions, ...options };
  return open(input, { event: lastOptions.event, split: lastOptions.split });
}

async function open(input: Input, extra: Partial<WorkerOpenOptions> = {}): Promise<void> {
  const id = ++seq;
  if (input !== lastInput) lastOptions = {};
  // Marks for the browser benchmark (bench/browser): open → worker answered → committed.
  performance.mark('flameview:open', { detail: input.name });
  const store = useStore.getState();
  const total = input.kind === 'file' ? input.file.size : null;
  let shownTotal = total;
  store.startLoading(input.name, total);
  const onProgress = Comlink.proxy((p: OpenProgress) => {
    if (id !== seq) return;
    const s = useStore.getState();
    if (p.totalBytes !== null && p.totalBytes !== shownTotal) {
      shownTotal = p.totalBytes;
      s.startLoading(input.name, p.totalBytes);
    }
    s.loadProgress(p.bytesRead, p.samples);
  });
  const options: WorkerOpenOptions = { name: input.name, ...extra };
  let result: WorkerOpenResult;
  try {
    const w = worker();
    if (input.kind === 'file') result = await w.openBlob(input.file, options, onProgress);
    else if (input.kind === 'url') result = await w.openUrl(input.url, options, onProgress);
    else result = await w.openText(input.text, options, onProgress);
  } catch (e) {
    if (id === seq) useStore.getState().failLoading(`Could not open ${input.name}: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  if (id !== seq) return;
  performance.mark('flameview:received', { detail: input.name });
  const s = useStore.getState();
  if (result.ok) {
    const name = result.name ?? input.name;
    lastInput = { ...input, name };
    s.finishLoading(fromTransfer(result.wire), name, sourceOf(input));
    performance.mark('flameview:committed', { detail: name });
  } else if (result.error.kind === 'cancelled') {
    s.cancelLoading();
  } else {
    s.failLoading(result.error.message);
  }
}

function sourceOf(input: Input): ProfileSource {
  if (input.kind === 'url') return input.demo ? { kind: 'demo', url: input.url } : { kind: 'url', url: input.url };
  return { kind: input.kind };
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
