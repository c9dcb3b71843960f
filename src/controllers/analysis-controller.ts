// Connects the analysis panel to the analysis worker: while the panel is open on a tree of more
// than SYNC_NODES nodes, asks the worker for the function table (table panel) or the callers and
// callees trees of the selected function (the callers & callees panel) of the tree the main graph shows, and
// puts the result in the store (analysis.table / analysis.callersCalleesTrees). Runs outside React;
// started by the derive controller, with its backend (one worker).
//
// Invariants: the worker computes over its own copy of the tree (a derived tree by its derive
// seq, kept when the panel was open or derived again there, or a base view tree), so no tree
// crosses back to it; the latest request of each kind wins
// (a reply whose request was overtaken, or whose tree/function/panel is no longer shown, is
// dropped); `analysis.pending` is true while a request for what is shown is in flight, so the
// graphs stay aria-busy; results are cached per tree on this side, so going back to a tree or a
// function costs no round trip; a backend that cannot answer (no such tree there, an error)
// falls back to computing here.

import type { CallTree } from '../core/model/call-tree';
import type { DeriveRequest } from '../core/views/derive';
import type { ProfileSnapshot } from '../core/views/snapshot';
import type { AnalysisTreeRef } from '../core/views/derive-analysis';
import type { CallersCalleesResult, TableResult } from '../store/analysis-slice';
import { useStore } from '../store/store';
import { watch } from '../store/watch';
import { currentTree } from '../store/tree-helpers';
import type { OpenStoreState } from '../store/types';
import type { DeriveBackend } from './derive-backend';
import { callersCalleesOf, callersCalleesPair } from '../core/query/callers-callees';
import { tableFor } from '../core/query/table-model';
import { isReversed } from '../store/selectors';
import { Latest } from '../core/util/latest';

/** Timings of the last worker answers (ms; for the bench and the console). */
export const lastAnalysisTiming: { table: { workerMs: number; roundTripMs: number } | null; callersCallees: { workerMs: number; roundTripMs: number } | null } = {
  table: null,
  callersCallees: null,
};

interface Job {
  /** What the request in flight is for (tree, reversed, name), or null. */
  tree: CallTree | null;
  reversed: boolean;
  name: string | null;
  latest: Latest;
}

export function startAnalysisController(
  backend: DeriveBackend,
  ensureBase: (snapshot: ProfileSnapshot) => number,
  /** The backend's handle on a derived tree the derive controller showed, or null. */
  derivedRefOf: (tree: CallTree) => { id: number; seq: number; request: DeriveRequest } | null,
): () => void {
  const tables = new WeakMap<CallTree, TableResult[]>();
  const recentCallersCallees = new WeakMap<CallTree, CallersCalleesResult[]>();
  const table: Job = { tree: null, reversed: false, name: null, latest: new Latest() };
  const callersCallees: Job = { tree: null, reversed: false, name: null, latest: new Latest() };

  const cacheTable = (r: TableResult) => {
    const list = tables.get(r.tree) ?? [];
    tables.set(r.tree, [r, ...list.filter((e) => e.reversed !== r.reversed)]);
  };
  const cacheCallersCallees = (r: CallersCalleesResult) => {
    const list = recentCallersCallees.get(r.tree) ?? [];
    recentCallersCallees.set(r.tree, [r, ...list.filter((e) => e.name !== r.name || e.reversed !== r.reversed)].slice(0, 8));
  };

  /** Which backend tree the shown tree is, or null (not one the backend holds). */
  const refOf = (s: OpenStoreState, tree: CallTree): { id: number; ref: AnalysisTreeRef } | null => {
    const d = s.derived;
    if (d && d.snapshot === s.recordings.a.snapshot && d.tree === tree) {
      const r = derivedRefOf(tree);
      return r ? { id: r.id, ref: { seq: r.seq, request: r.request } } : null;
    }
    return { id: ensureBase(s.recordings.a.snapshot), ref: { view: s.view } };
  };

  const stop = (job: Job) => {
    job.tree = null;
    job.name = null;
    job.latest.cancel();
  };
  const setPending = () => useStore.getState().setAnalysisResults({ pending: table.tree !== null || callersCallees.tree !== null });

  const requestTable = (s: OpenStoreState, tree: CallTree, reversed: boolean) => {
    const have = s.analysis.table;
    if (have && have.tree === tree && have.reversed === reversed) return stop(table);
    const hit = tables.get(tree)?.find((e) => e.reversed === reversed);
    if (hit) {
      stop(table);
      return s.setAnalysisResults({ table: hit });
    }
    if (table.tree === tree && table.reversed === reversed) return; // already asked
    const frames = s.recordings.a.snapshot.frames;
    const local = () => {
      stop(table);
      const r: TableResult = { tree, reversed, table: tableFor(tree, frames, reversed) };
      cacheTable(r);
      useStore.getState().setAnalysisResults({ table: r });
    };
    const where = refOf(s, tree);
    if (!where || !backend.table) return local();
    const mine = table.latest.next();
    Object.assign(table, { tree, reversed });
    const t0 = performance.now();
    backend.table(where.id, mine, where.ref, reversed).then(
      (reply) => {
        if (!table.latest.isLatest(mine)) return; // overtaken or no longer wanted
        if (!reply) return void (local(), setPending());
        lastAnalysisTiming.table = { workerMs: reply.ms, roundTripMs: performance.now() - t0 };
        stop(table);
        const r: TableResult = { tree, reversed, table: reply.table };
        cacheTable(r);
        useStore.getState().setAnalysisResults({ table: r });
        setPending();
      },
      (error: unknown) => {
        if (!table.latest.isLatest(mine)) return;
        console.error('flameview: the function table failed in the worker', error);
        local();
        setPending();
      },
    );
  };

  const requestCallersCallees = (s: OpenStoreState, tree: CallTree, reversed: boolean, name: string) => {
    const have = s.analysis.callersCalleesTrees;
    if (have && have.tree === tree && have.reversed === reversed && have.name === name) return stop(callersCallees);
    const hit = recentCallersCallees.get(tree)?.find((e) => e.reversed === reversed && e.name === name);
    if (hit) {
      stop(callersCallees);
      return s.setAnalysisResults({ callersCalleesTrees: hit });
    }
    if (callersCallees.tree === tree && callersCallees.reversed === reversed && callersCallees.name === name) return;
    const frames = s.recordings.a.snapshot.frames;
    const local = () => {
      stop(callersCallees);
      const r: CallersCalleesResult = { tree, name, reversed, trees: callersCalleesOf(tree, frames, name, reversed) };
      cacheCallersCallees(r);
      useStore.getState().setAnalysisResults({ callersCalleesTrees: r });
    };
    const where = refOf(s, tree);
    if (!where || !backend.callersCallees) return local();
    const mine = callersCallees.latest.next();
    Object.assign(callersCallees, { tree, reversed, name });
    const t0 = performance.now();
    backend.callersCallees(where.id, mine, where.ref, name, reversed).then(
      (reply) => {
        if (!callersCallees.latest.isLatest(mine)) return;
        if (!reply) return void (local(), setPending());
        lastAnalysisTiming.callersCallees = { workerMs: reply.ms, roundTripMs: performance.now() - t0 };
        stop(callersCallees);
        const trees = reply.callers && reply.callees ? callersCalleesPair(reply.callers, reply.callees) : null;
        const r: CallersCalleesResult = { tree, name, reversed, trees };
        cacheCallersCallees(r);
        useStore.getState().setAnalysisResults({ callersCalleesTrees: r });
        setPending();
      },
      (error: unknown) => {
        if (!callersCallees.latest.isLatest(mine)) return;
        console.error('flameview: the callers/callees failed in the worker', error);
        local();
        setPending();
      },
    );
  };

  const run = () => {
    const s = useStore.getState();
    const tree = currentTree(s);
    const { panel, selectedFunction } = s.analysis;
    // While a derivation is under way the shown tree is about to change: ask for the next one.
    const big = s.recordings.a.snapshot !== null && tree !== null && tree.nodeCount > s.analysis.syncNodes && !s.deriving;
    if (big && panel === 'table') requestTable(s as OpenStoreState, tree, isReversed(s));
    else stop(table);
    if (big && panel === 'callersCallees' && selectedFunction !== null) requestCallersCallees(s as OpenStoreState, tree, isReversed(s), selectedFunction);
    else stop(callersCallees);
    setPending();
  };

  const unsub = watch(
    (s) => ({ snapshot: s.recordings.a.snapshot, view: s.view, derived: s.derived, deriving: s.deriving, panel: s.analysis.panel, selectedFunction: s.analysis.selectedFunction }),
    () => run(),
  );
  run();
  if (typeof window !== 'undefined') {
    const w = window as unknown as { flameviewAnalysis?: typeof lastAnalysisTiming; flameviewSetSyncNodes?: (n: number) => void };
    w.flameviewAnalysis = lastAnalysisTiming;
    // For the e2e tests and the bench: 0 sends every tree's table and callers & callees to the worker.
    w.flameviewSetSyncNodes = (n) => useStore.getState().setSyncNodes(n);
  }
  return () => {
    unsub();
    stop(table);
    stop(callersCallees);
  };
}
