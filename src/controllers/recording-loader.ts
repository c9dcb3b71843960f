// Loading one recording pane's recording (the baseline, or the comparison B) in a profile worker
// of its own, so A and B load in parallel on two cores. Only the File handle or the URL crosses
// into the worker; typed-array buffers come back by transfer.
//
// The latest request wins twice over: the worker aborts the previous open, and the loader drops
// any answer whose request is no longer the current one. What the answers do to the store is the
// pane's LoadSink; the loader itself knows no pane.

import * as Comlink from 'comlink';
import type { LinesScope, OpenProgress } from '../core/session/profile-session';
import { checkProfileUrl, lastSegment } from '../core/session/profile-url';
import { fromTransfer, type ProfileSnapshot } from '../core/views/snapshot';
import type { ReloadOptions } from '../store/types';
import type { ProfileWorkerApi, WorkerOpenOptions, WorkerOpenResult } from '../../workers/profile.worker';
import { WorkerHandle } from './worker-handle';
import type { SymbolOffsets } from '../core/query/leaf-addresses';
import { Latest } from '../core/util/latest';
import type { FunctionLines, LinesView } from '../core/query/source-lines';
import type { KeptColumns } from '../core/export/processed';
import { startProfileWorker, openOptions, type FirstOpen } from './first-open';

export type RecordingInput =
  | { kind: 'file'; file: Blob; name: string }
  /** Several files summed into one recording (`name` lists them); `byRecording`: each under a root frame of its name. */
  | { kind: 'files'; files: { blob: Blob; name: string }[]; name: string; byRecording: boolean }
  /**
   * `url` is checked and absolute; `given` is the URL as the user or the link gave it; `linkedAs`:
   * the URL the page's link keeps naming instead (the processed form a shared link opens, when its
   * original is read for another event).
   */
  | { kind: 'url'; url: string; given: string; name: string; demo: boolean; linkedAs?: string }
  /** Several URLs summed into one recording (several `profile=` in a link); `urls` checked, `given` as linked. */
  | { kind: 'urls'; urls: string[]; given: string[]; name: string; byRecording: boolean }
  | { kind: 'paste'; text: string; name: string };

/** Why a load failed, for the pane to word it. */
export type LoadFailure = 'bad-url' | 'threw' | 'unreadable' | 'cancelled' | 'worker-stopped';

/** Where a pane's loading state goes (the store's load slice, or its compare slice). */
export interface LoadSink {
  /** Performance marks for the browser benchmark: `flameview:<prefix>open`, `…received`. */
  readonly markPrefix: string;
  started(input: RecordingInput): void;
  progress(input: RecordingInput, p: OpenProgress): void;
  finished(snapshot: ProfileSnapshot, name: string, input: RecordingInput): void;
  failed(failure: LoadFailure, name: string, message: string): void;
}

export class RecordingLoader {
  private readonly latest = new Latest();
  /** What is open, so a reload (another event) can read it again and Share can upload it. */
  private last: RecordingInput | null = null;
  /** The options the open recording was last read with (a reload keeps the ones it does not set). */
  private lastOptions: ReloadOptions = {};
  private readonly worker: WorkerHandle<ProfileWorkerApi>;
  /** The page's first open, until this loader's first open has taken its answer or passed it by. */
  private first: FirstOpen | null;

  constructor(
    workerName: string,
    private readonly sink: LoadSink,
    /** The page's first open (src/boot.ts), whose worker and answer this loader takes over. */
    first: FirstOpen | null = null,
  ) {
    this.first = first;
    const start = () => first?.takeWorker() ?? startProfileWorker(workerName);
    this.worker = new WorkerHandle(start, (reason) => {
      this.latest.cancel();
      sink.failed('worker-stopped', '', reason);
    });
  }

  /** The input of the open recording, or null. */
  get opened(): RecordingInput | null {
    return this.last;
  }

  /**
   * The bytes of the open recording when they came from the page (a dropped file or pasted text),
   * for Share to upload; null for a recording opened from a URL (the link already carries it).
   */
  openedBytes(): { body: Blob | string; name: string } | null {
    const last = this.last;
    // Several files have no one original to upload: Share sends the summed recording only.
    if (!last || last.kind === 'url' || last.kind === 'files' || last.kind === 'urls') return null;
    return last.kind === 'file' ? { body: last.file, name: last.name } : { body: last.text, name: last.name };
  }

  /** The open recording is now also at `url` (Share uploaded it): it counts as opened from there. */
  adoptUrl(url: string): void {
    if (this.last) this.last = { kind: 'url', url, given: url, name: this.last.name, demo: false };
  }

  openFile(file: File): Promise<void> {
    return this.open({ kind: 'file', file, name: file.name || 'file' });
  }

  /** Several files as one recording, their sum (one file: openFile). */
  openFiles(files: readonly File[], byRecording = false): Promise<void> {
    if (files.length === 1 && !byRecording) return this.openFile(files[0]);
    const named = files.map((f) => ({ blob: f as Blob, name: f.name || 'file' }));
    return this.open({ kind: 'files', files: named, name: named.map((f) => f.name).join(' + '), byRecording });
  }

  /** The open files again, with or without a root frame per file (a no-op for one recording). */
  regroup(byRecording: boolean): Promise<void> {
    const last = this.last;
    if (!last || (last.kind !== 'files' && last.kind !== 'urls') || last.byRecording === byRecording) return Promise.resolve();
    return this.open({ ...last, byRecording }, { event: this.lastOptions.event, split: this.lastOptions.split });
  }

  openText(text: string): Promise<void> {
    return this.open({ kind: 'paste', text, name: 'pasted text' });
  }

  /** Opens a URL typed or linked by the user; relative URLs resolve against the page. */
  openUrl(raw: string, base = document.baseURI): Promise<void> {
    const checked = checkProfileUrl(raw, base);
    if (!checked.ok) {
      this.sink.failed('bad-url', raw, checked.message);
      return Promise.resolve();
    }
    return this.open({ kind: 'url', url: checked.url, given: raw, name: lastSegment(checked.url), demo: false });
  }

  /** Several URLs (a link's several `profile=`) as one recording, their sum (one URL: openUrl). */
  openUrls(raws: readonly string[], base = document.baseURI): Promise<void> {
    if (raws.length === 1) return this.openUrl(raws[0], base);
    const urls: string[] = [];
    for (const raw of raws) {
      const checked = checkProfileUrl(raw, base);
      if (!checked.ok) {
        this.sink.failed('bad-url', raw, checked.message);
        return Promise.resolve();
      }
      urls.push(checked.url);
    }
    return this.open({ kind: 'urls', urls, given: [...raws], name: urls.map(lastSegment).join(' + '), byRecording: false });
  }

  /** Opens the bundled demo recording (a URL of this site, so it needs no check). */
  openDemo(href: string, name: string): Promise<void> {
    return this.open({ kind: 'url', url: href, given: href, name, demo: true });
  }

  /** The sampled offsets of a function of the recording last opened (the Assembly panel); null: none kept. */
  functionOffsets(name: string): Promise<SymbolOffsets[] | null> {
    return this.worker.get().functionOffsets(name);
  }

  /** The per-line weights of a function of the open recording, from its worker (the line tree stays there). */
  functionLines(view: LinesView, name: string, scope: LinesScope | null): Promise<FunctionLines | null> {
    return this.worker.get().functionLines(view, name, scope);
  }

  /** What the open recording's worker keeps beyond the snapshot (lines, instructions), for Export and Share. */
  keptColumns(): Promise<KeptColumns | null> {
    return this.worker.get().keptColumns();
  }

  /** Drops whatever is loading (the worker aborts it); the pane says what that means. */
  cancel(): void {
    this.latest.cancel();
    void this.worker.current?.cancel();
  }

  /** Forgets the open recording (the pane was closed) and drops any load. */
  close(): void {
    this.cancel();
    this.last = null;
    this.lastOptions = {};
  }

  /**
   * Reads `raw`, the original of the open recording (a shared link's processed form keeps one
   * event), with `options` (another event) in its place; the link keeps naming `linkedAs`.
   */
  openOriginal(raw: string, linkedAs: string, options: ReloadOptions, base = document.baseURI): Promise<void> {
    const checked = checkProfileUrl(raw, base);
    if (!checked.ok) {
      this.sink.failed('bad-url', raw, `the link's original recording: ${checked.message}`);
      return Promise.resolve();
    }
    const loading = this.open({ kind: 'url', url: checked.url, given: raw, name: this.last?.name ?? lastSegment(checked.url), demo: false, linkedAs }, options);
    // open() forgot the options of the recording it replaces (synchronously): these are the new one's.
    this.lastOptions = { ...options };
    return loading;
  }

  /** Reads the open recording again with other options (e.g. another event, or a split). */
  reload(options: ReloadOptions): Promise<void> {
    if (!this.last) return Promise.resolve();
    this.lastOptions = { ...this.lastOptions, ...options };
    return this.open(this.last, { event: this.lastOptions.event, split: this.lastOptions.split, unit: this.lastOptions.unit });
  }

  private async open(input: RecordingInput, extra: Partial<WorkerOpenOptions> = {}): Promise<void> {
    const id = this.latest.next();
    if (input !== this.last) this.lastOptions = {};
    const sink = this.sink;
    performance.mark(`flameview:${sink.markPrefix}open`, { detail: input.name });
    sink.started(input);
    const onProgress = Comlink.proxy((p: OpenProgress) => {
      if (this.latest.isLatest(id)) sink.progress(input, p);
    });
    const options: WorkerOpenOptions = { ...openOptions(input.name), ...extra };
    let result: WorkerOpenResult;
    // Only this loader's first open may take the first open's answer: after it the worker holds
    // another recording.
    const first = this.first;
    this.first = null;
    try {
      const w = this.worker.get();
      if (input.kind === 'file') result = await w.openBlob(input.file, options, onProgress);
      else if (input.kind === 'files') result = await w.openBlobs(input.files, { ...options, byRecording: input.byRecording }, onProgress);
      else if (input.kind === 'url') result = await (first?.takeAnswer(input.url, options, onProgress) ?? w.openUrl(input.url, options, onProgress));
      else if (input.kind === 'urls') result = await w.openUrls(input.urls, { ...options, byRecording: input.byRecording }, onProgress);
      else result = await w.openText(input.text, options, onProgress);
    } catch (e) {
      if (this.latest.isLatest(id)) sink.failed('threw', input.name, e instanceof Error ? e.message : String(e));
      return;
    } finally {
      first?.forget();
    }
    if (!this.latest.isLatest(id)) return;
    performance.mark(`flameview:${sink.markPrefix}received`, { detail: input.name });
    if (result.ok) {
      const name = result.name ?? input.name;
      this.last = { ...input, name };
      sink.finished(fromTransfer(result.wire), name, input);
    } else {
      sink.failed(result.error.kind === 'cancelled' ? 'cancelled' : 'unreadable', input.name, result.error.message);
    }
  }
}
