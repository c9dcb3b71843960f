// Where derivations run: the analysis worker (a comlink facade over an AnalysisSession), or the
// same session in-process (unit tests, a page without workers). The derive controller sends each
// recording's base trees once and then asks for derived trees, tables and callers/callees.

import * as Comlink from 'comlink';
import type { ProfileSnapshot } from '../core/views/snapshot';
import { AnalysisSession } from '../core/session/analysis-session';
import type { SampleColumns } from '../core/model/sample-column';
import { copyTree, treeColumns, type DeriveInput, type DeriveRequest } from '../core/views/derive';
import type { AnalysisTreeRef, CallersCalleesReply, TableReply } from '../core/views/derive-analysis';
import type { AnalysisWorkerApi, BaseWire, DeriveReply } from '../../workers/analysis.worker';
import { packStrings } from '../core/util/wire';

/** Where derivations run: the worker, or in-process (tests). */
export interface DeriveBackend {
  setBase(id: number, input: DeriveInput): Promise<void> | void;
  /** `keep`: keep the result for table and callers & callees requests (the analysis panel is open). */
  derive(id: number, seq: number, request: DeriveRequest, keep?: boolean): Promise<DeriveReply | null>;
  /** The function table / callers & callees of a tree the backend holds (analysis-controller.ts). */
  table?(id: number, seq: number, ref: AnalysisTreeRef, reversed: boolean): Promise<TableReply | null>;
  callersCallees?(id: number, seq: number, ref: AnalysisTreeRef, name: string, reversed: boolean): Promise<CallersCalleesReply | null>;
  dispose?(): void;
}


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
      const s = input.samples;
      // The spans' durations go too: a time range clips them (treeForRange).
      const samples = s ? { count: s.count, leaf: copy(s.leaf), time: copy(s.time), weight: copy(s.weight), ...(s.duration ? { duration: copy(s.duration) } : {}) } : null;
      const wire: BaseWire = { frames, inline, functions, toFunction, samples, strings: packStrings(strings) };
      const buffers = [...treeColumns(inline), ...(functions ? treeColumns(functions) : [])];
      if (toFunction) buffers.push(toFunction.buffer as ArrayBuffer);
      if (samples) buffers.push(samples.leaf.buffer as ArrayBuffer, samples.time.buffer as ArrayBuffer, samples.weight.buffer as ArrayBuffer);
      if (samples?.duration) buffers.push(samples.duration.buffer as ArrayBuffer);
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
    callersCallees: (id, seq, ref, name, reversed) => {
      const r = get();
      return Promise.race([r.callersCallees(id, seq, ref, name, reversed), failed]);
    },
    dispose: () => {
      worker?.terminate();
      worker = null;
      remote = null;
    },
  };
}

/** In-process backend: the same session without a Worker (unit tests, a page without workers). */
export function inlineBackend(): DeriveBackend {
  const session = new AnalysisSession({ copyShared: false, skipOvertaken: false });
  return {
    setBase: (id, input) => session.setBase(id, input),
    derive: (id, seq, request, keep) => session.derive(id, seq, request, keep),
    table: (id, seq, ref, reversed) => session.table(id, seq, ref, reversed),
    callersCallees: (id, seq, ref, name, reversed) => session.callersCallees(id, seq, ref, name, reversed),
  };
}

