// The analysis worker: a comlink facade over derive() (src/core/views/derive.ts). The page sends
// a recording's base trees once (setBase: a structured clone of typed arrays, one memcpy) and then
// asks for derived trees; only the result's column buffers come back, by transfer. The latest
// request wins: a request that a newer one overtook while queued is skipped (null).

import * as Comlink from 'comlink';
import type { CallTree } from '../src/core/model/call-tree';
import { copyTree, derive, deriveInputTree, treeColumns, type DeriveInput, type DeriveRequest } from '../src/core/views/derive';
import { analyseSandwich, analyseTable, sandwichColumns, tableColumns, type AnalysisTreeRef, type SandwichReply, type TableReply } from '../src/core/views/derive-analysis';

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
/** The last derived trees built (by request seq), kept for the function table and the sandwich. */
let kept: { id: number; seq: number; tree: CallTree }[] = [];
const latestOf = { table: 0, sandwich: 0 };

/** The tree a table/sandwich request names, or null (another recording, or no longer kept). */
function treeOfRef(id: number, ref: AnalysisTreeRef): CallTree | null {
  if (!base || base.id !== id) return null;
  if ('view' in ref) return ref.view === 'functions' && base.input.functions ? base.input.functions : base.input.inline;
  const hit = kept.find((k) => k.id === id && k.seq === ref.seq);
  if (hit) return hit.tree;
  // Not kept (derived while the panel was closed): derive it again, here, and keep it.
  const tree = compute(ref.request).tree;
  kept = [{ id, seq: ref.seq, tree }, ...kept].slice(0, 2);
  return tree;
}

/** derive() over the base, reusing the last range-restricted input tree. */
function compute(request: DeriveRequest): ReturnType<typeof derive> {
  const input = (base as NonNullable<typeof base>).input;
  const key = request.range ? `${request.view}:${request.range.from}:${request.range.to}` : '';
  let start = rangeCache?.key === key ? rangeCache.value : undefined;
  if (!start && key) {
    start = deriveInputTree(input, request);
    rangeCache = { key, value: start };
  }
  return derive(input, request, start);
}

/** Yields once, then tells whether request `seq` of `kind` is still the latest. */
async function stillLatest(kind: keyof typeof latestOf, seq: number): Promise<boolean> {
  latestOf[kind] = Math.max(latestOf[kind], seq);
  await new Promise((r) => setTimeout(r, 0));
  return seq === latestOf[kind];
}

const api = {
  setBase(id: number, wire: BaseWire): void {
    const { strings, ...rest } = wire;
    const frames = { ...wire.frames, strings: strings.length ? strings.split('\0') : [] };
    base = { id, input: { ...rest, frames } };
    rangeCache = null;
    kept = [];
  },
  /** `keep`: the analysis panel is open, so keep this tree for its table/sandwich (one more copy). */
  async derive(id: number, seq: number, request: DeriveRequest, keep = false): Promise<DeriveReply | null> {
    latest = Math.max(latest, seq);
    // Let queued messages in first, so an overtaken request is skipped, not computed.
    await new Promise((r) => setTimeout(r, 0));
    if (seq !== latest || !base || base.id !== id) return null;
    const t0 = performance.now();
    const r = compute(request);
    // A tree that shares the input's columns is copied anyway, so it is kept for free; another
    // is kept (its copy sent) only when asked to (the copy costs ~100 ms of CPU at 1M nodes).
    const tree = r.sharesInput || keep ? copyTree(r.tree) : r.tree;
    if (r.sharesInput || keep) kept = [{ id, seq, tree: r.tree }, ...kept].slice(0, 2);
    const reply: DeriveReply = { tree, toNew: r.toNew, ranged: r.ranged, ms: performance.now() - t0 };
    const buffers = treeColumns(tree);
    if (r.toNew) buffers.push(r.toNew.buffer as ArrayBuffer);
    return Comlink.transfer(reply, buffers);
  },
  /** The function table of a tree this worker holds (null: skipped, or the tree is gone). */
  async table(id: number, seq: number, ref: AnalysisTreeRef, reversed: boolean): Promise<TableReply | null> {
    if (!(await stillLatest('table', seq))) return null;
    const tree = treeOfRef(id, ref);
    if (!tree || !base) return null;
    const reply = analyseTable(tree, base.input.frames, reversed);
    return Comlink.transfer(reply, tableColumns(reply.table));
  },
  /** The callers and callees trees of `name` in a tree this worker holds (null: skipped or gone). */
  async sandwich(id: number, seq: number, ref: AnalysisTreeRef, name: string, reversed: boolean): Promise<SandwichReply | null> {
    if (!(await stillLatest('sandwich', seq))) return null;
    const tree = treeOfRef(id, ref);
    if (!tree || !base) return null;
    const reply = analyseSandwich(tree, base.input.frames, name, reversed);
    return Comlink.transfer(reply, sandwichColumns(reply));
  },
};

export type AnalysisWorkerApi = typeof api;

Comlink.expose(api);
