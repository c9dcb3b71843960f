// The flame sources of every pane, bound to the store (render/flame-source.ts says what a source
// is): the main graph, the comparison graph (B) of the side-by-side view, the differential graph,
// and the callers and callees graphs. All are made by one function, paneSource, over the pane's
// entry in the store's one map (panes.<id>, store/pane.ts): a pane differs only in its tree, what
// it shows (read) and what else it watches; each pane has its own zoom animation.
//
// Synchronised zoom: zooming either side-by-side graph zooms the other to the node with the same
// frame path (findSamePath), or to its deepest ancestor that exists there (findNearestPath), and
// says so in compare.syncNotice. A guard stops the echo: a zoom applied by the sync is not synced back.

import type { CallTree } from '../core/model/call-tree';
import { frameName } from '../core/model/frame-table';
import type { NodeIndex } from '../core/model/types';
import type { Viewport } from '../core/model/view-types';
import { sideOf } from '../core/query/diff-sides';
import { treeOf } from '../core/query/tree-walks';
import { paneOrientation, type CallersCalleesPane } from '../core/query/callers-callees';
import { highlightOf, shortLabeller } from '../core/query/table-model';
import type { DiffSide } from '../core/views/diff';
import { findNearestPath } from '../core/views/frame-path';
import { nodeColoursOf } from '../render/diff-palette';
import type { FlameSource, FlameState } from '../render/flame-source';
import { prefersDark, searchDimmed } from '../render/search-colours';
import { FULL_PANE, FULL_VIEWPORT, zoomed, type PaneId, type PaneState } from '../store/pane';
import { currentCallersCallees } from '../store/selectors';
import { useStore } from '../store/store';
import { watch } from '../store/watch';
import { currentTree } from '../store/tree-helpers';
import type { StoreState } from '../store/types';
import type { ProfileSnapshot } from '../core/views/snapshot';
import { shownColours } from './compare-results';
import { ZoomAnimation } from './zoom-animation';

/** How a pane changes its zoom, selection and hover: its entry in the store's panes. */
interface PaneBinding {
  /** The pane's tree (what read() shows) and its zoom, or null when it shows nothing. */
  current(s: StoreState): { tree: CallTree; zoomNode: NodeIndex; viewport: Viewport } | null;
  hover(node: NodeIndex, pos: { x: number; y: number } | null): void;
  select(node: NodeIndex): void;
  setViewport(zoomNode: NodeIndex, viewport: Viewport): void;
  zoomTo(node: NodeIndex): void;
}

/** A pane's flame source, with its own zoom animation. */
export interface PaneSource extends FlameSource {
  readonly animation: ZoomAnimation;
}

/** What a pane is: its entry in `panes`, its tree, what it shows and what else it follows. */
interface PaneSpec {
  id: PaneId;
  tree(s: StoreState): CallTree | null;
  read(s: StoreState, animating: boolean): Omit<FlameState, 'order'> | null;
  watched(s: StoreState): Record<string, unknown>;
  /** After the user zoomed this pane (the side-by-side pair follows each other). */
  onZoom?(node: NodeIndex): void;
}

function paneSource(spec: PaneSpec): PaneSource {
  const binding = bindingOf(spec);
  // Every graph draws its siblings in the one order the store holds (by name or heaviest first).
  const animation = new ZoomAnimation({
    current: () => {
      const s = useStore.getState();
      const now = binding.current(s);
      return now && { ...now, order: s.siblingOrder };
    },
    setViewport: binding.setViewport,
    zoomTo: binding.zoomTo,
  });
  return {
    animation,
    read: () => {
      const s = useStore.getState();
      const state = spec.read(s, animation.active);
      return state && { ...state, order: s.siblingOrder };
    },
    // The pane's own fields by name (its hoverPos moves the tooltip, not the drawing).
    subscribe: (onChange) =>
      watch((s) => {
        const p = s.panes[spec.id];
        return { ...spec.watched(s), zoomNode: p.zoomNode, viewport: p.viewport, selectedNode: p.selectedNode, hoverNode: p.hoverNode, siblingOrder: s.siblingOrder };
      }, onChange),
    hover: binding.hover,
    select: binding.select,
    zoom: (node) => animation.zoom(node),
    setViewport: binding.setViewport,
    cancelAnimation: () => animation.cancel(),
  };
}

/** The binding of a pane to its entry in the store's panes, clamped to its tree. */
function bindingOf({ id, tree, onZoom }: PaneSpec): PaneBinding {
  const set = (p: Partial<PaneState>) => useStore.getState().setPane(id, p);
  return {
    current: (s) => {
      const t = tree(s);
      const p = s.panes[id];
      return t ? { tree: t, zoomNode: p.zoomNode < t.nodeCount ? p.zoomNode : 0, viewport: p.viewport } : null;
    },
    hover: (node, pos) => {
      const cur = useStore.getState().panes[id];
      if (cur.hoverNode !== node || cur.hoverPos?.x !== pos?.x || cur.hoverPos?.y !== pos?.y) set({ hoverNode: node, hoverPos: pos });
    },
    select: (node) => set({ selectedNode: node }),
    setViewport: (zoomNode, viewport) => set({ zoomNode, viewport }),
    zoomTo: (node) => {
      set(zoomed(node));
      onZoom?.(node);
    },
  };
}

/** The FlameState of a pane: its zoom, selection and hover, clamped to its tree. */
function paneState(s: StoreState, id: PaneId, rest: Omit<FlameState, 'zoomNode' | 'viewport' | 'selectedNode' | 'hoverNode' | 'orientation' | 'order'>, orientation = s.orientation): Omit<FlameState, 'order'> {
  const pane = s.panes[id];
  const nodeCount = rest.tree.nodeCount;
  const ok = (n: NodeIndex) => (n < nodeCount ? n : -1);
  return { ...rest, orientation, zoomNode: pane.zoomNode < nodeCount ? pane.zoomNode : 0, viewport: pane.viewport, selectedNode: ok(pane.selectedNode), hoverNode: ok(pane.hoverNode) };
}

// ── The main graph ────────────────────────────────────────────────────────────────────────────

/** The main flame graph: the store's snapshot, view, zoom, selection, hover and search. */
export const mainSource: PaneSource = paneSource({
  id: 'main',
  tree: currentTree,
  read: (s, animating) => {
    const tree = currentTree(s);
    if (!s.recordings.a.snapshot || !tree) return null;
    return paneState(s, 'main', {
      tree,
      frames: s.recordings.a.snapshot.frames,
      key: s.derived?.snapshot === s.recordings.a.snapshot ? s.derived : s.recordings.a.snapshot,
      matches: s.search.matches,
      busy: animating || s.recordings.a.loading !== null || s.search.status === 'searching' || s.deriving || s.analysis.pending,
      nodeColours: null,
      highlight: s.analysis.panel !== 'none' ? highlightOf(s.recordings.a.snapshot.frames, s.analysis.selectedFunction) : null,
      fadeUnhighlighted: true,
      label: s.analysis.shortNames ? shortLabeller(s.recordings.a.snapshot.frames) : null,
    });
  },
  watched: (s) => ({
    snapshot: s.recordings.a.snapshot,
    view: s.view,
    orientation: s.orientation,
    matches: s.search.matches,
    searchStatus: s.search.status,
    loading: s.recordings.a.loading !== null,
    derived: s.derived,
    deriving: s.deriving,
    analysisPending: s.analysis.pending,
    highlighted: s.analysis.panel !== 'none' ? s.analysis.selectedFunction : null,
    shortNames: s.analysis.shortNames,
  }),
});

// ── The comparison graphs ─────────────────────────────────────────────────────────────────────

/** The comparison graph (B) of the side-by-side view. */
export const comparisonSource: PaneSource = paneSource({
  id: 'side',
  tree: (s) => (s.recordings.b.snapshot ? sideOf(s.recordings.b.snapshot, s.view).tree : null),
  onZoom: (node) => {
    // B zoomed by the user: zoom the baseline to the same path.
    const s = useStore.getState();
    const a = s.recordings.a.snapshot;
    const b = s.recordings.b.snapshot;
    if (!a || !b) return;
    const sideA = sideOf(a, s.view);
    const sideB = sideOf(b, s.view);
    const r = findNearestPath(sideB, node, sideA);
    s.zoomTo(r.node);
    s.setSyncNotice(r.exact ? null : notice(sideB, node, sideA, r.node, 'baseline'));
  },
  read: (s, animating) => {
    const b = s.recordings.b.snapshot;
    if (!b) return null;
    const side = sideOf(b, s.view);
    return paneState(s, 'side', {
      tree: side.tree,
      frames: b.frames,
      key: b,
      matches: s.search.compare.matches,
      busy: animating || s.recordings.b.loading !== null,
      nodeColours: null,
    });
  },
  watched: (s) => ({ b: s.recordings.b.snapshot, loading: s.recordings.b.loading !== null, view: s.view, orientation: s.orientation, matches: s.search.compare.matches }),
});

/** The differential graph's shaping run (B, or A by compare.shape) and its tree, or null. */
function diffRuns(s: StoreState): { shape: ProfileSnapshot; tree: CallTree } | null {
  const shape = s.compare.shape === 'B' ? s.recordings.b.snapshot : s.recordings.a.snapshot;
  return s.recordings.a.snapshot && shape ? { shape, tree: treeOf(shape, s.view) } : null;
}

/** Unchanged-grey columns for a tree whose colouring the compare worker has not sent yet. */
const pendingColumns = new WeakMap<CallTree, { delta: Float64Array; match: Int32Array }>();
function pendingOf(tree: CallTree): { delta: Float64Array; match: Int32Array } {
  let p = pendingColumns.get(tree);
  if (!p) pendingColumns.set(tree, (p = { delta: new Float64Array(tree.nodeCount), match: new Int32Array(tree.nodeCount) }));
  return p;
}

/** The differential graph, shaped by compare.shape, coloured by the compare worker's answer. */
export const diffSource: PaneSource = paneSource({
  id: 'diff',
  tree: (s) => diffRuns(s)?.tree ?? null,
  read: (s, animating) => {
    const runs = diffRuns(s);
    if (!runs) return null;
    const { shape, tree } = runs;
    const colours = shownColours(s);
    const { delta, match } = colours ?? pendingOf(tree);
    // The search dims what does not match, as in the other graphs: the shaping run's matches, each
    // from its own search worker.
    const search = s.compare.shape === 'A' ? s.search : s.search.compare;
    const matches = search.matches;
    return paneState(s, 'diff', {
      tree,
      frames: shape.frames,
      key: tree,
      matches,
      busy: animating || !colours || s.recordings.b.loading !== null || s.recordings.a.loading !== null || search.status === 'searching',
      nodeColours: searchDimmed(nodeColoursOf(delta, colours?.maxAbs ?? 0, match, prefersDark()), tree, matches, prefersDark()),
    });
  },
  watched: (s) => ({
    a: s.recordings.a.snapshot,
    b: s.recordings.b.snapshot,
    shape: s.compare.shape,
    norm: s.compare.norm,
    colours: s.compare.results.colours,
    view: s.view,
    orientation: s.orientation,
    loadingA: s.recordings.a.loading !== null,
    loadingB: s.recordings.b.loading !== null,
    matchesA: s.search.matches,
    statusA: s.search.status,
    matchesB: s.search.compare.matches,
    statusB: s.search.compare.status,
  }),
});

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
    const a = s.recordings.a.snapshot;
    const b = s.recordings.b.snapshot;
    if (!a || !b || s.compare.mode !== 'side') return;
    const main = s.panes.main;
    // A zoom animation or a wheel zoom is in flight: sync when it lands on a whole frame.
    if (main.viewport.x0 !== 0 || main.viewport.x1 !== 1) return;
    const sideA = sideOf(a, s.view);
    const sideB = sideOf(b, s.view);
    const r = findNearestPath(sideA, main.zoomNode, sideB);
    // B was zoomed deeper than the baseline can follow, and the baseline followed it to the
    // nearest caller: leave B there rather than pull it back to that caller. No flag needed.
    const side = s.panes.side;
    const whole = side.viewport.x0 === 0 && side.viewport.x1 === 1;
    if (whole && side.zoomNode !== r.node && side.zoomNode < sideB.tree.nodeCount && findNearestPath(sideB, side.zoomNode, sideA).node === main.zoomNode) return;
    if (side.zoomNode !== r.node || side.viewport !== FULL_VIEWPORT) s.setPane('side', { ...zoomed(r.node), hoverNode: -1, hoverPos: null });
    s.setSyncNotice(r.exact ? null : notice(sideA, main.zoomNode, sideB, r.node, 'comparison'));
  };
  sync();
  const unsubSide = watch((s) => ({ zoomNode: s.panes.main.zoomNode, viewport: s.panes.main.viewport, view: s.view, a: s.recordings.a.snapshot, b: s.recordings.b.snapshot, mode: s.compare.mode }), sync);
  const unsubDiff = startDiffSync();
  return () => {
    unsubSide();
    unsubDiff();
  };
}

/**
 * Keeps the differential graph and the side-by-side pair on one zoom path: a zoom of the
 * differential graph zooms the baseline (the main graph) to the same path, or its nearest caller
 * there, so switching to side by side keeps it and the link's zoom= names it too; switching to
 * the differential graph, or another view, baseline or shape under it, zooms it to the baseline's
 * path (its node indices belong to one view's tree of one pair of recordings). Not while the
 * baseline shows a transformed tree (its node indices are not the base tree's).
 */
function startDiffSync(): () => void {
  const runs = (s: StoreState) => {
    const a = s.recordings.a.snapshot;
    const b = s.recordings.b.snapshot;
    if (!a || !b || currentTree(s) !== treeOf(a, s.view)) return null;
    const sideA = sideOf(a, s.view);
    return { sideA, shape: s.compare.shape === 'B' ? sideOf(b, s.view) : sideA };
  };
  const fromDiff = (s: StoreState) => {
    const r = runs(s);
    const { zoomNode, viewport } = s.panes.diff;
    // Mid-animation or a wheel zoom: follow once it lands on a whole frame.
    if (!r || s.compare.mode !== 'diff' || viewport.x0 !== 0 || viewport.x1 !== 1 || zoomNode >= r.shape.tree.nodeCount) return;
    // The differential graph already shows where the baseline's zoom leads (toDiff put it there):
    // the baseline stays, rather than moving to the common caller of an inexact path.
    const main = s.panes.main;
    if (main.zoomNode < r.sideA.tree.nodeCount && (r.shape === r.sideA ? main.zoomNode : findNearestPath(r.sideA, main.zoomNode, r.shape).node) === zoomNode) return;
    const target = r.shape === r.sideA ? zoomNode : findNearestPath(r.shape, zoomNode, r.sideA).node;
    if (target !== main.zoomNode || main.viewport.x0 !== 0 || main.viewport.x1 !== 1) s.zoomTo(target);
  };
  const toDiff = (s: StoreState, reset: boolean) => {
    const r = s.compare.mode === 'diff' ? runs(s) : null;
    if (!r) {
      if (reset) s.setPane('diff', FULL_PANE);
      return;
    }
    const target = r.shape === r.sideA ? s.panes.main.zoomNode : findNearestPath(r.sideA, s.panes.main.zoomNode, r.shape).node;
    if (target !== s.panes.diff.zoomNode || reset) s.setPane('diff', { ...zoomed(target), hoverNode: -1, hoverPos: null });
  };
  const at = (s: StoreState) => ({ view: s.view, a: s.recordings.a.snapshot, b: s.recordings.b.snapshot, shape: s.compare.shape, mode: s.compare.mode });
  let last = at(useStore.getState());
  const onChange = () => {
    const s = useStore.getState();
    const now = at(s);
    const moved = now.view !== last.view || now.a !== last.a || now.shape !== last.shape;
    // A new comparison starts whole: at the baseline's zoom, unless the link's dzoom= zoomed it
    // (then the baseline follows that).
    const switched = now.mode !== last.mode || (now.b !== last.b && s.panes.diff.zoomNode === 0);
    last = now;
    if (!moved && !switched) return fromDiff(s);
    toDiff(s, moved);
  };
  return watch((s) => ({ zoomNode: s.panes.diff.zoomNode, viewport: s.panes.diff.viewport, view: s.view, a: s.recordings.a.snapshot, b: s.recordings.b.snapshot, shape: s.compare.shape, mode: s.compare.mode }), onChange);
}

// ── The callers and callees graphs ────────────────────────────────────────────────────────────

/** The tree of a callers & callees pane: both derive from the tree the main graph shows (currentTree). */
function callersCalleesTree(s: StoreState, pane: CallersCalleesPane): CallTree | null {
  if (s.analysis.panel !== 'callersCallees' || !s.recordings.a.snapshot) return null;
  return currentCallersCallees(s)?.[pane] ?? null;
}

function callersCalleesSource(pane: CallersCalleesPane): PaneSource {
  return paneSource({
    id: pane,
    tree: (s) => callersCalleesTree(s, pane),
    read: (s, animating) => {
      const tree = callersCalleesTree(s, pane);
      if (!tree || !s.recordings.a.snapshot) return null;
      const frames = s.recordings.a.snapshot.frames;
      return paneState(
        s,
        pane,
        {
          tree,
          frames,
          key: tree,
          matches: s.search.matches,
          busy: animating || s.recordings.a.loading !== null || s.search.status === 'searching' || s.analysis.pending,
          nodeColours: null,
          highlight: highlightOf(frames, s.analysis.selectedFunction),
          label: s.analysis.shortNames ? shortLabeller(frames) : null,
        },
        paneOrientation(pane, s.orientation),
      );
    },
    watched: (s) => ({
      snapshot: s.recordings.a.snapshot,
      view: s.view,
      derived: s.derived,
      orientation: s.orientation,
      panel: s.analysis.panel,
      selectedFunction: s.analysis.selectedFunction,
      shortNames: s.analysis.shortNames,
      trees: s.analysis.callersCalleesTrees,
      pending: s.analysis.pending,
      matches: s.search.matches,
      status: s.search.status,
      loading: s.recordings.a.loading !== null,
    }),
  });
}

export const callersSource = callersCalleesSource('callers');
export const calleesSource = callersCalleesSource('callees');

/** Whether the graph on screen is zoomed: the differential graph in its mode, else the main graph. */
export function shownZoomed(s: StoreState): boolean {
  const z = s.panes[s.recordings.b.snapshot && s.compare.mode === 'diff' ? 'diff' : 'main'];
  return z.zoomNode > 0 || z.viewport.x0 > 0 || z.viewport.x1 < 1;
}

/** Reset zoom for the graph on screen (the side-by-side pair follows the main graph). */
export function resetShownZoom(): void {
  const s = useStore.getState();
  if (s.recordings.b.snapshot && s.compare.mode === 'diff') diffSource.zoom(0);
  else mainSource.zoom(0);
}
