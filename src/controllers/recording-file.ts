// The whole recording as a gzipped file (processed or pprof) for Export and Share, made in an
// export worker started for the job (workers/export.worker.ts over core/export/recording-file.ts):
// encoding and gzip of a large recording take seconds of CPU that the graph's thread must not
// spend. The worker gets copies of the columns (the page keeps drawing its own) and is terminated
// after the job, or when it fails to start (its 'error' event fails the job with its message).

import * as Comlink from 'comlink';
import { toRecordingFileWire, type RecordingFileKind } from '../core/export/recording-file';
import { appFromReport, collectApp, reportHtml } from '../core/export/report';
import type { ProfileSnapshot } from '../core/views/snapshot';
import type { ExportWorkerApi } from '../../workers/export.worker';
import { recordingInput } from './export-files';
import { keptColumnsOf } from './recordings';

export async function recordingBlob(snapshot: ProfileSnapshot, kind: RecordingFileKind): Promise<Blob> {
  const worker = new Worker(new URL('../../workers/export.worker.ts', import.meta.url), { type: 'module', name: 'flameview-export' });
  try {
    const failed = new Promise<never>((_, reject) =>
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        reject(new Error(event.message || 'the export worker could not be started'));
      }),
    );
    // The Source and Assembly panels' figures stay in the profile worker: the processed form keeps
    // both, pprof the lines (its Location addresses are not perf's symbol offsets).
    const kept = await keptColumnsOf(snapshot).catch(() => null);
    const bytes = await Promise.race([Comlink.wrap<ExportWorkerApi>(worker).file(kind, toRecordingFileWire(recordingInput(snapshot, kept))), failed]);
    return new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' });
  } finally {
    worker.terminate();
  }
}

/**
 * The open recording (and the comparison, when one is open) as a self-contained HTML report, what
 * `flameview html` writes (core/export/report.ts). The app's own files come from the report this
 * page is, or else are fetched from where this page was served (the same files it loaded).
 */
export async function reportBlob(recordings: readonly { snapshot: ProfileSnapshot; name: string }[], doc: Document = document): Promise<Blob> {
  const app =
    appFromReport(doc) ??
    (await collectApp(doc.head.outerHTML, async (file) => {
      const response = await fetch(new URL(file, doc.baseURI));
      if (!response.ok) throw new Error(`the app's file ${file} could not be read (HTTP ${response.status})`);
      return response.text();
    }));
  const parts = await Promise.all(recordings.map(async (r) => ({ name: r.name, bytes: new Uint8Array(await (await recordingBlob(r.snapshot, 'flameview')).arrayBuffer()) })));
  return new Blob([reportHtml(app, parts, `${parts.map((r) => r.name).join(' vs ')} · flameview`)], { type: 'text/html;charset=utf-8' });
}
