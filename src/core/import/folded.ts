// Folded stacks ("collapsed" stacks, the input of flamegraph.pl and inferno-flamegraph):
//
//   main;parse;lex_[i] 3          one root-first stack per line, frames separated by ';',
//   main;emit 2.5                 then one space (or tab) and a count (integer or decimal)
//
// Invariants and decisions:
// - A frame's `_[i]`, `_[k]`, `_[j]` suffix becomes FrameFlags INLINED / KERNEL / JIT; the stored
//   name has no suffix. Any other text is kept as it is (no tidying: that is the exporter's job).
// - The count is both the period weight and the sample count (folded text has no unit, so
//   meta.weightUnit is null). meta.samples is the sum of the counts. Told a time unit
//   (options.unit: BPF's offcputime prints µs), the count is a time: the weight is it in
//   nanoseconds, each line one sample.
// - Blank lines and lines starting with '#' are ignored (not counted as skipped).
// - Differential input (`stack countA countB`, as difffolded.pl writes) is decided by the first
//   stack line: then every line needs two counts and the tree holds the *second* count, which is
//   the width flamegraph.pl draws for such input; one warning says so. Deciding once per file
//   keeps a leaf name that ends in " 12" intact in ordinary files.
// - A line without a valid count (missing, negative, not a number, past 2^53) is skipped,
//   counted in meta.skippedLines, and the first few are quoted in meta.warnings. If no line at
//   all was valid, finish() throws an ImportError naming the first bad line.
// - NUL in a name becomes U+FFFD (the snapshot joins names with NUL).
//
// Speed: no regex and no split per line. Consecutive lines of sorted folded text share long
// prefixes, so the parser compares each line with the previous one (bisecting over its frame
// ends) and reuses the tree path of the common whole frames; only the differing tail is looked
// up: first as the child created last under its parent (one string comparison), else through a
// hash table keyed by the raw frame text, suffix included, and the builder.

import { FrameTableBuilder } from '../model/frame-table';
import { markMutable } from '../model/mutable-fields';
import { TreeBuilder } from '../model/tree-builder';
import { WeightLog } from './weight-log';
import { FrameFlags, ROOT_NODE, type FrameIndex } from '../model/types';
import { ImportError, quoteInput, type ImportWarning, type Profile } from '../model/profile';
import { shiftWarnings, type Detection, type ImportOptions, type Importer, type LineParser, type MergedParts, type PartContext, type PartialProfile } from './importer';
import { grown } from '../model/grown';
import { FOLDED_UNITS, type FoldedUnit } from '../model/weight-text';

const DESCRIPTION = 'folded stacks (frame;frame;... count)';
const MAX_QUOTED = 5;

const SPACE = 32;
const TAB = 9;
const SEMI = 59;
const DOT = 46;
const HASH = 35;
const MINUS = 45;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** Index where a trailing `digits[.digits]` token starts, or -1. `end` is exclusive. */
function numberStart(text: string, end: number): number {
  let i = end;
  let digits = 0;
  let dots = 0;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (isDigit(c)) digits++;
    else if (c === DOT) dots++;
    else break;
    i--;
  }
  if (digits === 0 || dots > 1 || i === end) return -1;
  return i;
}

interface ParsedCounts {
  /** Exclusive end of the stack text. */
  stackEnd: number;
  weight: number;
  /** First count of a differential line, else NaN. */
  before: number;
}

type CountResult = ParsedCounts | string;

/** Parses the count(s) at the end of a line; returns a reason string when they are invalid. */
function parseCounts(text: string, end: number, differential: boolean | null): CountResult {
  const start = numberStart(text, end);
  if (start < 0) {
    const space = Math.max(text.lastIndexOf(' ', end - 1), text.lastIndexOf('\t', end - 1));
    const token = text.slice(space + 1, end);
    if (space < 0) return 'no count at the end of the line';
    if (token.charCodeAt(0) === MINUS) return `negative count ${quoteInput(token, 24)}`;
    return `count ${quoteInput(token, 24)} is not a number`;
  }
  if (start === 0) return 'no stack before the count';
  const before = text.charCodeAt(start - 1);
  if (before === MINUS) return `negative count ${quoteInput(text.slice(start - 1, end), 24)}`;
  if (!isBlank(before)) return `count ${quoteInput(text.slice(text.lastIndexOf(' ', end - 1) + 1, end), 24)} is not a number`;
  const weight = Number(text.slice(start, end));
  // Past 2^53 a count is no longer exact, and a few of them sum to Infinity: no tool writes one.
  if (!(weight <= Number.MAX_SAFE_INTEGER)) return `count ${quoteInput(text.slice(start, end), 24)} is past 2^53`;
  let stackEnd = start - 1;
  while (stackEnd > 0 && isBlank(text.charCodeAt(stackEnd - 1))) stackEnd--;
  let first = NaN;
  if (differential !== false) {
    const s2 = numberStart(text, stackEnd);
    const twoCounts = s2 > 0 && isBlank(text.charCodeAt(s2 - 1));
    if (twoCounts) {
      first = Number(text.slice(s2, stackEnd));
      if (!(first <= Number.MAX_SAFE_INTEGER)) return `count ${quoteInput(text.slice(s2, stackEnd), 24)} is past 2^53`;
      stackEnd = s2 - 1;
      while (stackEnd > 0 && isBlank(text.charCodeAt(stackEnd - 1))) stackEnd--;
    } else if (differential === true) {
      return 'expected two counts (differential input: "stack before after")';
    }
  }
  if (stackEnd === 0) return 'no stack before the count';
  return { stackEnd, weight, before: first };
}

function suffixFlags(text: string, start: number, end: number): number {
  if (end - start < 4 || text.charCodeAt(end - 1) !== 93 /* ] */) return 0;
  if (text.charCodeAt(end - 3) !== 91 /* [ */ || text.charCodeAt(end - 4) !== 95 /* _ */) return 0;
  switch (text.charCodeAt(end - 2)) {
    case 105: // i
      return FrameFlags.INLINED;
    case 107: // k
      return FrameFlags.KERNEL;
    case 106: // j
      return FrameFlags.JIT;
    default:
      return 0;
  }
}

/**
 * Raw frame text (suffix included) → frame. A Map<string, …> hashes every character of each
 * fresh slice; this table hashes the length and eight sampled characters and lets one string
 * comparison (a memcmp in the engine) confirm the match, which is about twice as fast here.
 * Fewer samples make names that differ in a few digits (`mod13::fn110`) collide (bench/README.md).
 */
class RawNameCache {
  private slots = new Int32Array(1024).fill(-1);
  private mask = 1023;
  private readonly keys: string[] = [];
  // Per id: its hash (an int32, so the column stays a typed array of small integers) and frame.
  private hashes = new Int32Array(512);
  private frames = new Int32Array(512);

  constructor() {
    // Replaced when they grow: variable fields from the start (see mutable-fields.ts).
    markMutable(this, ['slots', 'mask', 'hashes', 'frames']);
  }

  private static hash(text: string, start: number, end: number): number {
    const len = end - start;
    let h = Math.imul(len, 0x9e3779b1);
    if (len > 0) {
      const q = len >>> 2;
      h = Math.imul(h ^ text.charCodeAt(start), 0x85ebca6b);
      h = Math.imul(h ^ text.charCodeAt(end - 1), 0xc2b2ae35);
      h = Math.imul(h ^ text.charCodeAt(start + (len >>> 1)), 0x85ebca6b);
      h = Math.imul(h ^ text.charCodeAt(start + q), 0xc2b2ae35);
      h = Math.imul(h ^ text.charCodeAt(end - 1 - q), 0x85ebca6b);
      h = Math.imul(h ^ text.charCodeAt(end - 2 < start ? start : end - 2), 0xc2b2ae35);
      h = Math.imul(h ^ text.charCodeAt(end - 5 < start ? start : end - 5), 0x85ebca6b);
      h = Math.imul(h ^ text.charCodeAt(start + 1 >= end ? start : start + 1), 0xc2b2ae35);
    }
    return h ^ (h >>> 15);
  }

  find(key: string, text: string, start: number, end: number): FrameIndex {
    const h = RawNameCache.hash(text, start, end);
    const mask = this.mask;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id < 0) return -1;
      if (this.hashes[id] === h && this.keys[id] === key) return this.frames[id];
    }
  }

  add(key: string, text: string, start: number, end: number, frame: FrameIndex): void {
    const id = this.keys.length;
    const h = RawNameCache.hash(text, start, end);
    this.keys.push(key);
    if (id === this.frames.length) {
      this.frames = grown(this.frames, id * 2);
      this.hashes = grown(this.hashes, id * 2);
    }
    this.frames[id] = frame;
    this.hashes[id] = h;
    this.insert(id, h);
    if (this.keys.length * 2 > this.mask) this.rehash();
  }

  private insert(id: number, h: number): void {
    let slot = h & this.mask;
    while (this.slots[slot] >= 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = id;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    this.mask = this.slots.length - 1;
    for (let id = 0; id < this.keys.length; id++) this.insert(id, this.hashes[id]);
  }
}

/** A copy of s that does not share the memory of the string it was sliced from. */
function flatCopy(s: string): string {
  return s.length === 0 ? s : (' ' + s).slice(1);
}

class FoldedParser implements LineParser {
  private readonly frames = new FrameTableBuilder();
  private readonly builder = new TreeBuilder();
  private readonly names = new RawNameCache();
  /** Frame → its raw text (suffix included), for the child guess in addStack. */
  private readonly rawOfFrame: string[] = [];
  private sampleSum = 0;
  private accepted = 0;
  private skipped = 0;
  private firstBad: { line: number; text: string; reason: string } | null = null;
  private readonly warnings: ImportWarning[] = [];
  private differential: boolean | null = null;
  // The first line read through parseCounts that was a valid stack (the one that decides
  // `differential` in the first part that has one).
  private firstStackAt = 0;
  private inlined = false;
  private integral = true;
  // For a merge of parts with decimal counts (./weight-log.ts).
  private readonly log = new WeightLog();

  // The previous stack: its text, and for frame k its end offset and its tree node.
  private prev = '';
  private prevDepth = 0;
  // Sized for deep stacks from the start (128 KB): a first growth in the middle of the input
  // ran code that optimised addStack had never seen, and threw that code away (--trace-deopt).
  private prevEnds = new Int32Array(16384);
  private prevNodes = new Int32Array(16384);

  // Nanoseconds per count, or 0: the counts are samples.
  private readonly scale: number;

  constructor(
    private readonly source?: string,
    context?: PartContext,
    unit: FoldedUnit = 'samples',
  ) {
    this.scale = FOLDED_UNITS[unit];
    markMutable(this, ['prevEnds', 'prevNodes']);
    if (context?.differential !== undefined) this.differential = context.differential;
  }

  /** What later parts of a split input need: whether it is differential, once decided. */
  splitContext(): PartContext | null {
    return this.differential === null ? null : { differential: this.differential };
  }

  get samples(): number {
    return this.sampleSum;
  }

  line(raw: string, lineNumber: number): void {
    let end = raw.length;
    while (end > 0) {
      const c = raw.charCodeAt(end - 1);
      if (!isBlank(c) && c !== 13) break;
      end--;
    }
    if (end === 0) return;
    const c0 = raw.charCodeAt(0);
    if (c0 === HASH) return;
    if (this.differential === false) {
      // Fast path for the usual line, `stack<blank>digits` once the file is known not to be
      // differential: the count read in place (no slice, no result object). Up to 9 digits the
      // sum is exact and stays a small integer (a larger one deopts line()), so it equals
      // Number() of the token; anything else takes parseCounts.
      let i = end;
      let weight = 0;
      let scale = 1;
      while (i > 0 && end - i < 9) {
        const c = raw.charCodeAt(i - 1);
        if (!isDigit(c)) break;
        weight += (c - 48) * scale;
        scale *= 10;
        i--;
      }
      if (i < end && i > 1 && isBlank(raw.charCodeAt(i - 1))) {
        let stackEnd = i - 1;
        while (stackEnd > 0 && isBlank(raw.charCodeAt(stackEnd - 1))) stackEnd--;
        if (stackEnd > 0) {
          this.accept(raw, stackEnd, weight);
          return;
        }
      }
    }
    const parsed = parseCounts(raw, end, this.differential);
    if (typeof parsed === 'string') {
      this.bad(lineNumber, raw, parsed);
      return;
    }
    if (this.differential === null) this.differential = !Number.isNaN(parsed.before);
    if (this.firstStackAt === 0) this.firstStackAt = lineNumber;
    // Timed weights are whole nanoseconds (see accept).
    if (this.scale === 0 && !Number.isInteger(parsed.weight)) this.integral = false;
    this.accept(raw, parsed.stackEnd, parsed.weight);
  }

  private accept(text: string, stackEnd: number, count: number): void {
    this.accepted++;
    const samples = this.scale === 0 ? count : 1;
    // Whole nanoseconds: a fraction of one is below any clock's resolution, and integral weights
    // merge across parts exactly.
    const weight = this.scale === 0 ? count : Math.round(count * this.scale);
    this.sampleSum += samples;
    if (weight === 0) return;
    const leaf = this.addStack(text, stackEnd);
    this.builder.addSelf(leaf, weight, samples);
    this.log.push(leaf, weight);
  }

  /** Adds the stack text[0..stackEnd) to the tree, reusing the previous line's common frames. */
  private addStack(text: string, stackEnd: number): number {
    const shared = this.sharedFrames(text, stackEnd);
    let node = shared > 0 ? this.prevNodes[shared - 1] : ROOT_NODE;
    let depth = shared;
    // Start of the first frame not shared; past the end when the whole stack is shared.
    let start = shared > 0 ? this.prevEnds[shared - 1] + 1 : 0;
    while (start <= stackEnd) {
      let semi = text.indexOf(';', start);
      if (semi < 0 || semi > stackEnd) semi = stackEnd;
      const key = text.slice(start, semi);
      // Guess: the child created last under this node, confirmed by its raw text (one string
      // comparison, no hash). A stack that re-walks a deep path (recursion, a third of the tail
      // frames at 200 MB) meets nodes with one child each.
      const guess = this.builder.lastChild(node);
      if (guess !== 0 && this.rawOfFrame[this.builder.frameOf(guess)] === key) node = guess;
      else node = this.builder.child(node, this.internFrame(key, text, start, semi));
      if (depth === this.prevEnds.length) this.growPath();
      this.prevEnds[depth] = semi;
      this.prevNodes[depth] = node;
      depth++;
      start = semi + 1;
    }
    this.prev = text;
    this.prevDepth = depth;
    return node;
  }

  /**
   * How many whole frames text[0..stackEnd) shares with the previous stack, from the root.
   * Sharing k frames is monotone in k, so this bisects over the previous stack's frame ends:
   * about log2(depth) substring comparisons (memcmp in the engine) of the not yet resolved
   * range, where a bisection over characters took about log2(line length). A third of the
   * lines of a sorted file extend the previous stack whole: that is tried first.
   */
  private sharedFrames(text: string, stackEnd: number): number {
    const depth = this.prevDepth;
    if (depth === 0 || text.charCodeAt(0) !== this.prev.charCodeAt(0)) return 0;
    if (this.shares(text, stackEnd, 0, depth)) return depth;
    let lo = 0;
    let hi = depth - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.shares(text, stackEnd, lo, mid)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Whether frames [0, k) are shared with the previous stack, given that frames [0, from) are. */
  private shares(text: string, stackEnd: number, from: number, k: number): boolean {
    // Frame k-1 of the previous stack ends at e, where this stack must end or have a separator.
    const e = this.prevEnds[k - 1];
    if (e > stackEnd || (e < stackEnd && text.charCodeAt(e) !== SEMI)) return false;
    const s = from === 0 ? 0 : this.prevEnds[from - 1];
    return text.substring(s, e) === this.prev.substring(s, e);
  }

  private internFrame(key: string, text: string, start: number, end: number): FrameIndex {
    const cached = this.names.find(key, text, start, end);
    if (cached >= 0) return cached;
    const flags = suffixFlags(text, start, end);
    if (flags === FrameFlags.INLINED) this.inlined = true;
    // Copies, so that the tables do not pin the input chunk each name was sliced from.
    const own = flatCopy(key);
    let name = flags === 0 ? own : flatCopy(own.slice(0, -4));
    // NUL is replaced here, once per distinct raw name, not by a scan of every line: `a\0b` and
    // `a\ufffdb` stay two raw keys but name one frame (the string table interns the name).
    if (name.indexOf('\0') >= 0) name = name.replaceAll('\0', '\ufffd');
    const frame = this.frames.intern(name, flags);
    this.names.add(own, text, start, end, frame);
    // The first raw text of each frame (`a\0b` and `a\ufffdb` share a frame: a guess that
    // compares with the other one misses and takes the lookup, which gives the same node).
    if (frame === this.rawOfFrame.length) this.rawOfFrame.push(own);
    return frame;
  }

  private growPath(): void {
    const ends = new Int32Array(this.prevEnds.length * 2);
    ends.set(this.prevEnds);
    this.prevEnds = ends;
    const nodes = new Int32Array(this.prevNodes.length * 2);
    nodes.set(this.prevNodes);
    this.prevNodes = nodes;
  }

  private bad(lineNumber: number, text: string, reason: string): void {
    this.skipped++;
    if (!this.firstBad) this.firstBad = { line: lineNumber, text, reason };
    if (this.skipped <= MAX_QUOTED) {
      this.warnings.push({ line: lineNumber, message: `${reason}; skipped ${quoteInput(text)}` });
    }
  }

  finish(): Profile {
    const frames = this.frames.finish();
    const { tree } = this.builder.finish(frames);
    return foldedProfile({ frames, tree, lineOffsets: [0] }, [this.partMeta()], this.source, this.scale > 0);
  }

  finishPart(): Omit<PartialProfile, 'lines' | 'tooLong' | 'sawReplacement'> {
    const frames = this.frames.finish();
    const { tree, order } = this.builder.finish(frames);
    const meta = this.partMeta();
    const weightLog = this.log.finish(order);
    return { format: 'folded', frames, moduleKnown: this.frames.moduleKnown(), tree, samples: null, integralWeights: this.integral, weightLog, meta };
  }

  private partMeta(): FoldedPartMeta {
    return {
      sampleSum: this.sampleSum,
      accepted: this.accepted,
      skipped: this.skipped,
      firstBad: this.firstBad,
      quoted: this.warnings,
      differential: this.differential,
      firstStackAt: this.firstStackAt,
      inlined: this.inlined,
    };
  }
}

/** What one folded parser learnt, as plain data (it crosses from a worker). */
interface FoldedPartMeta {
  sampleSum: number;
  accepted: number;
  skipped: number;
  firstBad: { line: number; text: string; reason: string } | null;
  /** The first MAX_QUOTED skipped lines. */
  quoted: ImportWarning[];
  /** Whether the input is differential: decided by this part's first stack line, or given. */
  differential: boolean | null;
  /** The part's first stack line read through parseCounts, or 0. */
  firstStackAt: number;
  inlined: boolean;
}

/**
 * The profile of the whole input from its parts' statistics in input order (one part when one
 * parser read it all): the first MAX_QUOTED skipped lines of the input, in line order.
 */
function foldedProfile(merged: Pick<MergedParts, 'frames' | 'tree' | 'lineOffsets' | 'weightSum'>, metas: readonly FoldedPartMeta[], source?: string, timed = false): Profile {
  let sampleSum = 0;
  let accepted = 0;
  let skipped = 0;
  let inlined = false;
  let firstBad: FoldedPartMeta['firstBad'] = null;
  const warnings: ImportWarning[] = [];
  metas.forEach((m, part) => {
    const offset = merged.lineOffsets[part];
    sampleSum += m.sampleSum;
    accepted += m.accepted;
    skipped += m.skipped;
    inlined ||= m.inlined;
    if (!firstBad && m.firstBad) firstBad = { ...m.firstBad, line: m.firstBad.line + offset };
    if (warnings.length < MAX_QUOTED) warnings.push(...shiftWarnings(m.quoted, offset).slice(0, MAX_QUOTED - warnings.length));
  });
  // The warning names the input's first stack line, in the first part that has one.
  let differentialAt = 0;
  if (metas.some((m) => m.differential)) {
    const part = metas.findIndex((m) => m.firstStackAt > 0);
    if (part >= 0) differentialAt = metas[part].firstStackAt + merged.lineOffsets[part];
  }
  if (accepted === 0 && firstBad) {
    const { line, text, reason } = firstBad;
    throw new ImportError(DESCRIPTION, line, `${quoteInput(text)} (${reason})`, source);
  }
  if (differentialAt > 0) {
    const message = 'differential folded input ("stack before after"): the tree shows the second count';
    let at = 0;
    while (at < warnings.length && warnings[at].line < differentialAt) at++;
    warnings.splice(at, 0, { line: differentialAt, message });
  }
  return {
    frames: merged.frames,
    tree: merged.tree,
    meta: {
      format: 'folded',
      events: [],
      event: null,
      weightUnit: timed ? 'nanoseconds' : null,
      // Timed: the sample count is the lines', never the weights' sum.
      samples: timed ? sampleSum : (merged.weightSum ?? sampleSum),
      hasInlineInfo: inlined,
      skippedLines: skipped,
      warnings,
    },
  };
}

/** The first line that is neither blank nor a '#' comment, and whether it is complete. */
function firstContentLine(head: string): { text: string; complete: boolean } | null {
  let start = 0;
  while (start < head.length) {
    let nl = head.indexOf('\n', start);
    const complete = nl >= 0;
    if (nl < 0) nl = head.length;
    let end = nl;
    while (end > start && (isBlank(head.charCodeAt(end - 1)) || head.charCodeAt(end - 1) === 13)) end--;
    if (end > start && head.charCodeAt(start) !== HASH) return { text: head.slice(start, end), complete };
    start = nl + 1;
  }
  return null;
}

/** NUL, several control characters, or mostly undecodable bytes: not a text recording. */
function looksBinary(text: string): boolean {
  let controls = 0;
  let replaced = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return true;
    if (c < 32 && c !== TAB && c !== 13) controls++;
    else if (c === 0xfffd) replaced++;
  }
  return controls * 20 > text.length || replaced * 4 > text.length;
}

function detect(head: string, atEnd: boolean): Detection {
  const first = firstContentLine(head);
  if (!first) return atEnd ? 'no' : 'need-more';
  if (looksBinary(first.text)) return 'no';
  if (!first.complete && !atEnd) {
    // A first line longer than the detection window (a very deep stack) cannot be checked to its
    // end; decide on its shape so far.
    return first.text.length >= 4096 && first.text.includes(';') ? 'yes' : 'need-more';
  }
  const parsed = parseCounts(first.text, first.text.length, null);
  if (typeof parsed === 'string') return 'no';
  // A perf script header ends in "event:", never in a number; a single-line perf sample ends in
  // "(dso)". What remains: text, then a count.
  return 'yes';
}

export const foldedImporter: Importer = {
  format: 'folded',
  description: DESCRIPTION,
  detect,
  create(options: ImportOptions): LineParser {
    return new FoldedParser(options.source, options.partContext, options.unit);
  },
  mergeParts(merged: MergedParts, metas: readonly unknown[], options: ImportOptions): Profile {
    return foldedProfile(merged, metas as FoldedPartMeta[], options.source, (options.unit ?? 'samples') !== 'samples');
  },
};
