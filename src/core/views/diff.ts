// The differential view: two call trees, A (baseline) and B (comparison), from different
// recordings and so from different frame tables, aligned path by path.
//
//   shape tree (B by default)          other tree (A)
//   node │ match │ otherTotal           node │ matchBack
//   ─────┼───────┼───────────           ─────┼──────────
//     0  │   0   │ A's root total         0  │    0
//     1  │   3   │ A.total[3]             …  │    …
//     2  │  -1   │ NaN  ← only in B       5  │   -1      ← only in A (listed in onlyInA)
//
// Invariants:
// - frames are the same when their (name, flags) are equal (frame-path.ts); paths are the same
//   when their frames are the same, level by level from the root; the roots always match.
//   With ignoreRoot, the frames under the root (processes) match as pairRoots pairs them,
//   whatever their names; the levels below match by frame as always.
// - match and matchBack are inverse partial bijections: match[s] = o ⇔ matchBack[o] = s.
// - `other*` columns hold the weight of the same path in the other tree, NaN where it has none.
// - onlyInA / onlyInB hold the topmost node of each subtree present in one tree only (node
//   indices of that tree), heaviest first; their descendants are implied.
// - linear time, no recursion, typed arrays out; the shape tree is walked in its DFS order.

import type { CallTree } from '../model/call-tree';
import { frameName, type FrameTable } from '../model/frame-table';
import type { NodeIndex } from '../model/types';
import { mapFrames, type FrameMapping } from './frame-path';
import { Memo } from '../util/memo';

export type DiffShape = 'A' | 'B';
/** 'pct': compare shares of each run's total (fair across runs of different length); 'abs': raw. */
export type DiffNorm = 'pct' | 'abs';
/** 'period': summed period (ns for cpu-clock); 'samples': sample counts. */
export type DiffWeight = 'period' | 'samples';

export interface DiffSide {
  tree: CallTree;
  frames: FrameTable;
}

export interface TreeDiff {
  shape: DiffShape;
  a: DiffSide;
  b: DiffSide;
  /** A's frames in B's frame space (ids ≥ b.frames.count are frames only A has). */
  frameMap: FrameMapping;
  /** Shape node → node of the same path in the other tree, or -1. */
  match: Int32Array;
  /** Other node → node of the same path in the shape tree, or -1. */
  matchBack: Int32Array;
  /** Per shape node: the other tree's weights for the same path, NaN where it has none. */
  otherTotal: Float64Array;
  otherSelf: Float64Array;
  otherTotalSamples: Float64Array;
  otherSelfSamples: Float64Array;
  /** Roots of subtrees only A has ("gone"), as A nodes, heaviest first. */
  onlyInA: Int32Array;
  /** Roots of subtrees only B has ("new"), as B nodes, heaviest first. */
  onlyInB: Int32Array;
}

const cache = new Memo<TreeDiff>();

export interface DiffOptions {
  /**
   * Compare ignoring the root frames' names (the process, or comm-PID/TID): a renamed binary
   * (`shapes` against `shapes_b`) shares its stacks. Roots pair as pairRoots says.
   */
  ignoreRoot?: boolean;
}

/** The diff of A and B shaped by `shape`; memoised by the identity of the two trees. */
export function diffTrees(a: DiffSide, b: DiffSide, shape: DiffShape = 'B', options: DiffOptions = {}): TreeDiff {
  const ignoreRoot = Boolean(options.ignoreRoot);
  return cache.get([a.tree, b.tree, shape, ignoreRoot], () => computeDiff(a, b, shape, ignoreRoot));
}

/** A root (a frame directly under "all"): its name and total weight. */
export interface RootEntry {
  name: string;
  weight: number;
}

/**
 * Which root of B each root of A is compared with when root names are ignored (the one rule of
 * the page's comparison and of `flameview diff --ignore-root`): roots of the same name pair with
 * each other; the others pair in order of weight, heaviest with heaviest (ties by name), so one
 * process against one renamed process always pairs. Returns, per A root, the index of its B root
 * or -1 (more roots in A than in B). A partial bijection; O(r log r).
 */
export function pairRoots(a: readonly RootEntry[], b: readonly RootEntry[]): Int32Array {
  const out = new Int32Array(a.length).fill(-1);
  const byName = new Map<string, number>();
  b.forEach((r, i) => byName.set(r.name, i));
  const taken = new Uint8Array(b.length);
  a.forEach((r, i) => {
    const j = byName.get(r.name);
    if (j !== undefined && !taken[j]) {
      out[i] = j;
      taken[j] = 1;
    }
  });
  const order = (list: readonly RootEntry[], skip: (i: number) => boolean) =>
    list
      .map((_, i) => i)
      .filter((i) => !skip(i))
      .sort((x, y) => list[y].weight - list[x].weight || (list[x].name < list[y].name ? -1 : list[x].name > list[y].name ? 1 : 0));
  const restA = order(a, (i) => out[i] >= 0);
  const restB = order(b, (j) => taken[j] === 1);
  for (let k = 0; k < restA.length && k < restB.length; k++) out[restA[k]] = restB[k];
  return out;
}

/** The children of the root (node 0) of a tree, as RootEntry, and their nodes. */
function rootsOf(side: DiffSide): { nodes: number[]; entries: RootEntry[] } {
  const nodes: number[] = [];
  for (let n = 1; n < side.tree.nodeCount; n++) if (side.tree.parent[n] === 0) nodes.push(n);
  return { nodes, entries: nodes.map((n) => ({ name: frameName(side.frames, side.tree.frame[n]), weight: side.tree.totalWeight[n] })) };
}

function computeDiff(a: DiffSide, b: DiffSide, shape: DiffShape, ignoreRoot: boolean): TreeDiff {
  const frameMap = mapFrames(a.frames, b.frames);
  const s = shape === 'B' ? b.tree : a.tree;
  const o = shape === 'B' ? a.tree : b.tree;
  // Shared frame id of each node's frame, per tree (B's frames are their own shared ids).
  const sKey = sharedFrames(s, shape === 'B' ? null : frameMap.map);
  const oKey = sharedFrames(o, shape === 'B' ? frameMap.map : null);

  // Open-addressing table of the other tree's nodes keyed by (parent, shared frame). Each slot
  // holds [parent, frame, node] side by side, so a probe touches one cache line, not three arrays.
  const on = o.nodeCount;
  let size = 16;
  while (size < on * 2) size *= 2;
  const mask = size - 1;
  const slots = new Int32Array(size * 3).fill(-1);
  for (let n = 1; n < on; n++) {
    const parent = o.parent[n];
    const key = oKey[n];
    let slot = hashPair(parent, key) & mask;
    while (slots[slot * 3] !== -1) slot = (slot + 1) & mask;
    slots[slot * 3] = parent;
    slots[slot * 3 + 1] = key;
    slots[slot * 3 + 2] = n;
  }

  const sn = s.nodeCount;
  const match = new Int32Array(sn);
  const matchBack = new Int32Array(on).fill(-1);
  const otherTotal = new Float64Array(sn);
  const otherSelf = new Float64Array(sn);
  const otherTotalSamples = new Float64Array(sn);
  const otherSelfSamples = new Float64Array(sn);
  const onlyInShape: number[] = [];
  // Ignoring root names: each root of the shape tree is matched with its paired root, not by frame.
  let rootPair: Map<number, number> | null = null;
  if (ignoreRoot) {
    const [sr, or] = shape === 'B' ? [rootsOf(b), rootsOf(a)] : [rootsOf(a), rootsOf(b)];
    const pairs = pairRoots(sr.entries, or.entries);
    rootPair = new Map(sr.nodes.map((n, i) => [n, pairs[i] >= 0 ? or.nodes[pairs[i]] : -1]));
  }
  match[0] = 0;
  matchBack[0] = 0;
  otherTotal[0] = o.totalWeight[0];
  otherSelf[0] = o.selfWeight[0];
  otherTotalSamples[0] = o.totalSamples[0];
  otherSelfSamples[0] = o.selfSamples[0];
  // Pre-order: a node's parent is matched before the node.
  for (let n = 1; n < sn; n++) {
    const p = match[s.parent[n]];
    let m = -1;
    if (rootPair && p === 0) {
      m = rootPair.get(n) ?? -1;
    } else if (p >= 0) {
      const key = sKey[n];
      for (let slot = hashPair(p, key) & mask; ; slot = (slot + 1) & mask) {
        const at = slot * 3;
        const sp = slots[at];
        if (sp === -1) break;
        if (sp === p && slots[at + 1] === key) {
          m = slots[at + 2];
          break;
        }
      }
    }
    match[n] = m;
    if (m >= 0) {
      matchBack[m] = n;
      otherTotal[n] = o.totalWeight[m];
      otherSelf[n] = o.selfWeight[m];
      otherTotalSamples[n] = o.totalSamples[m];
      otherSelfSamples[n] = o.selfSamples[m];
    } else {
      otherTotal[n] = otherSelf[n] = otherTotalSamples[n] = otherSelfSamples[n] = NaN;
      if (p >= 0) onlyInShape.push(n);
    }
  }
  const onlyInOther: number[] = [];
  for (let n = 1; n < on; n++) if (matchBack[n] < 0 && matchBack[o.parent[n]] >= 0) onlyInOther.push(n);

  const onlyS = heaviestFirst(onlyInShape, s);
  const onlyO = heaviestFirst(onlyInOther, o);
  return {
    shape,
    a,
    b,
    frameMap,
    match,
    matchBack,
    otherTotal,
    otherSelf,
    otherTotalSamples,
    otherSelfSamples,
    onlyInA: shape === 'A' ? onlyS : onlyO,
    onlyInB: shape === 'B' ? onlyS : onlyO,
  };
}

function sharedFrames(tree: CallTree, map: Int32Array | null): Int32Array {
  if (!map) return tree.frame;
  const out = new Int32Array(tree.nodeCount);
  out[0] = -1;
  for (let n = 1; n < tree.nodeCount; n++) out[n] = map[tree.frame[n]];
  return out;
}

function heaviestFirst(nodes: number[], tree: CallTree): Int32Array {
  const out = Int32Array.from(nodes);
  out.sort((x, y) => tree.totalWeight[y] - tree.totalWeight[x] || x - y);
  return out;
}

function hashPair(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}

// ── Figures for display: normalisation, deltas ─────────────────────────────────────────────

export interface DeltaOptions {
  norm?: DiffNorm;
  weight?: DiffWeight;
}

/** One figure compared: A, B, B − A and the relative change (B − A) / A in percent. */
export interface Compared {
  /** In 'pct' mode: percent of A's total; in 'abs' mode: the weight as recorded. */
  a: number;
  b: number;
  /** b − a: percentage points in 'pct' mode. */
  delta: number;
  /** 100 × (b − a) / a; +Infinity when a is 0 and b is not (new), 0 when both are 0. */
  deltaPct: number;
}

export interface NodeDelta {
  total: Compared;
  self: Compared;
  /** Which runs have this path. */
  presentIn: 'both' | 'A' | 'B';
}

/** Root totals of both runs for a weight. */
export function diffTotals(diff: TreeDiff, weight: DiffWeight = 'period'): { a: number; b: number } {
  const pick = (t: CallTree) => (weight === 'period' ? t.totalWeight[0] : t.totalSamples[0]);
  return { a: pick(diff.a.tree), b: pick(diff.b.tree) };
}

export function compare(a: number, b: number, totalA: number, totalB: number, norm: DiffNorm): Compared {
  if (norm === 'pct') {
    a = totalA > 0 ? (100 * a) / totalA : 0;
    b = totalB > 0 ? (100 * b) / totalB : 0;
  }
  const delta = b - a;
  const deltaPct = a !== 0 ? (100 * delta) / a : delta === 0 ? 0 : delta > 0 ? Infinity : -Infinity;
  return { a, b, delta, deltaPct };
}

/** The tooltip figures of a node of the shape tree. Allocates; for one node at a time. */
export function nodeDelta(diff: TreeDiff, node: NodeIndex, options: DeltaOptions = {}): NodeDelta {
  const norm = options.norm ?? 'pct';
  const weight = options.weight ?? 'period';
  const s = diff.shape === 'B' ? diff.b.tree : diff.a.tree;
  const own = weight === 'period' ? [s.totalWeight[node], s.selfWeight[node]] : [s.totalSamples[node], s.selfSamples[node]];
  const other = weight === 'period' ? [diff.otherTotal[node], diff.otherSelf[node]] : [diff.otherTotalSamples[node], diff.otherSelfSamples[node]];
  const present = diff.match[node] >= 0;
  const o = present ? other : [0, 0];
  const [ta, tb] = diff.shape === 'B' ? [o[0], own[0]] : [own[0], o[0]];
  const [sa, sb] = diff.shape === 'B' ? [o[1], own[1]] : [own[1], o[1]];
  const totals = diffTotals(diff, weight);
  return {
    total: compare(ta, tb, totals.a, totals.b, norm),
    self: compare(sa, sb, totals.a, totals.b, norm),
    presentIn: present ? 'both' : diff.shape,
  };
}

/**
 * B − A for every node of the shape tree (a path missing from one run counts as 0 there), in
 * percentage points ('pct') or weight units ('abs'), and the largest |delta|, for colouring:
 * saturation = |delta[n]| / maxAbs, red when positive (grew), blue when negative (shrank).
 */
export function deltaColumn(
  diff: TreeDiff,
  kind: 'total' | 'self' = 'total',
  options: DeltaOptions = {},
): { delta: Float64Array; maxAbs: number } {
  const norm = options.norm ?? 'pct';
  const weight = options.weight ?? 'period';
  const s = diff.shape === 'B' ? diff.b.tree : diff.a.tree;
  const own = weight === 'period' ? (kind === 'total' ? s.totalWeight : s.selfWeight) : kind === 'total' ? s.totalSamples : s.selfSamples;
  const other =
    weight === 'period'
      ? kind === 'total'
        ? diff.otherTotal
        : diff.otherSelf
      : kind === 'total'
        ? diff.otherTotalSamples
        : diff.otherSelfSamples;
  const totals = diffTotals(diff, weight);
  let scaleA = 1;
  let scaleB = 1;
  if (norm === 'pct') {
    scaleA = totals.a > 0 ? 100 / totals.a : 0;
    scaleB = totals.b > 0 ? 100 / totals.b : 0;
  }
  const [scaleOwn, scaleOther, sign] = diff.shape === 'B' ? [scaleB, scaleA, 1] : [scaleA, scaleB, -1];
  const n = s.nodeCount;
  const delta = new Float64Array(n);
  let maxAbs = 0;
  for (let i = 0; i < n; i++) {
    const ov = other[i];
    const d = sign * (own[i] * scaleOwn - (ov === ov ? ov * scaleOther : 0));
    delta[i] = d;
    const abs = d < 0 ? -d : d;
    if (abs > maxAbs) maxAbs = abs;
  }
  return { delta, maxAbs };
}

