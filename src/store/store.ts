// The one UI store (zustand), assembled from slices. subscribeWithSelector lets the canvas
// renderer and the search controller subscribe outside React, so zoom, pan, hover and search
// highlighting never re-render components.

import { create } from 'zustand';
import { subscribeWithSelector } from 'zustand/middleware';
import { createAnalysisSlice } from './analysis-slice';
import { createCallTreeSlice } from './call-tree-slice';
import { createAsmSlice } from './asm-slice';
import { createCompareSlice } from './compare-slice';
import { createLoadSlice } from './load-slice';
import { createSearchSlice } from './search-slice';
import { createSourceSlice } from './source-slice';
import { createTimeSlice } from './time-slice';
import { createTransformSlice } from './transform-slice';
import type { StoreState, UiSlice } from './types';
import { createViewSlice } from './view-slice';

export type * from './types';

export const useStore = create<StoreState>()(
  subscribeWithSelector((set, get, api) => ({
    ...createLoadSlice(set, get, api),
    ...createViewSlice(set, get, api),
    ...createSearchSlice(set, get, api),
    ...createUiSlice(set, get),
    ...createCompareSlice(set, get, api),
    ...createAnalysisSlice(set, get, api),
    ...createCallTreeSlice(set, get, api),
    ...createTransformSlice(set, get, api),
    ...createTimeSlice(set, get, api),
    ...createAsmSlice(set, get, api),
    ...createSourceSlice(set, get, api),
  })),
);

function createUiSlice(set: (p: Partial<StoreState>) => void, get: () => StoreState): UiSlice {
  return {
    shortcutsOpen: false,
    warningsOpen: false,
    toggleShortcuts: (open) => set({ shortcutsOpen: open ?? !get().shortcutsOpen }),
    toggleWarnings: (open) => set({ warningsOpen: open ?? !get().warningsOpen }),
  };
}
