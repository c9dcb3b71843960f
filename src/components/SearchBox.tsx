// Regex search: the pattern, an "Ignore case" switch, the Matched summary and next/previous
// match. Matching runs in a worker (search-controller); an invalid pattern is an inline alert.

import { useMemo } from 'react';
import { revealNode } from '../controllers/keyboard';
import { formatMatched, matchedShare } from '../core/query/matched';
import { useStore } from '../store/store';
import { currentTree, nextMatch } from '../store/tree-helpers';

export const SEARCH_INPUT_ID = 'flame-search';

export function SearchBox() {
  const search = useStore((s) => s.search);
  const zoomNode = useStore((s) => s.zoomNode);
  const setPattern = useStore((s) => s.setSearchPattern);
  const setCaseInsensitive = useStore((s) => s.setCaseInsensitive);
  const tree = useStore(currentTree);
  const matches = search.matches;
  const summary = useMemo(() => (tree && matches ? formatMatched(matchedShare(tree, matches, zoomNode), zoomNode > 0) : null), [tree, matches, zoomNode]);

  const step = (dir: 1 | -1) => {
    const s = useStore.getState();
    if (!tree || !s.search.matches) return;
    const from = s.selectedNode >= 0 ? s.selectedNode : dir === 1 ? 0 : tree.nodeCount;
    const node = nextMatch(tree, s.search.matches, from, dir);
    if (node >= 0) revealNode(node);
  };

  return (
    <div className="search" role="search">
      <input
        id={SEARCH_INPUT_ID}
        className="search-input"
        type="search"
        aria-label="Search"
        placeholder="Search (regex)  /"
        spellCheck={false}
        autoComplete="off"
        value={search.pattern}
        aria-invalid={search.error ? true : undefined}
        aria-describedby={search.error ? 'search-error' : undefined}
        onChange={(e) => setPattern(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') step(e.shiftKey ? -1 : 1);
          if (e.key === 'Escape') setPattern('');
        }}
      />
      <label className="search-case">
        <input type="checkbox" checked={search.caseInsensitive} onChange={(e) => setCaseInsensitive(e.target.checked)} />
        Ignore case
      </label>
      <button type="button" className="btn btn-small" aria-label="Previous match" disabled={!summary} onClick={() => step(-1)}>
        ‹ Prev
      </button>
      <button type="button" className="btn btn-small" aria-label="Next match" disabled={!summary} onClick={() => step(1)}>
        Next ›
      </button>
      {search.error ? (
        <span id="search-error" className="search-error" role="alert">
          Invalid pattern: {search.error}
        </span>
      ) : (
        <span className="search-summary" role="status">
          {search.status === 'searching' ? 'Searching…' : search.status === 'timeout' ? 'Search timed out: the pattern took longer than 1.5 s.' : summary}
        </span>
      )}
    </div>
  );
}
