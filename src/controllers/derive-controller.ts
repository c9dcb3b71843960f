// Connects the store to the analysis worker: whenever the snapshot, view, transforms, reversed
// switch or time range change, asks for the derived tree and shows it (applyDerived) with the
// zoom and the selection carried over (transform-node-map.ts). Runs outside React.
//
// Invariants: the base trees go to the worker once per snapshot; the latest request wins (a
// result whose key no longer matches the store is dropped); an identity request (nothing to
// derive) shows the base tree without a round trip; `deriving` is true from the request until its
// result is shown, so the graph stays aria-busy.

import * as Comlink from 'comlink';
import type { CallTree } from '../core/model/call-tree';
import type { ProfileSnapshot } from '../core/session/snapshot';
import type { SampleColumns } from '../core/views/time-order';
import { copyTree, derive, isIdentity, rangeApplies, treeColumns, type DeriveInput, type DeriveRequest } from '../core/views/derive';
import { encodeTransforms } from '../core/views/transforms-codec';
import { useStore } from '../store/store';
import type { DerivedView } from '../store/transform-slice';
import { treeOf } from '../store/tree-helpers';
import type { StoreState } from '../store/types';
import { useLinkNotices } from './url-sync';
import type { AnalysisWorkerApi, BaseWire, DeriveReply } from '../../workers/analysis.worker';
import { analyseSandwich, analyseTable, type AnalysisTreeRef, type SandwichReply, type TableReply } from '../core/views/derive-analysis';
import { startAnalysisController } from './analysis-controller';
import { SYNC_NODES } from '../core/query/table-model';
import { mapShownNodes, type ShownTree } from '../core/query/transform-node-map';
import '../store/url/transform-params';
import { takeParkedZoom } from '../core/query/zoom-after-transform';

/** Where derivations run: the worker, or in-process (tests). */
export interface DeriveBackend {
  setBase(id: number, input: DeriveInput): Promise<void> | void;
  /** `keep`: keep the result for table/sandwich requests (the analysis panel is open). */
  derive(id: number, seq: number, request: DeriveRequest, keep?: boolean): Promise<DeriveReply | null>;
  /** The function table / sandwich of a tree the backend holds (analysis-controller.ts). */
  table?(id: number, seq: number, ref: AnalysisTreeRef, reversed: boolean): Promise<TableReply | null>;
  sandwich?(id: number, seq: number, ref: AnalysisTreeRef, name: string, reversed: boolean): Promise<SandwichReply | null>;
  dispose?(): void;
}

/** Which backend tree a shown derived tree is (its recording id and derive seq). */
const derivedRefs = new WeakMap<CallTree, { id: number; seq: number; request: DeriveRequest }>();

/** The backend's handle on a derived tree this controller showed, or null. */
export function derivedRefOf(tree: CallTree): { id: number; seq: number; request: DeriveRequest } | null {
  return derivedRefs.get(tree) ?? null;
}

/** Timings of the last derivation shown (for the bench and the console). */
export interface DeriveTiming {
  workerMs: number;
  roundTripMs: number;
  applyMs: number;
  nodes: number;
}
export let lastDeriveTiming: DeriveTiming | null = null;

export function samplesOf(snapshot: ProfileSnapshot): SampleColumns | null {
  return (snapshot as { samples?: SampleColumns | null }).samples ?? null;
}

export function inputOf(snapshot: ProfileSnapshot): DeriveInput {
  return { frames: snapshot.frames, inline: snapshot.inline, functions: snapshot.functions, toFunction: snapshot.toFunction, samples: samplesOf(snapshot) };
}

export function workerBackend(): DeriveBackend {
  let worker: Worker | null = null;
  let remote: Comlink.Remote<AnalysisWorkerApi> | null = null;
  // A worker that cannot start (a Content-Security-Policy, a failed download) never answers:
  // its 'error' event fails the calls in flight, and the next call starts a fresh worker.
  let failed: Promise<never> = new Promise(() => {});
  const get = () => {
    if (!remote) {
      const w = new Worker(new URL('../../workers/analysis.worker.ts', import.meta.url), { type: 'module', name: 'flameview-analysis' });
      worker = w;
      remote = Comlink.wrap<AnalysisWorkerApi>(w);
      failed = new Promise((_, reject) =>
        w.addEventListener('error', (event) => {
          event.preventDefault();
          w.terminate();
          if (worker === w) worker = remote = null;
          reject(new Error(event.message || 'the analysis worker could not be started'));
        }),
      );
      failed.catch(() => {});
    }
    return remote;
  };
  return {
    setBase: async (id, input) => {
      const { strings, ...frames } = input.frames;
      // Copies of the columns (one memcpy each; the page keeps drawing its own), transferred.
      const copy = <T extends { slice(): T; buffer: ArrayBufferLike }>(a: T) => a.slice();
      const inline = copyTree(input.inline);
      const functions = input.functions ? copyTree(input.functions) : null;
      const toFunction = input.toFunction ? copy(input.toFunction) : null;
      const samples = input.samples ? { count: input.samples.count, leaf: copy(input.samples.leaf), time: copy(input.samples.time), weight: copy(input.samples.weight) } : null;
      const wire: BaseWire = { frames, inline, functions, toFunction, samples, strings: strings.join('\0') };
      const buffers = [...treeColumns(inline), ...(functions ? treeColumns(functions) : [])];
      if (toFunction) buffers.push(toFunction.buffer as ArrayBuffer);
      if (samples) buffers.push(samples.leaf.buffer as ArrayBuffer, samples.time.buffer as ArrayBuffer, samples.weight.buffer as ArrayBuffer);
      const r = get();
      await Promise.race([r.setBase(id, Comlink.transfer(wire, buffers)), failed]);
    },
    derive: (id, seq, request, keep) => {
      const r = get();
      return Promise.race([r.derive(id, seq, request, keep), failed]);
    },
    table: (id, seq, ref, reversed) => {
      const r = get();
      return Promise.race([r.table(id, seq, ref, reversed), failed]);
    },
    sandwich: (id, seq, ref, name, reversed) => {
      const r = get();
      return Promise.race([r.sandwich(id, seq, ref, name, reversed), failed]);
    },
    dispose: () => {
      worker?.terminate();
      worker = null;
      remote = null;
    },
  };
}

/** In-process backend: the same pipeline without a Worker (unit tests, a page without workers). */
export function inlineBackend(): DeriveBackend {
  let input: DeriveInput | null = null;
  let baseId = -1;
  let kept: { seq: number; tree: CallTree }[] = [];
  const treeOfRef = (id: number, ref: AnalysisTreeRef): CallTree | null => {
    if (!input || id !== baseId) return null;
    if ('view' in ref) return ref.view === 'functions' && input.functions ? input.functions : input.inline;
    const hit = kept.find((k) => k.seq === ref.seq);
    if (hit) return hit.tree;
    const tree = derive(input, ref.request).tree;
    kept = [{ seq: ref.seq, tree }, ...kept].slice(0, 2);
    return tree;
  };
  return {
    setBase: (id, i) => {
      baseId = id;
      input = i;
      kept = [];
    },
    derive: async (id, seq, request, keep) => {
      if (!input || id !== baseId) return null;
      const t0 = performance.now();
      const r = derive(input, request);
      // As the worker: kept only when asked (else derived again on a table/sandwich request).
      if (keep) kept = [{ seq, tree: r.tree }, ...kept].slice(0, 2);
      return { tree: r.tree, toNew: r.toNew, ranged: r.ranged, ms: performance.now() - t0 };
    },
    table: async (id, _seq, ref, reversed) => {
      const tree = treeOfRef(id, ref);
      return tree && input ? analyseTable(tree, input.frames, reversed) : null;
    },
    sandwich: async (id, _seq, ref, name, reversed) => {
      const tree = treeOfRef(id, ref);
      return tree && input ? analyseSandwich(tree, input.frames, name, reversed) : null;
    },
  };
}

/** Says something in the notices region (role=status) above the graph. */
function notify(message: string): void {
  const notices = useLinkNotices.getState().notices;
  useLinkNotices.setState({ notices: [...notices, { id: Date.now(), text: message }].slice(-5) });
}

function requestOf(s: StoreState): DeriveRequest {
  return { view: s.view, transforms: s.transforms, reversed: s.reversed, range: s.timeRange };
}

function rangeKey(snapshot: ProfileSnapshot, request: Pick<DeriveRequest, 'range'>): string {
  return rangeApplies({ samples: samplesOf(snapshot) }, request) && request.range ? `${request.range.from}:${request.range.to}` : '-';
}

export function startDeriveController(backend: DeriveBackend = workerBackend()): () => void {
  const ids = new WeakMap<ProfileSnapshot, number>();
  let nextId = 1;
  let sentFor: ProfileSnapshot | null = null;
  let seq = 0;
  let wantedKey = '';
  let retried = '';

  const idOf = (snapshot: ProfileSnapshot) => {
    let id = ids.get(snapshot);
    if (id === undefined) ids.set(snapshot, (id = nextId++));
    return id;
  };
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
  const shownNow = (s: StoreState & { snapshot: ProfileSnapshot }): ShownTree => {
    const d = s.derived;
    if (d && d.snapshot === s.snapshot) {
      const range = d.ranged && d.range ? `${d.range.from}:${d.range.to}` : '-';
      return { tree: d.tree, inputKey: inputKey(s.snapshot, d.view, range), input: d.ranged ? null : treeOf(s.snapshot, d.view), toNew: d.toNew ?? 'none' };
    }
    const tree = treeOf(s.snapshot, s.view);
    return { tree, inputKey: inputKey(s.snapshot, s.view, '-'), input: tree, toNew: null };
  };

  /** Shows `next` (null: the base tree) with the zoom and selection mapped onto it. */
  const show = (s: StoreState & { snapshot: ProfileSnapshot }, next: DerivedView | null, timing?: Omit<DeriveTiming, 'applyMs' | 'nodes'>) => {
    const t0 = performance.now();
    const from = shownNow(s);
    const to: ShownTree = next
      ? {
          tree: next.tree,
          inputKey: inputKey(s.snapshot, next.view, next.ranged && next.range ? `${next.range.from}:${next.range.to}` : '-'),
          input: next.ranged ? null : treeOf(s.snapshot, next.view),
          toNew: next.toNew ?? 'none',
        }
      : { tree: treeOf(s.snapshot, s.view), inputKey: inputKey(s.snapshot, s.view, '-'), input: null, toNew: null };
    const frames = s.snapshot.frames;
    const [zoomNode, selectedNode] = mapShownNodes(frames, from, [s.zoomNode, s.selectedNode], to);
    s.applyDerived(next, { zoomNode, selectedNode });
    useStore.getState().setDeriving(false);
    const parked = takeParkedZoom();
    if (parked) parked.run(notify);
    if (timing) lastDeriveTiming = { ...timing, applyMs: performance.now() - t0, nodes: to.tree.nodeCount };
  };

  const run = () => {
    const s = useStore.getState();
    const snapshot = s.snapshot;
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
      seq++;
      const d = s.derived;
      if (d !== null || s.deriving) show(s as StoreState & { snapshot: ProfileSnapshot }, null);
      else takeParkedZoom();
      return;
    }
    ensureBase(snapshot);
    const id = idOf(snapshot);
    const mine = ++seq;
    s.setDeriving(true);
    const t0 = performance.now();
    const keep = s.analysis.panel !== 'none' && treeOf(snapshot, s.view).nodeCount > SYNC_NODES;
    backend.derive(id, mine, request, keep).then(
      (reply) => {
        if (mine !== seq) return; // overtaken: a newer request is on its way
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
        if (!now.snapshot || keyOf(now.snapshot, requestOf(now)) !== key) return;
        const next: DerivedView = { snapshot: now.snapshot, ...request, tree: reply.tree, toNew: reply.toNew, ranged: reply.ranged };
        derivedRefs.set(reply.tree, { id, seq: mine, request });
        show(now as StoreState & { snapshot: ProfileSnapshot }, next, { workerMs: reply.ms, roundTripMs: performance.now() - t0 });
      },
      (error: unknown) => {
        if (mine !== seq) return;
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

  const unsub = useStore.subscribe(
    (s) => [s.snapshot, s.view, s.transforms, s.reversed, s.timeRange] as const,
    // Read the store afresh: a nested update may hand this listener an older slice.
    () => run(),
    { equalityFn: (a, b) => a.every((x, i) => x === b[i]) },
  );
  run();
  const stopAnalysis = startAnalysisController(backend, ensureBase);
  if (typeof window !== 'undefined') (window as unknown as { flameviewDerive?: () => DeriveTiming | null }).flameviewDerive = () => lastDeriveTiming;
  return () => {
    unsub();
    stopAnalysis();
    backend.dispose?.();
  };
}

export type { CallTree };
