// What the time-order chart draws, computed once per (snapshot, view) and kept beside the snapshot
// (WeakMap), so no React render computes it: the stack chart's boxes (core/timeline/time-order.ts)
// over the view's tree, and the boxes grouped by row for drawing and hit-testing.
//
//   rowBoxes: box indices, row by row (depth 1 first), each row in time order
//   rowStart[d] … rowStart[d+1]: the boxes of depth d in rowBoxes
//
// Invariants: within a row boxes do not overlap and are sorted by start, so their ends are sorted
// too (binary search by time); leaves of the function view are the inline leaves mapped through
// snapshot.toFunction. Times are absolute seconds as perf script prints them; t0 is the first
// sample's.

import type { CallTree } from '../core/model/call-tree';
import type { ProfileSnapshot } from '../core/snapshot';
import { stackChart, type SampleColumns, type StackChart } from '../core/timeline/time-order';
import type { ViewKind } from '../store/types';

export interface StackChartModel {
  tree: CallTree;
  samples: SampleColumns;
  chart: StackChart;
  rowStart: Int32Array;
  rowBoxes: Int32Array;
  /** Rows drawn: depths 1 … maxDepth. */
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
    model = buildModel(tree, mapped);
    byView.set(kind, model);
  }
  return model;
}

export function buildModel(tree: CallTree, samples: SampleColumns): StackChartModel {
  const started = now();
  const chart = stackChart(tree, samples);
  let maxDepth = 0;
  for (let i = 0; i < chart.count; i++) if (chart.depth[i] > maxDepth) maxDepth = chart.depth[i];
  // Counting sort by depth; boxes come in start order, and the sort is stable.
  const rowStart = new Int32Array(maxDepth + 2);
  for (let i = 0; i < chart.count; i++) rowStart[chart.depth[i] + 1]++;
  for (let d = 1; d < rowStart.length; d++) rowStart[d] += rowStart[d - 1];
  const fill = rowStart.slice(0, maxDepth + 1);
  const rowBoxes = new Int32Array(chart.count);
  for (let i = 0; i < chart.count; i++) rowBoxes[fill[chart.depth[i]]++] = i;
  return { tree, samples, chart, rowStart, rowBoxes, maxDepth, t0: chart.from, t1: chart.to, buildMs: now() - started };
}

function mapLeaves(s: SampleColumns, toFunction: Int32Array): SampleColumns {
  const leaf = new Int32Array(s.count);
  for (let i = 0; i < s.count; i++) leaf[i] = s.leaf[i] > 0 ? toFunction[s.leaf[i]] : 0;
  return { count: s.count, leaf, time: s.time, weight: s.weight };
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

/** Samples with from ≤ time < to, and their summed weight. */
export function samplesInRange(s: SampleColumns, from: number, to: number): { count: number; weight: number } {
  const a = firstSampleAt(s, from);
  const b = firstSampleAt(s, to);
  let weight = 0;
  for (let i = a; i < b; i++) weight += s.weight[i];
  return { count: b - a, weight };
}

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
