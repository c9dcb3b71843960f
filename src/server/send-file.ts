// Sends bytes of a local file to an HTTP response through a few reused buffers.
//
// Why not fs.createReadStream: it allocates a fresh buffer per read, and V8 counts those as
// external memory; serving a 1 GB recording made the server run ~28 full GCs and spend 1.4-2.4 s
// of CPU, on the same cores as the page parsing it (bench/README.md, "fourth session").
//
// Invariants: a buffer is reused only after the socket's write callback for it has run (the
// kernel has the bytes); at most BUFFERS × CHUNK bytes per response; a closed or failed response
// stops the reads and closes the file; a file that shrank while being sent ends the response
// early (destroyed, so the client sees a short body against its content-length, not a hang).

import type { FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';

const CHUNK = 1 << 20;
const BUFFERS = 3;

/** Writes bytes [start, end] (inclusive) of `file` to `res` and ends it; closes the file. */
export async function sendFileBytes(res: ServerResponse, file: FileHandle, start: number, end: number): Promise<void> {
  const free: Buffer[] = [];
  for (let i = 0; i < BUFFERS; i++) free.push(Buffer.allocUnsafeSlow(CHUNK));
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  res.on('close', signal);
  res.on('drain', signal);
  try {
    let at = start;
    while (at <= end) {
      while ((free.length === 0 || res.writableNeedDrain) && !res.destroyed) await new Promise<void>((r) => (wake = r));
      if (res.destroyed) return;
      const buffer = free.pop() as Buffer;
      const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK, end + 1 - at), at);
      if (bytesRead === 0) {
        res.destroy();
        return;
      }
      at += bytesRead;
      res.write(buffer.subarray(0, bytesRead), () => {
        free.push(buffer);
        signal();
      });
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  } finally {
    res.off('close', signal);
    res.off('drain', signal);
    await file.close();
  }
}
