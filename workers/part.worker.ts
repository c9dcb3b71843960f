// A part worker of parallel parsing (src/core/parallel/split.ts): the profile worker starts one
// per part of a large recording; it reads its own Blob.slice() (no bytes pass through another
// thread), or fetches its own byte range of a URL (HTTP Range), and posts the partial profile
// back with its buffers transferred.

import { parsePartJob, type PartJob } from '../src/core/parallel/split';
import { fetchRange, readStream, type PartInput } from '../src/core/session/profile-session';

self.onmessage = (e: MessageEvent<{ input: PartInput; job: PartJob }>) => {
  const { input, job } = e.data;
  const post = (message: unknown, transfer: ArrayBuffer[] = []) => self.postMessage(message, { transfer });
  void parsePartJob(bytesOf(input, job), job, post);
};

async function* bytesOf(input: PartInput, job: PartJob): AsyncGenerator<Uint8Array> {
  if ('blob' in input) return yield* readStream(input.blob.slice(job.start, job.end).stream());
  const response = await fetchRange(fetch, input.url, job.start, job.end);
  yield* readStream(response.body!);
}
