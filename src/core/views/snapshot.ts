// What crosses from the worker to the page once a recording is loaded: both views ready, as
// typed-array columns (transferred, not copied) plus the string table (one joined string, so the
// structured clone copies one value, not 100,000).
//
// Invariants: functions/toFunction/toInline are null when the recording has no inline
// information (the two views would be identical); frames.strings is rebuilt by fromTransfer;
// frames holds, after the recording's own frames, one GROUP frame per library and namespace
// (views/frame-groups.ts: what "collapse library" turns a run of frames into).

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { Profile, ProfileMeta } from '../model/profile';
import type { SampleColumns } from '../model/sample-column';
import { withGroupFrames } from './frame-groups';
import { functionView, hasInlinedFrames } from './function-view';
import { packStrings, unpackStrings } from '../util/wire';
import { Memo } from '../util/memo';
import { nodeLines, type NodeLines } from './source-lines-view';
import { shareTable, type ShareTable } from './function-weights';

/** Source lines for the page's figures: locations (file: string index) and each base node's heaviest. */
export interface SnapshotLines {
  file: Int32Array;
  line: Int32Array;
  inline: NodeLines;
  functions: NodeLines | null;
}

export interface ProfileSnapshot {
  frames: FrameTable;
  /** Inline-frame view: every frame. */
  inline: CallTree;
  /** Function view, or null when the recording has no inline frames. */
  functions: CallTree | null;
  /** inline node → function node that contains it. */
  toFunction: Int32Array | null;
  /** function node → heaviest physical inline node. */
  toInline: Int32Array | null;
  /**
   * The samples in time order (perf script with timestamps), else null. `leaf` is a node of
   * `inline` (the inline-frame view): map it through `toFunction` for the function view.
   */
  samples: SampleColumns | null;
  /** Profile.functionFrames: the frame the function view shows each frame as, or null (itself). */
  functionFrames?: Int32Array | null;
  /** Where each node of the base trees is in the source (Profile.lines), or null/absent without lines. */
  lines?: SnapshotLines | null;
  meta: ProfileMeta;
  /** Profile.processed: read from a processed recording (one event, the roots as saved). */
  processed?: true;
  /** A sum of several recordings: each run's function shares, for the change table's spread. */
  runShares?: RunShares | null;
}

/** A ShareTable (views/group-deltas.ts) as it crosses: the names packed. */
export interface ShareTableWire {
  names: string;
  runs: number;
  self: Float64Array;
  total: Float64Array;
}

/** Each run's share of every function, in both views (functions: null without a function view). */
export interface RunShares {
  inline: ShareTableWire;
  functions: ShareTableWire | null;
}

function shareWire(t: ShareTable): ShareTableWire {
  return { names: packStrings(t.names), runs: t.runs, self: t.self, total: t.total };
}

/** The share table a ShareTableWire carries. */
export function fromShareWire(w: ShareTableWire): ShareTable {
  return { ...w, names: unpackStrings(w.names) };
}

/** runs: the recordings `profile` is the sum of, when several (their shares go with it). */
export function makeSnapshot(profile: Profile, runs?: readonly Profile[]): ProfileSnapshot {
  const inlined = hasInlinedFrames(profile);
  const fv = inlined ? functionView(profile) : null;
  // The runs' share tables in the views the summed recording shows, so each matches its tree.
  const runShares: RunShares | null =
    runs && runs.length > 1
      ? {
          inline: shareWire(shareTable(runs.map((r) => ({ tree: r.tree, frames: r.frames })))),
          functions: fv ? shareWire(shareTable(runs.map((r) => ({ tree: functionView(r).tree, frames: r.frames })))) : null,
        }
      : null;
  return {
    frames: withGroupFrames(profile.frames),
    inline: profile.tree,
    functions: fv?.tree ?? null,
    toFunction: fv?.toFunction ?? null,
    toInline: fv?.toInline ?? null,
    samples: withoutLines(profile.samples ?? null),
    functionFrames: profile.functionFrames ?? null,
    lines: snapshotLines(profile, fv?.toFunction ?? null, fv?.tree.nodeCount ?? 0),
    meta: { ...profile.meta, hasInlineInfo: profile.meta.hasInlineInfo && inlined },
    ...(profile.processed ? { processed: true as const } : {}),
    ...(runShares ? { runShares } : {}),
  };
}

/** The samples without their line-tree nodes: the page never reads them (the profile worker keeps them for the Source panel). */
function withoutLines(s: SampleColumns | null): SampleColumns | null {
  if (!s?.line) return s;
  const { line: _line, ...rest } = s;
  return rest;
}

function snapshotLines(profile: Profile, toFunction: Int32Array | null, functionNodes: number): SnapshotLines | null {
  const lines = profile.lines;
  if (!lines) return null;
  return {
    // Copies: the snapshot's columns are transferred, the line tree stays with the profile.
    file: lines.locations.file.slice(),
    line: lines.locations.line.slice(),
    inline: nodeLines(profile, 'inline', null, profile.tree.nodeCount)!,
    functions: toFunction ? nodeLines(profile, 'functions', toFunction, functionNodes) : null,
  };
}

/** The wire form: strings joined by NUL (names cannot contain NUL; importers replace it). */
export interface SnapshotWire {
  snapshot: Omit<ProfileSnapshot, 'frames'> & { frames: Omit<FrameTable, 'strings'> };
  strings: string;
}

export function toTransfer(s: ProfileSnapshot): { wire: SnapshotWire; transfer: ArrayBuffer[] } {
  const { strings, ...frames } = s.frames;
  const wire: SnapshotWire = { snapshot: { ...s, frames }, strings: packStrings(strings) };
  const buffers = new Set<ArrayBuffer>();
  const add = (a: { buffer: ArrayBufferLike } | null) => a && buffers.add(a.buffer as ArrayBuffer);
  for (const tree of [s.inline, s.functions]) {
    if (!tree) continue;
    for (const col of [tree.parent, tree.frame, tree.depth, tree.end, tree.selfWeight, tree.totalWeight, tree.selfSamples, tree.totalSamples]) add(col);
  }
  add(s.frames.name);
  add(s.frames.module);
  add(s.frames.flags);
  add(s.toFunction);
  add(s.toInline);
  add(s.functionFrames ?? null);
  if (s.lines) for (const col of [s.lines.file, s.lines.line, s.lines.inline.location, s.lines.inline.count, s.lines.functions?.location ?? null, s.lines.functions?.count ?? null]) add(col);
  for (const t of [s.runShares?.inline, s.runShares?.functions]) if (t) for (const col of [t.self, t.total]) add(col);
  if (s.samples) for (const col of [s.samples.leaf, s.samples.time, s.samples.weight, s.samples.thread ?? null, s.samples.duration ?? null]) add(col);
  return { wire, transfer: [...buffers] };
}

export function fromTransfer(wire: SnapshotWire): ProfileSnapshot {
  // Once per wire: the page's first picture and the app's loader read the same answer.
  return received.get([wire], () => ({ ...wire.snapshot, frames: { ...wire.snapshot.frames, strings: unpackStrings(wire.strings) } }));
}

const received = new Memo<ProfileSnapshot>();
