// The analysis panel beside the flame graph: the function table, the callers/callees of the
// selected function ("sandwich"), and the name-shortening switch. The selected function is a
// name (not a node), so it survives view toggles, transforms and time ranges.

import type { StateCreator } from 'zustand';
import type { StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export type AnalysisPanel = 'none' | 'table' | 'sandwich';

export interface AnalysisSlice {
  analysis: {
    panel: AnalysisPanel;
    /** The function selected in the table (highlighted in the flame graph), or null. */
    selectedFunction: string | null;
    /** Labels show shortened C++/Rust names (full names stay in tooltips). */
    shortNames: boolean;
  };
  setAnalysisPanel(panel: AnalysisPanel): void;
  selectFunction(name: string | null): void;
  setShortNames(on: boolean): void;
}

export const createAnalysisSlice: Creator<AnalysisSlice> = (set, get) => {
  const patch = (p: Partial<AnalysisSlice['analysis']>) => set({ analysis: { ...get().analysis, ...p } });
  return {
    analysis: { panel: 'none', selectedFunction: null, shortNames: false },
    setAnalysisPanel: (panel) => patch({ panel }),
    selectFunction: (selectedFunction) => patch({ selectedFunction }),
    setShortNames: (shortNames) => patch({ shortNames }),
  };
};
