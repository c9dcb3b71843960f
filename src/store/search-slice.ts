// The search: pattern, case switch, and the per-frame matches computed off the main thread by
// the search controller (src/controllers/search-controller.ts). An invalid pattern is an inline message, never a throw.

import type { StateCreator } from 'zustand';
import type { SearchSlice, StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

/** The message for an invalid pattern, or null when `new RegExp` accepts it. */
export function patternError(pattern: string, caseInsensitive: boolean): string | null {
  try {
    new RegExp(pattern, caseInsensitive ? 'i' : '');
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export const createSearchSlice: Creator<SearchSlice> = (set, get) => ({
  search: { pattern: '', caseInsensitive: false, matches: null, error: null, status: 'idle' },
  setSearchPattern: (pattern) => {
    const { caseInsensitive } = get().search;
    const error = pattern ? patternError(pattern, caseInsensitive) : null;
    set({
      search: { pattern, caseInsensitive, matches: null, error, status: pattern && !error ? 'searching' : 'idle' },
    });
  },
  setCaseInsensitive: (caseInsensitive) => {
    const { pattern } = get().search;
    const error = pattern ? patternError(pattern, caseInsensitive) : null;
    set({
      search: { pattern, caseInsensitive, matches: null, error, status: pattern && !error ? 'searching' : 'idle' },
    });
  },
  searchResult: (pattern, caseInsensitive, matches, status) => {
    const s = get().search;
    if (s.pattern !== pattern || s.caseInsensitive !== caseInsensitive) return; // stale
    set({ search: { ...s, matches, status } });
  },
});
