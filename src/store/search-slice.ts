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

export const createSearchSlice: Creator<SearchSlice> = (set, get) => {
  /** A new (pattern, case) pair: both sides start searching, unless there is nothing to search. */
  const ask = (pattern: string, caseInsensitive: boolean) => {
    const error = pattern ? patternError(pattern, caseInsensitive) : null;
    const searching = pattern !== '' && !error;
    set({
      search: {
        pattern,
        caseInsensitive,
        matches: null,
        error,
        status: searching ? 'searching' : 'idle',
        compare: { matches: null, status: searching && get().recordings.b.snapshot ? 'searching' : 'idle' },
      },
    });
  };
  return {
    search: { pattern: '', caseInsensitive: false, matches: null, error: null, status: 'idle', compare: { matches: null, status: 'idle' } },
    setSearchPattern: (pattern) => ask(pattern, get().search.caseInsensitive),
    setCaseInsensitive: (caseInsensitive) => ask(get().search.pattern, caseInsensitive),
    searchResult: (pattern, caseInsensitive, matches, status, side = 'main') => {
      const s = get().search;
      if (s.pattern !== pattern || s.caseInsensitive !== caseInsensitive) return; // stale
      set({ search: side === 'main' ? { ...s, matches, status } : { ...s, compare: { matches, status } } });
    },
  };
};
