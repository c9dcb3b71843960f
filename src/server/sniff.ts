// Decides whether a file on disk holds a recording the engine reads, by asking the importers'
// detect() about its first 64 KiB (after gunzip when it starts with the gzip magic), as
// core/import/load.ts does with a stream. Used to refuse uploads that are not recordings (415)
// and to give `flameview FILE` a one-line error before a browser is opened.
//
// Invariants: reads at most DETECT_BYTES of decompressed data and a bounded amount of compressed
// data (a gzip bomb cannot make it allocate more); never throws for bad content, only for I/O.

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { GZIP_MAGIC } from '../core/import/byte-stream';
import type { Importer } from '../core/import/importer';
import { bytesImporters } from '../core/import/registry';
import { pickBytesImporter } from '../core/import/whole-input';
import { ImportError, quoteInput } from '../core/model/profile';

export const DETECT_BYTES = 64 * 1024;
/** perf's binary format: `perf script` must turn it into text first. */
export const PERF_DATA_MAGIC = 'PERFILE2';

export type Sniffed =
  | { ok: true; format: string; gzip: boolean }
  | { ok: false; reason: string };

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

export function isPerfData(head: Uint8Array): boolean {
  return head.length >= 8 && Buffer.from(head.subarray(0, 8)).toString('latin1') === PERF_DATA_MAGIC;
}

function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

/** The first `max` decompressed bytes of a gzip file; atEnd when that is all of it. */
function gunzipHead(path: string, max: number): Promise<{ bytes: Buffer; atEnd: boolean } | { error: string }> {
  return new Promise((resolve) => {
    const input = createReadStream(path, { highWaterMark: 16 * 1024 });
    const gunzip = createGunzip();
    const parts: Buffer[] = [];
    let length = 0;
    let settled = false;
    const finish = (value: { bytes: Buffer; atEnd: boolean } | { error: string }) => {
      if (settled) return;
      settled = true;
      input.destroy();
      gunzip.destroy();
      resolve(value);
    };
    gunzip.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      length += chunk.length;
      if (length >= max) finish({ bytes: Buffer.concat(parts).subarray(0, max), atEnd: false });
    });
    gunzip.on('end', () => finish({ bytes: Buffer.concat(parts), atEnd: true }));
    gunzip.on('error', (e) => {
      // A truncated stream still has a usable head; a corrupt one is refused.
      if (length > 0) finish({ bytes: Buffer.concat(parts), atEnd: false });
      else finish({ error: `a corrupt gzip stream (${e.message})` });
    });
    input.on('error', (e) => finish({ error: e.message }));
    input.pipe(gunzip);
  });
}

/** Asks the importers about the head of the file, the way loadProfile() would. */
export async function sniffFile(path: string, importers: readonly Importer[]): Promise<Sniffed> {
  const raw = await readHead(path, DETECT_BYTES + 1);
  if (raw.length === 0) return { ok: false, reason: 'the file is empty' };
  if (isPerfData(raw)) {
    return { ok: false, reason: 'binary perf.data (run `perf script` on it first, or open it with `flameview FILE`)' };
  }
  const gzip = isGzip(raw);
  let bytes: Buffer;
  let atEnd: boolean;
  if (gzip) {
    const head = await gunzipHead(path, DETECT_BYTES + 1);
    if ('error' in head) return { ok: false, reason: head.error };
    ({ bytes, atEnd } = head);
  } else {
    bytes = raw;
    atEnd = raw.length <= DETECT_BYTES;
  }
  if (!atEnd) bytes = bytes.subarray(0, DETECT_BYTES);
  // Whole-input formats (pprof, Chrome/speedscope JSON) are asked first, as loadProfile does.
  try {
    const whole = pickBytesImporter(bytesImporters, bytes, atEnd);
    if (whole) return { ok: true, format: whole.format, gzip };
  } catch (e) {
    if (e instanceof ImportError) return { ok: false, reason: `expected ${e.expected}, found ${e.found}` };
    throw e;
  }
  return sniffText(new TextDecoder('utf-8').decode(bytes, { stream: !atEnd }), atEnd, importers, gzip);
}

export function sniffText(text: string, atEnd: boolean, importers: readonly Importer[], gzip = false): Sniffed {
  let head = text;
  // Detection decides on whole lines (as load.ts does) unless one line fills the whole head.
  if (!atEnd) {
    const nl = head.lastIndexOf('\n');
    if (nl >= 0) head = head.slice(0, nl + 1);
  }
  if (head.trim().length === 0) return { ok: false, reason: 'no samples (the input is empty)' };
  for (const importer of importers) {
    if (importer.detect(head, atEnd) === 'yes') return { ok: true, format: importer.format, gzip };
  }
  const expected = importers.map((i) => i.description).join(' or ');
  const first = head.split('\n', 200).find((l) => l.trim() !== '' && !l.startsWith('#')) ?? '';
  const found = first.includes('\u0000') || first.includes('\ufffd') ? 'binary data' : quoteInput(first);
  return { ok: false, reason: `expected ${expected}, found ${found}` };
}
