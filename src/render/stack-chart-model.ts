// What the time-order chart draws, computed once per (snapshot, view) and kept beside the snapshot
// (WeakMap), so no React render computes it: the stack chart's boxes (core/views/time-order.ts)
// over the view's tree, and the boxes grouped by row for drawing and hit-testing.
//
// One lane per thread (samples.thread; per root child when absent), heaviest first, as the
// Firefox Profiler has a track per thread: the samples of threads that run at the same time
// would otherwise alternate and cut every box into one-sample slivers. A lane's rows follow the
// previous lane's; `chart.depth` holds the row (1-based), not the depth in the tree.
//
//   rowBoxes: box indices, row by row (row 1 first), each row in time order
//   rowStart[r] … rowStart[r+1]: the boxes of row r in rowBoxes
//   laneRow[l]: the first row of lane l (its root child's row); laneThread[l]: its thread (-1: none)
//
// An off-CPU interval (a span of the Wall clock or Off-CPU event) is a box from its switch-out to
// its switch-in in its thread's lane, beside that thread's CPU samples, its leaf in the off-CPU
// palette.
//
// Invariants: within a row boxes do not overlap and are sorted by start, so their ends are sorted
// too (binary search by time); leaves of the function view are the inline leaves mapped through
// snapshot.toFunction. Times are absolute seconds as perf script prints them; t0 is the first
// sample's.

import type { CallTree } from '../core/model/call-tree';
import type { FrameTable } from '../core/model/frame-table';
import { offCpuLeafIndex } from '../core/model/off-cpu-leaves';
import type { ProfileSnapshot } from '../core/views/snapshot';
import { stackChart, type StackChart } from '../core/views/time-order';
import { longestSpan, spanShare, withLeaves, type SampleColumns } from '../core/model/sample-column';
import type { ViewKind } from '../core/model/view-types';
import { Memo } from '../core/util/memo';

export interface StackChartModel {
  tree: CallTree;
  samples: SampleColumns;
  chart: StackChart;
  rowStart: Int32Array;
  rowBoxes: Int32Array;
  laneRow: Int32Array;
  laneThread: Int32Array;
  /** Rows drawn: 1 … maxDepth. */
  maxDepth: number;
  /** The first sample's time and the end of the last box. */
  t0: number;
  t1: number;
  /** Milliseconds spent building this model (for the benchmark and the console). */
  buildMs: number;
}

const memo = new WeakMap<ProfileSnapshot, Map<ViewKind, StackChartModel>>();

/** The chart of a snapshot's view, or null when the recording has no timestamps. Memoised. */
export function stackChartModel(snapshot: ProfileSnapshot, view: ViewKind): StackChartModel | null {
  const samples = snapshot.samples;
  if (!samples || samples.count === 0) return null;
  const kind: ViewKind = view === 'functions' && snapshot.functions && snapshot.toFunction ? 'functions' : 'inline';
  let byView = memo.get(snapshot);
  if (!byView) memo.set(snapshot, (byView = new Map()));
  let model = byView.get(kind);
  if (!model) {
    const tree = kind === 'functions' ? snapshot.functions! : snapshot.inline;
    const mapped = kind === 'functions' ? mapLeaves(samples, snapshot.toFunction!) : samples;
    model = buildModel(tree, mapped, snapshot.frames);
    byView.set(kind, model);
  }
  return model;
}

/** `frames` names the off-CPU leaves of spans (each box one interval); without it they may merge. */
export function buildModel(tree: CallTree, samples: SampleColumns, frames?: FrameTable): StackChartModel {
  const started = now();
  const chart = laneCharts(tree, samples, frames);
  let maxDepth = 0;
  for (let i = 0; i < chart.count; i++) if (chart.depth[i] > maxDepth) maxDepth = chart.depth[i];
  // Counting sort by row; boxes of a row come in start order, and the sort is stable.
  const rowStart = new Int32Array(maxDepth + 2);
  for (let i = 0; i < chart.count; i++) rowStart[chart.depth[i] + 1]++;
  for (let d = 1; d < rowStart.length; d++) rowStart[d] += rowStart[d - 1];
  const fill = rowStart.slice(0, maxDepth + 1);
  const rowBoxes = new Int32Array(chart.count);
  for (let i = 0; i < chart.count; i++) rowBoxes[fill[chart.depth[i]]++] = i;
  return { tree, samples, chart, rowStart, rowBoxes, laneRow: chart.laneRow, laneThread: chart.laneThread, maxDepth, t0: chart.from, t1: chart.to, buildMs: now() - started };
}

/** The stack chart of each lane's samples, rows stacked lane after lane (see the module comment). */
function laneCharts(tree: CallTree, samples: SampleColumns, frames: FrameTable | undefined): StackChart & { laneRow: Int32Array; laneThread: Int32Array } {
  const n = samples.count;
  // laneOf[node]: its ancestor at depth 1 (parents come before children in DFS order).
  const laneOf = new Int32Array(tree.nodeCount);
  for (let x = 1; x < tree.nodeCount; x++) laneOf[x] = tree.depth[x] === 1 ? x : laneOf[tree.parent[x]];
  // A lane per (root child, thread); samples whose leaf is the root (no frames) have none.
  const thread = samples.thread;
  const laneKey = new Map<number, number>();
  const laneOfSample = new Int32Array(n).fill(-1);
  const laneWeight: number[] = [];
  const laneFirst: number[] = [];
  const cacheKey = new Float64Array(64).fill(-1);
  const cacheLane = new Int32Array(64);
  for (let i = 0; i < n; i++) {
    const x = samples.leaf[i];
    if (x <= 0) continue;
    const key = laneOf[x] * 4_194_305 + (thread ? thread[i] + 1 : 0);
    // A small direct-mapped cache in front of the Map: a few threads take turns at a time.
    const slot = key & 63;
    let l: number | undefined;
    if (cacheKey[slot] === key) l = cacheLane[slot];
    else {
      l = laneKey.get(key);
      if (l === undefined) {
        laneKey.set(key, (l = laneWeight.length));
        laneWeight.push(0);
        laneFirst.push(i);
      }
      cacheKey[slot] = key;
      cacheLane[slot] = l;
    }
    laneWeight[l] += samples.weight[i];
    laneOfSample[i] = l;
  }
  const lanes = laneWeight.map((_, l) => l).sort((a, b) => laneWeight[b] - laneWeight[a] || laneFirst[a] - laneFirst[b]);
  const rank = new Int32Array(lanes.length);
  lanes.forEach((l, r) => (rank[l] = r));
  // Samples grouped by lane (in lane order), each group still in time order: a stable counting sort.
  const at = new Int32Array(lanes.length + 1);
  for (let i = 0; i < n; i++) if (laneOfSample[i] >= 0) at[rank[laneOfSample[i]] + 1]++;
  for (let l = 1; l <= lanes.length; l++) at[l] += at[l - 1];
  const kept = at[lanes.length];
  const pos = at.slice(0, lanes.length);
  const leaf = new Int32Array(kept);
  const time = new Float64Array(kept);
  const weight = new Float64Array(kept);
  const span = samples.duration;
  const duration = span ? new Float64Array(kept) : null;
  for (let i = 0; i < n; i++) {
    if (laneOfSample[i] < 0) continue;
    const k = pos[rank[laneOfSample[i]]]++;
    leaf[k] = samples.leaf[i];
    time[k] = samples.time[i];
    weight[k] = samples.weight[i];
    if (duration) duration[k] = span![i];
  }
  const own = duration && frames ? spanOwnFrames(tree, frames) : undefined;
  const parts: StackChart[] = [];
  let count = 0;
  for (let l = 0; l < lanes.length; l++) {
    const a = at[l];
    const b = at[l + 1];
    const part = stackChart(tree, { count: b - a, leaf: leaf.subarray(a, b), time: time.subarray(a, b), weight: weight.subarray(a, b), ...(duration ? { duration: duration.subarray(a, b) } : {}) }, own);
    parts.push(part);
    count += part.count;
  }
  const out = {
    count,
    node: new Int32Array(count),
    depth: new Int32Array(count),
    start: new Float64Array(count),
    end: new Float64Array(count),
    from: n > 0 ? samples.time[0] : 0,
    to: n > 0 ? samples.time[0] : 0,
    laneRow: new Int32Array(lanes.length),
    laneThread: Int32Array.from(lanes, (l) => (thread ? thread[laneFirst[l]] : -1)),
  };
  let k = 0;
  let rowsBefore = 0;
  for (let l = 0; l < parts.length; l++) {
    const part = parts[l];
    out.laneRow[l] = rowsBefore + 1;
    let rows = 0;
    out.node.set(part.node, k);
    out.start.set(part.start, k);
    out.end.set(part.end, k);
    for (let i = 0; i < part.count; i++) {
      out.depth[k + i] = part.depth[i] + rowsBefore;
      if (part.depth[i] > rows) rows = part.depth[i];
    }
    if (part.count > 0 && part.to > out.to) out.to = part.to;
    k += part.count;
    rowsBefore += rows;
  }
  return out;
}

/** Per node, whether it is an off-CPU state or waker leaf: a span's own frames (stackChart). */
function spanOwnFrames(tree: CallTree, frames: FrameTable): Uint8Array {
  const own = new Uint8Array(tree.nodeCount);
  const byFrame = new Map<number, number>();
  for (let x = 1; x < tree.nodeCount; x++) {
    const f = tree.frame[x];
    let is = byFrame.get(f);
    if (is === undefined) byFrame.set(f, (is = offCpuLeafIndex(frames.strings[frames.name[f]]) >= 0 ? 1 : 0));
    own[x] = is;
  }
  return own;
}

function mapLeaves(s: SampleColumns, toFunction: Int32Array): SampleColumns {
  const leaf = new Int32Array(s.count);
  for (let i = 0; i < s.count; i++) leaf[i] = s.leaf[i] > 0 ? toFunction[s.leaf[i]] : 0;
  return withLeaves(s, leaf);
}

/** Index of the first sample with time ≥ t (samples sorted by time). */
export function firstSampleAt(s: SampleColumns, t: number): number {
  let lo = 0;
  let hi = s.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.time[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Samples in [from, to) and their summed weight: instants with from ≤ time < to, and spans (off-CPU
 * intervals) that overlap the range, each weighing its share inside it (spanShare), as the tree of
 * the range (core/views/time-order.ts treeForRange) counts them.
 */
export function samplesInRange(s: SampleColumns, from: number, to: number): { count: number; weight: number } {
  // A span that starts before `from` can reach into the range: look back by the longest one.
  const a = firstSampleAt(s, s.duration ? from - longestSpanOf(s) : from);
  const b = firstSampleAt(s, to);
  let count = 0;
  let weight = 0;
  for (let i = a; i < b; i++) {
    const share = spanShare(s, i, from, to);
    if (share === 0) continue;
    count++;
    weight += share * s.weight[i];
  }
  return { count, weight };
}

/**
 * The samples a box covers: those of its lane's thread in its node's subtree that overlap its time
 * (a span by any part of it), not every thread's samples of that time: a wait's box covers its
 * one interval.
 */
export function boxSamples(m: StackChartModel, box: number): number {
  const s = m.samples;
  const node = m.chart.node[box];
  const last = m.tree.end[node];
  const from = m.chart.start[box];
  const to = m.chart.end[box];
  // The box's lane: the last whose first row is at or above the box's row.
  let lane = 0;
  while (lane + 1 < m.laneRow.length && m.laneRow[lane + 1] <= m.chart.depth[box]) lane++;
  const thread = s.thread && m.laneThread.length > 0 ? m.laneThread[lane] : null;
  const b = firstSampleAt(s, to);
  let count = 0;
  for (let i = firstSampleAt(s, s.duration ? from - longestSpanOf(s) : from); i < b; i++) {
    const leaf = s.leaf[i];
    if (leaf >= node && leaf < last && (thread === null || s.thread![i] === thread) && spanShare(s, i, from, to) > 0) count++;
  }
  return count;
}

const longest = new Memo<number>();
const longestSpanOf = (s: SampleColumns): number => longest.get([s], () => longestSpan(s));

/** Position in rowBoxes of the first box of row `depth` whose end is after t. */
export function firstBoxEndingAfter(m: StackChartModel, depth: number, t: number): number {
  let lo = m.rowStart[depth];
  let hi = m.rowStart[depth + 1];
  const end = m.chart.end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (end[m.rowBoxes[mid]] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The box of row `depth` that covers time t, or -1. */
export function boxAt(m: StackChartModel, depth: number, t: number): number {
  if (depth < 1 || depth > m.maxDepth) return -1;
  const k = firstBoxEndingAfter(m, depth, t);
  if (k >= m.rowStart[depth + 1]) return -1;
  const box = m.rowBoxes[k];
  return m.chart.start[box] <= t ? box : -1;
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}
