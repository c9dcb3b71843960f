// Whole-input formats: pprof (binary protobuf) and the JSON formats (Chrome .cpuprofile and trace
// events, speedscope) cannot be read line by line. loadProfile routes the (gunzipped) byte stream
// through wholeInput(): it buffers the first HEAD_BYTES, asks each BytesImporter about them, and
// then either
//   - passes every chunk on unchanged to the line-based path (no importer claimed the head), or
//   - keeps the whole input (bounded by maxWholeBytes) and hands it to importer.parseBytes.
//
// Chunks are copied before they are kept: a source may reuse a chunk's buffer for the next read
// (session.ts reads byte streams into one reused buffer).
//
// Invariants: the text path sees exactly the bytes it would have seen without this step, in the
// same chunks; a claimed input never reaches the text path; memory is bounded by the cap (the
// bytes are held once as chunks, then once joined); input that looks like JSON but that no JSON
// importer claims is an ImportError naming the JSON formats, not a confusing "expected folded
// stacks".

import { ImportError, quoteInput, type Profile } from '../model/profile';
import { concatBytes, copyBytes } from './byte-stream';
import type { BytesImporter, ImportOptions } from './importer';

/** How many bytes detection looks at (after gunzip). */
export const HEAD_BYTES = 64 * 1024;
/** Largest whole input accepted (after gunzip). */
export const DEFAULT_MAX_WHOLE_BYTES = 1024 * 1024 * 1024;

export interface WholeInputOptions extends ImportOptions {
  maxWholeBytes?: number;
  onProgress?: (progress: { bytesRead: number; samples: number }) => void;
}

export interface WholeInput {
  /** The input for the line-based path; empty when a whole-input importer claimed it. */
  text: AsyncGenerator<Uint8Array>;
  /** After `text` has ended: the profile a whole-input importer made, or null. */
  profile(): Profile | null;
}

export function wholeInput(
  source: AsyncIterable<Uint8Array>,
  importers: readonly BytesImporter[],
  options: WholeInputOptions,
  bytesRead: () => number,
): WholeInput {
  let result: Profile | null = null;
  const max = options.maxWholeBytes ?? DEFAULT_MAX_WHOLE_BYTES;

  async function* text(): AsyncGenerator<Uint8Array> {
    const iterator = source[Symbol.asyncIterator]();
    const chunks: Uint8Array[] = [];
    let length = 0;
    let done = false;
    while (length < HEAD_BYTES) {
      const r = await iterator.next();
      if (r.done) {
        done = true;
        break;
      }
      if (r.value.length === 0) continue;
      chunks.push(copyBytes(r.value));
      length += r.value.length;
    }
    const head = concatBytes(chunks, Math.min(length, HEAD_BYTES));
    const importer = importers.length > 0 ? pickBytesImporter(importers, head, done, options.source) : null;
    if (!importer) {
      for (const c of chunks) yield c;
      chunks.length = 0;
      if (!done) for (let r = await iterator.next(); !r.done; r = await iterator.next()) yield r.value;
      return;
    }
    const tooLarge = () =>
      new ImportError(importer.description, 0, `an input of more than ${max} bytes (too large to load)`, options.source);
    if (length > max) throw tooLarge();
    while (!done) {
      const r = await iterator.next();
      if (r.done) break;
      length += r.value.length;
      if (length > max) {
        await iterator.return?.();
        throw tooLarge();
      }
      chunks.push(copyBytes(r.value));
      options.onProgress?.({ bytesRead: bytesRead(), samples: 0 });
    }
    const all = concatBytes(chunks, length);
    chunks.length = 0;
    result = importer.parseBytes(all, options);
  }

  return { text: text(), profile: () => result };
}

/** The importer that claims `head`, or null for the text path. Throws on unclaimed JSON. */
export function pickBytesImporter(
  importers: readonly BytesImporter[],
  head: Uint8Array,
  atEnd: boolean,
  source?: string,
): BytesImporter | null {
  for (const importer of importers) if (importer.detectBytes(head, atEnd) === 'yes') return importer;
  const json = jsonStart(head);
  if (json !== null) {
    // flameview's own processed recording is no one's JSON: a user who meant one of the others is told those.
    const expected = importers.filter((i) => i.format !== 'flameview').map((i) => i.description).join(' or ');
    throw new ImportError(expected, 1, `JSON that is none of them: ${quoteInput(json)}`, source);
  }
  return null;
}

/**
 * The start of the head as text when it looks like a JSON object or array of objects, else null.
 * An empty `{}` or `[]` counts only as the whole text: `[]; 1` is a folded stack whose first frame
 * is named `[]` (fast-check found one).
 */
export function jsonStart(head: Uint8Array): string | null {
  const text = headText(head, 512).trimStart();
  return /^(\{\s*"|\[\s*\{|\{\s*\}\s*$|\[\s*\]\s*$)/.test(text) ? text : null;
}

/** The first `max` bytes of the head decoded as UTF-8 (a BOM dropped, a cut character replaced). */
export function headText(head: Uint8Array, max = head.length): string {
  return new TextDecoder('utf-8').decode(head.length > max ? head.subarray(0, max) : head);
}

/**
 * Decodes and parses a whole JSON document. Syntax errors become an ImportError naming the line
 * (from the parser's reported position) and what was found there.
 */
export function parseJsonBytes(bytes: Uint8Array, expected: string, source?: string): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8').decode(bytes);
  } catch {
    throw new ImportError(expected, 0, `an input of ${bytes.length} bytes, too large to decode as one text`, source);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const m = /position (\d+)/.exec(message);
    if (!m) throw new ImportError(expected, 0, `invalid JSON (${message.slice(0, 80)})`, source);
    const pos = Number(m[1]);
    let line = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) line++;
    throw new ImportError(expected, line, `invalid JSON at ${quoteInput(text.slice(pos, pos + 24), 24)}`, source);
  }
}
