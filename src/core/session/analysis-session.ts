// The session the analysis worker wraps (workers/analysis.worker.ts), also driven in-process by
// the page's inline backend and the tests: one recording's base trees (sent once), derived trees
// on request (transforms, reversed, a time range), and the function table and callers/callees of
// a tree it holds.
//
// Invariants: requests name a recording by id and are ignored for another one; the last range-
// restricted input tree is reused while the range stays; the last two derived trees asked to be
// kept (by request seq) stay for table and callers & callees requests, and one not kept is derived again; with
// `skipOvertaken`, a request that a newer one of its kind overtook while queued answers null.

import type { CallTree } from '../model/call-tree';
import { copyTree, derive, deriveInputTree, type BaseMap, type DeriveInput, type DeriveRequest } from '../views/derive';
import { analyseCallersCallees, analyseTable, type AnalysisTreeRef, type CallersCalleesReply, type TableReply } from '../views/derive-analysis';
import { Latest } from '../util/latest';

export interface DeriveReply {
  tree: CallTree;
  toNew: Int32Array | null;
  /** The base tree's nodes in the shown stacks (the Source panel's line figures read it). */
  base: BaseMap;
  ranged: boolean;
  /** CPU-side time of the derivation (ms, performance.now). */
  ms: number;
}

export interface AnalysisSessionOptions {
  /** The reply's tree is transferred: copy a tree that shares the base's columns. */
  copyShared: boolean;
  /** Yield before work so a queued newer request overtakes this one (which then answers null). */
  skipOvertaken: boolean;
}

export class AnalysisSession {
  private base: { id: number; input: DeriveInput } | null = null;
  /** The last range-restricted input tree (switching transforms under one range reuses it). */
  private rangeCache: { key: string; value: ReturnType<typeof deriveInputTree> } | null = null;
  /** The last derived trees built (by request seq), kept for the function table and the callers & callees. */
  private kept: { id: number; seq: number; tree: CallTree }[] = [];
  private readonly latest = { derive: new Latest(), table: new Latest(), callersCallees: new Latest() };

  constructor(private readonly options: AnalysisSessionOptions) {}

  setBase(id: number, input: DeriveInput): void {
    this.base = { id, input };
    this.rangeCache = null;
    this.kept = [];
  }

  /** `keep`: the analysis panel is open, so keep this tree for its table and callers & callees. */
  async derive(id: number, seq: number, request: DeriveRequest, keep = false): Promise<DeriveReply | null> {
    if (!(await this.stillLatest('derive', seq)) || !this.base || this.base.id !== id) return null;
    const t0 = performance.now();
    const r = this.compute(request);
    // A tree that shares the input's columns is copied anyway, so it is kept for free; another
    // is kept only when asked to (a copy costs ~100 ms of CPU at 1M nodes).
    const shared = r.sharesInput && this.options.copyShared;
    const tree = shared || (keep && this.options.copyShared) ? copyTree(r.tree) : r.tree;
    if (shared || keep) this.keep(id, seq, r.tree);
    return { tree, toNew: r.toNew, base: r.base, ranged: r.ranged, ms: performance.now() - t0 };
  }

  /** The function table of a tree this session holds (null: skipped, or the tree is gone). */
  async table(id: number, seq: number, ref: AnalysisTreeRef, reversed: boolean): Promise<TableReply | null> {
    if (!(await this.stillLatest('table', seq))) return null;
    const tree = this.treeOfRef(id, ref);
    return tree && this.base ? analyseTable(tree, this.base.input.frames, reversed) : null;
  }

  /** The callers and callees trees of `name` in a tree this session holds (null: skipped or gone). */
  async callersCallees(id: number, seq: number, ref: AnalysisTreeRef, name: string, reversed: boolean): Promise<CallersCalleesReply | null> {
    if (!(await this.stillLatest('callersCallees', seq))) return null;
    const tree = this.treeOfRef(id, ref);
    return tree && this.base ? analyseCallersCallees(tree, this.base.input.frames, name, reversed) : null;
  }

  private keep(id: number, seq: number, tree: CallTree): void {
    this.kept = [{ id, seq, tree }, ...this.kept].slice(0, 2);
  }

  /** The tree a table or callers & callees request names, or null (another recording). */
  private treeOfRef(id: number, ref: AnalysisTreeRef): CallTree | null {
    const base = this.base;
    if (!base || base.id !== id) return null;
    if ('view' in ref) return ref.view === 'functions' && base.input.functions ? base.input.functions : base.input.inline;
    const hit = this.kept.find((k) => k.id === id && k.seq === ref.seq);
    if (hit) return hit.tree;
    // Not kept (derived while the panel was closed): derive it again, here, and keep it.
    const tree = this.compute(ref.request).tree;
    this.keep(id, ref.seq, tree);
    return tree;
  }

  /** derive() over the base, reusing the last range-restricted input tree. */
  private compute(request: DeriveRequest): ReturnType<typeof derive> {
    const input = (this.base as NonNullable<typeof this.base>).input;
    const key = request.range ? `${request.view}:${request.range.from}:${request.range.to}` : '';
    let start = this.rangeCache?.key === key ? this.rangeCache.value : undefined;
    if (!start && key) {
      start = deriveInputTree(input, request);
      this.rangeCache = { key, value: start };
    }
    return derive(input, request, start);
  }

  /** With skipOvertaken: yields once, then tells whether request `seq` of `kind` is still the latest. */
  private async stillLatest(kind: keyof AnalysisSession['latest'], seq: number): Promise<boolean> {
    if (!this.options.skipOvertaken) return true;
    this.latest[kind].observe(seq);
    await new Promise((r) => setTimeout(r, 0));
    return this.latest[kind].isLatest(seq);
  }
}
