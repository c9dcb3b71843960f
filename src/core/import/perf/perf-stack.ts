// Turns the frame lines of one `perf script` sample into frame indices, leaf first, deciding
// which frames are inlined. This is where the function view of a perf recording is decided.
//
// What perf prints (tools/perf/util/machine.c append_inlines, srcline.c new_inline_sym): for
// each return address of a call chain it prints either one line, the physical symbol, or, when
// addr2line knows inline frames there, the whole inline list of that address and nothing else,
// innermost first. Each entry of the list is printed under its DWARF name; an entry whose name
// equals the ELF symbol's is printed as that symbol (with its DSO, not `(inlined)`), every other
// entry is marked `(inlined)`. So the physical function can appear first (the issue's
// `std::_Function_handler<…>::_M_invoke` followed by `__invoke_impl … (inlined)`), last (the
// usual case), last but marked `(inlined)` (`_M_invoke` under its short DWARF name, or a lone
// `__libc_start_main_impl (inlined)`), or several times (a function inlined into itself).
//
// The rule, measured against `perf script --no-inline` twins (fixtures/README.md, perf-twins.test.ts):
// - an ADDRESS RUN is the lines of consecutive equal addresses; it is m repetitions of one GROUP
//   (the address's inline list, found as the run's smallest period), one group per physical frame
//   (m > 1 is recursion through that call site);
// - in a group, the last line not marked `(inlined)` is the physical frame, else the group's last
//   line (never flagged INLINED); every other line of the group is INLINED;
// - a perf-map-agent chain `outer->mid->inner` is one line: `outer` physical, the rest inlined;
// - a group of identical lines (a function inlined into itself) has period 1 and cannot be told
//   from recursion in one sample; ./perf-runs.ts learns per address how many lines one physical
//   frame prints there and folds such runs (the samples wait until the end of the input).
//
// Invariants: each frame line is resolved as it is read: a line seen before costs a compare with
// a guessed line (line() on text, guessBytes() on bytes) or one lookup in a sampled-hash table
// (./perf-line-cache.ts; up to 2^18 distinct lines are remembered), and only a new line is
// parsed; no allocation per repeated line; buffers grow geometrically (10,000-deep stacks are
// fine); names are stored as printed minus the `+0x…` offset, with NUL characters removed (and
// half-demangled legacy Rust names finished, see
// ./perf-rust-names.ts); strings kept are copies, never views into the input (see detach()).

import type { FrameTableBuilder } from '../../model/frame-table';
import { FrameFlags, type FrameIndex, type StringIndex } from '../../model/types';
import { detach, dsoFallbackName, isJitDso, isKernelDso, newFrameFields, parseFrame, type FrameFields } from './perf-line';
import { AddressTable } from './perf-addresses';
import { ByteKeys, bytesEqual, OFFSET_MASK, SLAB_BITS } from './perf-byte-keys';
import { LineCache } from './perf-line-cache';
import { fixRustLegacyName } from './perf-rust-names';
import { RunStats, SampleRuns } from './perf-runs';
import { FunctionNames } from './perf-function-names';
import { markMutable } from '../../model/mutable-fields';
import { grown } from '../../model/grown';
import { NO_LOCATION, SourceLinesBuilder } from '../../model/source-lines';
import { SrclineCache } from './perf-srcline';

const UNKNOWN = '[unknown]';

interface DsoInfo {
  flags: number;
  module: StringIndex | -1;
  inlined: boolean;
  /** `[basename]`, the name of an `[unknown]` symbol in this DSO. */
  fallback: string;
}

// Fields of a line record (see PerfStackAssembler.records). FRAME is frame + 1 of a line that was
// a whole address run on its own (one name: its own physical frame), once known; NEXT and NEXT2 are the
// two lines that followed this one last (0 = none yet); KEY and BYTES say where the line's bytes
// are kept (a REF of ./perf-byte-keys.ts) and how many, -1 if they are not (see guessBytes()).
const LINE_STRIDE = 8;
const L_ADDRESS = 0;
const L_ENTRY = 1;
const L_DSO = 2;
const L_FRAME = 3;
const L_NEXT = 4;
const L_NEXT2 = 5;
const L_KEY = 6;
const L_BYTES = 7;

/** Distinct frame lines remembered whole (a line repeats every time its return address does). */
const LINE_CACHE_LIMIT = 1 << 18;
const SCRATCH_LINE = 0;

export class PerfStackAssembler {
  /** Frames of the current sample, leaf first, in [0, depth). */
  stack = new Int32Array(256);
  /** Their source locations (-1: unknown), once the input printed a srcline (`lines`). */
  stackLocation = new Int32Array(256);
  /** The source lines, from the first srcline line on (./perf-srcline.ts); null before. */
  sourceLines: SourceLinesBuilder | null = null;
  private srclines: SrclineCache | null = null;
  // Pending entries of the last frame line, from this one on, while its srcline may follow (-1: none may).
  private lastLineFrom = -1;
  private lastLineId = SCRATCH_LINE;
  // Per frame line id, the srcline id that followed it last (0: none yet).
  private srclineAfter = new Int32Array(0);
  depth = 0;
  /** True once any frame was flagged INLINED (or FOLDED). */
  hasInlined = false;
  /**
   * True once perf printed a line `(inlined)`: it resolved inline frames, so identical lines at
   * one address may be one frame (./perf-runs.ts). Without, they are recursion.
   */
  printedInlined = false;

  private readonly frames: FrameTableBuilder;
  private readonly fields = newFrameFields();

  // Frame line text → line id; per line id: address id, name entry, DSO id. Id 0 is a scratch
  // slot for lines that are not cached (cache full, or a frame on a header line).
  private readonly lines = new LineCache();
  // The same lines as bytes, for byte mode.
  private readonly keys = new ByteKeys();
  // One record of LINE_STRIDE ints per line id (fields L_*), so that resolving a line touches one
  // cache line rather than one per column: at 1 GB the records are megabytes, read at random.
  private records = new Int32Array(4096 * LINE_STRIDE);
  // Each cached line's text, by line id.
  private readonly lineText: string[] = [''];
  private lineCount = 1;
  /** Address ids (RunStats keys); the merge of parts maps them by value (./perf-late.ts). */
  readonly addresses = new AddressTable();

  // Symbol text (offset stripped) → entry: a chain of names, outermost first (length 1 unless
  // the symbol is a `a->b` perf-map-agent inline chain).
  private readonly entries = new Map<string, number>();
  private entryStart = new Int32Array(1024);
  private entryLength = new Int32Array(1024);
  private chain = new Int32Array(1024);
  private entryCount = 0;
  private chainCount = 0;
  // (name index * 16 + flags) → frame index + 1.
  private frameCache = new Int32Array(8192);

  private readonly dsoIds = new Map<string, number>();
  private readonly dsos: DsoInfo[] = [];

  // The open address run: its lines' names (chains expanded, innermost first), flags, modules and
  // whether each was printed inlined; closed by the next address or the end of the sample.
  private pendingName = new Int32Array(64);
  private pendingFlags = new Uint8Array(64);
  private pendingModule = new Int32Array(64);
  private pendingInlined = new Uint8Array(64);
  private pendingLocation = new Int32Array(64);
  private pendingCount = 0;
  // The line id of a run's first line while the run is that one line (else -1), whose frame its
  // record can remember (L_FRAME).
  private runLine = -1;
  private lastAddress = -1;

  // The line before, in this sample (SCRATCH_LINE at its start or after a line not cached).
  private before = SCRATCH_LINE;

  /** Frames of the current sample's call chain that are kernel frames before any other. */
  private kernelDepth = 0;
  /** Address id of each stack entry, parallel to `stack`. */
  private address = new Int32Array(256);
  /** Lines per physical frame, per address, over the whole input (./perf-runs.ts). */
  readonly stats = new RunStats();
  /** The current sample's runs of two or more groups. */
  readonly runs = new SampleRuns();
  /** Which physical symbol each group belongs to, for one name per function (./perf-function-names.ts). */
  readonly names = new FunctionNames();
  // Per line id, the id of its symbol start (address - offset; -1 without an offset); per pending
  // entry, its line's; per address id, 1 once its group was noted in `names`.
  private lineStart = new Int32Array(4096);
  private pendingStart = new Int32Array(64);
  private addressNoted = new Uint8Array(4096);
  // Per line id, its `+0xOFFSET` (-1: none); per pending entry, its line's (-1 for the inner names
  // of a perf-map-agent chain, which have no symbol of their own).
  private lineOffset = new Float64Array(4096);
  private pendingOffset = new Float64Array(64);
  /** The sampled instruction of the current sample: its physical frame and offset (-1: unknown). */
  leafFrame: FrameIndex = -1;
  leafOffset = -1;

  constructor(frames: FrameTableBuilder) {
    this.frames = frames;
    markMutable(this, ['stack', 'stackLocation', 'srclineAfter', 'pendingLocation', 'address', 'records', 'frameCache', 'entryStart', 'entryLength', 'chain', 'pendingName', 'pendingFlags', 'pendingModule', 'pendingInlined', 'lineStart', 'pendingStart', 'addressNoted', 'lineOffset', 'pendingOffset']);
    this.dsos.push({ flags: 0, module: -1, inlined: false, fallback: UNKNOWN });
  }

  begin(): void {
    this.depth = 0;
    this.kernelDepth = 0;
    this.pendingCount = 0;
    this.lastAddress = -1;
    this.before = SCRATCH_LINE;
    this.lastLineFrom = -1;
    this.leafFrame = -1;
    this.leafOffset = -1;
    this.runs.clear();
  }

  /** Whether the line just added was a frame line whose srcline line may follow. */
  expectsSrcline(): boolean {
    return this.lastLineFrom >= 0;
  }

  /** A srcline line (./perf-srcline.ts) after the frame line just added. */
  srclineText(text: string): void {
    if (this.srclines === null) this.startLines();
    this.applySrcline(this.srclines!.id(text));
  }

  /**
   * Byte mode: if the line at input[start] is the srcline that followed the frame line just added
   * last time, or any srcline seen before, applies it and returns its length in bytes (the line end
   * not included); else -1 (the caller decodes it for srclineText). It must end before `stop`.
   */
  srclineBytes(input: Uint8Array, dv: DataView, start: number, stop: number): number {
    const cache = this.srclines;
    if (cache === null) return -1;
    const line = this.lastLineId;
    const guess = line > SCRATCH_LINE && line < this.srclineAfter.length ? this.srclineAfter[line] : 0;
    if (guess > 0) {
      const n = cache.lengthOf(guess);
      const ref = cache.refOf(guess);
      if (n >= 0 && isLineEnd(input, start + n, stop) && bytesEqual(dv, start, cache.keys.views[ref >>> SLAB_BITS], ref & OFFSET_MASK, n)) {
        this.applySrcline(guess);
        return n;
      }
    }
    let nl = start;
    while (nl < stop && input[nl] !== 10) nl++;
    if (nl === stop) return -1;
    const end = nl > start && input[nl - 1] === 13 ? nl - 1 : nl;
    const id = cache.keys.find(input, dv, start, end);
    if (id < 0) return -1;
    this.applySrcline(id);
    return end - start;
  }

  private startLines(): void {
    this.sourceLines = new SourceLinesBuilder(this.frames.strings);
    this.srclines = new SrclineCache(this.sourceLines);
    this.srclineAfter = new Int32Array(Math.max(4096, this.lineCount));
  }

  private applySrcline(id: number): void {
    const cache = this.srclines!;
    const location = cache.locationOf(id);
    const inlined = cache.isInlined(id);
    for (let i = this.lastLineFrom; i < this.pendingCount; i++) {
      this.pendingLocation[i] = location;
      if (inlined) {
        this.pendingInlined[i] = 1;
        this.pendingModule[i] = -1;
      }
    }
    if (inlined) this.printedInlined = true;
    const line = this.lastLineId;
    if (line > SCRATCH_LINE) {
      if (line >= this.srclineAfter.length) this.srclineAfter = grown(this.srclineAfter, Math.max(line + 1, this.srclineAfter.length * 2));
      this.srclineAfter[line] = id;
    }
    this.lastLineFrom = -1;
  }

  /**
   * Adds a frame line of the current sample (a line that starts with blanks and a hexadecimal
   * token); a line that is not a frame goes to `bad`. A call chain mostly repeats: the line after
   * `before` is first guessed to be one of the two that followed it last (87 % of the bench's
   * frame lines; 76 % with one guess), confirmed by string equality. The guesses' records and
   * texts sit next to `before`'s in memory (they were first seen together), where a probe of the
   * multi-megabyte line table costs two or three cache misses (slot, key array, key text).
   */
  line(text: string, lineNumber: number, bad: (lineNumber: number, text: string) => void): void {
    const before = this.before;
    const rec = this.records;
    const at = before * LINE_STRIDE;
    const guess = before > SCRATCH_LINE ? rec[at + L_NEXT] : 0;
    const other = before > SCRATCH_LINE ? rec[at + L_NEXT2] : 0;
    let id: number;
    if (guess > 0 && this.lineText[guess] === text) id = guess;
    else if (other > 0 && this.lineText[other] === text) {
      id = other;
      rec[at + L_NEXT2] = guess;
      rec[at + L_NEXT] = other;
    } else {
      id = this.lines.get(text);
      if (id < 0) {
        id = this.newLine(text, lineNumber, bad);
        if (id < 0) return;
        if (id > SCRATCH_LINE) {
          const own = detach(text);
          this.lines.set(own, id);
          this.lineText[id] = own;
          const key = this.keys.addText(own, id);
          this.keep(id, key, key < 0 ? -1 : this.keys.lengthOf(id));
        }
      }
      this.follows(before, id);
    }
    this.before = id;
    this.add(id);
  }

  /** Parses a line never seen and gives it a record (an id, or SCRATCH_LINE when the cache is full); -1 when it is not a frame. */
  private newLine(text: string, lineNumber: number, bad: (lineNumber: number, text: string) => void): number {
    if (!parseFrame(text, 0, this.fields)) {
      bad(lineNumber, text);
      this.before = SCRATCH_LINE;
      return -1;
    }
    const cache = this.lineCount < LINE_CACHE_LIMIT;
    return this.describe(text, this.fields, cache ? this.lineCount++ : SCRATCH_LINE);
  }

  /** Records where line `id`'s bytes are kept (`ref`, -1 when they are not) and how many. */
  private keep(id: number, ref: number, bytes: number): void {
    this.records[id * LINE_STRIDE + L_KEY] = ref;
    this.records[id * LINE_STRIDE + L_BYTES] = ref < 0 ? -1 : bytes;
  }

  /** Notes `id` as the newest of the two lines that followed `before`. */
  private follows(before: number, id: number): void {
    if (before <= SCRATCH_LINE) return;
    const at = before * LINE_STRIDE;
    this.records[at + L_NEXT2] = this.records[at + L_NEXT];
    this.records[at + L_NEXT] = id;
  }

  /**
   * Byte mode (./perf-bytes.ts): if the line at input[start] is one of the two lines guessed to
   * follow the previous one (see line()), adds it and returns its length in bytes, the line end
   * not included; else returns -1. The line and its end must lie before `stop`.
   */
  guessBytes(input: Uint8Array, dv: DataView, start: number, stop: number): number {
    const before = this.before;
    if (before <= SCRATCH_LINE) return -1;
    const rec = this.records;
    const at = before * LINE_STRIDE;
    const slabs = this.keys.views;
    let id = rec[at + L_NEXT];
    let n = id > 0 ? rec[id * LINE_STRIDE + L_BYTES] : -1;
    let ref = rec[id * LINE_STRIDE + L_KEY];
    if (n < 0 || !(isLineEnd(input, start + n, stop) && bytesEqual(dv, start, slabs[ref >>> SLAB_BITS], ref & OFFSET_MASK, n))) {
      const other = rec[at + L_NEXT2];
      if (other <= 0) return -1;
      n = rec[other * LINE_STRIDE + L_BYTES];
      ref = rec[other * LINE_STRIDE + L_KEY];
      if (n < 0 || !(isLineEnd(input, start + n, stop) && bytesEqual(dv, start, slabs[ref >>> SLAB_BITS], ref & OFFSET_MASK, n))) return -1;
      rec[at + L_NEXT2] = id;
      rec[at + L_NEXT] = other;
      id = other;
    }
    this.before = id;
    this.add(id);
    return n;
  }

  /**
   * Byte mode: adds the frame line input[start, end) that guessBytes() did not know: a lookup of
   * its bytes, or, for a line never seen, its text (`decode`) parsed as line() does.
   */
  frameBytes(
    input: Uint8Array,
    dv: DataView,
    start: number,
    end: number,
    lineNumber: number,
    bad: (lineNumber: number, text: string) => void,
    decode: (input: Uint8Array, start: number, end: number) => string,
  ): void {
    const before = this.before;
    let id = this.keys.find(input, dv, start, end);
    if (id < 0) {
      id = this.newLine(decode(input, start, end), lineNumber, bad);
      if (id < 0) return;
      if (id > SCRATCH_LINE) this.keep(id, this.keys.add(input, start, end, id), end - start);
    }
    this.follows(before, id);
    this.before = id;
    this.add(id);
  }

  /** A frame already parsed into `f` (the frame of a single-line sample). */
  frame(text: string, f: FrameFields): void {
    this.add(this.describe(text, f, SCRATCH_LINE));
  }

  private add(line: number): void {
    const rec = this.records;
    const at = line * LINE_STRIDE;
    const address = rec[at + L_ADDRESS];
    if (this.pendingCount > 0 && address !== this.lastAddress) this.closeRun();
    this.lastAddress = address;
    this.lastLineFrom = this.pendingCount;
    this.lastLineId = line;
    const dso = this.dsos[rec[at + L_DSO]];
    const entry = rec[at + L_ENTRY];
    const start = this.entryStart[entry];
    const length = this.entryLength[entry];
    this.runLine = this.pendingCount === 0 && length === 1 ? line : -1;
    if (dso.inlined) this.printedInlined = true;
    const symbolStart = this.lineStart[line];
    // Innermost first, as perf prints inlined callees before their caller; a chain's inner names
    // are inlined into its outermost.
    // Only the first run is the sampled instruction: reading the offsets of the others would cost
    // a cache miss per frame line (lineOffset is not in the line's record).
    const offset = this.depth === 0 ? this.lineOffset[line] : -1;
    for (let i = start + length - 1; i >= start; i--) this.push(this.chain[i], dso.flags, dso.module, dso.inlined || i > start, symbolStart, i === start ? offset : -1);
  }

  /** Fills line record `line` from the parsed fields. */
  private describe(text: string, f: FrameFields, line: number): number {
    if ((line + 1) * LINE_STRIDE > this.records.length) this.records = grown(this.records, this.records.length * 2);
    const address = this.addresses.id(text, f.addrStart, f.addrEnd);
    const dsoId = f.dsoStart < 0 ? 0 : this.dsoId(text.slice(f.dsoStart, f.dsoEnd));
    const symLength = f.symEnd - f.symStart;
    const unknown = symLength === 0 || (symLength === UNKNOWN.length && text.startsWith(UNKNOWN, f.symStart));
    const raw = unknown ? this.dsos[dsoId].fallback : text.slice(f.symStart, f.symEnd);
    const entry = this.entries.get(raw) ?? this.addEntry(raw);
    const at = line * LINE_STRIDE;
    const rec = this.records;
    rec[at + L_ADDRESS] = address;
    rec[at + L_ENTRY] = entry;
    rec[at + L_DSO] = dsoId;
    rec[at + L_FRAME] = 0;
    if (line >= this.lineStart.length) {
      this.lineStart = grown(this.lineStart, Math.max(line + 1, this.lineStart.length * 2));
      this.lineOffset = grown(this.lineOffset, this.lineStart.length);
    }
    let offsetEnd = -1;
    if (text.startsWith('+0x', f.symEnd)) for (offsetEnd = f.symEnd + 3; offsetEnd < text.length && isHexCode(text.charCodeAt(offsetEnd)); ) offsetEnd++;
    // Up to 13 hex digits is exact in a double; a longer offset is no offset within one function.
    this.lineOffset[line] = !unknown && offsetEnd > f.symEnd + 3 && offsetEnd - f.symEnd - 3 <= 13 ? parseInt(text.slice(f.symEnd + 3, offsetEnd), 16) : -1;
    this.lineStart[line] = unknown ? -1 : this.names.startOf(text, f.addrStart, f.addrEnd, f.symEnd + 3, offsetEnd);
    return line;
  }

  /** Ends the sample's frame lines; the frames are in stack[0, depth), leaf first. */
  end(): number {
    if (this.pendingCount > 0) this.closeRun();
    return this.depth;
  }

  private push(name: StringIndex, flags: number, module: StringIndex | -1, inlined: boolean, start: number, offset: number): void {
    const n = this.pendingCount;
    if (n === this.pendingName.length) {
      this.pendingStart = grown(this.pendingStart, n * 2);
      this.pendingOffset = grown(this.pendingOffset, n * 2);
      this.pendingName = grown(this.pendingName, n * 2);
      this.pendingModule = grown(this.pendingModule, n * 2);
      this.pendingFlags = grown(this.pendingFlags, n * 2);
      this.pendingInlined = grown(this.pendingInlined, n * 2);
      this.pendingLocation = grown(this.pendingLocation, n * 2);
    }
    this.pendingName[n] = name;
    this.pendingFlags[n] = flags;
    this.pendingModule[n] = module;
    this.pendingInlined[n] = inlined ? 1 : 0;
    this.pendingStart[n] = start;
    this.pendingOffset[n] = offset;
    this.pendingLocation[n] = NO_LOCATION;
    this.pendingCount = n + 1;
  }

  private pushFrame(frame: FrameIndex, address: number, location: number): void {
    if (this.depth === this.stack.length) {
      this.stack = grown(this.stack, this.depth * 2);
      this.stackLocation = grown(this.stackLocation, this.depth * 2);
      this.address = grown(this.address, this.depth * 2);
    }
    this.stackLocation[this.depth] = location;
    this.address[this.depth] = address;
    this.stack[this.depth++] = frame;
  }

  /** Pushes the open address run's frames (see the rule in the module comment). */
  private closeRun(): void {
    const n = this.pendingCount;
    const address = this.lastAddress;
    this.pendingCount = 0;
    if (n === 1) {
      // The common case, one line at this address: a physical frame, remembered in its record.
      const line = this.runLine;
      const at = line * LINE_STRIDE + L_FRAME;
      let frame: FrameIndex;
      if (line > SCRATCH_LINE && this.records[at] > 0) frame = this.records[at] - 1;
      else {
        frame = this.frameOf(this.pendingName[0], this.pendingFlags[0], this.pendingModule[0]);
        if (line > SCRATCH_LINE) this.records[at] = frame + 1;
      }
      this.stats.note(frame, address, 1, this.depth === 0);
      this.noteName(address, frame, 0);
      if (this.depth === this.kernelDepth && this.pendingFlags[0] & FrameFlags.KERNEL) this.kernelDepth++;
      if (this.depth === 0) this.noteLeaf(frame, this.pendingOffset[0], this.pendingInlined[0]);
      this.pushFrame(frame, address, this.pendingLocation[0]);
      return;
    }
    const names = this.pendingName;
    const flags = this.pendingFlags;
    const inlined = this.pendingInlined;
    // The group: the run's smallest period.
    let size = n;
    for (let p = 1; p < n; p++) {
      if (n % p !== 0) continue;
      let i = p;
      while (i < n && names[i] === names[i - p] && flags[i] === flags[i - p] && inlined[i] === inlined[i - p]) i++;
      if (i === n) {
        size = p;
        break;
      }
    }
    let physical = size - 1;
    while (physical > 0 && inlined[physical]) physical--;
    if (inlined[physical]) physical = size - 1;
    if (this.depth + n > this.stack.length) {
      const size = Math.max(this.stack.length * 2, this.depth + n);
      this.stack = grown(this.stack, size);
      this.stackLocation = grown(this.stackLocation, size);
      this.address = grown(this.address, size);
    }
    const start = this.depth;
    for (let i = 0; i < n; i++) {
      const own = i % size === physical;
      this.address[this.depth] = address;
      this.stackLocation[this.depth] = this.pendingLocation[i];
      // A line perf did not mark `(inlined)` stays unmarked in the inline view: FOLDED, not INLINED.
      const merged = inlined[i] ? FrameFlags.INLINED : FrameFlags.FOLDED;
      this.stack[this.depth++] = this.frameOf(names[i], own ? flags[i] : flags[i] | merged, this.pendingModule[i]);
    }
    if (size > 1) this.hasInlined = true;
    this.noteName(address, this.stack[start + physical], physical);
    if (start === 0) this.noteLeaf(this.stack[physical], this.pendingOffset[physical], inlined[physical]);
    const groups = n / size;
    // The sampled instruction is one frame: the chain's first run, or, below kernel frames, the
    // first user-space run (the interrupted user instruction, not a return address).
    const kernel = (this.pendingFlags[0] & FrameFlags.KERNEL) !== 0;
    const leaf = start === 0 || (start === this.kernelDepth && !kernel);
    if (start === this.kernelDepth && kernel) this.kernelDepth = this.depth;
    // The line below the run (its callee) the same function at another address: the base case of
    // a recursion through this call site, so the run is no evidence that perf doubles the function
    // (see perf-runs.ts).
    const runFrame = this.stack[start + physical];
    const callsSelf = start > 0 && this.stack[start - 1] === runFrame;
    const k = this.stats.note(runFrame, address, groups, leaf, callsSelf);
    if (groups === 1) return;
    this.runs.add(start, size, physical, groups, address, leaf, leaf ? (this.printedInlined ? 1 : 0) : k);
    // A leaf run is one frame, known now when perf has shown it resolves inline frames.
    if (leaf ? !this.printedInlined : k > 1) this.runs.unsettled = true;
  }

  /**
   * The sample's first address run is the sampled instruction (the interrupted ip): its physical
   * frame and its offset, when perf printed that frame as the ELF symbol `symbol+0xOFFSET` (an
   * `(inlined)` line's offset would be within no symbol of the binary).
   */
  private noteLeaf(frame: FrameIndex, offset: number, inlined: number): void {
    if (offset < 0 || inlined) return;
    this.leafFrame = frame;
    this.leafOffset = offset;
  }

  /** Notes an address's physical frame (pending entry `physical`) in `names`, once per address. */
  private noteName(address: number, frame: FrameIndex, physical: number): void {
    if (address >= this.addressNoted.length) this.addressNoted = grown(this.addressNoted, Math.max(address + 1, this.addressNoted.length * 2));
    if (this.addressNoted[address]) return;
    this.addressNoted[address] = 1;
    // A physical line printed with a DSO is the ELF symbol; an `(inlined)` one is the DWARF name.
    const short = this.pendingInlined[physical] === 1;
    if (short || this.pendingModule[physical] >= 0) this.names.note(frame, this.pendingStart[physical], short);
  }

  private frameOf(name: StringIndex, flags: number, module: StringIndex | -1): FrameIndex {
    const key = name * 16 + flags;
    if (key >= this.frameCache.length) {
      this.frameCache = grown(this.frameCache, Math.max(key + 1, this.frameCache.length * 2));
    }
    const cached = this.frameCache[key];
    if (cached > 0) return cached - 1;
    const frame = this.frames.internIndex(name, flags, flags & FrameFlags.INLINED ? -1 : module);
    this.frameCache[key] = frame + 1;
    return frame;
  }

  private dsoId(sliced: string): number {
    let id = this.dsoIds.get(sliced);
    if (id === undefined) {
      const dso = detach(sliced);
      const inlined = dso === 'inlined';
      const known = dso !== UNKNOWN && dso !== '' && !inlined;
      id = this.dsos.length;
      this.dsos.push({
        flags: isKernelDso(dso) ? FrameFlags.KERNEL : isJitDso(dso) ? FrameFlags.JIT : 0,
        module: known ? this.frames.strings.intern(dso) : -1,
        inlined,
        fallback: known ? dsoFallbackName(dso) : UNKNOWN,
      });
      this.dsoIds.set(dso, id);
    }
    return id;
  }

  private addEntry(raw: string): number {
    const clean = raw.indexOf('\u0000') >= 0 ? raw.replaceAll('\u0000', '') : raw;
    const parts = splitInlineChain(fixRustLegacyName(clean));
    const id = this.entryCount++;
    if (id === this.entryStart.length) {
      this.entryStart = grown(this.entryStart, id * 2);
      this.entryLength = grown(this.entryLength, id * 2);
    }
    if (this.chainCount + parts.length > this.chain.length) {
      this.chain = grown(this.chain, Math.max(this.chain.length * 2, this.chainCount + parts.length));
    }
    this.entryStart[id] = this.chainCount;
    this.entryLength[id] = parts.length;
    const strings = this.frames.strings;
    for (const part of parts) this.chain[this.chainCount++] = strings.intern(part.length > 0 ? detach(part) : UNKNOWN);
    this.entries.set(detach(raw), id);
    return id;
  }
}

/**
 * Splits perf-map-agent's `outer->inner->innermost` inline syntax, outermost first. The `->` of
 * C++ `operator->` does not split.
 */
export function splitInlineChain(name: string): string[] {
  let arrow = name.indexOf('->');
  if (arrow < 0) return [name];
  const parts: string[] = [];
  let start = 0;
  while (arrow >= 0) {
    if (arrow > start && !name.startsWith('operator', arrow - 8)) {
      parts.push(name.slice(start, arrow));
      start = arrow + 2;
    }
    arrow = name.indexOf('->', arrow + 2);
  }
  parts.push(name.slice(start));
  return parts;
}

function isHexCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** Whether a line ends at input[at] (LF, or CR LF), before `stop`. */
function isLineEnd(input: Uint8Array, at: number, stop: number): boolean {
  if (at >= stop) return false;
  const c = input[at];
  return c === 10 || (c === 13 && at + 1 < stop && input[at + 1] === 10);
}
