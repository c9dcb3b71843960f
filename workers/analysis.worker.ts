// The analysis worker: a comlink facade over derive() (src/core/views/derive.ts). The page sends
// a recording's base trees once (setBase: a structured clone of typed arrays, one memcpy) and then
// asks for derived trees; only the result's column buffers come back, by transfer. The latest
// request wins: a request that a newer one overtook while queued is skipped (null).

import * as Comlink from 'comlink';
import type { CallTree } from '../src/core/model/call-tree';
import { copyTree, derive, deriveInputTree, treeColumns, type DeriveInput, type DeriveRequest } from '../src/core/views/derive';

export type BaseWire = Omit<DeriveInput, 'frames'> & { frames: Omit<DeriveInput['frames'], 'strings'>; strings: string };
export interface DeriveReply {
  tree: CallTree;
  toNew: Int32Array | null;
  ranged: boolean;
  /** Worker CPU-side time of the derivation (ms, performance.now). */
  ms: number;
}

let base: { id: number; input: DeriveInput } | null = null;
/** The last range-restricted input tree (switching transforms under one range reuses it). */
let rangeCache: { key: string; value: ReturnType<typeof deriveInputTree> } | null = null;
let latest = 0;

const api = {
  setBase(id: number, wire: BaseWire): void {
    const { strings, ...rest } = wire;
    const frames = { ...wire.frames, strings: strings.length ? strings.split('\0') : [] };
    base = { id, input: { ...rest, frames } };
    rangeCache = null;
  },
  async derive(id: number, seq: number, request: DeriveRequest): Promise<DeriveReply | null> {
    latest = Math.max(latest, seq);
    // Let queued messages in first, so an overtaken request is skipped, not computed.
    await new Promise((r) => setTimeout(r, 0));
    if (seq !== latest || !base || base.id !== id) return null;
    const t0 = performance.now();
    const key = request.range ? `${request.view}:${request.range.from}:${request.range.to}` : '';
    let start = rangeCache?.key === key ? rangeCache.value : undefined;
    if (!start && key) {
      start = deriveInputTree(base.input, request);
      rangeCache = { key, value: start };
    }
    const r = derive(base.input, request, start);
    const tree = r.sharesInput ? copyTree(r.tree) : r.tree;
    const reply: DeriveReply = { tree, toNew: r.toNew, ranged: r.ranged, ms: performance.now() - t0 };
    const buffers = treeColumns(tree);
    if (r.toNew) buffers.push(r.toNew.buffer as ArrayBuffer);
    return Comlink.transfer(reply, buffers);
  },
};

export type AnalysisWorkerApi = typeof api;

Comlink.expose(api);
