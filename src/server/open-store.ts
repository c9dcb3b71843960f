// Opens the store a `--store` value names (kept apart from store.ts, which both backends import).

import type { RecordingStore } from './store';

/** Opens the store a `--store` value names: s3://BUCKET/PREFIX, or a directory. */
export async function openStore(location: string, s3?: { endpoint?: string }): Promise<RecordingStore> {
  if (location.startsWith('s3://')) {
    const { S3Store, parseS3Url } = await import('./s3-store');
    return S3Store.open(parseS3Url(location), s3?.endpoint);
  }
  const { DiskStore } = await import('./disk-store');
  return DiskStore.open(location);
}
