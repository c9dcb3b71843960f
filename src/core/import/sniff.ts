// Format detection, once for every host. loadProfile (./load.ts) picks its importer with
// pickImporter/hasDecision while it streams; sniff() asks the same questions about the start of an
// input without parsing it, for the server (refuse an upload that is no recording) and the CLI
// (`flameview FILE` says what is wrong before a browser opens). Chosen by content, never by name.
//
// Order, as loadProfile reads an input: perf.data's magic (raw bytes; the engine cannot read it,
// `perf script` must turn it into text), the gzip magic (then everything below is about the
// gunzipped bytes), the whole-input formats on the first HEAD_BYTES (./whole-input.ts), then the
// line-based importers on whole lines of the decoded head.
//
// Invariants: sniff() reads at most SNIFF_BYTES of the source (plus one chunk), then returns its
// iterator, and decompresses no more than detection asks for (HEAD_BYTES + DETECT_LIMIT, plus a
// chunk), so a gzip bomb cannot make it allocate more; it never throws for bad content, only for
// I/O.

import { ImportError, quoteInput, type FormatId } from '../model/profile';
import { concatBytes, copyBytes, DECODE_PIECE, GzipError, GZIP_MAGIC, maybeGunzip, Utf8Decoder } from './byte-stream';
import type { BytesImporter, Importer } from './importer';
import { bytesImporters as defaultBytesImporters, importers as defaultImporters } from './registry';
import { HEAD_BYTES, pickBytesImporter } from './whole-input';

/** How much decoded text detection may look at before it must decide. */
export const DETECT_LIMIT = 64 * 1024;

/** perf.data files start with one of these ("PERFILE2" today; "PERFFILE" was version 1). */
export const PERF_DATA_MAGICS: readonly string[] = ['PERFILE2', 'PERFFILE'];

export function isPerfData(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  return PERF_DATA_MAGICS.includes(String.fromCharCode(...head.subarray(0, 8)));
}

export function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

/** True once the line-based importers can decide on `head` (whole lines only). */
export function hasDecision(importers: readonly Importer[], head: string): boolean {
  // Only decide on whole lines: a head that ends mid-line could mislead a sniffer.
  return head.lastIndexOf('\n') >= 0 && detectImporter(importers, head, false) !== 'need-more';
}

/** The first importer, in order, that says yes to `head`; 'need-more' when one before it cannot tell yet; null when none does. */
export function detectImporter(importers: readonly Importer[], head: string, atEnd: boolean): Importer | 'need-more' | null {
  for (const importer of importers) {
    const d = importer.detect(head, atEnd);
    if (d === 'yes') return importer;
    if (d === 'need-more') return 'need-more';
  }
  return null;
}

/**
 * The importer for a decoded head; null for an empty input (at its end). Throws an ImportError
 * naming every format expected, the first line with content and what it holds.
 */
export function pickImporter(importers: readonly Importer[], head: string, atEnd: boolean, source?: string): Importer | null {
  if (head.trim().length === 0) return atEnd ? null : importers[0];
  for (const importer of importers) if (importer.detect(head, atEnd) === 'yes') return importer;
  const { line, text } = firstContentLine(head);
  // Binary input was no whole-input format either: then the list names every format read.
  const binary = text.includes('\u0000') || text.includes('\ufffd');
  const expected = [...importers, ...(binary ? defaultBytesImporters : [])].map((i) => i.description).join(' or ');
  if (head.startsWith('\u007fELF')) throw new ImportError(expected, 0, ELF_FOUND, source);
  // perf.data under gzip (plain perf.data is mostly recognised by its raw magic before this).
  if (PERF_DATA_MAGICS.some((m) => head.startsWith(m))) throw new ImportError(expected, 1, PERF_DATA_FOUND, source);
  throw new ImportError(expected, line, describeFound(text), source);
}

/** perf.data met as text (under gzip, say): binary still, which perf script must read. */
export const PERF_DATA_FOUND = 'binary perf.data (PERFILE2 magic): run `perf script` on it, gunzipped if it was gzipped, or open it with `flameview FILE`';

/** What an executable dropped instead of a recording is, and how to record one. */
export const ELF_FOUND =
  'an ELF executable (ELF magic), not a recording: record it with `perf record -g -- ./PROGRAM`, then run `perf script > out.txt` and open out.txt';

function firstContentLine(head: string): { line: number; text: string } {
  const lines = head.split('\n', 200);
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '' && !lines[i].startsWith('#')) return { line: i + 1, text: lines[i] };
  }
  return { line: 1, text: lines[0] ?? '' };
}

function describeFound(text: string): string {
  if (text.includes('\u0000')) return `binary data (NUL bytes) ${quoteInput(text, 24)}`;
  if (text.includes('\ufffd')) return `binary data (not UTF-8) ${quoteInput(text, 24)}`;
  return quoteInput(text);
}

export type Sniffed =
  | { ok: true; format: FormatId; gzip: boolean }
  /** `perfData`: the input is binary perf.data, which `perf script` can turn into text. */
  | { ok: false; reason: string; perfData?: true };

export interface SniffOptions {
  importers?: readonly Importer[];
  bytesImporters?: readonly BytesImporter[];
  /** False when the source is only the start of the input (an upload's head): its end is no end. */
  complete?: boolean;
}

/**
 * Raw bytes sniff() reads at the most: enough for detection's decompressed HEAD_BYTES +
 * DETECT_LIMIT even from a gzip stream that does not compress (deflate adds a few bytes a block).
 */
export const SNIFF_BYTES = 256 * 1024;

export const PERF_DATA_REASON = 'binary perf.data (run `perf script` on it first, or open it with `flameview FILE`)';

/** The format loadProfile would read `source` as, or why it would refuse it, from its start. */
export async function sniff(source: AsyncIterable<Uint8Array>, options: SniffOptions = {}): Promise<Sniffed> {
  const start = await readStart(source, SNIFF_BYTES);
  const raw = start.bytes;
  if (raw.length === 0) return { ok: false, reason: 'the file is empty' };
  // The magics are raw bytes: perf.data's before anything else, gzip's to report it.
  if (isPerfData(raw)) return { ok: false, reason: PERF_DATA_REASON, perfData: true };
  const gzip = isGzip(raw);
  const complete = start.complete && (options.complete ?? true);
  const decided = await detect(maybeGunzip(once(raw)), options.importers ?? defaultImporters, options.bytesImporters ?? defaultBytesImporters, complete);
  return 'reason' in decided ? { ok: false, reason: decided.reason } : { ok: true, format: decided.format, gzip };
}

/** The first `max` bytes of `source` (copied), and whether that is all of it; the source is then closed. */
async function readStart(source: AsyncIterable<Uint8Array>, max: number): Promise<{ bytes: Uint8Array; complete: boolean }> {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length <= max) {
      const r = await iterator.next();
      if (r.done) return { bytes: concatBytes(chunks, length), complete: true };
      chunks.push(copyBytes(r.value));
      length += r.value.length;
    }
  } finally {
    await iterator.return?.();
  }
  return { bytes: concatBytes(chunks, max), complete: false };
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** The decisions of ./load.ts and ./whole-input.ts, in their order, on a decompressed stream. */
async function detect(
  stream: AsyncGenerator<Uint8Array>,
  importers: readonly Importer[],
  bytesImporters: readonly BytesImporter[],
  complete: boolean,
): Promise<{ format: FormatId } | { reason: string }> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  let done = false;
  /** Next chunk, or null at the end; a gzip error ends a partial input's usable head. */
  const next = async (): Promise<Uint8Array | null> => {
    if (done) return null;
    try {
      const r = await stream.next();
      if (!r.done) return r.value;
    } catch (e) {
      if (!(e instanceof GzipError) || complete || length === 0) throw e;
    }
    done = true;
    return null;
  };
  try {
    while (length < HEAD_BYTES) {
      const chunk = await next();
      if (!chunk) break;
      if (chunk.length === 0) continue;
      chunks.push(copyBytes(chunk));
      length += chunk.length;
    }
    const atEnd = done && complete;
    const start = concatBytes(chunks, Math.min(length, HEAD_BYTES));
    const whole = pickBytesImporter(bytesImporters, start, atEnd);
    if (whole) {
      whole.checkHead?.(start);
      return { format: whole.format };
    }
    const decoder = new Utf8Decoder();
    let head = '';
    const decide = (end: boolean): { format: FormatId } | { reason: string } => {
      const importer = pickImporter(importers, head, end);
      return importer ? { format: importer.format } : { reason: 'no samples (the input is empty)' };
    };
    for (let chunk: Uint8Array | null = chunks.shift() ?? (await next()); chunk; chunk = chunks.shift() ?? (await next())) {
      for (let at = 0; at < chunk.length; at += DECODE_PIECE) {
        head += decoder.decode(chunk.length <= DECODE_PIECE ? chunk : chunk.subarray(at, at + DECODE_PIECE));
        if (head.length >= DETECT_LIMIT || hasDecision(importers, head)) return decide(false);
      }
    }
    head += decoder.end();
    if (complete) return decide(true);
    // Only the start of the input: decide on its whole lines, as the loader would with more.
    const nl = head.lastIndexOf('\n');
    if (nl >= 0) head = head.slice(0, nl + 1);
    return decide(false);
  } catch (e) {
    if (e instanceof GzipError) return { reason: e.message };
    if (e instanceof ImportError) return { reason: `expected ${e.expected}, found ${e.found}` };
    throw e;
  } finally {
    await stream.return(undefined);
  }
}
