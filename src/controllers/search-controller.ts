// Connects the store's search state to the search worker: when the recording, the pattern or the
// case switch change, asks the SearchClient and writes the result back (stale results are
// dropped by the store). Runs outside React.

import { useStore } from '../store/store';
import { SearchClient } from './search-client';

export function startSearchController(client: SearchClient = new SearchClient()): () => void {
  const run = () => {
    const s = useStore.getState();
    const { pattern, caseInsensitive, error } = s.search;
    if (!s.snapshot || !pattern || error) {
      client.cancel();
      if (s.search.matches || s.search.status !== 'idle') s.searchResult(pattern, caseInsensitive, null, 'idle');
      return;
    }
    client.search(pattern, caseInsensitive).then((outcome) => {
      const store = useStore.getState();
      if (outcome.kind === 'done') store.searchResult(pattern, caseInsensitive, outcome.matches, 'done');
      else if (outcome.kind === 'timeout') store.searchResult(pattern, caseInsensitive, null, 'timeout');
      else if (outcome.kind === 'error') store.searchResult(pattern, caseInsensitive, null, 'idle');
    });
  };
  const setNames = () => {
    const snap = useStore.getState().snapshot;
    if (snap) client.setNames(snap.frames.strings, snap.frames.name);
  };
  setNames();
  const unsubSnapshot = useStore.subscribe((s) => s.snapshot, () => {
    setNames();
    run();
  });
  const unsubSearch = useStore.subscribe(
    (s) => [s.search.pattern, s.search.caseInsensitive] as const,
    run,
    { equalityFn: (a, b) => a[0] === b[0] && a[1] === b[1] },
  );
  run();
  return () => {
    unsubSnapshot();
    unsubSearch();
    client.dispose();
  };
}
