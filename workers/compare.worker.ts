// The compare worker: a comlink facade over a CompareSession (src/core/session/compare-session.ts).
// The page sends each recording of a comparison once (copies of its columns, by transfer) and
// asks for the differential colouring, a node's figures and the change table; column replies
// come back by transfer.

import * as Comlink from 'comlink';
import { CompareSession } from '../src/core/session/compare-session';
import { replyBuffers, type RecordingWire } from '../src/core/session/compare-protocol';

const session = new CompareSession();

const api = {
  setRecording: (slot: 'A' | 'B', id: number, wire: RecordingWire) => session.setRecording(slot, id, wire),
  colours(...args: Parameters<CompareSession['colours']>) {
    const reply = session.colours(...args);
    return reply && Comlink.transfer(reply, replyBuffers(reply));
  },
  figures: (...args: Parameters<CompareSession['figures']>) => session.figures(...args),
  changeTable(...args: Parameters<CompareSession['changeTable']>) {
    const reply = session.changeTable(...args);
    return reply && Comlink.transfer(reply, replyBuffers(reply));
  },
};

export type CompareWorkerApi = typeof api;

Comlink.expose(api);
