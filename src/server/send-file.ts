// Sends bytes of a local file to an HTTP response through a few reused buffers.
//
// Why not fs.createReadStream: it allocates a fresh buffer per read, and V8 counts those as
// external memory; serving a 1 GB recording made the server run ~28 full GCs and spend 1.3-2.4 s
// of CPU, on the same cores as the page parsing it (bench/README.md, "fourth session").
//
// Invariants: the file is read as the CLI reads it (../cli/read-ahead.ts: reads in flight into
// reused buffers), and a chunk is released to be read over only after the socket's write callback
// for it has run (the kernel has the bytes); a closed or failed response stops the reads; the
// file is always closed; a file that shrank while being sent ends the response early (destroyed,
// so the client sees a short body against its content-length, not a hang).

import type { FastifyReply } from 'fastify';
import type { FileHandle } from 'node:fs/promises';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { readAhead } from '../node/read-ahead';
import type { ByteRange } from './store';

const CHUNK = 1 << 20;
const BUFFERS = 3;

/**
 * Sets the status and length of a body of `size` bytes sent whole (200) or as one `range` (206,
 * with its Content-Range); returns the first and last byte to send.
 */
export function bodyRange(reply: FastifyReply, range: ByteRange | null, size: number): ByteRange {
  const { start, end } = range ?? { start: 0, end: size - 1 };
  reply.code(range ? 206 : 200).header('content-length', end - start + 1);
  if (range) reply.header('content-range', `bytes ${start}-${end}/${size}`);
  return { start, end };
}

/**
 * Answers with bytes [start, end] (inclusive) of `file` (none for HEAD) under the status and
 * headers set on `reply` so far; closes the file. The body bypasses fastify's stream piping, so
 * its onSend hooks do not run: set every header before (the onRequest hook's are set).
 */
export async function replyWithFileBytes(reply: FastifyReply, file: FileHandle, start: number, end: number): Promise<void> {
  reply.hijack();
  try {
    reply.raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
  } catch (error) {
    await file.close();
    reply.raw.destroy(error as Error);
    return;
  }
  if (reply.request.method === 'HEAD') {
    await file.close();
    reply.raw.end();
  } else await sendFileBytes(reply.raw, file, start, end);
}

/** Writes bytes [start, end] (inclusive) of `file` to `res` and ends it; closes the file. */
export async function sendFileBytes(res: ServerResponse, file: FileHandle, start: number, end: number): Promise<void> {
  const length = end + 1 - start;
  // A small range (the page's probe, its boundary searches) needs no 3 MiB of buffers.
  const chunks = readAhead(file, Math.max(1, Math.min(CHUNK, length)), BUFFERS, start, end + 1);
  let sent = 0;
  try {
    for await (const chunk of chunks) {
      if (res.destroyed) return;
      // The chunk's buffer is read over once the next chunk is asked for: not before the write is done.
      await new Promise<void>((resolve) => {
        res.once('close', resolve);
        res.write(chunk, () => {
          res.off('close', resolve);
          resolve();
        });
      });
      sent += chunk.length;
    }
    if (sent < length) res.destroy();
    else res.end();
  } catch (error) {
    res.destroy(error as Error);
  }
}
