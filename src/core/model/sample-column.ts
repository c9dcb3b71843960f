// Grows the per-sample column of a recording whose samples carry timestamps (perf script), one
// entry per kept sample in input order: (leaf builder node, time in seconds, weight, thread).
//
// Invariants: three typed columns kept in fixed-size chunks, no per-sample objects; past `cap`
// samples, or after one sample without a readable time, the column is dropped (finish returns
// null) and its memory released, so a huge input never allocates unboundedly for it. finish() remaps builder
// node ids through TreeBuilder.finish's `order` and returns the samples sorted by time.

import type { NodeIndex } from './types';
import { sortSamples, type SampleColumns } from '../views/time-order';
import { markMutable } from './mutable-fields';

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
