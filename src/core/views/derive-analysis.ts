// The analysis panel's computations as the analysis worker runs them: the function table of a
// tree (with the bottom-up self weights when the tree is reversed) and the callers/callees trees
// of a function name, each returned as fresh typed-array columns that a host can transfer away
// (the memoised originals in function-table.ts and callers-callees-trees.ts stay intact).
//
// Invariants: a reply never shares a buffer with a memoised value; a name that no frame has gives
// null callers & callees; in a reversed tree the callers and callees swap (a node's children are its
// callers there).

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { StringIndex } from '../model/types';
import { calleesTree, callersTree } from './callers-callees-trees';
import { copyTree, treeColumns, type DeriveRequest, type DeriveView } from './derive';
import { functionTable, type FunctionTable } from './function-table';
import { Memo } from '../util/memo';

/**
 * Which tree of the worker a request means: a derived tree (by its derive seq; the request lets a
 * worker that did not keep it derive it again) or a base view tree.
 */
export type AnalysisTreeRef = { seq: number; request: DeriveRequest } | { view: DeriveView };

export interface TableReply {
  table: FunctionTable;
  /** Worker time (ms). */
  ms: number;
}

export interface CallersCalleesReply {
  /** Null when no frame has the name. */
  callers: CallTree | null;
  callees: CallTree | null;
  ms: number;
}

const reversedTables = new Memo<FunctionTable>();

/**
 * The function table of a tree; for a reversed (bottom-up) tree a function's self weight is the
 * total of its depth-1 nodes (the leaves of the original stacks). Memoised by (tree, frames).
 */
export function tableOf(tree: CallTree, frames: FrameTable, reversed: boolean): FunctionTable {
  const table = functionTable(tree, frames);
  if (!reversed) return table;
  return reversedTables.get([tree, frames], () => {
    const selfWeight = new Float64Array(table.count);
    const selfSamples = new Float64Array(table.count);
    for (let n = 1; n < tree.nodeCount; n = tree.end[n]) {
      const row = table.rowOfName[frames.name[tree.frame[n]]];
      selfWeight[row] += tree.totalWeight[n];
      selfSamples[row] += tree.totalSamples[n];
    }
    return { ...table, selfWeight, selfSamples };
  });
}

const nameMaps = new WeakMap<FrameTable, Map<string, StringIndex>>();

/** The string index of a frame name (only names that some frame has), or -1. */
export function frameNameIndex(frames: FrameTable, name: string): StringIndex {
  let map = nameMaps.get(frames);
  if (!map) {
    map = new Map();
    for (let f = 0; f < frames.count; f++) {
      const s = frames.name[f];
      const text = frames.strings[s];
      if (!map.has(text)) map.set(text, s);
    }
    nameMaps.set(frames, map);
  }
  return map.get(name) ?? -1;
}

/** The function table as fresh columns (see the module comment). */
export function analyseTable(tree: CallTree, frames: FrameTable, reversed: boolean): TableReply {
  const t0 = performance.now();
  const t = tableOf(tree, frames, reversed);
  const n = t.count;
  const table: FunctionTable = {
    count: n,
    name: t.name.slice(0, n),
    selfWeight: t.selfWeight.slice(0, n),
    totalWeight: t.totalWeight.slice(0, n),
    selfSamples: t.selfSamples.slice(0, n),
    totalSamples: t.totalSamples.slice(0, n),
    flags: t.flags.slice(0, n),
    rowOfName: t.rowOfName.slice(),
    rootWeight: t.rootWeight,
    rootSamples: t.rootSamples,
  };
  return { table, ms: performance.now() - t0 };
}

/** The callers and callees trees of `name` as fresh columns (see the module comment). */
export function analyseCallersCallees(tree: CallTree, frames: FrameTable, name: string, reversed: boolean): CallersCalleesReply {
  const t0 = performance.now();
  const s = frameNameIndex(frames, name);
  if (s < 0) return { callers: null, callees: null, ms: performance.now() - t0 };
  const down = copyTree(calleesTree(tree, frames, s).tree);
  const up = copyTree(callersTree(tree, frames, s).tree);
  return { callees: reversed ? up : down, callers: reversed ? down : up, ms: performance.now() - t0 };
}

/** The buffers of a table reply (what crosses threads by transfer). */
export function tableColumns(t: FunctionTable): ArrayBuffer[] {
  return [t.name, t.selfWeight, t.totalWeight, t.selfSamples, t.totalSamples, t.flags, t.rowOfName].map((a) => a.buffer as ArrayBuffer);
}

/** The buffers of a callers & callees reply. */
export function callersCalleesColumns(r: CallersCalleesReply): ArrayBuffer[] {
  return [...(r.callers ? treeColumns(r.callers) : []), ...(r.callees ? treeColumns(r.callees) : [])];
}
