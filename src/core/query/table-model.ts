// The function table's model for the analysis panel: which rows are shown in which order (sort,
// search filter), the per-frame highlight of the selected function, the short labels, and the
// figures of one row. Pure functions of their inputs, memoised by identity, so components only
// read them (no tree walks in .tsx).
//
// Invariants:
// - rows are FunctionTable row indices (core/views/function-table.ts); the table is memoised by
//   (tree, frames) there, so a new tree (transform, reversed, time range) gives a new table;
// - the store's currentTable (store/selectors.ts) computes on the main thread only for trees of
//   at most SYNC_NODES nodes; a larger tree's table comes from the analysis worker;
// - the search filter keeps a row when any frame of its name matches (matches is per frame);
// - the highlight of a name is a per-frame Uint8Array (1 = draw it highlighted), null when the
//   name has no frame; names are compared as exact strings;
// - short labels are computed once per frame, on first use (shortenName is linear in the name).

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { FrameIndex, StringIndex } from '../model/types';
import { cutName, shortenName } from '../views/shorten';
import { functionTable, FunctionFlags, framesNamed, sortRows, type FunctionTable } from '../views/function-table';
import { frameNameIndex, tableOf } from '../views/derive-analysis';

export { functionTable };

/**
 * Trees up to this many nodes get their table and callers & callees on the main thread (a few ms); larger
 * ones from the analysis worker (a 1M-node table takes 60-80 ms, over the 50 ms task budget). The
 * store keeps the threshold in force (analysis.syncNodes; tests and the bench set it to 0).
 */
export const SYNC_NODES = 100_000;

export type TableColumn = 'self' | 'total' | 'name';

export interface TableSortState {
  by: TableColumn;
  descending: boolean;
}

export const DEFAULT_SORT: TableSortState = { by: 'self', descending: true };

// ── Rows in display order ─────────────────────────────────────────────────────────────────────

/** 1 for each row with a frame that matches the search. */
export function matchingRows(table: FunctionTable, frames: FrameTable, matches: Uint8Array): Uint8Array {
  const out = new Uint8Array(table.count);
  const n = Math.min(frames.count, matches.length);
  for (let f = 0; f < n; f++) {
    if (!matches[f]) continue;
    const row = table.rowOfName[frames.name[f]];
    if (row >= 0) out[row] = 1;
  }
  return out;
}

interface RowsEntry {
  frames: FrameTable;
  by: TableSortState['by'];
  descending: boolean;
  matches: Uint8Array | null;
  rows: Int32Array;
}
const rowsCache = new WeakMap<FunctionTable, RowsEntry[]>();

/**
 * The rows to show, in display order: sorted by `sort`, only those matching the search when
 * `matches` is given. Memoised per table for the last few (sort, matches) pairs.
 */
export function displayRows(table: FunctionTable, frames: FrameTable, sort: TableSortState, matches: Uint8Array | null): Int32Array {
  let list = rowsCache.get(table);
  if (!list) rowsCache.set(table, (list = []));
  const hit = list.find((e) => e.frames === frames && e.by === sort.by && e.descending === sort.descending && e.matches === matches);
  if (hit) return hit.rows;
  let filter: Int32Array | undefined;
  if (matches) {
    const keep = matchingRows(table, frames, matches);
    let k = 0;
    for (let r = 0; r < table.count; r++) k += keep[r];
    filter = new Int32Array(k);
    k = 0;
    for (let r = 0; r < table.count; r++) if (keep[r]) filter[k++] = r;
  }
  const rows = sortRows(table, frames, { by: sort.by, descending: sort.descending, rows: filter });
  list.unshift({ frames, by: sort.by, descending: sort.descending, matches, rows });
  if (list.length > 4) list.pop();
  return rows;
}

/**
 * The function table of a tree, computed here. A reversed (bottom-up) tree has the same totals,
 * but a node's self there is the weight of stacks that *start* at it; a function's real self
 * weight is the total of its depth-1 nodes (the leaves of the original stacks).
 */
export function tableFor(tree: CallTree, frames: FrameTable, reversed = false): FunctionTable {
  return tableOf(tree, frames, reversed);
}

// ── Names ─────────────────────────────────────────────────────────────────────────────────────

/** The string index of a frame name (only names that some frame has), or -1. */
export function nameIndex(frames: FrameTable, name: string): StringIndex {
  return frameNameIndex(frames, name);
}

const highlightCache = new WeakMap<FrameTable, { name: string; mask: Uint8Array | null }>();

/** Per frame, 1 where the frame is named `name` (what the flame graph highlights), or null. */
export function highlightOf(frames: FrameTable, name: string | null): Uint8Array | null {
  if (name === null) return null;
  const hit = highlightCache.get(frames);
  if (hit && hit.name === name) return hit.mask;
  const s = nameIndex(frames, name);
  const mask = s < 0 ? null : framesNamed(frames, s);
  highlightCache.set(frames, { name, mask });
  return mask;
}

const shortCache = new WeakMap<FrameTable, (string | undefined)[]>();

/** The short label of a frame (shortenName of its name; "all" for the root), memoised per frame. */
export function shortLabel(frames: FrameTable, frame: FrameIndex): string {
  if (frame < 0) return 'all';
  let labels = shortCache.get(frames);
  if (!labels) shortCache.set(frames, (labels = new Array<string | undefined>(frames.count)));
  let label = labels[frame];
  if (label === undefined) label = labels[frame] = shortenName(frames.strings[frames.name[frame]]);
  return label;
}

const labellers = new WeakMap<FrameTable, (frame: FrameIndex) => string>();

/** A stable per-frames label function for the renderer (same identity for the same frames). */
export function shortLabeller(frames: FrameTable): (frame: FrameIndex) => string {
  let fn = labellers.get(frames);
  if (!fn) labellers.set(frames, (fn = (f) => shortLabel(frames, f)));
  return fn;
}

/** A function name as the table shows it. */
export function displayName(name: string, short: boolean): string {
  return cutName(short ? shortenName(name) : name);
}

// ── Figures of a row ──────────────────────────────────────────────────────────────────────────

export interface RowFigures {
  name: string;
  self: number;
  total: number;
  /** Shares of the whole profile (the tree's root), 0..1. */
  selfShare: number;
  totalShare: number;
  inlined: boolean;
  kernel: boolean;
}

/** The figures of one row, by weight (period; nanoseconds for cpu-clock recordings). */
export function rowFigures(table: FunctionTable, frames: FrameTable, row: number): RowFigures {
  const root = table.rootWeight;
  const self = table.selfWeight[row];
  const total = table.totalWeight[row];
  return {
    name: frames.strings[table.name[row]],
    self,
    total,
    selfShare: root > 0 ? self / root : 0,
    totalShare: root > 0 ? total / root : 0,
    inlined: (table.flags[row] & FunctionFlags.INLINED) !== 0,
    kernel: (table.flags[row] & FunctionFlags.KERNEL) !== 0,
  };
}

/** The position of a function in the displayed rows, or -1 (hidden by the filter, or absent). */
export function positionOf(table: FunctionTable, frames: FrameTable, rows: Int32Array, name: string | null): number {
  if (name === null) return -1;
  const s = nameIndex(frames, name);
  if (s < 0) return -1;
  const row = table.rowOfName[s];
  if (row < 0) return -1;
  return rows.indexOf(row);
}
