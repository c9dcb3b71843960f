// Byte-level input handling shared by every host: gzip recognised by its magic bytes and
// decompressed as a stream, and line splitting with a bounded line length.
//
// Invariants: the input is never held as one string; at most one chunk plus one partial line
// (capped at maxLineChars) is held at a time.

export const GZIP_MAGIC = [0x1f, 0x8b] as const;
export const DEFAULT_MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * Input chunks are decoded (and detection asks its questions) in pieces of at most this many
 * bytes: a piece's string stays under V8's large-object threshold (128 KiB), so it is cheap to
 * allocate and collect (measurements: bench/README.md).
 */
export const DECODE_PIECE = 64 * 1024;

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
  if (head.length < 2) head = copyBytes(head);
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
      controller.enqueue(copyBytes(head));
    },
    async pull(controller) {
      const r = await iterator.next();
      if (r.done) controller.close();
      else controller.enqueue(copyBytes(r.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const reader = input.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>).getReader();
  let ended = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        ended = true;
        return;
      }
      yield r.value;
    }
  } catch (e) {
    ended = true;
    throw new GzipError(e instanceof Error ? e.message : String(e));
  } finally {
    // A consumer that stops early (a sniffer that has decided, an error) closes the source too.
    if (!ended) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * A copy of `bytes` in fresh memory. Not `bytes.slice()`: on a Node Buffer that is a view of the
 * same memory (Buffer overrides slice), and chunks are reused buffers (src/cli/read-ahead.ts,
 * session.ts), so a "copy" made that way changed under the reader when the next read landed.
 */
export function copyBytes(bytes: Uint8Array): Uint8Array {
  return Uint8Array.prototype.slice.call(bytes) as Uint8Array;
}

/** The first `length` bytes of `chunks` joined (the one chunk itself when it is exactly that). */
export function concatBytes(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0].length === length) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    if (at >= length) break;
    const part = c.length > length - at ? c.subarray(0, length - at) : c;
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export class GzipError extends Error {
  constructor(detail: string) {
    super(`the gzip stream is corrupt or truncated (${detail})`);
    this.name = 'GzipError';
  }
}

/**
 * Streaming UTF-8 decoding with fast paths for Node Buffers and for ASCII chunks in browsers:
 * a streaming TextDecoder is an order of magnitude slower than Buffer's utf8Slice (V8's
 * non-streaming decoder; figures in bench/README.md). utf8Slice is not streaming, so a piece is
 * cut before a character that it ends in the middle of, and those 1-3 bytes are carried into the
 * next piece. utf8Slice is duck-typed, so the core imports nothing from Node; browsers' plain
 * Uint8Array chunks take the ASCII check and build ASCII chunks' strings with
 * String.fromCharCode (asciiText).
 *
 * Invariants: the output is exactly what one streaming TextDecoder('utf-8') gives for the whole
 * input (a leading BOM is dropped, invalid bytes become U+FFFD, as the WHATWG decoder replaces
 * them; V8's decoder follows the same rules): the first chunk always goes through the
 * TextDecoder (so its start-of-stream BOM handling is used up), and a chunk skips it only when
 * the TextDecoder cannot be holding part of a character, i.e. the last byte it was given was
 * ASCII. Each fast-path piece is decoded on its own and starts at a character boundary: a
 * decoder resets at every byte that can start a character, so cutting there changes nothing.
 */
export class Utf8Decoder {
  private readonly decoder = new TextDecoder('utf-8');
  private started = false;
  private pending = false;
  /** Bytes of a character cut at the end of the last fast-path piece (Node only). */
  private carry: Uint8Array | null = null;
  /** True once the output contained U+FFFD (invalid input bytes, or a literal U+FFFD). */
  sawReplacement = false;

  decode(bytes: Uint8Array): string {
    if (bytes.length === 0) return '';
    if (this.started && !this.pending) {
      const utf8 = (bytes as Partial<Utf8Slicer>).utf8Slice;
      if (typeof utf8 === 'function') return this.decodeSlices(bytes as Uint8Array & Utf8Slicer);
      if (NO_BUFFER && isAscii(bytes)) return asciiText(bytes);
    }
    this.started = true;
    this.pending = bytes[bytes.length - 1] >= 0x80;
    // A carry left by a Buffer chunk continues in the TextDecoder (chunks of mixed kinds).
    const carried = this.carry !== null ? this.decoder.decode(this.carry, { stream: true }) : '';
    this.carry = null;
    const text = carried + this.decoder.decode(bytes, { stream: true });
    if (!this.sawReplacement && text.includes('\ufffd')) this.sawReplacement = true;
    return text;
  }

  /** Flushes a truncated last character (as U+FFFD). */
  end(): string {
    let text = this.decoder.decode();
    if (this.carry !== null) {
      text += new TextDecoder('utf-8', { ignoreBOM: true }).decode(this.carry);
      this.carry = null;
    }
    if (text.includes('\ufffd')) this.sawReplacement = true;
    this.pending = false;
    return text;
  }

  private decodeSlices(chunk: Uint8Array & Utf8Slicer): string {
    let bytes = chunk;
    if (this.carry !== null) {
      const joined = new Uint8Array(this.carry.length + chunk.length);
      joined.set(this.carry);
      joined.set(chunk, this.carry.length);
      this.carry = null;
      // A Buffer view of the joined bytes, through the chunk's own class (no import of Node).
      const BufferClass = chunk.constructor as unknown as { from(b: ArrayBuffer, o: number, n: number): Uint8Array & Utf8Slicer };
      bytes = BufferClass.from(joined.buffer, 0, joined.length);
    }
    const n = bytes.length;
    const cut = completeLength(bytes);
    if (cut < n) this.carry = copyBytes(bytes.subarray(cut));
    const text = cut === 0 ? '' : bytes.utf8Slice(0, cut);
    // A one-byte string cannot hold U+FFFD: the check costs nothing on ASCII and Latin-1 text.
    if (!this.sawReplacement && text.includes('\ufffd')) this.sawReplacement = true;
    return text;
  }
}

/**
 * The length of the longest prefix of `bytes` that does not end inside a multi-byte character:
 * `bytes.length`, unless the last 1-3 bytes are the start of a valid lead byte's sequence that
 * the chunk cuts short. Anything else (ASCII, a complete character, invalid bytes) is decoded now.
 */
export function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  if (n === 0 || bytes[n - 1] < 0x80) return n;
  let i = n - 1;
  // Back over at most three continuation bytes (10xxxxxx) to the byte that leads them.
  while (i > 0 && n - i < 4 && (bytes[i] & 0xc0) === 0x80) i--;
  const lead = bytes[i];
  const needed = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 1;
  return n - i < needed ? i : n;
}

interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}

/**
 * An ASCII chunk as a string without TextDecoder, for hosts without Buffer (browsers): in the
 * profile worker TextDecoder was far slower than in isolation (bench/README.md). Sixteen bytes
 * per call.
 */
export function asciiText(b: Uint8Array, start = 0, end = b.length): string {
  let text = '';
  const n = end;
  let i = start;
  for (; i + 16 <= n; i += 16) {
    text += String.fromCharCode(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5], b[i + 6], b[i + 7], b[i + 8], b[i + 9], b[i + 10], b[i + 11], b[i + 12], b[i + 13], b[i + 14], b[i + 15]);
  }
  for (; i < n; i++) text += String.fromCharCode(b[i]);
  return text;
}

/** Node's TextDecoder is fast (and its plain Uint8Array chunks are rare): only browsers use asciiText. */
const NO_BUFFER = typeof (globalThis as { Buffer?: unknown }).Buffer === 'undefined';


/** Whether every byte of b[start, end) is below 0x80: a plain loop, for short ranges (a line). */
export function isAsciiRange(b: Uint8Array, start: number, end: number): boolean {
  let acc = 0;
  for (let i = start; i < end; i++) acc |= b[i];
  return acc < 0x80;
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
    // Int32 (not Uint32) words stay small integers in V8; four per step (bench/README.md).
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
  /** The input ends inside line `lineNumber` (`text`, given out next): it has no line end, so it may be cut. */
  unterminated?(lineNumber: number, text: string): void;
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

  /** The number of the last line given out. */
  get lineCount(): number {
    return this.lineNumber;
  }

  push(text: string): void {
    let start = 0;
    let nl = text.indexOf('\n');
    if (nl >= 0 && (this.skipping || this.carry.length > 0)) {
      // The first line ends a line begun in an earlier piece.
      this.lineNumber++;
      if (this.skipping) {
        this.events.tooLong(this.lineNumber, this.skippedLength + nl);
        this.skipping = false;
        this.skippedLength = 0;
      } else {
        let line = this.carry + text.slice(0, nl);
        this.carry = '';
        if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
        if (line.length > this.maxLineChars) this.events.tooLong(this.lineNumber, line.length);
        else this.events.line(line, this.lineNumber);
      }
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    // Whole lines of this piece: the hot loop (one slice per line, the CR checked on the piece).
    const events = this.events;
    const max = this.maxLineChars;
    let lineNumber = this.lineNumber;
    while (nl >= 0) {
      lineNumber++;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      if (end - start > max) events.tooLong(lineNumber, end - start);
      else events.line(text.slice(start, end), lineNumber);
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    this.lineNumber = lineNumber;
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
      this.events.unterminated?.(++this.lineNumber, line);
      this.events.line(line, this.lineNumber);
    }
    this.carry = '';
    this.skipping = false;
  }
}
