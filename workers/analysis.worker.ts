// The analysis worker: a comlink facade over an AnalysisSession (src/core/session/analysis-session.ts).
// The page sends a recording's base trees once (setBase: typed arrays by transfer, the string
// table joined into one string) and then asks for derived trees, function tables and callers/
// callees; only the results' column buffers come back, by transfer. The latest request wins: one
// that a newer one overtook while queued is skipped (null).

import * as Comlink from 'comlink';
import { AnalysisSession, type DeriveReply } from '../src/core/session/analysis-session';
import { treeColumns, type DeriveInput, type DeriveRequest } from '../src/core/views/derive';
import { callersCalleesColumns, tableColumns, type AnalysisTreeRef, type CallersCalleesReply, type TableReply } from '../src/core/views/derive-analysis';
import { unpackStrings } from '../src/core/util/wire';

export type BaseWire = Omit<DeriveInput, 'frames'> & { frames: Omit<DeriveInput['frames'], 'strings'>; strings: string };
export type { DeriveReply };

const session = new AnalysisSession({ copyShared: true, skipOvertaken: true });

const api = {
  setBase(id: number, wire: BaseWire): void {
    const { strings, ...rest } = wire;
    session.setBase(id, { ...rest, frames: { ...wire.frames, strings: unpackStrings(strings) } });
  },
  /** `keep`: the analysis panel is open, so keep this tree for its table and callers & callees (one more copy). */
  async derive(id: number, seq: number, request: DeriveRequest, keep = false): Promise<DeriveReply | null> {
    const reply = await session.derive(id, seq, request, keep);
    if (!reply) return null;
    const buffers = treeColumns(reply.tree);
    if (reply.toNew) buffers.push(reply.toNew.buffer as ArrayBuffer);
    buffers.push(reply.base.toNew.buffer as ArrayBuffer);
    if (reply.base.frame) buffers.push(reply.base.frame.buffer as ArrayBuffer);
    // base.toNew is toNew itself when no range applies: a buffer is listed once.
    return Comlink.transfer(reply, [...new Set(buffers)]);
  },
  async table(id: number, seq: number, ref: AnalysisTreeRef, reversed: boolean): Promise<TableReply | null> {
    const reply = await session.table(id, seq, ref, reversed);
    return reply && Comlink.transfer(reply, tableColumns(reply.table));
  },
  async callersCallees(id: number, seq: number, ref: AnalysisTreeRef, name: string, reversed: boolean): Promise<CallersCalleesReply | null> {
    const reply = await session.callersCallees(id, seq, ref, name, reversed);
    return reply && Comlink.transfer(reply, callersCalleesColumns(reply));
  },
};

export type AnalysisWorkerApi = typeof api;

Comlink.expose(api);
