// How many lines perf prints per physical frame at one return address, learned over a whole
// recording, and the samples that must wait for that answer.
//
// perf resolves each return address once (its inline list is cached per address) and prints the
// same group of lines for it every time, one group per physical frame: a run of m identical
// groups at one address is m frames of real recursion through that call site. When addr2line
// names a function that was inlined into itself (g++ -O2 inlines small recursive functions a few
// levels deep) every line of the group is the same text, none marked `(inlined)` (perf reuses the
// ELF symbol when the names are equal), so one frame is k identical lines and a sample cannot
// tell k inlined levels from k recursive calls. (`sqlite3_step+0x23f` printed twice, once called
// "doubled", is the case k = 2.) The recording can: every run at that address is a multiple of k,
// so k is the gcd of the run lengths seen there, and a run of one settles it to 1. The run at the
// sampled instruction itself (the first of a call chain, or below kernel frames the first
// user-space run: the interrupted user instruction, not a return address) is always one frame,
// so there k is known exactly (`fib+0x13f` printed 8 times under an interrupt's kernel frames is
// one frame of fib with 7 levels of itself inlined, which --no-inline prints once). Where every run seen at a key had the same length m, the gcd is m and says nothing
// by itself. The function does: a function perf doubles (addr2line's doubled line: sqlite's
// `sqlite3_step+0x23f`, every frame of a gcc `.part` clone of a recursive function) shows it
// somewhere as a key whose runs are all exactly two lines with another function below them, its
// callee; and a function seen inlined into itself (a leaf run) doubles too. There an even m is
// m / 2 frames, and runs of different lengths are k lines a frame. A function with no such key is
// not doubled: an even m is m frames (plain recursion of a fixed depth, `rec(4)`: four frames as
// `--no-inline` prints them; runs of two above a frame of the same function, a recursion's base
// case, are no evidence).
//
// A run of m ≥ 2 groups whose key (physical frame, address id) has a gcd above 1 so far is
// therefore not final: its sample is kept aside (DeferredSamples) and enters the tree at the end
// of the input, folded with the final gcd k: of each k consecutive groups only the outermost keeps
// its physical frame, the others' are flagged FOLDED. The inline view still shows every line as
// perf printed it (no `_[i]`: perf did not mark them, and inferno's output must not change); the
// function view merges a FOLDED frame into its parent. A gcd of 1 never changes, so samples whose
// runs are all at such keys enter the tree at once; the result depends only on the whole
// recording, not on the order or the split of its samples.
//
// Invariants: one open-addressing table in typed arrays (no allocation per run); addresses are the
// importer's interned address ids (small non-negative integers); the kept-aside samples are
// bounded (DEFERRED_LIMIT ints), past which they are folded with the gcds known then.
//
// Parallel parsing (../../parallel/): a part cannot know the whole recording's gcds, so it keeps
// aside every sample whose runs were undecided in the part (a superset of what one parser keeps
// aside) and hands them over with its RunStats (RunStats.data, DeferredSamples.data);
// ./perf-late.ts combines the stats (gcd, longest run, seen at leaf: each combines exactly) and
// folds the kept-aside samples as one parser would have.

import { FrameFlags, type FrameIndex } from '../../model/types';
import { markMutable } from '../../model/mutable-fields';

const EMPTY = -1;

/** RunStats.data(): the open-addressing table's columns. */
export interface RunStatsData {
  frame: Int32Array;
  address: Int32Array;
  gcds: Int32Array;
  longest: Int32Array;
  atLeaf: Uint8Array;
  /** 1 where a run at the key was seen calling its own function (RunStats.note's `callsSelf`). */
  callsSelf: Uint8Array;
}

export class RunStats {
  private frame = new Int32Array(4096).fill(EMPTY);
  private address = new Int32Array(4096);
  private gcds = new Int32Array(4096);
  // Per key: the longest run, and whether one was seen at the leaf.
  private longest = new Int32Array(4096);
  private atLeaf = new Uint8Array(4096);
  // Per key: whether a run there was seen calling its own function at another address.
  private callsSelf = new Uint8Array(4096);
  private mask = 4095;
  private count = 0;
  // Per address id: frame + 1 of a key already settled by a run of one (nearly every run is a run
  // of one, and noting it again changes nothing), so those skip the table.
  private onceNoted = new Int32Array(4096);
  // Frames seen inlined into themselves for certain: a run of two or more identical groups at the
  // sampled instruction (a leaf run), where it is one frame.
  private readonly selfInlined = new Set<FrameIndex>();
  // The frames perf doubles (see the module comment), found from the table when a fold asks and
  // forgotten when a run is noted.
  private doubling: Set<FrameIndex> | null = null;

  constructor() {
    markMutable(this, ['frame', 'address', 'gcds', 'longest', 'atLeaf', 'callsSelf', 'mask', 'onceNoted']);
  }

  /**
   * Notes a run of `length` identical groups at (physical frame, address id), `leaf` when it is the
   * first run of a call chain (one frame for certain), `callsSelf` when the line below it (its
   * callee) is the same function at another address; returns the key's gcd so far.
   */
  note(frame: FrameIndex, address: number, length: number, leaf: boolean, callsSelf = false): number {
    if (length === 1) {
      if (address < this.onceNoted.length && this.onceNoted[address] === frame + 1) return 1;
      this.merge(frame, address, 1, false);
      if (address >= this.onceNoted.length) {
        const grown = new Int32Array(Math.max(address + 1, this.onceNoted.length * 2));
        grown.set(this.onceNoted);
        this.onceNoted = grown;
      }
      this.onceNoted[address] = frame + 1;
      return 1;
    }
    return this.merge(frame, address, length, leaf, callsSelf);
  }

  /** The gcd of the runs noted at (frame, address id), 0 when none was. */
  gcdOf(frame: FrameIndex, address: number): number {
    const slot = this.find(frame, address);
    return this.frame[slot] === EMPTY ? 0 : this.gcds[slot];
  }

  /** Adds what another RunStats learnt at a key (its gcd, longest run, leaf and callsSelf bits): the merge of parts. */
  combine(frame: FrameIndex, address: number, runGcd: number, longest: number, leaf: boolean, callsSelf: boolean): void {
    this.doubling = null;
    if (leaf) this.selfInlined.add(frame);
    const slot = this.find(frame, address);
    if (this.frame[slot] === EMPTY) {
      this.frame[slot] = frame;
      this.address[slot] = address;
      this.gcds[slot] = runGcd;
      this.longest[slot] = longest;
      this.atLeaf[slot] = leaf ? 1 : 0;
      this.callsSelf[slot] = callsSelf ? 1 : 0;
      if (++this.count * 2 > this.mask) this.grow();
      return;
    }
    this.gcds[slot] = gcd(this.gcds[slot], runGcd);
    if (longest > this.longest[slot]) this.longest[slot] = longest;
    if (leaf) this.atLeaf[slot] = 1;
    if (callsSelf) this.callsSelf[slot] = 1;
  }

  /** The table as plain data (a part hands it to the merge); slots with frame -1 are empty. */
  data(): RunStatsData {
    return { frame: this.frame, address: this.address, gcds: this.gcds, longest: this.longest, atLeaf: this.atLeaf, callsSelf: this.callsSelf };
  }

  /**
   * Groups per physical frame at (frame, address id): the gcd at a leaf, or for runs of different
   * lengths of a function perf doubles; 2 for one even length of such a function; else 1.
   */
  linesPerFrame(frame: FrameIndex, address: number): number {
    const slot = this.find(frame, address);
    if (this.frame[slot] === EMPTY) return 1;
    const k = this.gcds[slot];
    if (this.atLeaf[slot]) return k;
    // A gcd of 1 (every sample that enters the tree at once) or one odd length: frames. Decided
    // before asking about the function, whose answer scans the table.
    if (k === 1 || (k % 2 !== 0 && k === this.longest[slot])) return 1;
    const doubles = this.selfInlined.has(frame) || this.doublingFrames().has(frame);
    // Runs of different lengths with a common divisor: k lines a frame if the function doubles,
    // else real recursion that happened to be that deep (introsort's runs of 2, 4 and 6 at one
    // call site are 2, 4 and 6 frames).
    if (k < this.longest[slot]) return doubles ? k : 1;
    return doubles ? 2 : 1;
  }

  /** Frames with a key whose runs are all two lines, not at a leaf, with another function below. */
  private doublingFrames(): Set<FrameIndex> {
    if (this.doubling) return this.doubling;
    const out = new Set<FrameIndex>();
    for (let s = 0; s < this.frame.length; s++) {
      if (this.frame[s] !== EMPTY && this.gcds[s] === 2 && this.longest[s] === 2 && !this.atLeaf[s] && !this.callsSelf[s]) out.add(this.frame[s]);
    }
    return (this.doubling = out);
  }

  private find(frame: FrameIndex, address: number): number {
    let slot = hash(frame, address) & this.mask;
    for (;;) {
      const f = this.frame[slot];
      if (f === EMPTY || (f === frame && this.address[slot] === address)) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  private merge(frame: FrameIndex, address: number, length: number, leaf: boolean, callsSelf = false): number {
    this.doubling = null;
    if (leaf) this.selfInlined.add(frame);
    const slot = this.find(frame, address);
    if (this.frame[slot] !== EMPTY) {
      if (leaf) this.atLeaf[slot] = 1;
      if (callsSelf) this.callsSelf[slot] = 1;
      if (length > this.longest[slot]) this.longest[slot] = length;
      return (this.gcds[slot] = gcd(this.gcds[slot], length));
    }
    this.frame[slot] = frame;
    this.address[slot] = address;
    this.gcds[slot] = length;
    this.longest[slot] = length;
    this.atLeaf[slot] = leaf ? 1 : 0;
    this.callsSelf[slot] = callsSelf ? 1 : 0;
    if (++this.count * 2 > this.mask) this.grow();
    return length;
  }

  private grow(): void {
    const oldFrame = this.frame;
    const oldAddress = this.address;
    const oldGcds = this.gcds;
    const oldLongest = this.longest;
    const oldLeaf = this.atLeaf;
    const oldCallsSelf = this.callsSelf;
    const size = oldFrame.length * 2;
    this.frame = new Int32Array(size).fill(EMPTY);
    this.address = new Int32Array(size);
    this.gcds = new Int32Array(size);
    this.longest = new Int32Array(size);
    this.atLeaf = new Uint8Array(size);
    this.callsSelf = new Uint8Array(size);
    this.mask = size - 1;
    for (let i = 0; i < oldFrame.length; i++) {
      if (oldFrame[i] === EMPTY) continue;
      let slot = hash(oldFrame[i], oldAddress[i]) & this.mask;
      while (this.frame[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.frame[slot] = oldFrame[i];
      this.address[slot] = oldAddress[i];
      this.gcds[slot] = oldGcds[i];
      this.longest[slot] = oldLongest[i];
      this.atLeaf[slot] = oldLeaf[i];
      this.callsSelf[slot] = oldCallsSelf[i];
    }
  }
}

/**
 * Ints a run takes in SampleRuns: stack index of its first line, group size, physical item,
 * groups, address id, leaf (0/1), and what decided it when it was noted: the key's gcd so far,
 * or for the leaf run 1 when perf had printed an `(inlined)` line by then (the merge of parts
 * replays one parser's decision with them, ./perf-late.ts).
 */
export const RUN_INTS = 7;

/** The runs of m ≥ 2 groups of the sample being assembled, RUN_INTS ints each. */
export class SampleRuns {
  data = new Int32Array(64);
  count = 0;
  /** Whether a run's key had a gcd above 1 when it was noted: the sample must wait. */
  unsettled = false;

  constructor() {
    markMutable(this, ['data']);
  }

  clear(): void {
    this.count = 0;
    this.unsettled = false;
  }

  add(start: number, groupSize: number, physical: number, groups: number, address: number, leaf: boolean, decided: number): void {
    const at = this.count * RUN_INTS;
    if (at + RUN_INTS > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[at] = start;
    this.data[at + 1] = groupSize;
    this.data[at + 2] = physical;
    this.data[at + 3] = groups;
    this.data[at + 4] = address;
    this.data[at + 5] = leaf ? 1 : 0;
    this.data[at + 6] = decided;
    this.count++;
  }
}

export interface FrameInterner {
  nameIndex(frame: FrameIndex): number;
  flagsOf(frame: FrameIndex): number;
  internIndex(name: number, flags: number, module?: number): FrameIndex;
}

/**
 * Folds the runs of a sample's stack (frames leaf first) with the gcds in `stats`: of each k
 * consecutive groups (k = the key's gcd) only the last, the outermost, keeps its physical frame;
 * the others' become FOLDED (merged into their parent by the function view). Returns whether any
 * frame was folded.
 */
export function foldRuns(stack: Int32Array, runs: Int32Array, runCount: number, stats: Pick<RunStats, 'linesPerFrame'>, frames: FrameInterner): boolean {
  let folded = false;
  for (let r = 0; r < runCount; r++) {
    const at = r * RUN_INTS;
    const start = runs[at];
    const size = runs[at + 1];
    const physical = runs[at + 2];
    const groups = runs[at + 3];
    const first = stack[start + physical];
    // The run at the sampled instruction is one frame.
    const k = runs[at + 5] ? groups : stats.linesPerFrame(first, runs[at + 4]);
    if (k <= 1) continue;
    for (let g = 0; g < groups; g++) {
      if ((g + 1) % k === 0) continue;
      const i = start + g * size + physical;
      const f = stack[i];
      stack[i] = frames.internIndex(frames.nameIndex(f), frames.flagsOf(f) | FrameFlags.FOLDED);
      folded = true;
    }
  }
  return folded;
}

/** Past this many ints kept aside, deferred samples are folded with the gcds known then. */
export const DEFERRED_LIMIT = 1 << 24;

/** Ints before a kept-aside sample's stack: root, thread, ordinal, depth, runs, frames, inlined. */
export const SAMPLE_HEADER = 7;

/**
 * Samples kept aside until the end of the input (see the module comment): per sample its root,
 * thread, ordinal, depth, run count, the frames interned when it ended and whether perf had
 * printed an `(inlined)` line by then (both for the merge of parts), its stack (leaf first) and
 * runs; weight and time in a second array.
 */
export class DeferredSamples {
  ints = new Int32Array(4096);
  floats = new Float64Array(256);
  intCount = 0;
  count = 0;

  constructor() {
    markMutable(this, ['ints', 'floats']);
  }

  get full(): boolean {
    return this.intCount > DEFERRED_LIMIT;
  }

  add(root: number, thread: number, ordinal: number, weight: number, time: number, stack: Int32Array, depth: number, runs: SampleRuns, frames: number, printedInlined: boolean): void {
    const need = SAMPLE_HEADER + depth + runs.count * RUN_INTS;
    if (this.intCount + need > this.ints.length) {
      const grown = new Int32Array(Math.max(this.ints.length * 2, this.intCount + need));
      grown.set(this.ints.subarray(0, this.intCount));
      this.ints = grown;
    }
    if ((this.count + 1) * 2 > this.floats.length) {
      const grown = new Float64Array(this.floats.length * 2);
      grown.set(this.floats);
      this.floats = grown;
    }
    const ints = this.ints;
    let at = this.intCount;
    ints[at++] = root;
    ints[at++] = thread;
    ints[at++] = ordinal;
    ints[at++] = depth;
    ints[at++] = runs.count;
    ints[at++] = frames;
    ints[at++] = printedInlined ? 1 : 0;
    ints.set(stack.subarray(0, depth), at);
    at += depth;
    ints.set(runs.data.subarray(0, runs.count * RUN_INTS), at);
    this.intCount = at + runs.count * RUN_INTS;
    this.floats[this.count * 2] = weight;
    this.floats[this.count * 2 + 1] = time;
    this.count++;
  }

  /** Calls `each` for every sample kept aside, in input order, then forgets them. */
  drain(each: (root: number, thread: number, ordinal: number, weight: number, time: number, stack: Int32Array, depth: number, runs: Int32Array, runCount: number) => void): void {
    let at = 0;
    for (let s = 0; s < this.count; s++) {
      const ints = this.ints;
      const depth = ints[at + 3];
      const runCount = ints[at + 4];
      const body = at + SAMPLE_HEADER;
      const stack = ints.slice(body, body + depth);
      const runs = ints.subarray(body + depth, body + depth + runCount * RUN_INTS);
      each(ints[at], ints[at + 1], ints[at + 2], this.floats[s * 2], this.floats[s * 2 + 1], stack, depth, runs, runCount);
      at = body + depth + runCount * RUN_INTS;
    }
    this.count = 0;
    this.intCount = 0;
    this.ints = new Int32Array(4096);
    this.floats = new Float64Array(256);
  }

  /** The samples kept aside, as plain data (a part hands them to the merge, ./perf-late.ts). */
  data(): DeferredData {
    return { count: this.count, ints: this.ints.slice(0, this.intCount), floats: this.floats.slice(0, this.count * 2) };
  }
}

/** DeferredSamples.data(): `count` samples laid out as in DeferredSamples. */
export interface DeferredData {
  count: number;
  ints: Int32Array;
  floats: Float64Array;
}

export function gcd(a: number, b: number): number {
  while (b !== 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}
