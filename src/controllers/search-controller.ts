// Connects the store's search state to the search workers: when a recording, the pattern or the
// case switch change, asks a SearchClient and writes the result back (stale results are dropped
// by the store). One client per recording shown, the open one (A) and the comparison's (B), so a
// pathological pattern never runs on the page for either. Runs outside React.

import type { ProfileSnapshot } from '../core/views/snapshot';
import { useStore } from '../store/store';
import { watch } from '../store/watch';
import type { SearchSide, StoreState } from '../store/types';
import { SearchClient } from './search-client';

/** Binds one client to the recording `snapshotOf` picks; returns the unsubscribe. */
function searchSide(client: SearchClient, side: SearchSide, snapshotOf: (s: StoreState) => ProfileSnapshot | null): () => void {
  const run = () => {
    const s = useStore.getState();
    const { pattern, caseInsensitive, error } = s.search;
    const { matches, status } = side === 'main' ? s.search : s.search.compare;
    if (!snapshotOf(s) || !pattern || error) {
      client.cancel();
      if (matches || status !== 'idle') s.searchResult(pattern, caseInsensitive, null, 'idle', side);
      return;
    }
    if (status !== 'searching') s.searchResult(pattern, caseInsensitive, null, 'searching', side);
    client.search(pattern, caseInsensitive).then((outcome) => {
      const store = useStore.getState();
      if (outcome.kind === 'done') store.searchResult(pattern, caseInsensitive, outcome.matches, 'done', side);
      else if (outcome.kind === 'timeout') store.searchResult(pattern, caseInsensitive, null, 'timeout', side);
      else if (outcome.kind === 'error') store.searchResult(pattern, caseInsensitive, null, 'idle', side);
    });
  };
  const setNames = () => {
    const snap = snapshotOf(useStore.getState());
    if (snap) client.setNames(snap.frames.strings, snap.frames.name);
  };
  setNames();
  const unsubSnapshot = useStore.subscribe(snapshotOf, () => {
    setNames();
    run();
  });
  const unsubSearch = watch((s) => ({ pattern: s.search.pattern, caseInsensitive: s.search.caseInsensitive }), run);
  run();
  return () => {
    unsubSnapshot();
    unsubSearch();
    client.dispose();
  };
}

export function startSearchController(client: SearchClient = new SearchClient(), compareClient: SearchClient = new SearchClient()): () => void {
  const stops = [searchSide(client, 'main', (s) => s.recordings.a.snapshot), searchSide(compareClient, 'compare', (s) => s.recordings.b.snapshot)];
  return () => stops.forEach((stop) => stop());
}
