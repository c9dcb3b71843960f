// What crosses between the page and the compare session (compare-session.ts): each recording
// once, as copies of its tree columns and frame columns plus one joined string table; then small
// requests, answered by typed-array columns (and one joined string for the change table's names).
// Decoding here is unpacking, never computing: the page imports this module, not the diff.
//
// Invariants: names cross packed (util/wire.ts), never as arrays of strings; a change table
// row i has its four self figures at self[4i … 4i+3] (A, B, Δ, Δ%), likewise total.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { NodeDelta } from '../views/diff';
import type { FunctionDelta } from '../views/function-deltas';
import type { ProfileSnapshot, RunShares, ShareTableWire } from '../views/snapshot';
import { packStrings, unpackStrings } from '../util/wire';

/** Which recordings a request is about (ids the page gave them when it sent them). */
export interface CompareIds {
  a: number;
  b: number;
}

export interface RecordingWire {
  frames: Omit<FrameTable, 'strings'>;
  strings: string;
  inline: CallTree;
  functions: CallTree | null;
  /** A recording summed from several: each run's function shares (for the spread), else null. */
  runShares: RunShares | null;
}

export interface ColoursReply {
  /** B − A per node of the shaping tree ('pct': percentage points; 'abs': weight). */
  delta: Float64Array;
  maxAbs: number;
  /** Per node of the shaping tree: the same path's node in the other run, or -1. */
  match: Int32Array;
}

export interface FiguresReply {
  name: string;
  path: NodeDelta;
  /** The node's function over every call site in both runs; null for the root. */
  fn: FunctionDelta | null;
}

export interface ChangeTableReply {
  names: string;
  /** 0 both, 1 new (only B), 2 gone (only A). */
  status: Uint8Array;
  self: Float64Array;
  total: Float64Array;
  /**
   * When A or B is several runs: row i's self spread of A and of B (percentage points of each
   * run's total) at spread[2i], spread[2i+1], and noise[i] 1 when |self Δ%pt| is at most the larger.
   */
  spread: Float64Array | null;
  noise: Uint8Array | null;
}

/** The buffers of a reply, for a transfer. */
export function replyBuffers(reply: ColoursReply | ChangeTableReply): ArrayBuffer[] {
  const cols = 'delta' in reply ? [reply.delta, reply.match] : [reply.status, reply.self, reply.total, reply.spread, reply.noise].filter((c) => c !== null);
  return cols.map((c) => c.buffer as ArrayBuffer);
}

/** The wire form of a recording's base trees: the page keeps drawing its own columns, so these are copies. */
export function recordingWire(snapshot: Pick<ProfileSnapshot, 'frames' | 'inline' | 'functions' | 'runShares'>): { wire: RecordingWire; transfer: ArrayBuffer[] } {
  const { strings, name, module, flags, count } = snapshot.frames;
  const transfer: ArrayBuffer[] = [];
  const copy = <T extends Int32Array | Uint8Array | Float64Array | Uint16Array | Uint32Array | Float32Array>(a: T): T => {
    const c = a.slice() as T;
    transfer.push(c.buffer as ArrayBuffer);
    return c;
  };
  const tree = (t: CallTree): CallTree => ({
    nodeCount: t.nodeCount,
    maxDepth: t.maxDepth,
    parent: copy(t.parent),
    frame: copy(t.frame),
    depth: copy(t.depth),
    end: copy(t.end),
    selfWeight: copy(t.selfWeight),
    totalWeight: copy(t.totalWeight),
    selfSamples: copy(t.selfSamples),
    totalSamples: copy(t.totalSamples),
  });
  const wire: RecordingWire = {
    frames: { count, name: copy(name), module: copy(module), flags: copy(flags) },
    strings: packStrings(strings),
    inline: tree(snapshot.inline),
    functions: snapshot.functions ? tree(snapshot.functions) : null,
    runShares: null,
  };
  const shares = (t: ShareTableWire): ShareTableWire => ({ ...t, self: copy(t.self), total: copy(t.total) });
  const runs = snapshot.runShares;
  if (runs) wire.runShares = { inline: shares(runs.inline), functions: runs.functions ? shares(runs.functions) : null };
  return { wire, transfer };
}

const STATUS: readonly FunctionDelta['status'][] = ['both', 'new', 'gone'];

/** A change table row; spread when A or B is several runs (self share, percentage points). */
export interface ChangeRow extends FunctionDelta {
  spread?: { a: number; b: number; noise: boolean };
}

/** The change table's rows, in the session's order (heaviest change of self weight first). */
export function changeRows(reply: ChangeTableReply): ChangeRow[] {
  const names = unpackStrings(reply.names);
  const figure = (col: Float64Array, i: number) => ({ a: col[4 * i], b: col[4 * i + 1], delta: col[4 * i + 2], deltaPct: col[4 * i + 3] });
  const { spread, noise } = reply;
  return names.map((name, i) => ({
    name,
    status: STATUS[reply.status[i]],
    self: figure(reply.self, i),
    total: figure(reply.total, i),
    ...(spread && noise ? { spread: { a: spread[2 * i], b: spread[2 * i + 1], noise: noise[i] === 1 } } : {}),
  }));
}
