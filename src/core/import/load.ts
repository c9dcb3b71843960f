// Entry point of the engine: bytes in (any chunking, gzip or not), Profile out.
//
// Flow: maybeGunzip → Utf8Decoder (streaming, invalid UTF-8 becomes U+FFFD and is reported once)
// → head buffered until an importer says yes → LineSplitter → the importer's LineParser; a parser
// with a byte mode (perf script) then gets the rest of the input as bytes (ByteReader).

import { ImportError, type Profile, type ProfileMeta } from '../model/profile';
import { DECODE_PIECE, GzipError, LineSplitter, maybeGunzip, Utf8Decoder, DEFAULT_MAX_LINE_CHARS } from './byte-stream';
import { WholeInputNeeded, type ByteReader, type BytesImporter, type ImportOptions, type Importer, type LineParser, type PartContext, type PartialProfile } from './importer';
import { bytesImporters as defaultBytesImporters, importers as defaultImporters } from './registry';
import { DETECT_LIMIT, detectImporter, hasDecision, isGzip, pickImporter } from './sniff';
import { HEAD_BYTES, wholeInput, type WholeInputOptions } from './whole-input';

export interface LoadProgress {
  /** Bytes consumed from the source (compressed bytes for gzip input). */
  bytesRead: number;
  samples: number;
}

export interface LoadOptions extends ImportOptions, WholeInputOptions {
  onProgress?: (progress: LoadProgress) => void;
  signal?: AbortSignal;
  maxLineChars?: number;
  importers?: readonly Importer[];
  /** Whole-input formats (pprof, JSON), asked first; see ./whole-input.ts. */
  bytesImporters?: readonly BytesImporter[];
}

export class AbortedError extends Error {
  constructor() {
    super('loading was cancelled');
    this.name = 'AbortedError';
  }
}

export async function loadProfile(source: AsyncIterable<Uint8Array>, options: LoadOptions = {}): Promise<Profile> {
  const input = await readInput(source, options, null);
  if (input.claimed) return input.claimed;
  const importers = options.importers ?? defaultImporters;
  if (!input.parser) {
    // pickImporter(…, atEnd=true) either returns an importer or throws; reaching here means the
    // input was empty: give an empty profile from the first importer, as inferno's no-events case.
    const p = importers[0].create(options);
    const profile = p.finish();
    profile.meta.warnings.unshift({ line: 0, message: 'the input is empty: no samples' });
    return profile;
  }
  const profile = input.parser.finish();
  addInputWarnings(profile.meta, input.tooLong, input.sawReplacement, options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS);
  return profile;
}

/**
 * Parallel parsing (../parallel/): reads one part of a split input, a run of whole lines, with
 * `importer` (no detection, no gzip, no whole-input formats), and returns it unfinished for the
 * merge. Every part is read as loadProfile reads an input: text up to the first line end, then
 * the importer's byte mode if it has one.
 */
export async function loadPart(source: AsyncIterable<Uint8Array>, importer: Importer, options: LoadOptions = {}): Promise<PartialProfile> {
  const input = await readInput(source, { ...options, part: true }, importer);
  const parser = input.parser as LineParser;
  if (!parser.finishPart) throw new Error(`${importer.description} cannot be read in parts`);
  return { ...parser.finishPart(), lines: input.lines, tooLong: input.tooLong, sawReplacement: input.sawReplacement };
}

/**
 * Parallel parsing: the importer for an input that starts with `head` (whole lines are used) and
 * the PartContext its later parts need, or null when the input cannot be split: gzip, a
 * whole-input format, an undecided or unknown format (the one-parser path reports it), or a
 * start that does not decide the context.
 */
export function probeSplit(head: Uint8Array, atEnd: boolean, options: LoadOptions = {}): { importer: Importer; context: PartContext } | null {
  if (isGzip(head)) return null;
  const sniffed = head.subarray(0, HEAD_BYTES);
  for (const b of options.bytesImporters ?? defaultBytesImporters) if (b.detectBytes(sniffed, atEnd) !== 'no') return null;
  const decoder = new Utf8Decoder();
  const text = decoder.decode(atEnd ? head : head.subarray(0, head.lastIndexOf(10) + 1)) + decoder.end();
  if (text.trim() === '') return null;
  const importer = detectImporter(options.importers ?? defaultImporters, text, atEnd);
  if (importer === null || importer === 'need-more' || !importer.mergeParts) return null;
  const parser = importer.create({ ...options, part: true });
  if (!parser.splitContext || !parser.finishPart) return null;
  const splitter = new LineSplitter({ line: (t, n) => parser.line(t, n), tooLong: () => {} }, options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS);
  try {
    splitter.push(text);
  } catch (e) {
    // The start already shows that parts could not be merged: no workers for nothing.
    if (e instanceof WholeInputNeeded) return null;
    throw e;
  }
  const context = parser.splitContext();
  return context && { importer, context };
}

/** The warnings of the input layer, after the importer's: lines over the limit, invalid UTF-8. */
export function addInputWarnings(meta: ProfileMeta, tooLong: readonly { line: number; length: number }[], sawReplacement: boolean, maxLine: number): void {
  for (const t of tooLong) {
    meta.skippedLines++;
    meta.warnings.push({ line: t.line, message: `line of ${t.length} characters is over the limit of ${maxLine}; skipped` });
  }
  if (sawReplacement) {
    meta.warnings.push({ line: 0, message: 'the input is not valid UTF-8; invalid bytes were replaced with U+FFFD' });
  }
}

interface ReadInput {
  /** A whole-input format's profile (pprof, JSON). */
  claimed: Profile | null;
  /** The line parser fed with every line, not finished; null for an empty input. */
  parser: LineParser | null;
  lines: number;
  tooLong: { line: number; length: number }[];
  sawReplacement: boolean;
}

/** Feeds the input to the importer detection picks, or to `preset` (a part of a split input). */
async function readInput(source: AsyncIterable<Uint8Array>, options: LoadOptions, preset: Importer | null): Promise<ReadInput> {
  const importers = options.importers ?? defaultImporters;
  const counted = countBytes(source, options);
  const decoder = new Utf8Decoder();
  let head = '';
  let parser: LineParser | null = null;
  let splitter: LineSplitter | null = null;
  const tooLong: { line: number; length: number }[] = [];
  const maxLine = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;

  const start = (atEnd: boolean): void => {
    const importer = preset ?? pickImporter(importers, head, atEnd, options.source);
    if (!importer) return;
    const p = importer.create(options);
    parser = p;
    splitter = new LineSplitter(
      {
        line: (text, n) => p.line(text, n),
        tooLong: (line, length) => tooLong.push({ line, length }),
        unterminated: (line, text) => p.unterminated?.(line, text),
      },
      maxLine,
    );
    splitter.push(head);
    head = '';
  };
  if (preset) start(false);

  // Byte mode (see LineParser.byteReader): once the parser is chosen, a parser that can read raw
  // bytes gets the rest of the input undecoded, from the first line end on.
  let reader: ByteReader | null = null;
  const toBytes = (bytes: Uint8Array, at: number): boolean => {
    const p = parser as LineParser | null;
    if (!p?.byteReader || !splitter) return false;
    const nl = bytes.indexOf(10, at);
    if (nl < 0) return false;
    // The text splitter ends the line it holds (the decoder ends clean after a line end).
    (splitter as LineSplitter).push(decoder.decode(bytes.subarray(at, nl + 1)));
    reader = p.byteReader((splitter as LineSplitter).lineCount, maxLine, (line, length) => tooLong.push({ line, length }));
    reader.push(bytes.subarray(nl + 1));
    return true;
  };

  const whole = preset
    ? { text: counted.stream, profile: () => null }
    : wholeInput(maybeGunzip(counted.stream), options.bytesImporters ?? defaultBytesImporters, options, counted.bytes);
  try {
    for await (const bytes of whole.text) {
      if (reader) {
        (reader as ByteReader).push(bytes);
        options.onProgress?.({ bytesRead: counted.bytes(), samples: (parser as unknown as LineParser).samples });
        continue;
      }
      for (let at = 0; at < bytes.length; at += DECODE_PIECE) {
        if (splitter && toBytes(bytes, at)) break;
        const text = decoder.decode(bytes.length <= DECODE_PIECE ? bytes : bytes.subarray(at, at + DECODE_PIECE));
        if (splitter) {
          (splitter as LineSplitter).push(text);
        } else {
          head += text;
          if (head.length >= DETECT_LIMIT || hasDecision(importers, head)) start(false);
        }
      }
      if (parser) options.onProgress?.({ bytesRead: counted.bytes(), samples: (parser as LineParser).samples });
    }
  } catch (e) {
    if (e instanceof GzipError) throw new ImportError('a gzip stream', 0, e.message, options.source);
    throw e;
  }
  const claimed = whole.profile();
  const done = { claimed, parser: null, lines: 0, tooLong, sawReplacement: false };
  if (claimed) return done;
  const tail = decoder.end();
  if (splitter) (splitter as LineSplitter).push(tail);
  else {
    head += tail;
    start(true);
  }
  if (!parser || !splitter) return done;
  (splitter as LineSplitter).end();
  (reader as ByteReader | null)?.end();
  const r = reader as ByteReader | null;
  return {
    claimed: null,
    parser,
    lines: r ? r.lineCount : (splitter as LineSplitter).lineCount,
    tooLong,
    sawReplacement: decoder.sawReplacement || (r?.sawReplacement ?? false),
  };
}

function countBytes(source: AsyncIterable<Uint8Array>, options: LoadOptions) {
  let bytes = 0;
  async function* stream() {
    for await (const chunk of source) {
      if (options.signal?.aborted) throw new AbortedError();
      bytes += chunk.length;
      yield chunk;
    }
  }
  return { stream: stream(), bytes: () => bytes };
}

/** Convenience for tests and the CLI: load from an in-memory string or bytes. */
export function loadProfileFromText(text: string | Uint8Array, options: LoadOptions = {}): Promise<Profile> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  async function* once() {
    yield bytes;
  }
  return loadProfile(once(), options);
}
