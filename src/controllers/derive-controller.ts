// Connects the store to the analysis worker: whenever the snapshot, view, transforms, reversed
// switch or time range change, asks for the derived tree and shows it (applyDerived) with the
// zoom and the selection carried over (transform-node-map.ts). Runs outside React.
//
// Invariants: the base trees go to the worker once per snapshot; the latest request wins (a
// result whose key no longer matches the store is dropped); an identity request (nothing to
// derive) shows the base tree without a round trip; `deriving` is true from the request until its
// result is shown, so the graph stays aria-busy.

import type { CallTree } from '../core/model/call-tree';
import type { ProfileSnapshot } from '../core/views/snapshot';
import { isIdentity, rangeApplies, type DeriveRequest } from '../core/views/derive';
import { encodeTransforms } from '../core/views/transforms-codec';
import { useStore } from '../store/store';
import { watch } from '../store/watch';
import type { DerivedView } from '../store/transform-slice';
import { treeOf } from '../store/tree-helpers';
import type { OpenStoreState, StoreState } from '../store/types';
import { useLinkNotices } from './url-sync';
import { inputOf, samplesOf, workerBackend, type DeriveBackend } from './derive-backend';
import { startAnalysisController } from './analysis-controller';
import { mapShownNodes, type ShownTree } from '../core/query/transform-node-map';
import { Latest, ObjectIds } from '../core/util/latest';
import { PatternGate } from './pattern-gate';

/** Timings of the last derivation shown (for the bench and the console). */
export interface DeriveTiming {
  workerMs: number;
  roundTripMs: number;
  applyMs: number;
  nodes: number;
}
/** Says something in the notices region (role=status) above the graph. */
function notify(message: string): void {
  useLinkNotices.getState().add(message);
}

function requestOf(s: StoreState): DeriveRequest {
  return { view: s.view, transforms: s.transforms, reversed: s.reversed, range: s.timeRange };
}

function rangeKey(snapshot: ProfileSnapshot, request: Pick<DeriveRequest, 'range'>): string {
  return rangeApplies({ samples: samplesOf(snapshot) }, request) && request.range ? `${request.range.from}:${request.range.to}` : '-';
}

export function startDeriveController(backend: DeriveBackend = workerBackend(), gate: PatternGate = new PatternGate()): () => void {
  /** Which backend tree a shown derived tree is (its recording id and derive seq). */
  const derivedRefs = new WeakMap<CallTree, { id: number; seq: number; request: DeriveRequest }>();
  let lastDeriveTiming: DeriveTiming | null = null;
  const ids = new ObjectIds<ProfileSnapshot>();
  let sentFor: ProfileSnapshot | null = null;
  const latest = new Latest();
  let wantedKey = '';
  let retried = '';

  const idOf = (snapshot: ProfileSnapshot) => ids.of(snapshot);
  const keyOf = (snapshot: ProfileSnapshot, r: DeriveRequest) =>
    `${idOf(snapshot)}|${r.view}|${rangeKey(snapshot, r)}|${r.reversed ? 1 : 0}|${encodeTransforms(r.transforms)}`;
  const inputKey = (snapshot: ProfileSnapshot, view: string, range: string) => `${idOf(snapshot)}|${view}|${range}`;

  /** Sends the recording's base trees to the backend once; returns its id there. */
  const ensureBase = (snapshot: ProfileSnapshot): number => {
    const id = idOf(snapshot);
    if (sentFor !== snapshot) {
      sentFor = snapshot;
      void backend.setBase(id, inputOf(snapshot));
    }
    return id;
  };

  /** What is on screen now, as a ShownTree. */
  const shownNow = (s: OpenStoreState): ShownTree => {
    const d = s.derived;
    if (d && d.snapshot === s.recordings.a.snapshot) {
      const range = d.ranged && d.range ? `${d.range.from}:${d.range.to}` : '-';
      return { tree: d.tree, inputKey: inputKey(s.recordings.a.snapshot, d.view, range), input: d.ranged ? null : treeOf(s.recordings.a.snapshot, d.view), toNew: d.toNew ?? 'none' };
    }
    const tree = treeOf(s.recordings.a.snapshot, s.view);
    return { tree, inputKey: inputKey(s.recordings.a.snapshot, s.view, '-'), input: tree, toNew: null };
  };

  /** Shows `next` (null: the base tree) with the zoom and selection mapped onto it. */
  const show = (s: OpenStoreState, next: DerivedView | null, timing?: Omit<DeriveTiming, 'applyMs' | 'nodes'>) => {
    const t0 = performance.now();
    const from = shownNow(s);
    const to: ShownTree = next
      ? {
          tree: next.tree,
          inputKey: inputKey(s.recordings.a.snapshot, next.view, next.ranged && next.range ? `${next.range.from}:${next.range.to}` : '-'),
          input: next.ranged ? null : treeOf(s.recordings.a.snapshot, next.view),
          toNew: next.toNew ?? 'none',
        }
      : { tree: treeOf(s.recordings.a.snapshot, s.view), inputKey: inputKey(s.recordings.a.snapshot, s.view, '-'), input: null, toNew: null };
    const frames = s.recordings.a.snapshot.frames;
    const [zoomNode, selectedNode] = mapShownNodes(frames, from, [s.panes.main.zoomNode, s.panes.main.selectedNode], to);
    s.applyDerived(next, { zoomNode, selectedNode });
    useStore.getState().setDeriving(false);
    const parked = useStore.getState().takeParkedZoom();
    if (parked) parked.run(notify);
    if (timing) lastDeriveTiming = { ...timing, applyMs: performance.now() - t0, nodes: to.tree.nodeCount };
  };

  const run = () => {
    const s = useStore.getState();
    const snapshot = s.recordings.a.snapshot;
    if (!snapshot) {
      wantedKey = '';
      s.setDeriving(false);
      return;
    }
    const request = requestOf(s);
    const key = keyOf(snapshot, request);
    if (key === wantedKey) return;
    wantedKey = key;
    if (isIdentity({ samples: samplesOf(snapshot) }, request)) {
      latest.cancel();
      const d = s.derived;
      if (d !== null || s.deriving) show(s as OpenStoreState, null);
      else useStore.getState().takeParkedZoom();
      return;
    }
    const unchecked = gate.pending(s, snapshot, request.transforms);
    if (unchecked.length > 0) {
      // A pattern not yet matched in time by the search worker: try it there first (pattern-gate.ts).
      const mine = latest.next();
      s.setDeriving(true);
      void gate.check(snapshot, unchecked).then((verdict) => {
        if (!latest.isLatest(mine) || verdict.kind === 'stale') return;
        wantedKey = '';
        if (verdict.kind === 'safe') return run();
        notify(verdict.message);
        const { pattern, ignoreCase } = verdict.pattern;
        const st = useStore.getState();
        st.setTransforms(st.transforms.filter((t) => !(t.kind === 'pattern' && t.pattern === pattern && t.ignoreCase === ignoreCase)));
        run();
      });
      return;
    }
    ensureBase(snapshot);
    const id = idOf(snapshot);
    const mine = latest.next();
    s.setDeriving(true);
    const t0 = performance.now();
    const keep = s.analysis.panel !== 'none' && treeOf(snapshot, s.view).nodeCount > s.analysis.syncNodes;
    backend.derive(id, mine, request, keep).then(
      (reply) => {
        if (!latest.isLatest(mine)) return; // overtaken: a newer request is on its way
        if (!reply) {
          // The worker lacks this recording's trees (it was restarted): send them again, once.
          sentFor = null;
          wantedKey = '';
          if (retried === key) useStore.getState().setDeriving(false);
          else {
            retried = key;
            run();
          }
          return;
        }
        const now = useStore.getState();
        if (!now.recordings.a.snapshot || keyOf(now.recordings.a.snapshot, requestOf(now)) !== key) return;
        const next: DerivedView = { snapshot: now.recordings.a.snapshot, ...request, tree: reply.tree, toNew: reply.toNew, base: reply.base, ranged: reply.ranged };
        derivedRefs.set(reply.tree, { id, seq: mine, request });
        show(now as OpenStoreState, next, { workerMs: reply.ms, roundTripMs: performance.now() - t0 });
      },
      (error: unknown) => {
        if (!latest.isLatest(mine)) return;
        console.error('flameview: the derived view failed', error);
        wantedKey = '';
        sentFor = null;
        const st = useStore.getState();
        st.setDeriving(false);
        notify(`This view could not be computed: ${error instanceof Error ? error.message : String(error)}`);
        // Undo the step that failed, so the buttons and the link say what the graph shows.
        if (request.reversed) st.setReversed(false);
        else if (request.transforms.length > 0) st.popTransforms(request.transforms.length - 1);
        else if (request.range) st.setTimeRange(null);
      },
    );
  };

  const unsub = watch(
    (s) => ({ snapshot: s.recordings.a.snapshot, view: s.view, transforms: s.transforms, reversed: s.reversed, timeRange: s.timeRange }),
    // Read the store afresh: a nested update may hand this listener an older slice.
    () => run(),
  );
  run();
  const stopAnalysis = startAnalysisController(backend, ensureBase, (tree) => derivedRefs.get(tree) ?? null);
  if (typeof window !== 'undefined') (window as unknown as { flameviewDerive?: () => DeriveTiming | null }).flameviewDerive = () => lastDeriveTiming;
  return () => {
    unsub();
    stopAnalysis();
    gate.dispose();
    backend.dispose?.();
  };
}

export type { CallTree };
