// A part worker of parallel parsing (src/core/parallel/split.ts): the profile worker starts one
// per part of a large recording but the first, which it parses itself. A part worker reads its
// own Blob.slice() (no bytes pass through another thread), or fetches its own byte range of a
// URL (HTTP Range), and posts the partial profile back with its buffers transferred.

import { parsePartJob, type PartJob } from '../src/core/parallel/split';
import { partBytes, type PartInput } from '../src/core/session/profile-session';

self.onmessage = (e: MessageEvent<{ input: PartInput; job: PartJob }>) => {
  const { input, job } = e.data;
  const post = (message: unknown, transfer: ArrayBuffer[] = []) => self.postMessage(message, { transfer });
  void parsePartJob(partBytes(fetch, input, job), job, post);
};
