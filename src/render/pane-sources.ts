// Flame sources for the comparison graphs (see render/flame-source.ts): the comparison graph of
// the side-by-side view (B, zoom synchronised with the main graph by frame path) and the
// differential graph (shaped by B or A, coloured by the change of each node's weight; a search
// fades the frames that do not match, see search-colours.ts).
//
// Synchronised zoom: zooming either side-by-side graph zooms the other to the node with the same
// frame path (findSamePath), or to its deepest ancestor that exists there (findNearestPath), and
// says so in compare.syncNotice. A guard stops the echo: a zoom applied by the sync is not synced back.

import { shallow } from 'zustand/shallow';
import { frameName } from '../core/model/frame-table';
import type { NodeIndex } from '../core/model/types';
import type { DiffSide } from '../core/views/diff';
import { findNearestPath } from '../core/views/frame-path';
import { nodeColoursOf } from './diff-palette';
import type { FlameSource, FlameState } from './flame-source';
import { FULL_PANE, type PaneState } from '../store/compare-slice';
import { useStore } from '../store/store';
import type { StoreState } from '../store/types';
import { prefersDark, searchDimmed } from './search-colours';
import { diffOf, matchesFor, sideOf, totalDeltas } from '../core/query/diff-sides';

const FULL = FULL_PANE.viewport;

function paneSource(pane: 'side' | 'diff', read: (s: StoreState) => FlameState | null, watched: (s: StoreState) => unknown[], onZoom?: (node: NodeIndex) => void): FlameSource {
  const set = (p: Partial<PaneState>) => useStore.getState().setPane(pane, p);
  return {
    read: () => read(useStore.getState()),
    subscribe: (onChange) => useStore.subscribe(watched, onChange, { equalityFn: shallow }),
    hover: (node, pos) => {
      const cur = useStore.getState().compare[pane];
      if (cur.hoverNode !== node || cur.hoverPos?.x !== pos?.x || cur.hoverPos?.y !== pos?.y) set({ hoverNode: node, hoverPos: pos });
    },
    select: (node) => set({ selectedNode: node }),
    zoom: (node) => {
      set({ zoomNode: node, viewport: FULL });
      onZoom?.(node);
    },
    setViewport: (zoomNode, viewport) => set({ zoomNode, viewport }),
    cancelAnimation: () => {},
  };
}

function paneState(s: StoreState, pane: PaneState, rest: Omit<FlameState, 'zoomNode' | 'viewport' | 'selectedNode' | 'hoverNode' | 'orientation'>): FlameState {
  const nodeCount = rest.tree.nodeCount;
  const ok = (n: NodeIndex) => (n < nodeCount ? n : -1);
  return { ...rest, orientation: s.orientation, zoomNode: pane.zoomNode < nodeCount ? pane.zoomNode : 0, viewport: pane.viewport, selectedNode: ok(pane.selectedNode), hoverNode: ok(pane.hoverNode) };
}

let syncing = false;

/** The comparison graph (B) of the side-by-side view. */
export const comparisonSource: FlameSource = paneSource(
  'side',
  (s) => {
    const b = s.compare.snapshot;
    if (!b) return null;
    const side = sideOf(b, s.view);
    return paneState(s, s.compare.side, {
      tree: side.tree,
      frames: b.frames,
      key: b,
      matches: matchesFor(b.frames, s.search.pattern, s.search.caseInsensitive),
      busy: s.compare.loading !== null,
      nodeColours: null,
    });
  },
  (s) => [s.compare.snapshot, s.compare.side, s.compare.loading !== null, s.view, s.orientation, s.search.pattern, s.search.caseInsensitive],
  (node) => {
    // B zoomed by the user: zoom the baseline to the same path.
    const s = useStore.getState();
    const a = s.snapshot;
    const b = s.compare.snapshot;
    if (!a || !b) return;
    const sideA = sideOf(a, s.view);
    const sideB = sideOf(b, s.view);
    const r = findNearestPath(sideB, node, sideA);
    syncing = true;
    try {
      s.zoomTo(r.node);
    } finally {
      syncing = false;
    }
    s.setSyncNotice(r.exact ? null : notice(sideB, node, sideA, r.node, 'baseline'));
  },
);

/** The differential graph, shaped by compare.shape. */
export const diffSource: FlameSource = paneSource(
  'diff',
  (s) => {
    const a = s.snapshot;
    const b = s.compare.snapshot;
    if (!a || !b) return null;
    const diff = diffOf(a, b, s.view, s.compare.shape);
    const shape = s.compare.shape === 'B' ? diff.b : diff.a;
    const { delta, maxAbs } = totalDeltas(diff, s.compare.norm);
    // The search dims what does not match, as in the other graphs: A's matches come from the
    // search slice, B's are computed over B's names.
    const matches = s.compare.shape === 'A' ? s.search.matches : matchesFor(shape.frames, s.search.pattern, s.search.caseInsensitive);
    return paneState(s, s.compare.diff, {
      tree: shape.tree,
      frames: shape.frames,
      key: shape.tree,
      matches,
      busy: s.compare.loading !== null || s.loading !== null || (s.compare.shape === 'A' && s.search.status === 'searching'),
      nodeColours: searchDimmed(nodeColoursOf(delta, maxAbs, diff.match), shape.tree, matches, prefersDark()),
    });
  },
  (s) => [
    s.snapshot,
    s.compare.snapshot,
    s.compare.diff,
    s.compare.shape,
    s.compare.norm,
    s.view,
    s.orientation,
    s.loading !== null,
    s.compare.loading !== null,
    s.search.pattern,
    s.search.caseInsensitive,
    s.search.matches,
    s.search.status,
  ],
);

function notice(from: DiffSide, node: NodeIndex, to: DiffSide, nearest: NodeIndex, where: 'baseline' | 'comparison'): string {
  const name = frameName(from.frames, from.tree.frame[node]);
  const near = nearest === 0 ? 'all' : frameName(to.frames, to.tree.frame[nearest]);
  return `${name} on this path is not in the ${where}; the ${where} shows its nearest caller there, ${near}.`;
}

/**
 * Keeps the comparison graph on the baseline's zoom path (side-by-side mode): runs when the main
 * zoom, the view or either recording changes. Returns the unsubscribe.
 */
export function startCompareSync(): () => void {
  const sync = () => {
    const s = useStore.getState();
    const a = s.snapshot;
    const b = s.compare.snapshot;
    if (syncing || !a || !b || s.compare.mode !== 'side') return;
    // A zoom animation or a wheel zoom is in flight: sync when it lands on a whole frame.
    if (s.viewport.x0 !== 0 || s.viewport.x1 !== 1) return;
    const sideA = sideOf(a, s.view);
    const sideB = sideOf(b, s.view);
    const r = findNearestPath(sideA, s.zoomNode, sideB);
    if (s.compare.side.zoomNode !== r.node || s.compare.side.viewport !== FULL) s.setPane('side', { zoomNode: r.node, viewport: FULL, hoverNode: -1, hoverPos: null });
    s.setSyncNotice(r.exact ? null : notice(sideA, s.zoomNode, sideB, r.node, 'comparison'));
  };
  sync();
  return useStore.subscribe((s) => [s.zoomNode, s.viewport, s.view, s.snapshot, s.compare.snapshot, s.compare.mode], sync, { equalityFn: shallow });
}
