// Per-function comparison of two runs: the table of the functions whose weight changed most.
//
// Invariants:
// - a function is a frame name; flags are ignored, so an inlined `foo` and a physical `foo`
//   are one function (the name is what search and the table show).
// - self = the sum of self weights over every call site; total = the weight of the samples
//   that have the function anywhere on their stack, so recursion is counted once (a node adds
//   its total only when no ancestor has the same name).
// - every function with a node in A or B has one row; status says whether it is in both runs,
//   only in B ('new') or only in A ('gone').
// - rows are sorted by |self Δ|, then |total Δ|, then name; iterative walk, O(nodes + names).
// - the raw weights (functionPairTable) are memoised by tree identity; rows depend on the
//   normalisation and are rebuilt per call.

import { compare, type Compared, type DeltaOptions, type DiffSide } from './diff';
import { Memo } from '../util/memo';
import { functionWeights } from './function-weights';

export interface FunctionDelta {
  name: string;
  status: 'both' | 'new' | 'gone';
  self: Compared;
  total: Compared;
}

/** Raw per-function weights of both runs, one entry per name of A or B (columns). */
export interface FunctionPairTable {
  names: string[];
  /** 0 both, 1 new (only B), 2 gone (only A). */
  status: Uint8Array;
  selfA: Float64Array;
  selfB: Float64Array;
  totalA: Float64Array;
  totalB: Float64Array;
  /** Root totals of A and B. */
  rootA: number;
  rootB: number;
}

const STATUS: readonly FunctionDelta['status'][] = ['both', 'new', 'gone'];
const tables = new Memo<FunctionPairTable>();

/** The per-function weights of A and B; memoised by tree identity, so a switch of normalisation is cheap. */
export function functionPairTable(a: DiffSide, b: DiffSide, weight: 'period' | 'samples' = 'period'): FunctionPairTable {
  return tables.get([a.tree, b.tree, weight], () => computeTable(a, b, weight === 'samples'));
}

function computeTable(a: DiffSide, b: DiffSide, samples: boolean): FunctionPairTable {
  const wa = functionWeights(a.tree, a.frames, samples);
  const wb = functionWeights(b.tree, b.frames, samples);
  const bIndex = new Map<string, number>();
  for (let s = 0; s < wb.seen.length; s++) if (wb.seen[s]) bIndex.set(b.frames.strings[s], s);

  const names: string[] = [];
  const status: number[] = [];
  const selfA: number[] = [];
  const selfB: number[] = [];
  const totalA: number[] = [];
  const totalB: number[] = [];
  const push = (name: string, st: number, sa: number, sb: number, ta: number, tb: number) => {
    names.push(name);
    status.push(st);
    selfA.push(sa);
    selfB.push(sb);
    totalA.push(ta);
    totalB.push(tb);
  };
  const matchedB = new Uint8Array(wb.seen.length);
  for (let s = 0; s < wa.seen.length; s++) {
    if (!wa.seen[s]) continue;
    const name = a.frames.strings[s];
    const t = bIndex.get(name);
    if (t === undefined) push(name, 2, wa.self[s], 0, wa.total[s], 0);
    else {
      matchedB[t] = 1;
      push(name, 0, wa.self[s], wb.self[t], wa.total[s], wb.total[t]);
    }
  }
  for (let t = 0; t < wb.seen.length; t++) {
    if (wb.seen[t] && !matchedB[t]) push(b.frames.strings[t], 1, 0, wb.self[t], 0, wb.total[t]);
  }
  return {
    names,
    status: Uint8Array.from(status),
    selfA: Float64Array.from(selfA),
    selfB: Float64Array.from(selfB),
    totalA: Float64Array.from(totalA),
    totalB: Float64Array.from(totalB),
    rootA: samples ? a.tree.totalSamples[0] : a.tree.totalWeight[0],
    rootB: samples ? b.tree.totalSamples[0] : b.tree.totalWeight[0],
  };
}

/** One row per function name of A or B, heaviest change of self weight first. */
export function functionDeltas(a: DiffSide, b: DiffSide, options: DeltaOptions = {}): FunctionDelta[] {
  const norm = options.norm ?? 'pct';
  const t = functionPairTable(a, b, options.weight ?? 'period');
  const n = t.names.length;
  // Sort an index by precomputed keys: cheaper than a comparator reaching into row objects.
  const rows: FunctionDelta[] = new Array(n);
  const selfKey = new Float64Array(n);
  const totalKey = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const self = compare(t.selfA[i], t.selfB[i], t.rootA, t.rootB, norm);
    const total = compare(t.totalA[i], t.totalB[i], t.rootA, t.rootB, norm);
    rows[i] = { name: t.names[i], status: STATUS[t.status[i]], self, total };
    selfKey[i] = Math.abs(self.delta);
    totalKey[i] = Math.abs(total.delta);
  }
  const names = t.names;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((x, y) => selfKey[y] - selfKey[x] || totalKey[y] - totalKey[x] || (names[x] < names[y] ? -1 : names[x] > names[y] ? 1 : 0));
  return order.map((i) => rows[i]);
}

const indexes = new WeakMap<FunctionPairTable, Map<string, number>>();

/**
 * The comparison for one function name (all its call sites; recursion once), or null when
 * neither run has it. For tooltips: a frame that occurs on several paths (one per thread, say)
 * shows each path's share, and this gives the function's share of the whole run.
 */
export function functionDeltaOf(a: DiffSide, b: DiffSide, name: string, options: DeltaOptions = {}): FunctionDelta | null {
  const t = functionPairTable(a, b, options.weight ?? 'period');
  let index = indexes.get(t);
  if (!index) {
    index = new Map();
    for (let i = 0; i < t.names.length; i++) index.set(t.names[i], i);
    indexes.set(t, index);
  }
  const i = index.get(name);
  if (i === undefined) return null;
  const norm = options.norm ?? 'pct';
  return {
    name,
    status: STATUS[t.status[i]],
    self: compare(t.selfA[i], t.selfB[i], t.rootA, t.rootB, norm),
    total: compare(t.totalA[i], t.totalB[i], t.rootA, t.rootB, norm),
  };
}
