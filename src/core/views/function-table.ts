// The function table of one profile: every function with its self and total weight summed over
// all its call sites (pprof -top, the Firefox Profiler's and speedscope's tables).
//
//   row │ name (StringIndex) │ selfWeight │ totalWeight │ selfSamples │ totalSamples │ flags
//   ────┼────────────────────┼────────────┼─────────────┼─────────────┼──────────────┼──────────────
//    0  │ "main"             │     0      │    100      │      0      │      10      │ PHYSICAL
//    1  │ "lex"              │    30      │     30      │      3      │       3      │ INLINED|PHYSICAL
//
// Invariants:
// - a function is a frame *name*: an inlined `foo` and a physical `foo` are one row (the name
//   is what search and the flamegraph show); flags say whether it occurs inlined somewhere
//   (INLINED), as a physical frame (PHYSICAL), as a kernel frame (KERNEL);
// - self = the sum of self weights of every node of that name; total = the weight of the
//   samples with the function anywhere on their stack, so recursion is counted once (a node adds
//   its total only when no ancestor on its path has the same name);
// - rows are in first-seen depth-first order; sortRows gives a permutation, the columns never move;
// - one iterative pass over the tree (a depth stack and a per-name "open on the path" counter),
//   O(nodes + strings); memoised by (tree, frames) identity.
// function-deltas.ts computes the same sums for the differential table (two runs, one weight).

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { FrameFlags, type StringIndex } from '../model/types';
import { Memo } from '../util/memo';

export const FunctionFlags = {
  INLINED: 1,
  PHYSICAL: 2,
  KERNEL: 4,
} as const;

export interface FunctionTable {
  readonly count: number;
  /** String index (into frames.strings) of each row's function name. */
  readonly name: Int32Array;
  readonly selfWeight: Float64Array;
  readonly totalWeight: Float64Array;
  readonly selfSamples: Float64Array;
  readonly totalSamples: Float64Array;
  /** FunctionFlags bits. */
  readonly flags: Uint8Array;
  /** For each string index: its row, or -1 when no frame has that name. */
  readonly rowOfName: Int32Array;
  /** The root's totals (the whole profile), the denominators of the shares. */
  readonly rootWeight: number;
  readonly rootSamples: number;
}

export type FunctionColumn = 'self' | 'total' | 'name';
export type WeightKind = 'period' | 'samples';

const cache = new Memo<FunctionTable>();

/** The function table of a tree (see the module comment); memoised by (tree, frames). */
export function functionTable(tree: CallTree, frames: FrameTable): FunctionTable {
  return cache.get([tree, frames], () => computeFunctionTable(tree, frames));
}

function computeFunctionTable(tree: CallTree, frames: FrameTable): FunctionTable {
  const strings = frames.strings.length;
  const rowOfName = new Int32Array(strings).fill(-1);
  const onPath = new Int32Array(strings);
  // Rows grow in first-seen order; at most one per frame.
  const cap = Math.max(1, frames.count);
  const name = new Int32Array(cap);
  const selfWeight = new Float64Array(cap);
  const totalWeight = new Float64Array(cap);
  const selfSamples = new Float64Array(cap);
  const totalSamples = new Float64Array(cap);
  const flags = new Uint8Array(cap);
  let count = 0;

  // Open ancestors of the current node, outermost first (the root is never pushed).
  const open = new Int32Array(tree.maxDepth + 1);
  let top = 0;
  const { end, frame } = tree;
  for (let n = 1; n < tree.nodeCount; n++) {
    while (top > 0 && end[open[top - 1]] <= n) onPath[frames.name[frame[open[--top]]]]--;
    const f = frame[n];
    const s = frames.name[f];
    let row = rowOfName[s];
    if (row < 0) {
      row = rowOfName[s] = count++;
      name[row] = s;
    }
    const ff = frames.flags[f];
    flags[row] |=
      (ff & FrameFlags.INLINED ? FunctionFlags.INLINED : FunctionFlags.PHYSICAL) | (ff & FrameFlags.KERNEL ? FunctionFlags.KERNEL : 0);
    selfWeight[row] += tree.selfWeight[n];
    selfSamples[row] += tree.selfSamples[n];
    if (onPath[s] === 0) {
      totalWeight[row] += tree.totalWeight[n];
      totalSamples[row] += tree.totalSamples[n];
    }
    onPath[s]++;
    open[top++] = n;
  }
  return {
    count,
    name: name.slice(0, count),
    selfWeight: selfWeight.slice(0, count),
    totalWeight: totalWeight.slice(0, count),
    selfSamples: selfSamples.slice(0, count),
    totalSamples: totalSamples.slice(0, count),
    flags: flags.slice(0, count),
    rowOfName,
    rootWeight: tree.nodeCount > 0 ? tree.totalWeight[0] : 0,
    rootSamples: tree.nodeCount > 0 ? tree.totalSamples[0] : 0,
  };
}

/** The self or total column for a weight kind. */
export function functionColumn(table: FunctionTable, column: 'self' | 'total', weight: WeightKind = 'period'): Float64Array {
  if (weight === 'samples') return column === 'self' ? table.selfSamples : table.totalSamples;
  return column === 'self' ? table.selfWeight : table.totalWeight;
}

/** A value's share of the whole profile, 0..1 (0 for an empty profile). */
export function shareOf(table: FunctionTable, value: number, weight: WeightKind = 'period'): number {
  const root = weight === 'samples' ? table.rootSamples : table.rootWeight;
  return root > 0 ? value / root : 0;
}

export interface SortOptions {
  by?: FunctionColumn;
  weight?: WeightKind;
  /** Descending by default for weights, ascending for names. */
  descending?: boolean;
  /** Only these rows (e.g. the ones matching a search); all rows when absent. */
  rows?: Int32Array;
}

/**
 * Row indices in display order. Weight ties are broken by the other weight column, then by name
 * (UTF-16 order), so the order is total and stable across runs. Sorts an Int32Array of keys;
 * no per-row objects.
 */
export function sortRows(table: FunctionTable, frames: FrameTable, options: SortOptions = {}): Int32Array {
  const by = options.by ?? 'self';
  const weight = options.weight ?? 'period';
  const rows = options.rows ? Int32Array.from(options.rows) : identity(table.count);
  const names = frames.strings;
  const nameOf = table.name;
  const byName = (a: number, b: number) => {
    const x = names[nameOf[a]];
    const y = names[nameOf[b]];
    return x < y ? -1 : x > y ? 1 : 0;
  };
  if (by === 'name') {
    const sign = options.descending ? -1 : 1;
    return rows.sort((a, b) => sign * byName(a, b));
  }
  const primary = functionColumn(table, by, weight);
  const secondary = functionColumn(table, by === 'self' ? 'total' : 'self', weight);
  const sign = options.descending === false ? -1 : 1;
  return rows.sort((a, b) => sign * (primary[b] - primary[a] || secondary[b] - secondary[a]) || byName(a, b));
}

/** Rows whose name matches (e.g. the search regex); the regex is tested once per row. */
export function filterRows(table: FunctionTable, frames: FrameTable, match: (name: string) => boolean): Int32Array {
  const out = new Int32Array(table.count);
  let k = 0;
  for (let r = 0; r < table.count; r++) if (match(frames.strings[table.name[r]])) out[k++] = r;
  return out.slice(0, k);
}

/** The row of a function name, or -1. */
export function rowOf(table: FunctionTable, frames: FrameTable, name: string): number {
  // Frame names are few compared to strings' lookups from the UI; a linear scan of the rows is
  // O(rows) and allocation-free, fine for a click.
  for (let r = 0; r < table.count; r++) if (frames.strings[table.name[r]] === name) return r;
  return -1;
}

/** 1 for every frame whose name is `name` (a StringIndex): what the flamegraph highlights for a row. */
export function framesNamed(frames: FrameTable, name: StringIndex): Uint8Array {
  const mask = new Uint8Array(frames.count);
  for (let f = 0; f < frames.count; f++) if (frames.name[f] === name) mask[f] = 1;
  return mask;
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/**
 * The same frames with their names rewritten (tidied for the CLI, shortened for labels…), so
 * that functions whose new names are equal become one row of functionTable. Frame indices, flags
 * and modules are unchanged, so any tree of the original table can be used with the result.
 */
export function renameFrames(frames: FrameTable, rename: (name: string) => string): FrameTable {
  const index = new Map<string, number>();
  const strings: string[] = [];
  const name = new Int32Array(frames.count);
  for (let f = 0; f < frames.count; f++) {
    const s = rename(frames.strings[frames.name[f]]);
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    name[f] = i;
  }
  // Modules point into the old strings; keep them readable by appending those after the names.
  const module = new Int32Array(frames.count);
  for (let f = 0; f < frames.count; f++) {
    const m = frames.module[f];
    if (m < 0) module[f] = -1;
    else {
      const key = '\u0000module:' + frames.strings[m];
      let i = index.get(key);
      if (i === undefined) {
        i = strings.length;
        strings.push(frames.strings[m]);
        index.set(key, i);
      }
      module[f] = i;
    }
  }
  return { count: frames.count, name, module, flags: frames.flags, strings };
}
