// Grows the per-sample column of a recording whose samples carry timestamps (perf script), one
// entry per kept sample in input order: (leaf builder node, time in seconds, weight).
//
// Invariants: three typed arrays grown by doubling, no per-sample objects; past `cap` samples, or
// after one sample without a readable time, the column is dropped (finish returns null) and its
// memory released, so a huge input never allocates unboundedly for it. finish() remaps builder
// node ids through TreeBuilder.finish's `order` and returns the samples sorted by time.

import type { NodeIndex } from '../model/types';
import { sortSamples, type SampleColumns } from './time-order';

/** Beyond this many samples the column is dropped with a warning (20 bytes a sample: 1 GB). */
export const MAX_SAMPLES = 50_000_000;

export class SampleColumnBuilder {
  count = 0;
  /** Why the column was dropped, or null while it is kept. */
  dropped: 'no-time' | 'cap' | null = null;
  private leaf = new Int32Array(1024);
  private time = new Float64Array(1024);
  private weight = new Float64Array(1024);

  constructor(private readonly cap = MAX_SAMPLES) {}

  /** `time` < 0 (unreadable) drops the column. */
  push(leaf: NodeIndex, time: number, weight: number): void {
    if (this.dropped !== null) return;
    if (time < 0) return this.drop('no-time');
    const i = this.count;
    if (i === this.cap) return this.drop('cap');
    if (i === this.leaf.length) this.grow(Math.min(this.cap, i * 2));
    this.leaf[i] = leaf;
    this.time[i] = time;
    this.weight[i] = weight;
    this.count = i + 1;
  }

  /** The column with leaves in frozen-tree ids (`order[builderNode]`), sorted by time. */
  finish(order: Int32Array): SampleColumns | null {
    if (this.dropped !== null || this.count === 0) return null;
    const n = this.count;
    const leaf = this.leaf.slice(0, n);
    for (let i = 0; i < n; i++) leaf[i] = order[leaf[i]];
    return sortSamples({ count: n, leaf, time: this.time.slice(0, n), weight: this.weight.slice(0, n) });
  }

  private drop(why: 'no-time' | 'cap'): void {
    this.dropped = why;
    this.leaf = new Int32Array(0);
    this.time = new Float64Array(0);
    this.weight = new Float64Array(0);
  }

  private grow(size: number): void {
    const leaf = new Int32Array(size);
    leaf.set(this.leaf);
    this.leaf = leaf;
    const time = new Float64Array(size);
    time.set(this.time);
    this.time = time;
    const weight = new Float64Array(size);
    weight.set(this.weight);
    this.weight = weight;
  }
}
