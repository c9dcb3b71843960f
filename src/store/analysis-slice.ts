// The analysis panel beside the flame graph: the function table, the callers/callees of the
// selected function (callers & callees), the call tree (its expansion: call-tree-slice.ts), and the name-shortening switch. The selected function is a
// name (not a node), so it survives view toggles, transforms and time ranges.
//
// The callers & callees' two graphs have their own zoom/selection/hover (panes.callers and
// panes.callees, store/pane.ts); their node indices refer to the callers/callees trees of the
// selected function, so they are reset whenever the function changes.

import type { StateCreator } from 'zustand';
import type { CallTree } from '../core/model/call-tree';
import type { FunctionTable } from '../core/views/function-table';
import type { CallersCalleesPane, CallersCalleesTrees } from '../core/query/callers-callees';
import { DEFAULT_SORT, SYNC_NODES, type TableColumn, type TableSortState } from '../core/query/table-model';
import { FULL_PANE, withPanes } from './pane';
import type { StoreState } from './types';
import type { AnalysisPanel } from './panels';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export type { AnalysisPanel } from './panels';
export type { CallersCalleesPane, CallersCalleesTrees, TableColumn, TableSortState };

/** A function table computed off the main thread, for one tree (reversed: bottom-up selves). */
export interface TableResult {
  tree: CallTree;
  reversed: boolean;
  table: FunctionTable;
}

/** The callers & callees of `name` in `tree`, computed off the main thread (trees null: no such frame). */
export interface CallersCalleesResult {
  tree: CallTree;
  name: string;
  reversed: boolean;
  trees: CallersCalleesTrees | null;
}

export interface AnalysisSlice {
  analysis: {
    panel: AnalysisPanel;
    /** The function selected in the table (highlighted in the flame graph), or null. */
    selectedFunction: string | null;
    /** Labels show shortened C++/Rust names (full names stay in tooltips). */
    shortNames: boolean;
    /** The function table's order. */
    sort: TableSortState;
    /**
     * The results of the analysis worker (analysis-controller.ts) for large trees; selectors use
     * them only when their tree is the one shown (table-model.ts currentTable, callers-callees.ts).
     */
    table: TableResult | null;
    callersCalleesTrees: CallersCalleesResult | null;
    /** A table or callers & callees request is in flight (the main graph stays aria-busy). */
    pending: boolean;
    /** Trees of more nodes get their table and callers & callees from the worker (tests set 0). */
    syncNodes: number;
  };
  setAnalysisPanel(panel: AnalysisPanel): void;
  selectFunction(name: string | null): void;
  /**
   * A function picked in the table: selected, and the graph's frame selection cleared so the
   * details show that function (a frame picked in the graph selects its function the other way).
   */
  pickFunction(name: string): void;
  setShortNames(on: boolean): void;
  /** Sorts by a column: again on the same column flips the direction. */
  sortTable(by: TableColumn): void;
  /** Stores worker results and the pending flag (analysis-controller.ts only). */
  setAnalysisResults(patch: Partial<Pick<AnalysisSlice['analysis'], 'table' | 'callersCalleesTrees' | 'pending'>>): void;
  setSyncNodes(n: number): void;
}

export const createAnalysisSlice: Creator<AnalysisSlice> = (set, get) => {
  const patch = (p: Partial<AnalysisSlice['analysis']>) => set({ analysis: { ...get().analysis, ...p } });
  return {
    analysis: { panel: 'none', selectedFunction: null, shortNames: false, sort: DEFAULT_SORT, table: null, callersCalleesTrees: null, pending: false, syncNodes: SYNC_NODES },
    setAnalysisPanel: (panel) => {
      if (get().analysis.panel !== panel) patch({ panel });
    },
    selectFunction: (selectedFunction) => {
      if (get().analysis.selectedFunction === selectedFunction) return;
      set({ analysis: { ...get().analysis, selectedFunction }, panes: withPanes(get().panes, { callers: FULL_PANE, callees: FULL_PANE }) });
    },
    pickFunction: (name) => {
      if (get().panes.main.selectedNode !== -1) get().setPane('main', { selectedNode: -1 });
      get().selectFunction(name);
    },
    setShortNames: (shortNames) => {
      if (get().analysis.shortNames !== shortNames) patch({ shortNames });
    },
    sortTable: (by) => {
      const cur = get().analysis.sort;
      patch({ sort: cur.by === by ? { by, descending: !cur.descending } : { by, descending: by !== 'name' } });
    },
    setAnalysisResults: (p) => {
      const cur = get().analysis;
      if ((Object.keys(p) as (keyof typeof p)[]).some((k) => cur[k] !== p[k])) patch(p);
    },
    setSyncNodes: (syncNodes) => patch({ syncNodes }),
  };
};
