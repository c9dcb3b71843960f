// The call tree panel's expansion: which nodes of the tree the main graph shows have their
// children listed (a per-node Uint8Array, replaced, never mutated, on every change). The rows
// themselves are derived (store/selectors.ts callTreeRows); the selected row is the graph's
// selected node, so the two follow each other without a second selection.
//
// Invariant: `expanded` belongs to `tree`; for any other tree (a transform, the other view, a
// time range, reversed) the controller (controllers/call-tree-controller.ts) starts again from
// the initial expansion with the selection revealed.

import type { StateCreator } from 'zustand';
import type { CallTree } from '../core/model/call-tree';
import { expandAllBelow, withExpanded } from '../core/query/call-tree-rows';
import type { NodeIndex } from '../core/model/types';
import type { StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export interface CallTreeSlice {
  callTree: { tree: CallTree | null; expanded: Uint8Array };
  /** Replaces the expansion (the controller: a new tree, a revealed selection, a search). */
  setCallTreeExpansion(tree: CallTree, expanded: Uint8Array): void;
  /** Expands or collapses one row of the current expansion's tree. */
  expandCallTreeNode(node: NodeIndex, on: boolean): void;
  /** Expands a row and every row below it (the `*` key). */
  expandCallTreeBelow(node: NodeIndex): void;
}

export const createCallTreeSlice: Creator<CallTreeSlice> = (set, get) => {
  const valid = (node: NodeIndex) => {
    const { tree } = get().callTree;
    return tree !== null && node >= 0 && node < tree.nodeCount ? tree : null;
  };
  return {
    callTree: { tree: null, expanded: new Uint8Array(0) },
    setCallTreeExpansion: (tree, expanded) => {
      const cur = get().callTree;
      if (cur.tree !== tree || cur.expanded !== expanded) set({ callTree: { tree, expanded } });
    },
    expandCallTreeNode: (node, on) => {
      const tree = valid(node);
      const { expanded } = get().callTree;
      if (tree && (expanded[node] === 1) !== on) set({ callTree: { tree, expanded: withExpanded(expanded, node, on) } });
    },
    expandCallTreeBelow: (node) => {
      const tree = valid(node);
      if (tree) set({ callTree: { tree, expanded: expandAllBelow(tree, get().callTree.expanded, node) } });
    },
  };
};
