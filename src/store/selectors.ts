// Selectors over the store's state that answer from the worker's results when they are for the
// tree shown, else compute on the main thread for a small tree (at most analysis.syncNodes
// nodes), else null while the worker's answer is on its way.

import type { FunctionTable } from '../core/views/function-table';
import { callersCalleesOf, type CallersCalleesTrees } from '../core/query/callers-callees';
import { tableFor } from '../core/query/table-model';
import { callTreeRows } from '../core/query/call-tree-rows';
import { currentTree } from './tree-helpers';
import type { StoreState } from './types';

/** True when the main graph shows a reversed (bottom-up) tree. */
export function isReversed(s: Pick<StoreState, 'recordings' | 'view' | 'derived'>): boolean {
  const d = s.derived;
  return d !== null && d.reversed && d.tree === currentTree(s);
}

/** The function table of the tree the main graph shows. */
export function currentTable(s: StoreState): FunctionTable | null {
  const tree = currentTree(s);
  if (!tree || !s.recordings.a.snapshot) return null;
  const reversed = isReversed(s);
  const r = s.analysis.table;
  if (r && r.tree === tree && r.reversed === reversed) return r.table;
  return tree.nodeCount <= s.analysis.syncNodes ? tableFor(tree, s.recordings.a.snapshot.frames, reversed) : null;
}

/** The callers & callees of the store's selected function, or null. */
export function currentCallersCallees(s: StoreState): CallersCalleesTrees | null {
  const tree = currentTree(s);
  const name = s.analysis.selectedFunction;
  if (!tree || !s.recordings.a.snapshot || name === null) return null;
  const reversed = isReversed(s);
  const r = s.analysis.callersCalleesTrees;
  if (r && r.tree === tree && r.name === name && r.reversed === reversed) return r.trees;
  return tree.nodeCount <= s.analysis.syncNodes ? callersCalleesOf(tree, s.recordings.a.snapshot.frames, name, reversed) : null;
}

/** True while the selected function's callers & callees are being computed by the worker. */
export function callersCalleesPending(s: StoreState): boolean {
  const tree = currentTree(s);
  const name = s.analysis.selectedFunction;
  if (!tree || !s.recordings.a.snapshot || name === null || tree.nodeCount <= s.analysis.syncNodes) return false;
  const r = s.analysis.callersCalleesTrees;
  return !(r && r.tree === tree && r.name === name && r.reversed === isReversed(s));
}

/** The call tree panel's rows (nodes of the shown tree, top to bottom), or null before its expansion. */
export function currentCallTreeRows(s: StoreState): Int32Array | null {
  const tree = currentTree(s);
  const { tree: expandedTree, expanded } = s.callTree;
  if (!tree || tree !== expandedTree) return null;
  return callTreeRows(tree, expanded, s.search.matches);
}
