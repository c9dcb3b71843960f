// The per-sample columns of a recording whose samples carry timestamps (perf script), and the
// builder that grows them, one entry per kept sample in input order: (leaf builder node, time in
// seconds, weight, thread). The model owns the shape; views/time-order.ts draws and slices it.
//
// A sample may be a span rather than an instant: an off-CPU interval (derived events, issue 27)
// lasts from its switch-out (`time`) for `duration` seconds; its weight is spread evenly over it,
// so a time range holds the share of it that overlaps the range (spanShare).
//
// Invariants: typed columns kept in fixed-size chunks, no per-sample objects; past `cap`
// samples, or after one sample without a readable time, the column is dropped (finish returns
// null) and its memory released, so a huge input never allocates unboundedly for it. finish() remaps builder
// node ids through TreeBuilder.finish's `order` and returns the samples sorted by time.

import type { NodeIndex } from './types';
import { markMutable } from './mutable-fields';

export interface SampleColumns {
  readonly count: number;
  /**
   * The node of the sample's leaf frame in the profile's tree: the inline-frame view
   * (ProfileSnapshot.inline); snapshot.toFunction maps it to the function view.
   */
  readonly leaf: Int32Array;
  /** Timestamp in seconds, as perf script prints it. */
  readonly time: Float64Array;
  /** The sample's period (what it adds to selfWeight). */
  readonly weight: Float64Array;
  /**
   * The thread (perf's TID) of each sample, when the importer knows it: the stack chart gives
   * each thread its own lane. Absent: one lane per root child.
   */
  readonly thread?: Int32Array;
  /**
   * Seconds each sample lasts from `time`, when some sample is a span (an off-CPU interval); 0
   * for an instant (a CPU sample). Absent: every sample is an instant.
   */
  readonly duration?: Float64Array;
  /**
   * The node of each sample's located path in the line tree (Profile.lines), -1 for a sample
   * without lines, when the recording has lines: what a time range narrows the Source panel's
   * figures by. Absent: no line tree, or an importer that does not link them.
   */
  readonly line?: Int32Array;
}

/** The column with other leaves (another view's nodes), every other column shared. */
export function withLeaves(s: SampleColumns, leaf: Int32Array): SampleColumns {
  return { ...s, leaf };
}

/**
 * The share of sample i's weight inside [from, to): an instant counts whole when from ≤ time < to;
 * a span by the fraction of its duration that overlaps the range.
 */
export function spanShare(s: SampleColumns, i: number, from: number, to: number): number {
  const t = s.time[i];
  const d = s.duration ? s.duration[i] : 0;
  if (!(d > 0)) return t >= from && t < to ? 1 : 0;
  const overlap = Math.min(to, t + d) - Math.max(from, t);
  return overlap > 0 ? Math.min(1, overlap / d) : 0;
}

/** The longest span of the column in seconds (0 without spans). */
export function longestSpan(s: SampleColumns): number {
  let max = 0;
  if (s.duration) for (let i = 0; i < s.count; i++) if (s.duration[i] > max) max = s.duration[i];
  return max;
}

/** The samples in time order (a stable sort; returns the input when already sorted). */
export function sortSamples(s: SampleColumns): SampleColumns {
  let sorted = true;
  for (let i = 1; i < s.count && sorted; i++) sorted = s.time[i - 1] <= s.time[i];
  if (sorted) return s;
  const n = s.count;
  const time = s.time;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => time[a] - time[b] || a - b);
  const out = { count: n, leaf: new Int32Array(n), time: new Float64Array(n), weight: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const j = order[i];
    out.leaf[i] = s.leaf[j];
    out.time[i] = time[j];
    out.weight[i] = s.weight[j];
  }
  const permuted = <T extends Int32Array | Float64Array>(a: T): T => {
    const b = new (a.constructor as new (n: number) => T)(n);
    for (let i = 0; i < n; i++) b[i] = a[order[i]];
    return b;
  };
  return { ...out, ...(s.thread ? { thread: permuted(s.thread) } : {}), ...(s.duration ? { duration: permuted(s.duration) } : {}), ...(s.line ? { line: permuted(s.line) } : {}) };
}

/** Beyond this many samples the column is dropped with a warning (20 bytes a sample: 1 GB). */
export const MAX_SAMPLES = 50_000_000;

const CHUNK = 1 << 16;

export class SampleColumnBuilder {
  count = 0;
  /** Why the column was dropped, or null while it is kept. */
  dropped: 'no-time' | 'cap' | null = null;
  // Fixed-size chunks, so growing never copies what was recorded (finish copies once).
  private readonly leafChunks: Int32Array[] = [];
  private readonly timeChunks: Float64Array[] = [];
  private readonly weightChunks: Float64Array[] = [];
  private readonly threadChunks: Int32Array[] = [];
  // Allocated at the first span (an off-CPU interval): a CPU-only recording pays nothing for it.
  private durationChunks: Float64Array<ArrayBuffer>[] | null = null;
  // Allocated at the first sample with source lines (-1 before): its line-tree builder node.
  private lineChunks: Int32Array<ArrayBuffer>[] | null = null;
  private lineChunk = new Int32Array(0);
  private leaf = new Int32Array(0);
  private time = new Float64Array(0);
  private weight = new Float64Array(0);
  private thread = new Int32Array(0);
  private duration = new Float64Array(0);
  private at = 0;

  constructor(readonly cap = MAX_SAMPLES) {
    markMutable(this, ['leaf', 'time', 'weight', 'thread', 'duration', 'lineChunk']);
  }

  /**
   * The next sample's time, written by the importer (perf-line's parseTimeInto) and read by
   * push: a double handed through a typed array is never boxed. < 0 (unreadable) drops the column.
   */
  readonly nextTime = new Float64Array(1);

  /** Records a sample at nextTime[0]; `thread` is its TID (-1: unknown); a span lasts `duration` s. */
  push(leaf: NodeIndex, weight: number, thread: number, duration = 0): void {
    if (this.dropped !== null) return;
    const time = this.nextTime[0];
    if (time < 0) return this.drop('no-time');
    if (this.count === this.cap) return this.drop('cap');
    let i = this.at;
    if (i === this.leaf.length) {
      this.leafChunks.push((this.leaf = new Int32Array(CHUNK)));
      this.timeChunks.push((this.time = new Float64Array(CHUNK)));
      this.weightChunks.push((this.weight = new Float64Array(CHUNK)));
      this.threadChunks.push((this.thread = new Int32Array(CHUNK)));
      if (this.durationChunks) this.durationChunks.push((this.duration = new Float64Array(CHUNK)));
      if (this.lineChunks) this.lineChunks.push((this.lineChunk = new Int32Array(CHUNK).fill(-1)));
      i = 0;
    }
    if (duration > 0 && !this.durationChunks) {
      this.durationChunks = this.leafChunks.map(() => new Float64Array(CHUNK));
      this.duration = this.durationChunks[this.durationChunks.length - 1];
    }
    if (this.durationChunks) this.duration[i] = duration;
    this.leaf[i] = leaf;
    this.time[i] = time;
    this.weight[i] = weight;
    this.thread[i] = thread;
    this.at = i + 1;
    this.count++;
  }

  /** The last sample pushed is at line-tree builder node `node` (SourceLinesBuilder). */
  setLine(node: NodeIndex): void {
    if (this.dropped !== null || this.count === 0) return;
    if (!this.lineChunks) {
      this.lineChunks = this.leafChunks.map(() => new Int32Array(CHUNK).fill(-1));
      this.lineChunk = this.lineChunks[this.lineChunks.length - 1];
    }
    this.lineChunk[this.at - 1] = node;
  }

  /** The column with leaves in frozen-tree ids (`order[builderNode]`), sorted by time. */
  finish(order: Int32Array): SampleColumns | null {
    const columns = this.inInputOrder(order);
    return columns && sortSamples(columns);
  }

  /** As finish(), in input order (a part of a split input: the merge sorts the whole). */
  inInputOrder(order: Int32Array, lineOrder?: Int32Array): SampleColumns | null {
    if (this.dropped !== null || this.count === 0) return null;
    const n = this.count;
    const leaf = new Int32Array(n);
    const time = new Float64Array(n);
    const weight = new Float64Array(n);
    const thread = new Int32Array(n);
    const duration = this.durationChunks ? new Float64Array(n) : null;
    const line = this.lineChunks && lineOrder ? new Int32Array(n) : null;
    for (let c = 0, k = 0; k < n; c++) {
      const len = Math.min(CHUNK, n - k);
      const chunk = this.leafChunks[c];
      for (let i = 0; i < len; i++) leaf[k + i] = order[chunk[i]];
      time.set(len === CHUNK ? this.timeChunks[c] : this.timeChunks[c].subarray(0, len), k);
      weight.set(len === CHUNK ? this.weightChunks[c] : this.weightChunks[c].subarray(0, len), k);
      thread.set(len === CHUNK ? this.threadChunks[c] : this.threadChunks[c].subarray(0, len), k);
      if (duration) duration.set(this.durationChunks![c].subarray(0, len), k);
      if (line) {
        const lines = this.lineChunks![c];
        for (let i = 0; i < len; i++) line[k + i] = lines[i] < 0 ? -1 : lineOrder![lines[i]];
      }
      k += len;
    }
    return { count: n, leaf, time, weight, thread, ...(duration ? { duration } : {}), ...(line ? { line } : {}) };
  }

  private drop(why: 'no-time' | 'cap'): void {
    this.dropped = why;
    this.leafChunks.length = this.timeChunks.length = this.weightChunks.length = this.threadChunks.length = 0;
    this.leaf = new Int32Array(0);
    this.time = new Float64Array(0);
    this.weight = new Float64Array(0);
    this.thread = new Int32Array(0);
    this.durationChunks = null;
    this.duration = new Float64Array(0);
    this.lineChunks = null;
    this.lineChunk = new Int32Array(0);
  }
}
