// Byte mode of the perf script importer: once the format is known, loadProfile hands the rest of
// the input over as raw bytes (./load.ts), and frame lines seen before are recognised in the
// bytes themselves, without becoming strings.
//
// Why: nearly all of a recording is frame lines the importer has met before. In text mode each
// one was decoded (a copy), found with indexOf, sliced (an object for the GC) and compared with a
// kept string (a runtime call). Here the line guessed to come next (./perf-stack.ts) is compared
// with its kept bytes four at a time, and the line end is where the guessed length says: no
// copy, no search, no object. Every other line (headers, blank lines, new frame lines, anything
// odd) is decoded and goes through the text path, so both modes give the same profile.
//
// Invariants: lines are split at LF, a CR before it dropped, as LineSplitter does; a line
// split across chunks is carried as a copy (chunks are reused buffers); a line longer than
// maxLine bytes is skipped and reported, and never held whole; line numbers continue the text
// mode's; invalid UTF-8 in a decoded line becomes U+FFFD and sets sawReplacement.

import { asciiText, isAsciiRange } from '../byte-stream';
import type { PerfStackAssembler } from './perf-stack';

const LF = 10;
const CR = 13;
const TAB = 9;
const SPACE = 32;

/** What byte mode needs from the parser (PerfScriptParser implements it). */
export interface PerfByteTarget {
  /** Whether frame lines are being read into a kept sample now. */
  framesWanted(): boolean;
  readonly assembler: PerfStackAssembler;
  line(text: string, lineNumber: number): void;
  readonly badFrame: (lineNumber: number, text: string) => void;
  /** The input ended inside line `lineNumber` (see LineParser.unterminated). */
  unterminated(lineNumber: number, text: string): void;
}

interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}

const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

export class PerfByteReader {
  sawReplacement = false;
  private carry = new Uint8Array(4096);
  private carryLength = 0;
  private skipping = false;
  private skippedLength = 0;
  // Node's Buffer.prototype.utf8Slice (it reads any Uint8Array), once a Buffer chunk was seen.
  private utf8Slice: Utf8Slicer['utf8Slice'] | null = null;
  private readonly decodeLine = (b: Uint8Array, start: number, end: number): string => {
    const slicer = this.utf8Slice;
    let text: string;
    if (slicer !== null) text = slicer.call(b, start, end);
    // Browsers: TextDecoder costs ~2.5 µs a call in Chromium's workers, String.fromCharCode a
    // fraction of that for the ASCII lines that nearly every recording has (see asciiText).
    else if (isAsciiRange(b, start, end)) return asciiText(b, start, end);
    else text = DECODER.decode(b.subarray(start, end));
    if (!this.sawReplacement && text.includes('\ufffd')) this.sawReplacement = true;
    return text;
  };

  constructor(
    private readonly target: PerfByteTarget,
    /** The number of the last line read in text mode. */
    private lineNumber: number,
    private readonly maxLine: number,
    private readonly tooLong: (lineNumber: number, length: number) => void,
  ) {}

  push(bytes: Uint8Array): void {
    // Every byte function sees plain Uint8Arrays only (chunks, the carry and the kept keys): a
    // Buffer here made them polymorphic, and V8 deoptimised them when the other kind came by.
    let chunk = bytes;
    if (chunk.constructor !== Uint8Array) {
      const slicer = (chunk as Partial<Utf8Slicer>).utf8Slice;
      if (typeof slicer === 'function') this.utf8Slice = slicer;
      chunk = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    }
    const n = chunk.length;
    let s = 0;
    if (this.carryLength > 0 || this.skipping) {
      const nl = chunk.indexOf(LF);
      if (nl < 0) {
        this.hold(chunk, 0, n);
        return;
      }
      this.hold(chunk, 0, nl);
      this.endCarried();
      s = nl + 1;
    }
    s = this.wholeLines(chunk, s);
    if (s < n) this.hold(chunk, s, n);
  }

  /**
   * Reads the whole lines of `chunk` from `s`; returns where the unfinished last line starts.
   * Its own method, with nothing after the loop but a return: V8 optimises this loop on stack
   * while the first chunk is read, before any code after it ran, and such code then lacks type
   * feedback; in push() the `hold` after the loop deoptimised that cached code once per chunk.
   */
  private wholeLines(chunk: Uint8Array, s: number): number {
    const n = chunk.length;
    const dv = new DataView(chunk.buffer, chunk.byteOffset, n);
    const target = this.target;
    const stack = target.assembler;
    while (s < n) {
      if (chunk[s] === TAB && target.framesWanted()) {
        const length = stack.guessBytes(chunk, dv, s, n);
        if (length >= 0) {
          this.lineNumber++;
          s += length + (chunk[s + length] === CR ? 2 : 1);
          continue;
        }
      } else if (chunk[s] === SPACE && stack.expectsSrcline() && target.framesWanted()) {
        // A frame's srcline line (./perf-srcline.ts) seen before: found by its bytes.
        const length = stack.srclineBytes(chunk, dv, s, n);
        if (length >= 0) {
          this.lineNumber++;
          s += length + (chunk[s + length] === CR ? 2 : 1);
          continue;
        }
      }
      const nl = chunk.indexOf(LF, s);
      if (nl < 0) return s;
      const end = nl > s && chunk[nl - 1] === CR ? nl - 1 : nl;
      this.lineAt(chunk, dv, s, end, ++this.lineNumber);
      s = nl + 1;
    }
    return s;
  }

  get lineCount(): number {
    return this.lineNumber;
  }

  /** Ends the input: a last line without a line end is read too. */
  end(): void {
    if (this.skipping || this.carryLength > 0) this.endCarried(true);
  }

  /** One whole line, input[start, end) without its line end. */
  private lineAt(input: Uint8Array, dv: DataView, start: number, end: number, lineNumber: number): void {
    const length = end - start;
    const target = this.target;
    if (length > this.maxLine) this.tooLong(lineNumber, length);
    else if (length === 0) target.line('', lineNumber);
    else if (
      input[start] === TAB &&
      length > 18 &&
      input[start + 17] === SPACE &&
      isHex(input[start + 16]) &&
      target.framesWanted()
    ) {
      // perf's frame layout (TAB, the address right-aligned in 16 columns, a space): see
      // classifyIndented in ./perf-line.ts, which the text path applies to every other shape.
      target.assembler.frameBytes(input, dv, start, end, lineNumber, target.badFrame, this.decodeLine);
    } else target.line(this.decodeLine(input, start, end), lineNumber);
  }

  /** Keeps input[start, end), part of a line that continues in the next chunk. */
  private hold(input: Uint8Array, start: number, end: number): void {
    if (this.skipping) {
      this.skippedLength += end - start;
      return;
    }
    const length = this.carryLength + end - start;
    if (length > this.maxLine) {
      this.skipping = true;
      this.skippedLength = length;
      this.carryLength = 0;
      return;
    }
    if (length > this.carry.length) {
      const grown = new Uint8Array(Math.max(length, this.carry.length * 2));
      grown.set(this.carry.subarray(0, this.carryLength));
      this.carry = grown;
    }
    this.carry.set(input.subarray(start, end), this.carryLength);
    this.carryLength = length;
  }

  /** The carried line is complete (its line end was found, or the input ended). */
  private endCarried(atEnd = false): void {
    const lineNumber = ++this.lineNumber;
    if (this.skipping) {
      this.tooLong(lineNumber, this.skippedLength);
      this.skipping = false;
      this.skippedLength = 0;
      return;
    }
    let end = this.carryLength;
    if (end > 0 && this.carry[end - 1] === CR) end--;
    this.carryLength = 0;
    if (atEnd && end <= this.maxLine) {
      // The input ends inside this line: the parser decides on its text (a cut sample).
      const text = this.decodeLine(this.carry, 0, end);
      this.target.unterminated(lineNumber, text);
      this.target.line(text, lineNumber);
      return;
    }
    this.lineAt(this.carry, new DataView(this.carry.buffer, 0, end), 0, end, lineNumber);
  }
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}
