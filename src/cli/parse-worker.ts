// A worker_threads worker of the parallel load (./parallel-load.ts): parses one part of a file,
// reading its own byte range, and sends the partial profile back with its buffers transferred.
// Its own entry point, so the compiled CLI bundles it as dist/node/parse-worker.mjs.

import { parentPort, workerData } from 'node:worker_threads';
import { parsePartJob, type PartJob, type PartMessage } from '../core/parallel/split';
import { threadCpuMs } from './thread-cpu';
import { readFileRange } from '../node/read-ahead';

export interface ParseWorkerData {
  path: string;
  job: PartJob;
}

const { path, job } = workerData as ParseWorkerData;
const port = parentPort!;
const post = (message: PartMessage, transfer?: ArrayBuffer[]) => {
  if (message.type === 'done') message.part.cpuMs = threadCpuMs();
  port.postMessage(message, transfer);
};
try {
  await parsePartJob(readFileRange(path, job.start, job.end), job, post);
} catch (e) {
  post({ type: 'error', name: 'Error', message: e instanceof Error ? e.message : String(e) });
}
