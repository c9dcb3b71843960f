// Byte-level input handling shared by every host: gzip recognised by its magic bytes and
// decompressed as a stream, and line splitting with a bounded line length.
//
// Invariants: the input is never held as one string; at most one chunk plus one partial line
// (capped at maxLineChars) is held at a time.

export const GZIP_MAGIC = [0x1f, 0x8b] as const;
export const DEFAULT_MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * Returns the bytes, gunzipped as a stream when they start with the gzip magic. A source chunk
 * may be valid only until the next is requested (session.ts reads into one reused buffer), so
 * whatever is held across a read is copied: a short first chunk, and gzip input, which the
 * decompressor consumes asynchronously.
 */
export async function* maybeGunzip(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  let first = await iterator.next();
  while (!first.done && first.value.length === 0) first = await iterator.next();
  if (first.done) return;
  let head = first.value;
  // The magic is two bytes: a one-byte first chunk must not hide it (stdin may deliver one).
  if (head.length < 2) head = head.slice();
  while (head.length < 2) {
    const r = await iterator.next();
    if (r.done) break;
    const joined = new Uint8Array(head.length + r.value.length);
    joined.set(head);
    joined.set(r.value, head.length);
    head = joined;
  }
  if (!(head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1])) {
    yield head;
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) yield r.value;
    return;
  }
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head.slice());
    },
    async pull(controller) {
      const r = await iterator.next();
      if (r.done) controller.close();
      else controller.enqueue(r.value.slice());
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const reader = input.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>).getReader();
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) return;
      yield r.value;
    }
  } catch (e) {
    throw new GzipError(e instanceof Error ? e.message : String(e));
  } finally {
    reader.releaseLock();
  }
}

export class GzipError extends Error {
  constructor(detail: string) {
    super(`the gzip stream is corrupt or truncated (${detail})`);
    this.name = 'GzipError';
  }
}

/**
 * Streaming UTF-8 decoding with a fast path for pure-ASCII chunks, which is nearly every
 * recording. Measured on Node 20 (bench/, 1 MiB chunks): a streaming TextDecoder runs at about
 * 600 MB/s and was a third of the perf importer's profile; checking that a chunk is ASCII runs
 * at about 6 GB/s and Node's Buffer turns an ASCII chunk into a one-byte string at about 2 GB/s.
 * Buffer's `latin1Slice` is duck-typed, so the core imports nothing from Node; browsers (plain
 * Uint8Array chunks) build ASCII chunks' strings with String.fromCharCode (asciiText).
 *
 * Invariants: the output is exactly what one streaming TextDecoder('utf-8') gives for the whole
 * input (a leading BOM is dropped, invalid bytes become U+FFFD): the first chunk always goes
 * through the decoder (so its start-of-stream BOM handling is used up), and a chunk skips the
 * decoder only when the decoder cannot be holding part of a character, i.e. the last byte it was
 * given was ASCII.
 */
export class Utf8Decoder {
  private readonly decoder = new TextDecoder('utf-8');
  private started = false;
  private pending = false;
  /** True once the output contained U+FFFD (invalid input bytes, or a literal U+FFFD). */
  sawReplacement = false;

  decode(bytes: Uint8Array): string {
    if (bytes.length === 0) return '';
    const fast = (bytes as Partial<Latin1Slicer>).latin1Slice;
    if (this.started && !this.pending && (typeof fast === 'function' || NO_BUFFER) && isAscii(bytes)) {
      return typeof fast === 'function' ? fast.call(bytes, 0, bytes.length) : asciiText(bytes);
    }
    this.started = true;
    this.pending = bytes[bytes.length - 1] >= 0x80;
    const text = this.decoder.decode(bytes, { stream: true });
    if (!this.sawReplacement && text.includes('\ufffd')) this.sawReplacement = true;
    return text;
  }

  /** Flushes a truncated last character (as U+FFFD). */
  end(): string {
    const text = this.decoder.decode();
    if (text.includes('\ufffd')) this.sawReplacement = true;
    this.pending = false;
    return text;
  }
}

/**
 * An ASCII chunk as a string without TextDecoder, for hosts without Buffer (browsers). In the
 * Chromium 156 profile worker, TextDecoder took ~3 s of a 200 MB perf script load (~70 MB/s,
 * though ~2 GB/s in isolation); this loop ~0.5 s less than that. Sixteen bytes per call.
 */
export function asciiText(b: Uint8Array): string {
  let text = '';
  const n = b.length;
  let i = 0;
  for (; i + 16 <= n; i += 16) {
    text += String.fromCharCode(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5], b[i + 6], b[i + 7], b[i + 8], b[i + 9], b[i + 10], b[i + 11], b[i + 12], b[i + 13], b[i + 14], b[i + 15]);
  }
  for (; i < n; i++) text += String.fromCharCode(b[i]);
  return text;
}

/** Node's TextDecoder is fast (and its plain Uint8Array chunks are rare): only browsers use asciiText. */
const NO_BUFFER = typeof (globalThis as { Buffer?: unknown }).Buffer === 'undefined';

interface Latin1Slicer {
  latin1Slice(start: number, end: number): string;
}

/** Whether every byte is below 0x80; reads aligned 32-bit words where it can. */
export function isAscii(bytes: Uint8Array): boolean {
  const n = bytes.length;
  let acc = 0;
  let i = 0;
  // Both byte loops run at least once on every call longer than 8 bytes (1-4 bytes each), so
  // TurboFan always has type feedback for them: a loop that never ran in warm-up deopts the
  // whole function the first time it does (seen with --trace-deopt on the bench inputs).
  const head = Math.min(n, ((4 - (bytes.byteOffset & 3)) & 3) || 4);
  for (; i < head; i++) acc |= bytes[i];
  const words = n - i > 4 ? (n - i - 1) >>> 2 : 0;
  if (words > 0) {
    // Int32 (not Uint32) words stay small integers in V8; four per step: ~4.6 GB/s, 1.5x faster.
    const w = new Int32Array(bytes.buffer, bytes.byteOffset + i, words);
    const unrolled = words & ~3;
    let j = 0;
    for (; j < unrolled; j += 4) acc |= w[j] | w[j + 1] | w[j + 2] | w[j + 3];
    for (; j < words; j++) acc |= w[j];
    i += words * 4;
  }
  for (; i < n; i++) acc |= bytes[i];
  return (acc & 0x80808080) === 0;
}

export interface LineSplitterEvents {
  line(text: string, lineNumber: number): void;
  /** A line longer than the limit was skipped. */
  tooLong(lineNumber: number, length: number): void;
}

/**
 * Splits decoded text into lines. Accepts '\n' and '\r\n'. Feed text with push(), then end().
 */
export class LineSplitter {
  private carry = '';
  private skipping = false;
  private skippedLength = 0;
  private lineNumber = 0;

  constructor(
    private readonly events: LineSplitterEvents,
    private readonly maxLineChars = DEFAULT_MAX_LINE_CHARS,
  ) {}

  push(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      this.lineNumber++;
      if (this.skipping) {
        this.events.tooLong(this.lineNumber, this.skippedLength + nl - start);
        this.skipping = false;
        this.skippedLength = 0;
      } else {
        let line = this.carry.length > 0 ? this.carry + text.slice(start, nl) : text.slice(start, nl);
        this.carry = '';
        if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
        if (line.length > this.maxLineChars) this.events.tooLong(this.lineNumber, line.length);
        else this.events.line(line, this.lineNumber);
      }
      start = nl + 1;
    }
    if (start < text.length) {
      if (this.skipping) {
        this.skippedLength += text.length - start;
      } else if (this.carry.length + text.length - start > this.maxLineChars) {
        this.skipping = true;
        this.skippedLength = this.carry.length + text.length - start;
        this.carry = '';
      } else {
        this.carry += text.slice(start);
      }
    }
  }

  end(): void {
    if (this.skipping) {
      this.events.tooLong(++this.lineNumber, this.skippedLength);
    } else if (this.carry.length > 0) {
      let line = this.carry;
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      this.events.line(line, ++this.lineNumber);
    }
    this.carry = '';
    this.skipping = false;
  }
}
