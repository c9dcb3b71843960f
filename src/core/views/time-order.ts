// Time order for recordings whose samples carry timestamps (perf script): the stack chart (a
// flame chart of the samples in time order) and the call tree of a time range.
//
// Input: the profile's call tree plus a sample column the importer would emit, one entry per kept
// sample in input order (see SampleColumns). The tree loses time order; the column keeps it.
//
//   sample │ leaf (NodeIndex of the frozen tree) │ time (s) │ weight │
//   ───────┼─────────────────────────────────────┼──────────┼────────┤
//     0    │ 7                                   │ 0.001    │ 1e6    │
//
// Invariants:
// - stackChart: boxes are [start, end) time spans of one node at its depth; consecutive samples
//   that share a path prefix share the prefix's boxes (as the Firefox Profiler's stack chart);
//   a sample lasts until the next sample's time, or for the median sample interval when it is
//   the last one or the next comes more than MAX_GAP intervals later (the thread was not running:
//   its boxes close, and the next sample opens new ones); a span (an off-CPU interval, with a
//   duration) lasts exactly its duration, cut at the next sample's start so boxes never overlap;
//   the frames it shares with the next sample stay open when that sample comes within MAX_GAP
//   intervals of its end (the thread's stack continues through the wait);
//   samples must be sorted by time (perf script prints them so per CPU; sortSamples orders
//   them); iterative, O(boxes): a sample's path is walked up only to where it meets the open
//   boxes of the previous sample;
// - treeForRange: the call tree of the samples with from ≤ time < to, over the same FrameTable,
//   a span clipped to the range (its weight times the share of its duration inside it: half an
//   interval inside is half its weight); with the full range it equals the input tree's weights
//   (nodes with no weight dropped);
//   O(nodes + samples), no recursion.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { TreeBuilder } from '../model/tree-builder';
import { spanShare, type SampleColumns } from '../model/sample-column';

/** A gap between samples longer than this many median intervals ends the boxes before it. */
export const MAX_GAP = 4;

export interface StackChart {
  readonly count: number;
  readonly node: Int32Array;
  readonly depth: Int32Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** Time of the first sample and end of the last box. */
  readonly from: number;
  readonly to: number;
}

/**
 * Boxes of the stack chart (see the module comment). `samples` must be sorted by time.
 * `spanOwn[node]` marks the frames a span alone has (its off-CPU state and waker leaves): their
 * boxes last exactly one interval, never merged with the next sample's, so two waits in a row on
 * one stack stay two boxes.
 */
export function stackChart(tree: CallTree, samples: SampleColumns, spanOwn?: Uint8Array): StackChart {
  const n = samples.count;
  const time = samples.time;
  const span = samples.duration;
  // The sampling interval: the median gap between consecutive instants (a span's start or end is
  // not a sampling tick).
  let interval = 0;
  if (n > 1) {
    const gaps = new Float64Array(n - 1);
    let g = 0;
    for (let i = 1; i < n; i++) if (!span || (span[i] === 0 && span[i - 1] === 0)) gaps[g++] = time[i] - time[i - 1];
    const kept = gaps.subarray(0, g).sort();
    interval = g > 0 ? kept[(g - 1) >> 1] : 0;
  }
  const maxGap = interval > 0 ? MAX_GAP * interval : Infinity;
  // After a span the thread runs again: its next sample continues the shared frames when it comes
  // within maxGap; without any instant (the Off-CPU event alone) nothing says what ran between
  // two waits, so any gap closes every box.
  const maxGapAfterSpan = interval > 0 ? maxGap : 0;
  const maxDepth = tree.maxDepth;
  const parent = tree.parent;
  const nodeDepth = tree.depth;
  // The open boxes, outermost first: openNode[d] is the node at depth d+1.
  const openNode = new Int32Array(maxDepth + 1);
  const openBox = new Int32Array(maxDepth + 1);
  const path = new Int32Array(maxDepth + 1);
  // Two passes over the samples: count the boxes, then fill columns of exactly that size (a
  // million samples can make ten million boxes; growing arrays would copy them several times).
  let count = 0;
  let node = new Int32Array(0);
  let depth = new Int32Array(0);
  let start = new Float64Array(0);
  let end = new Float64Array(0);
  let last = 0;
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 1) {
      node = new Int32Array(count);
      depth = new Int32Array(count);
      start = new Float64Array(count);
      end = new Float64Array(count);
      count = 0;
    }
    const fill = pass === 1;
    let open = 0;
    for (let i = 0; i < n; i++) {
      const t = time[i];
      const leaf = samples.leaf[i];
      // Where the previous sample's own boxes end (a span at its end, never after this sample's
      // start), and whether the gap from there ends every box.
      let closeAt = t;
      if (i > 0) {
        const d = span ? span[i - 1] : 0;
        if (d > 0) {
          closeAt = Math.min(time[i - 1] + d, t);
          if (t - closeAt > maxGapAfterSpan) open = closeAll(fill, open, openBox, end, closeAt);
        } else if (t - time[i - 1] > maxGap) open = closeAll(fill, open, openBox, end, time[i - 1] + interval);
      }
      const len = leaf > 0 ? nodeDepth[leaf] : 0;
      // What the next sample may continue: not the previous span's own leaves.
      let shareable = open;
      if (spanOwn && i > 0 && span && span[i - 1] > 0) for (let k = 0; k < open; k++) if (spanOwn[openNode[k]]) {
        shareable = k;
        break;
      }
      // Walk up only until the path meets an open box (same node at the same depth: then all
      // its ancestors are shared too).
      let d = len;
      let x = leaf;
      while (d > 0 && !(d <= shareable && openNode[d - 1] === x)) {
        path[--d] = x;
        x = parent[x];
      }
      if (fill) for (let k = d; k < open; k++) end[openBox[k]] = closeAt;
      for (let k = d; k < len; k++) {
        openNode[k] = path[k];
        if (fill) {
          openBox[k] = count;
          node[count] = path[k];
          depth[count] = k + 1;
          start[count] = t;
          end[count] = t;
        }
        count++;
      }
      open = len;
    }
    const d = n > 0 && span ? span[n - 1] : 0;
    last = n > 0 ? time[n - 1] + (d > 0 ? d : interval) : 0;
    closeAll(fill, open, openBox, end, last);
  }
  return { count, node, depth, start, end, from: n > 0 ? time[0] : 0, to: last };
}

/** Ends the open boxes at `at` (in the filling pass); returns the new open count, 0. */
function closeAll(fill: boolean, open: number, openBox: Int32Array, end: Float64Array, at: number): number {
  if (fill) for (let k = 0; k < open; k++) end[openBox[k]] = at;
  return 0;
}

/** The call tree of the samples with from ≤ time < to (see the module comment). */
export function treeForRange(tree: CallTree, frames: FrameTable, samples: SampleColumns, from: number, to: number): CallTree {
  return treeForRangeMapped(tree, frames, samples, from, to).tree;
}

/** treeForRange, with each input node's node in the result (-1: no sample of its subtree is in the range). */
export function treeForRangeMapped(tree: CallTree, frames: FrameTable, samples: SampleColumns, from: number, to: number): { tree: CallTree; toRange: Int32Array } {
  const nodes = tree.nodeCount;
  const selfW = new Float64Array(nodes);
  const selfS = new Float64Array(nodes);
  for (let i = 0; i < samples.count; i++) {
    const share = spanShare(samples, i, from, to);
    if (share === 0) continue;
    selfW[samples.leaf[i]] += share * samples.weight[i];
    selfS[samples.leaf[i]] += 1;
  }
  // Keep a node when its subtree has weight: totals children-first, then a pre-order copy.
  const total = new Float64Array(nodes);
  for (let n = nodes - 1; n > 0; n--) {
    total[n] += selfS[n];
    total[tree.parent[n]] += total[n];
  }
  const builder = new TreeBuilder();
  const mapped = new Int32Array(nodes).fill(-1);
  if (nodes > 0) mapped[0] = 0;
  builder.addSelf(0, selfW[0], selfS[0]);
  for (let n = 1; n < nodes; n++) {
    if (total[n] === 0) {
      n = tree.end[n] - 1; // skip the empty subtree
      continue;
    }
    mapped[n] = builder.child(mapped[tree.parent[n]], tree.frame[n]);
    builder.addSelf(mapped[n], selfW[n], selfS[n]);
  }
  const { tree: out, order } = builder.finish(frames);
  for (let n = 0; n < nodes; n++) if (mapped[n] >= 0) mapped[n] = order[mapped[n]];
  return { tree: out, toRange: mapped };
}
