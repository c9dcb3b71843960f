// The analysis panel beside the flame graph: the function table, the callers/callees of the
// selected function ("sandwich"), and the name-shortening switch. The selected function is a
// name (not a node), so it survives view toggles, transforms and time ranges.
//
// The sandwich's two graphs have their own zoom/selection/hover (PaneState, as the comparison
// panes); their node indices refer to the callers/callees trees of the selected function, so they
// are reset whenever the function changes.

import type { StateCreator } from 'zustand';
import { FULL_PANE, type PaneState } from './compare-slice';
import type { StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export type AnalysisPanel = 'none' | 'table' | 'sandwich';
export type TableColumn = 'self' | 'total' | 'name';
export type SandwichPane = 'callers' | 'callees';

export interface TableSortState {
  by: TableColumn;
  descending: boolean;
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
    /** The sandwich graphs' own zoom, selection and hover. */
    callers: PaneState;
    callees: PaneState;
  };
  setAnalysisPanel(panel: AnalysisPanel): void;
  selectFunction(name: string | null): void;
  setShortNames(on: boolean): void;
  /** Sorts by a column: again on the same column flips the direction. */
  sortTable(by: TableColumn): void;
  setSandwichPane(pane: SandwichPane, patch: Partial<PaneState>): void;
}

export const DEFAULT_SORT: TableSortState = { by: 'self', descending: true };

export const createAnalysisSlice: Creator<AnalysisSlice> = (set, get) => {
  const patch = (p: Partial<AnalysisSlice['analysis']>) => set({ analysis: { ...get().analysis, ...p } });
  return {
    analysis: { panel: 'none', selectedFunction: null, shortNames: false, sort: DEFAULT_SORT, callers: FULL_PANE, callees: FULL_PANE },
    setAnalysisPanel: (panel) => {
      if (get().analysis.panel !== panel) patch({ panel });
    },
    selectFunction: (selectedFunction) => {
      if (get().analysis.selectedFunction === selectedFunction) return;
      patch({ selectedFunction, callers: FULL_PANE, callees: FULL_PANE });
    },
    setShortNames: (shortNames) => {
      if (get().analysis.shortNames !== shortNames) patch({ shortNames });
    },
    sortTable: (by) => {
      const cur = get().analysis.sort;
      patch({ sort: cur.by === by ? { by, descending: !cur.descending } : { by, descending: by !== 'name' } });
    },
    setSandwichPane: (pane, p) => patch({ [pane]: { ...get().analysis[pane], ...p } }),
  };
};
