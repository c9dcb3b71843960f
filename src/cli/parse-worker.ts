// A worker_threads worker of the parallel load (./parallel-load.ts): parses one part of a file,
// reading its own byte range, and sends the partial profile back with its buffers transferred.
// Its own entry point, so the compiled CLI bundles it as dist/node/parse-worker.mjs.

import { open } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { loadPart } from '../core/import/load';
import { importerFor, partBuffers, type PartJob } from '../core/parallel/split';
import { readAhead } from './read-ahead';

export interface ParseWorkerData {
  path: string;
  job: PartJob;
}

export type ParseWorkerMessage =
  | { type: 'progress'; bytesRead: number; samples: number }
  | { type: 'done'; part: Awaited<ReturnType<typeof loadPart>> }
  | { type: 'error'; name: string; message: string };

const { path, job } = workerData as ParseWorkerData;
const port = parentPort!;
try {
  const input = readAhead(await open(path, 'r'), undefined, undefined, job.start, job.end);
  const part = await loadPart(input, importerFor(job.format), {
    ...job.options,
    onProgress: (p) => port.postMessage({ type: 'progress', bytesRead: p.bytesRead, samples: p.samples } satisfies ParseWorkerMessage),
  });
  port.postMessage({ type: 'done', part } satisfies ParseWorkerMessage, partBuffers(part));
} catch (e) {
  const error = e instanceof Error ? e : new Error(String(e));
  port.postMessage({ type: 'error', name: error.name, message: error.message } satisfies ParseWorkerMessage);
}
