// Connects a comparison to the compare worker (workers/compare.worker.ts, a CompareSession): sends
// each recording once, then asks for what is on screen, the differential graph's colouring (in
// differential mode), the table of changed functions, the hovered node's figures (tooltips) and
// the selected node's (details), and puts each answer in compare.results. The diff never runs on
// the page (src/main-thread-modules.test.ts checks that the page's modules do not reach it).
//
// Invariants: one question of each kind in flight, the latest wins (an answer to an overtaken one
// is dropped, and so is one for trees or a normalisation no longer shown); a pane's figures are
// for the tree that pane draws: the baseline's only while it shows its base view tree (no
// transform), since the worker holds the base trees.

import * as Comlink from 'comlink';
import type { NodeIndex } from '../core/model/types';
import type { ViewKind } from '../core/model/view-types';
import { treeOf } from '../core/query/tree-walks';
import { changeRows, recordingWire, type ChangeTableReply, type ColoursReply, type CompareIds, type FiguresReply } from '../core/session/compare-protocol';
import type { ProfileSnapshot } from '../core/views/snapshot';
import type { DiffNorm, DiffShape } from '../core/views/diff';
import type { ComparePane, CompareResults, DiffKey, PaneFigures } from '../store/compare-slice';
import { useStore } from '../store/store';
import { watch } from '../store/watch';
import { currentTree } from '../store/tree-helpers';
import type { StoreState } from '../store/types';
import type { CompareWorkerApi } from '../../workers/compare.worker';
import { WorkerHandle } from './worker-handle';
import { Latest, ObjectIds } from '../core/util/latest';

/** Where the comparison's questions are answered: the compare worker (or a CompareSession in tests). */
export interface CompareBackend {
  setRecording(slot: DiffShape, id: number, snapshot: ProfileSnapshot): unknown;
  colours(ids: CompareIds, view: ViewKind, shape: DiffShape, norm: DiffNorm, ignoreRoot?: boolean): Promise<ColoursReply | null>;
  figures(ids: CompareIds, view: ViewKind, shape: DiffShape, node: NodeIndex, norm: DiffNorm, ignoreRoot?: boolean): Promise<FiguresReply | null>;
  changeTable(ids: CompareIds, view: ViewKind, norm: DiffNorm): Promise<ChangeTableReply | null>;
}

export function workerCompareBackend(onFail: (reason: string) => void): CompareBackend {
  const start = () => new Worker(new URL('../../workers/compare.worker.ts', import.meta.url), { type: 'module', name: 'flameview-compare' });
  const handle = new WorkerHandle<CompareWorkerApi>(start, onFail);
  return {
    setRecording: (slot, id, snapshot) => {
      const { wire, transfer } = recordingWire(snapshot);
      return handle.get().setRecording(slot, id, Comlink.transfer(wire, transfer));
    },
    colours: (...args) => handle.get().colours(...args),
    figures: (...args) => handle.get().figures(...args),
    changeTable: (...args) => handle.get().changeTable(...args),
  };
}

type Kind = 'colours' | 'table' | 'hover' | 'selected';

/** The shaping run of a pane: the baseline's graph is A's, the comparison's B's. */
function shapeOf(s: StoreState, pane: ComparePane): DiffShape {
  return pane === 'main' ? 'A' : pane === 'side' ? 'B' : s.compare.shape;
}

export function startCompareResults(backend?: CompareBackend): () => void {
  const ids = new ObjectIds<ProfileSnapshot>();
  const sent: { A: ProfileSnapshot | null; B: ProfileSnapshot | null } = { A: null, B: null };
  /** Per kind of question, the one in flight: its key (an equal question is not asked again). */
  const job = (): { key: string | null; latest: Latest } => ({ key: null, latest: new Latest() });
  const inFlight: Record<Kind, ReturnType<typeof job>> = { colours: job(), table: job(), hover: job(), selected: job() };
  const drop = (kind: Kind) => {
    inFlight[kind].key = null;
    inFlight[kind].latest.cancel();
  };
  /** Where a frame was selected last in side-by-side mode (the details follow it). */
  let selectedPane: 'main' | 'side' = 'main';

  const worker =
    backend ??
    workerCompareBackend((reason) => {
      // The next question starts a fresh worker, which holds nothing yet.
      sent.A = sent.B = null;
      for (const k of Object.keys(inFlight) as Kind[]) drop(k);
      useStore.getState().failLoading(`The comparison's worker stopped: ${reason}`, 'b');
    });

  const idOf = (slot: DiffShape, snapshot: ProfileSnapshot): number => {
    const id = ids.of(snapshot);
    if (sent[slot] !== snapshot) {
      sent[slot] = snapshot;
      void worker.setRecording(slot, id, snapshot);
    }
    return id;
  };

  const ask = <T,>(kind: Kind, key: string, run: () => Promise<T | null>, apply: (reply: T) => void) => {
    const j = inFlight[kind];
    if (j.key === key) return;
    j.key = key;
    const mine = j.latest.next();
    run().then(
      (reply) => {
        if (!j.latest.isLatest(mine)) return;
        j.key = null;
        if (reply) apply(reply);
      },
      () => {
        if (j.latest.isLatest(mine)) j.key = null;
      },
    );
  };

  const update = () => {
    const s = useStore.getState();
    const a = s.recordings.a.snapshot;
    const b = s.recordings.b.snapshot;
    if (!a || !b) return;
    const { view } = s;
    const { norm, mode, ignoreRoot } = s.compare;
    const trees = { A: treeOf(a, view), B: treeOf(b, view) };
    const idsNow = { a: idOf('A', a), b: idOf('B', b) };
    const base = `${idsNow.a}:${idsNow.b}:${view}:${norm}`;
    const paths = `${base}:${ignoreRoot ? 'any-root' : 'roots'}`;
    const keyOf = (shape: DiffShape): DiffKey => wantOf(s, shape)!;
    /** The answer is still for what is shown (same trees of the shaping and the other run, same normalisation). */
    const current = (shape: DiffShape, want: DiffKey) => same(wantOf(useStore.getState(), shape), want);
    const r = s.compare.results;

    if (!shownTable(s)) {
      const want = keyOf('B');
      ask('table', base, () => worker.changeTable(idsNow, view, norm), (reply) => {
        if (current('B', want)) useStore.getState().setCompareResults({ table: { a: trees.A, b: trees.B, norm, rows: changeRows(reply) } });
      });
    }

    if (mode === 'diff') {
      const shape = s.compare.shape;
      const want = keyOf(shape);
      if (!same(r.colours, want)) {
        ask('colours', `${paths}:${shape}`, () => worker.colours(idsNow, view, shape, norm, ignoreRoot), (reply) => {
          if (current(shape, want) && useStore.getState().compare.shape === shape) useStore.getState().setCompareResults({ colours: { ...want, ...reply } });
        });
      }
    }

    const figures = (kind: 'hover' | 'selected', at: { pane: ComparePane; node: NodeIndex } | null) => {
      const have = r[kind];
      if (!at || (at.pane === 'main' && currentTree(s) !== trees.A)) {
        drop(kind);
        if (have) useStore.getState().setCompareResults({ [kind]: null });
        return;
      }
      const shape = shapeOf(s, at.pane);
      const want = keyOf(shape);
      if (have && have.pane === at.pane && have.node === at.node && same(have, want)) return;
      ask(kind, `${paths}:${shape}:${at.pane}:${at.node}`, () => worker.figures(idsNow, view, shape, at.node, norm, ignoreRoot), (reply) => {
        if (!current(shape, want)) return;
        const entry: PaneFigures = { ...want, pane: at.pane, node: at.node, reply };
        useStore.getState().setCompareResults({ [kind]: entry });
      });
    };
    figures('hover', hovered(s));
    figures('selected', selected(s, selectedPane));
  };

  const unsubscribe = watch(
    (s) => ({
      a: s.recordings.a.snapshot,
      b: s.recordings.b.snapshot,
      view: s.view,
      derived: s.derived,
      mode: s.compare.mode,
      shape: s.compare.shape,
      norm: s.compare.norm,
      results: s.compare.results,
      ignoreRoot: s.compare.ignoreRoot,
      mainHover: s.panes.main.hoverNode,
      sideHover: s.panes.side.hoverNode,
      diffHover: s.panes.diff.hoverNode,
      mainSelected: s.panes.main.selectedNode,
      sideSelected: s.panes.side.selectedNode,
      diffSelected: s.panes.diff.selectedNode,
    }),
    (next, prev) => {
      if (next.mainSelected !== prev.mainSelected && next.mainSelected >= 0) selectedPane = 'main';
      else if (next.sideSelected !== prev.sideSelected && next.sideSelected >= 0) selectedPane = 'side';
      update();
    },
  );
  update();
  return unsubscribe;
}

/** What a pane's answer must be for: the trees of its shaping run and of the other run, and the normalisation. */
function wantOf(s: StoreState, shape: DiffShape): DiffKey | null {
  if (!s.recordings.a.snapshot || !s.recordings.b.snapshot) return null;
  const a = treeOf(s.recordings.a.snapshot, s.view);
  const b = treeOf(s.recordings.b.snapshot, s.view);
  const { norm, ignoreRoot } = s.compare;
  return shape === 'B' ? { shapeTree: b, otherTree: a, norm, ignoreRoot } : { shapeTree: a, otherTree: b, norm, ignoreRoot };
}

function same(k: DiffKey | null, want: DiffKey | null): boolean {
  return k !== null && want !== null && k.shapeTree === want.shapeTree && k.otherTree === want.otherTree && k.norm === want.norm && k.ignoreRoot === want.ignoreRoot;
}

/** A pane's hovered or selected node, when it has one. */
function nodeIn(s: StoreState, pane: ComparePane, which: 'hoverNode' | 'selectedNode'): { pane: ComparePane; node: NodeIndex } | null {
  const node = s.panes[pane][which];
  return node >= 0 ? { pane, node } : null;
}

function hovered(s: StoreState): { pane: ComparePane; node: NodeIndex } | null {
  if (s.compare.mode === 'diff') return nodeIn(s, 'diff', 'hoverNode');
  return nodeIn(s, 'side', 'hoverNode') ?? nodeIn(s, 'main', 'hoverNode');
}

function selected(s: StoreState, last: 'main' | 'side'): { pane: ComparePane; node: NodeIndex } | null {
  return nodeIn(s, s.compare.mode === 'diff' ? 'diff' : last, 'selectedNode');
}

/** The differential colouring of what is shown (shape, view, normalisation), or null while the worker computes it. */
export function shownColours(s: StoreState): (DiffKey & ColoursReply) | null {
  const c = s.compare.results.colours;
  return same(c, wantOf(s, s.compare.shape)) ? c : null;
}

/** The change table of what is shown (view, normalisation), or null while the worker computes it. */
export function shownTable(s: StoreState): CompareResults['table'] {
  const t = s.compare.results.table;
  const want = wantOf(s, 'B');
  return t && want && t.b === want.shapeTree && t.a === want.otherTree && t.norm === want.norm ? t : null;
}

/** A pane's figures for `node` when they are in (the tooltip's hovered node, the details' selected one). */
export function shownFigures(s: StoreState, kind: 'hover' | 'selected', pane: ComparePane, node: NodeIndex): PaneFigures | null {
  const f = s.compare.results[kind];
  return f && f.pane === pane && f.node === node && same(f, wantOf(s, shapeOf(s, pane))) ? f : null;
}
