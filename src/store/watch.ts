// Subscribing to the store outside React: the listener runs when any of a few named values
// changes (each compared by identity), and reads them by name. A tuple read by position broke
// once already (a value inserted among them shifted the ones the handler read: commit cb47942).

import { shallow } from 'zustand/shallow';
import { useStore } from './store';
import type { StoreState } from './types';

/** Calls `onChange(now, before)` when a value of `pick`'s object changes; returns the unsubscribe. */
export function watch<T extends Record<string, unknown>>(pick: (s: StoreState) => T, onChange: (now: T, before: T) => void): () => void {
  return useStore.subscribe(pick, onChange, { equalityFn: shallow });
}
