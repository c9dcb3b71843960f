// Reading a file for the engine with several reads in flight (Node hosts: the CLI and the
// benchmarks).
//
// Why: a read stream keeps one read of one chunk in flight, issued when the previous chunk is
// taken, so the engine's thread waits for chunks that a read issued earlier would have ready
// (bench/README.md).
//
// Only for regular files (positional reads; a pipe or FIFO takes a read stream).
//
// Invariants: chunks come in file order, with no gap or overlap, each a view of one of `depth` reused buffers, valid
// until the chunk after it is requested (the engine copies what it keeps across reads: see
// ../core/import/byte-stream.ts); at most `depth` buffers of `chunkSize` bytes are allocated;
// the handle is closed when the reading ends, fails or is abandoned.

import { open, type FileHandle } from 'node:fs/promises';

export const READ_CHUNK = 1 << 20;
export const READ_DEPTH = 4;

/** Bytes [start, end) of the file (to its end by default), in chunks of `chunkSize`. */
export async function* readAhead(
  handle: FileHandle,
  chunkSize = READ_CHUNK,
  depth = READ_DEPTH,
  start = 0,
  end = Infinity,
): AsyncGenerator<Uint8Array> {
  const buffers = Array.from({ length: depth }, () => Buffer.allocUnsafeSlow(chunkSize));
  const reads: Promise<{ bytesRead: number }>[] = [];
  const size = (k: number): number => Math.max(0, Math.min(chunkSize, end - start - k * chunkSize));
  // Errors of reads issued but never awaited (the consumer stopped early) must not go unhandled.
  const issue = (k: number): void => {
    const read = handle.read(buffers[k % depth], 0, size(k), start + k * chunkSize);
    read.catch(() => {});
    reads[k % depth] = read;
  };
  try {
    for (let k = 0; k < depth; k++) issue(k);
    for (let k = 0; ; k++) {
      const buffer = buffers[k % depth];
      let filled = (await reads[k % depth]).bytesRead;
      // A short read before the end of the file would leave a gap before the next chunk's offset.
      while (filled > 0 && filled < size(k)) {
        const more = await handle.read(buffer, filled, size(k) - filled, start + k * chunkSize + filled);
        if (more.bytesRead === 0) break;
        filled += more.bytesRead;
      }
      if (filled === 0) return;
      yield buffer.subarray(0, filled);
      // The consumer asked for the next chunk: this buffer is free again.
      issue(k + depth);
    }
  } finally {
    // Let reads still in flight finish before the handle closes under them.
    await Promise.allSettled(reads);
    await handle.close();
  }
}

/** Bytes [start, end) of the file at `path`, read as readAhead reads them (a part of a parallel load). */
export async function* readFileRange(path: string, start: number, end: number): AsyncGenerator<Uint8Array> {
  yield* readAhead(await open(path, 'r'), READ_CHUNK, READ_DEPTH, start, end);
}
