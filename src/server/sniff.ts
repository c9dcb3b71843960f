// The server's and the CLI's door to the core sniffer (src/core/import/sniff.ts): whether a file
// on disk, or the head of an upload, holds a recording the engine reads. Used to refuse uploads
// that are not recordings (415) and to give `flameview FILE` a one-line error before a browser
// is opened. Only the Node I/O is here; every decision is the core's, the loader's own.

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Importer } from '../core/import/importer';
import { sniff, type Sniffed } from '../core/import/sniff';

export type { Sniffed };

/** Reads up to `max` bytes from the start of a file. */
export async function readHead(path: string, max: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(max);
    let filled = 0;
    while (filled < max) {
      const { bytesRead } = await handle.read(buffer, filled, max - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** Asks the core about the start of a file, the way loadProfile() would read it. */
export async function sniffFile(path: string, importers?: readonly Importer[]): Promise<Sniffed> {
  return sniff(createReadStream(path, { highWaterMark: 16 * 1024 }), { importers });
}

/**
 * The same question about the first bytes of an upload, so it can be refused before the rest is
 * stored: `head` is all of it (`complete`) or its first SNIFF_BYTES (all the sniffer reads).
 */
export function sniffHead(head: Buffer, complete: boolean, importers?: readonly Importer[]): Promise<Sniffed> {
  return sniff(
    (async function* () {
      yield head;
    })(),
    { importers, complete },
  );
}
