// The merge of a perf script recording read in parts (../../parallel/merge.ts), for the samples
// whose runs of repeated groups wait for the whole recording's statistics (./perf-runs.ts).
//
// One parser notes every run in one RunStats as it reads; a sample whose runs are undecided then
// waits and is folded at the end with the final gcds; the others are folded, or not, at once. A
// part sees fewer runs, so it keeps aside every sample one parser kept aside and some more (a gcd
// over fewer runs is a multiple of the gcd over more, and a part has seen fewer `(inlined)`
// lines). It hands them over with its RunStats, address table and the run decisions it made
// (RUN_INTS). Here, part by part in input order, each kept-aside sample is decided again as one
// parser would have: the key's gcd so far is gcd(the gcd over the parts before, the part's gcd
// when it noted the run), exact since gcd is associative; perf printed `(inlined)` by then if it
// did in a part before or in this part by then. A sample one parser would have added at once is
// folded now (only its leaf runs can fold: its other keys' gcds are 1), interning its folded
// frames where one parser did (after the part's frames of that moment) and entering the
// time-order column where one parser did (after the part's samples before it); the others are
// folded after the last part with the combined statistics, in input order, as one parser's
// finish() does. Keys are merged frames and address values (parts number addresses apart).
//
// Memory: each part keeps its kept-aside samples within DEFERRED_LIMIT ints, past which it gives
// up (WholeInputNeeded) and the recording is read by one parser; and when the samples one parser
// would keep aside exceed that limit (one parser folds them early, with the statistics known
// then), the merge gives up the same way. So at most one DEFERRED_LIMIT per part is held.

import type { CallTree } from '../../model/call-tree';
import type { FrameTable, FrameTableBuilder } from '../../model/frame-table';
import { TreeBuilder } from '../../model/tree-builder';
import { ROOT_NODE } from '../../model/types';
import type { SampleColumns } from '../../model/sample-column';
import type { LateSamples, PartialProfile } from '../importer';
import { AddressTable, type AddressData } from './perf-addresses';
import type { PerfPartMeta } from './perf-parts';
import { DEFERRED_LIMIT, foldRuns, gcd, RUN_INTS, RunStats, SAMPLE_HEADER, type DeferredData, type RunStatsData } from './perf-runs';
import { grown } from '../../model/grown';

/** What a part hands over beside its tree (PerfPartMeta.late). */
export interface PerfLateData {
  printedInlined: boolean;
  stats: RunStatsData;
  addresses: AddressData;
  deferred: DeferredData;
}

/** A sample one parser added at once: none of its non-leaf runs folds. */
const SETTLED = { linesPerFrame: () => 1 };

export class PerfLateMerge implements LateSamples {
  /** Whether folding flagged a frame (the profile's hasInlineInfo). */
  hasInlined = false;
  /** Why the joined time-order column was dropped (joinColumn), null while kept. */
  dropped: 'no-time' | 'cap' | null = null;
  readonly weight: number;

  private readonly late: PerfLateData[];
  private readonly stats = new RunStats();
  private readonly addresses = new AddressTable();
  private readonly addressMaps: Int32Array[] = [];
  private readonly frameMaps: Int32Array[] = [];
  private printedBefore = false;
  private cursor = 0;
  /** Samples one parser keeps aside to the end: (part, offset in its ints, index in the part). */
  private readonly waiting: number[] = [];
  private readonly out = new PlacedSamples();

  /** Null when no part kept a sample aside. `limit`: one parser's DEFERRED_LIMIT (tests lower it). */
  static of(metas: readonly PerfPartMeta[], limit = DEFERRED_LIMIT): PerfLateMerge | null {
    if (!metas.every((m) => m.late) || metas.every((m) => m.late!.deferred.count === 0)) return null;
    return new PerfLateMerge(metas.map((m) => m.late!), limit);
  }

  private constructor(
    late: PerfLateData[],
    private readonly limit: number,
  ) {
    this.late = late;
    let weight = 0;
    for (const { deferred } of late) for (let s = 0; s < deferred.count; s++) weight += deferred.floats[s * 2];
    this.weight = weight;
  }

  frameStops(part: number): Int32Array {
    const { count, ints } = this.late[part].deferred;
    const stops = new Int32Array(count);
    for (let s = 0, at = 0; s < count; s++) {
      stops[s] = ints[at + 5];
      at += sampleInts(ints, at);
    }
    return stops;
  }

  place(part: number, index: number, frameMap: Int32Array, frames: FrameTableBuilder): void {
    const addressMap = this.addressMap(part);
    if (index === 0) this.cursor = 0;
    const { ints, floats } = this.late[part].deferred;
    const at = this.cursor;
    this.cursor += sampleInts(ints, at);
    const { root, stack, runs, runCount } = this.mapped(part, at, frameMap, addressMap);
    const printed = this.printedBefore || ints[at + 6] === 1;
    for (let r = 0; r < runCount; r++) {
      const run = r * RUN_INTS;
      const decided = runs[run + 6];
      const waits = runs[run + 5] === 1 ? !(this.printedBefore || decided === 1) : gcd(this.stats.gcdOf(stack[runs[run] + runs[run + 2]], runs[run + 4]), decided) > 1;
      if (waits) {
        this.waiting.push(part, at, index);
        return;
      }
    }
    if (printed && runCount > 0 && foldRuns(stack, runs, runCount, SETTLED, frames)) this.hasInlined = true;
    // Kept samples before it in the part (ints[at + 2]) less the kept-aside ones: its place among the part's column entries.
    this.out.add(part, ints[at + 2] - index, root, ints[at + 1], floats[index * 2], floats[index * 2 + 1], stack);
  }

  partDone(part: number, frameMap: Int32Array): void {
    const addressMap = this.addressMap(part);
    this.frameMaps[part] = frameMap;
    const { frame, address, gcds, longest, atLeaf, callsSelf } = this.late[part].stats;
    for (let s = 0; s < frame.length; s++) {
      if (frame[s] >= 0) this.stats.combine(frameMap[frame[s]], addressMap[address[s]], gcds[s], longest[s], atLeaf[s] === 1, callsSelf[s] === 1);
    }
    if (this.late[part].printedInlined) this.printedBefore = true;
  }

  finishFrames(frames: FrameTableBuilder): boolean {
    const w = this.waiting;
    let ints = 0;
    for (let i = 0; i < w.length; i += 3) ints += sampleInts(this.late[w[i]].deferred.ints, w[i + 1]);
    if (ints > this.limit) return false;
    for (let i = 0; i < w.length; i += 3) {
      const [part, at, index] = [w[i], w[i + 1], w[i + 2]];
      const { ints: data, floats } = this.late[part].deferred;
      const { root, stack, runs, runCount } = this.mapped(part, at, this.frameMaps[part], this.addressMaps[part]);
      if (this.printedBefore && foldRuns(stack, runs, runCount, this.stats, frames)) this.hasInlined = true;
      this.out.add(-1, 0, root, data[at + 1], floats[index * 2], floats[index * 2 + 1], stack);
    }
    return true;
  }

  tree(frames: FrameTable): CallTree {
    const out = this.out;
    const builder = new TreeBuilder();
    const leaves = new Int32Array(out.count);
    for (let i = 0; i < out.count; i++) {
      const at = out.offset[i];
      const depth = out.ints[at + 2];
      let node = builder.child(ROOT_NODE, out.ints[at + 1]);
      for (let d = depth - 1; d >= 0; d--) node = builder.child(node, out.ints[at + 3 + d]);
      builder.addSelf(node, out.weight[i], 1);
      leaves[i] = node;
    }
    const { tree, order } = builder.finish(frames);
    for (let i = 0; i < out.count; i++) out.leaf[i] = order[leaves[i]];
    return tree;
  }

  /**
   * The column one SampleColumnBuilder fed in one parser's order would hold: per part its own
   * entries with the samples placed among them, then the samples folded at the end; dropped at
   * the first sample without a time, or past the cap, wherever that falls.
   */
  joinColumn(parts: readonly PartialProfile[], nodeMaps: readonly Int32Array[], lateNodes: Int32Array): SampleColumns | null {
    const out = this.out;
    const metas = parts.map((p) => (p.meta as PerfPartMeta).column);
    const cap = metas[0].cap;
    let total = out.count;
    for (const m of metas) total += m.count;
    const leaf = new Int32Array(total);
    const time = new Float64Array(total);
    const weight = new Float64Array(total);
    const thread = new Int32Array(total);
    let count = 0;
    const accept = (k: number): boolean => {
      if (out.time[k] < 0) this.dropped = 'no-time';
      else if (count === cap) this.dropped = 'cap';
      else {
        leaf[count] = lateNodes[out.leaf[k]];
        time[count] = out.time[k];
        weight[count] = out.weight[k];
        thread[count++] = out.ints[out.offset[k]];
      }
      return this.dropped === null;
    };
    let k = 0;
    for (let p = 0; p < parts.length; p++) {
      const m = metas[p];
      const col = parts[p].samples;
      const map = nodeMaps[p];
      let i = 0;
      // The part's own entries up to its `s`th; false once the column is dropped.
      const take = (s: number): boolean => {
        const n = Math.min(s, m.count);
        if (n <= i) return true;
        if (count + (n - i) > cap) {
          this.dropped = 'cap';
          return false;
        }
        if (col) {
          for (let j = i; j < n; j++) leaf[count + j - i] = map[col.leaf[j]];
          time.set(col.time.subarray(i, n), count);
          weight.set(col.weight.subarray(i, n), count);
          if (col.thread) thread.set(col.thread.subarray(i, n), count);
        }
        count += n - i;
        i = n;
        return true;
      };
      for (; k < out.count && out.part[k] === p; k++) {
        const s = out.settled[k];
        if (!take(s)) return null;
        // The part's column refused its (m.count + 1)th entry: one parser's refuses there too.
        if (s > m.count && m.dropped !== null) return this.drop(m.dropped);
        if (!accept(k)) return null;
      }
      if (!take(m.count)) return null;
      if (m.dropped !== null) return this.drop(m.dropped);
    }
    for (; k < out.count; k++) if (!accept(k)) return null;
    return count === 0 ? null : { count, leaf, time, weight, thread };
  }

  private drop(why: 'no-time' | 'cap'): null {
    this.dropped = why;
    return null;
  }

  private addressMap(part: number): Int32Array {
    return (this.addressMaps[part] ??= this.addresses.mapFrom(this.late[part].addresses));
  }

  /** A kept-aside sample's stack in merged frames and its runs with merged address ids (copies). */
  private mapped(part: number, at: number, frameMap: Int32Array, addressMap: Int32Array): { root: number; stack: Int32Array; runs: Int32Array; runCount: number } {
    const ints = this.late[part].deferred.ints;
    const depth = ints[at + 3];
    const runCount = ints[at + 4];
    const body = at + SAMPLE_HEADER;
    const stack = new Int32Array(depth);
    for (let d = 0; d < depth; d++) stack[d] = frameMap[ints[body + d]];
    const runs = ints.slice(body + depth, body + depth + runCount * RUN_INTS);
    for (let r = 0; r < runCount; r++) runs[r * RUN_INTS + 4] = addressMap[runs[r * RUN_INTS + 4]];
    return { root: frameMap[ints[at]], stack, runs, runCount };
  }
}

/** Ints of the kept-aside sample at `at` (DeferredSamples' layout). */
function sampleInts(ints: Int32Array, at: number): number {
  return SAMPLE_HEADER + ints[at + 3] + ints[at + 4] * RUN_INTS;
}

/**
 * The samples the merge adds, folded, in merged frames, in the order placed: per sample its
 * part (-1: folded at the end), its place among the part's column entries, weight, time, the
 * leaf it got in tree(), and [thread, root, depth, stack…] at `offset` in `ints`.
 */
class PlacedSamples {
  count = 0;
  part = new Int32Array(64);
  settled = new Int32Array(64);
  offset = new Int32Array(64);
  leaf = new Int32Array(64);
  weight = new Float64Array(64);
  time = new Float64Array(64);
  ints = new Int32Array(1024);
  private intCount = 0;

  add(part: number, settled: number, root: number, thread: number, weight: number, time: number, stack: Int32Array): void {
    const i = this.count++;
    if (i === this.part.length) {
      this.part = grown(this.part, i * 2);
      this.settled = grown(this.settled, i * 2);
      this.offset = grown(this.offset, i * 2);
      this.leaf = grown(this.leaf, i * 2);
      this.weight = grown(this.weight, i * 2);
      this.time = grown(this.time, i * 2);
    }
    const need = this.intCount + 3 + stack.length;
    if (need > this.ints.length) this.ints = grown(this.ints, Math.max(need, this.ints.length * 2));
    this.part[i] = part;
    this.settled[i] = settled;
    this.offset[i] = this.intCount;
    this.weight[i] = weight;
    this.time[i] = time;
    const at = this.intCount;
    this.ints[at] = thread;
    this.ints[at + 1] = root;
    this.ints[at + 2] = stack.length;
    this.ints.set(stack, at + 3);
    this.intCount = need;
  }
}

