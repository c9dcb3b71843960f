// Regex search: the pattern, an "Ignore case" switch, the Matched summary and next/previous
// match. Matching runs in a worker (search-controller); an invalid pattern is an inline alert.
// Once the search has matched (so the pattern is known to run in time), the Transform menu
// applies the pattern transforms with it (focus, drop, merge, collapse: core/views/transforms.ts).

import { useMemo } from 'react';
import { revealNode } from '../controllers/keyboard';
import { formatMatched, matchedShare } from '../core/query/matched';
import { useStore } from '../store/store';
import type { SearchStatus, StoreState } from '../store/types';
import { PATTERN_ACTIONS } from '../controllers/frame-actions';
import { Menu } from './toolbar/Menu';
import { currentTree, nextMatch } from '../store/tree-helpers';

export const SEARCH_INPUT_ID = 'flame-search';

export function SearchBox() {
  const search = useStore((s) => s.search);
  const zoomNode = useStore((s) => s.panes.main.zoomNode);
  const setPattern = useStore((s) => s.setSearchPattern);
  const setCaseInsensitive = useStore((s) => s.setCaseInsensitive);
  const tree = useStore(currentTree);
  const matches = search.matches;
  const summary = useMemo(() => (tree && matches ? formatMatched(matchedShare(tree, matches, zoomNode), zoomNode > 0) : null), [tree, matches, zoomNode]);

  const step = (dir: 1 | -1) => {
    const s = useStore.getState();
    if (!tree || !s.search.matches) return;
    const from = s.panes.main.selectedNode >= 0 ? s.panes.main.selectedNode : dir === 1 ? 0 : tree.nodeCount;
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
        placeholder="Search functions (regex)   /"
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
      <label className="search-case" title="Ignore case">
        <input type="checkbox" aria-label="Ignore case" checked={search.caseInsensitive} onChange={(e) => setCaseInsensitive(e.target.checked)} />
        <span aria-hidden="true">Aa</span>
      </label>
      <button type="button" className="btn btn-small" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={!summary} onClick={() => step(-1)}>
        ‹
      </button>
      <button type="button" className="btn btn-small" aria-label="Next match" title="Next match (Enter)" disabled={!summary} onClick={() => step(1)}>
        ›
      </button>
      {search.status === 'done' && search.matches && search.pattern && !search.error && <PatternTransforms pattern={search.pattern} ignoreCase={search.caseInsensitive} />}
      {search.error ? (
        <span id="search-error" className="search-error" role="alert">
          Invalid pattern: {search.error}
        </span>
      ) : (
        <span className="search-summary" role="status">
          {statusOf(search) === 'searching' ? 'Searching…' : statusOf(search) === 'timeout' ? 'Search timed out: the pattern took longer than 1.5 s.' : summary}
        </span>
      )}
    </div>
  );
}

/** The pattern transforms of the search's pattern (undone from the transform bar). */
function PatternTransforms({ pattern, ignoreCase }: { pattern: string; ignoreCase: boolean }) {
  const push = useStore((s) => s.pushTransform);
  return (
    <Menu label="Transform by pattern" face="Transform" title={`Transform the graph by /${pattern}/${ignoreCase ? 'i' : ''}`}>
      {PATTERN_ACTIONS.map((a) => (
        <button key={a.op} type="button" className="menu-item" title={a.title} onClick={() => push({ kind: 'pattern', op: a.op, pattern, ignoreCase })}>
          {a.label}
        </button>
      ))}
    </Menu>
  );
}

/** One status for both recordings' searches (A, and B when a comparison is open): a timeout on either is reported. */
function statusOf(search: StoreState['search']): SearchStatus {
  const both = [search.status, search.compare.status];
  return both.includes('timeout') ? 'timeout' : both.includes('searching') ? 'searching' : search.status;
}
