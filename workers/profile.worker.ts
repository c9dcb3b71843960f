// The profile worker: a comlink facade over ProfileSession (src/core/session/profile-session.ts). It reads the
// File/Blob handle or fetches the URL itself, so no bytes of the recording touch the main thread,
// and returns the snapshot's typed-array buffers by transfer, never by structured clone.

import * as Comlink from 'comlink';
import { ProfileSession, type LinesScope, type OpenOptions, type OpenProgress, type OpenResult } from '../src/core/session/profile-session';
import { toTransfer, type SnapshotWire } from '../src/core/views/snapshot';
import { watchCspViolations } from '../src/core/session/fetch-failure';
import type { LinesView } from '../src/core/query/source-lines';
import { awaitPart, type PartMessage, type PartPort } from '../src/core/parallel/split';

export type WorkerOpenResult = { ok: true; wire: SnapshotWire; name?: string } | Extract<OpenResult, { ok: false }>;
export type ProgressCallback = (progress: OpenProgress) => void;
export type WorkerOpenOptions = Omit<OpenOptions, 'onProgress'>;

// What a failed #profile= fetch is explained with: the worker's origin, and the URLs its
// Content-Security-Policy refused. Large recordings are parsed in parts, one per core: this
// worker finds the cuts, parses the first part and merges; a part worker each parses the others
// (workers/part.worker.ts).
const session = new ProfileSession({
  base: self.location.href,
  cspBlocked: watchCspViolations(self),
  parts: {
    workers: Math.max(1, navigator.hardwareConcurrency || 1),
    run(input, job, progress, signal) {
      const worker = new Worker(new URL('./part.worker.ts', import.meta.url), { type: 'module', name: `flameview-part-${job.index}` });
      worker.postMessage({ input, job });
      const port: PartPort = {
        listen(message, failure) {
          worker.onmessage = (e: MessageEvent<PartMessage>) => message(e.data);
          worker.onerror = (e) => failure(new Error(e.message || 'a part worker failed'));
        },
        terminate: () => worker.terminate(),
      };
      return awaitPart(port, progress, signal);
    },
  },
});

async function finish(onProgress: ProgressCallback, run: (options: { onProgress: ProgressCallback }) => Promise<OpenResult>): Promise<WorkerOpenResult> {
  try {
    // Progress messages are fire-and-forget: never wait for the page to acknowledge one.
    const result = await run({ onProgress: (p) => void onProgress(p) });
    if (!result.ok) return result;
    const { wire, transfer } = toTransfer(result.snapshot);
    return Comlink.transfer({ ok: true, wire, name: result.name }, transfer);
  } finally {
    (onProgress as Partial<Comlink.Remote<ProgressCallback>>)[Comlink.releaseProxy]?.();
  }
}

const api = {
  openBlob: (blob: Blob, options: WorkerOpenOptions, onProgress: ProgressCallback) =>
    finish(onProgress, (o) => session.openBlob(blob, { ...options, ...o })),
  openBlobs: (files: { blob: Blob; name: string }[], options: WorkerOpenOptions & { byRecording?: boolean }, onProgress: ProgressCallback) =>
    finish(onProgress, (o) => session.openBlobs(files, { ...options, ...o })),
  openUrl: (url: string, options: WorkerOpenOptions, onProgress: ProgressCallback) =>
    finish(onProgress, (o) => session.openUrl(url, { ...options, ...o })),
  openUrls: (urls: string[], options: WorkerOpenOptions & { byRecording?: boolean }, onProgress: ProgressCallback) =>
    finish(onProgress, (o) => session.openUrls(urls, { ...options, ...o })),
  openText: (text: string, options: WorkerOpenOptions, onProgress: ProgressCallback) =>
    finish(onProgress, (o) => session.openText(text, { ...options, ...o })),
  functionLines: (view: LinesView, name: string, scope: LinesScope | null) => session.functionLines(view, name, scope),
  functionOffsets: (name: string) => session.functionOffsets(name),
  keptColumns: () => session.keptColumns(),
  cancel: () => session.cancel(),
};

export type ProfileWorkerApi = typeof api;

Comlink.expose(api);
