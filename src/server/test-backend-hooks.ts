// Both store backends for a vitest file: s3rver (or the S3 named by FLAMEVIEW_TEST_S3_BUCKET)
// starts before the file's tests and stops after them; stores are emptied after each test.

import { afterAll, afterEach, beforeAll } from 'vitest';
import { diskBackend, s3Backend, type Backend } from './test-backends';

export type BackendName = 'disk' | 's3';
export const BACKEND_NAMES: readonly BackendName[] = ['disk', 's3'];

/** The backends, by name; `s3` is there once the file's beforeAll has run. */
export function storeBackends(): Record<BackendName, Backend> {
  const backends = { disk: diskBackend() } as Record<BackendName, Backend>;
  beforeAll(async () => {
    backends.s3 = await s3Backend();
  }, 60_000);
  afterEach(async () => {
    for (const b of Object.values(backends)) await b.cleanup();
  });
  afterAll(async () => {
    await backends.s3?.stop();
  });
  return backends;
}
