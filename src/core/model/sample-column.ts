// The per-sample columns of a recording whose samples carry timestamps (perf script), and the
// builder that grows them, one entry per kept sample in input order: (leaf builder node, time in
// seconds, weight, thread). The model owns the shape; views/time-order.ts draws and slices it.
//
// Invariants: three typed columns kept in fixed-size chunks, no per-sample objects; past `cap`
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
  if (!s.thread) return out;
  const thread = new Int32Array(n);
  for (let i = 0; i < n; i++) thread[i] = s.thread[order[i]];
  return { ...out, thread };
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
  private leaf = new Int32Array(0);
  private time = new Float64Array(0);
  private weight = new Float64Array(0);
  private thread = new Int32Array(0);
  private at = 0;

  constructor(readonly cap = MAX_SAMPLES) {
    markMutable(this, ['leaf', 'time', 'weight', 'thread']);
  }

  /**
   * The next sample's time, written by the importer (perf-line's parseTimeInto) and read by
   * push: a double handed through a typed array is never boxed. < 0 (unreadable) drops the column.
   */
  readonly nextTime = new Float64Array(1);

  /** Records a sample at nextTime[0]; `thread` is its TID (-1: unknown). */
  push(leaf: NodeIndex, weight: number, thread: number): void {
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
      i = 0;
    }
    this.leaf[i] = leaf;
    this.time[i] = time;
    this.weight[i] = weight;
    this.thread[i] = thread;
    this.at = i + 1;
    this.count++;
  }

  /** The column with leaves in frozen-tree ids (`order[builderNode]`), sorted by time. */
  finish(order: Int32Array): SampleColumns | null {
    const columns = this.inInputOrder(order);
    return columns && sortSamples(columns);
  }

  /** As finish(), in input order (a part of a split input: the merge sorts the whole). */
  inInputOrder(order: Int32Array): SampleColumns | null {
    if (this.dropped !== null || this.count === 0) return null;
    const n = this.count;
    const leaf = new Int32Array(n);
    const time = new Float64Array(n);
    const weight = new Float64Array(n);
    const thread = new Int32Array(n);
    for (let c = 0, k = 0; k < n; c++) {
      const len = Math.min(CHUNK, n - k);
      const chunk = this.leafChunks[c];
      for (let i = 0; i < len; i++) leaf[k + i] = order[chunk[i]];
      time.set(len === CHUNK ? this.timeChunks[c] : this.timeChunks[c].subarray(0, len), k);
      weight.set(len === CHUNK ? this.weightChunks[c] : this.weightChunks[c].subarray(0, len), k);
      thread.set(len === CHUNK ? this.threadChunks[c] : this.threadChunks[c].subarray(0, len), k);
      k += len;
    }
    return { count: n, leaf, time, weight, thread };
  }

  private drop(why: 'no-time' | 'cap'): void {
    this.dropped = why;
    this.leafChunks.length = this.timeChunks.length = this.weightChunks.length = this.threadChunks.length = 0;
    this.leaf = new Int32Array(0);
    this.time = new Float64Array(0);
    this.weight = new Float64Array(0);
    this.thread = new Int32Array(0);
  }
}
