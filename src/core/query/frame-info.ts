// The figures shown for a frame (tooltip and details): name, module, flags, weights, shares of
// the profile and of the current zoom, and time when the weight unit is known. Pure.

import type { CallTree } from '../model/call-tree';
import { frameModule, frameName } from '../model/frame-table';
import { FrameFlags, type NodeIndex } from '../model/types';
import type { ProfileSnapshot } from '../views/snapshot';
import { FunctionFlags, type FunctionTable } from '../views/function-table';
import { nameIndex } from './table-model';
import { treeOf } from './tree-walks';
import type { ViewKind } from '../model/view-types';
import { formatNs } from '../model/weight-text';

export interface FrameInfo {
  node: NodeIndex;
  name: string;
  module: string | null;
  inlined: boolean;
  kernel: boolean;
  jit: boolean;
  totalSamples: number;
  selfSamples: number;
  /** Formatted time ("12.3 ms") when the weight is in nanoseconds, else null. */
  totalTime: string | null;
  selfTime: string | null;
  /** Shares, 0..1. */
  ofProfile: number;
  ofZoom: number | null;
  /** The figures are a function's, over all its call sites (the function table's row). */
  allCallSites?: boolean;
  /**
   * `file:line` where the node's samples are, the heaviest when several (`lines` of them), for a
   * node of a base tree of a recording with source lines; absent otherwise.
   */
  line?: string | null;
  lines?: number;
}

/** `shown`: the tree the node belongs to (currentTree), or a view of the snapshot's base trees. */
export function frameInfo(snapshot: ProfileSnapshot, shown: ViewKind | CallTree, node: NodeIndex, zoomNode: NodeIndex): FrameInfo | null {
  const tree = typeof shown === 'string' ? treeOf(snapshot, shown) : shown;
  if (node < 0 || node >= tree.nodeCount) return null;
  const f = tree.frame[node];
  const flags = f < 0 ? 0 : snapshot.frames.flags[f];
  const ns = snapshot.meta.weightUnit === 'nanoseconds';
  const root = tree.totalWeight[0];
  const zoomTotal = tree.totalWeight[zoomNode];
  const insideZoom = node >= zoomNode && node < tree.end[zoomNode];
  return {
    node,
    name: f < 0 ? 'all' : frameName(snapshot.frames, f),
    module: f < 0 ? null : frameModule(snapshot.frames, f),
    inlined: (flags & (FrameFlags.INLINED | FrameFlags.FOLDED)) !== 0,
    kernel: (flags & FrameFlags.KERNEL) !== 0,
    jit: (flags & FrameFlags.JIT) !== 0,
    totalSamples: tree.totalSamples[node],
    selfSamples: tree.selfSamples[node],
    totalTime: ns ? formatNs(tree.totalWeight[node]) : null,
    selfTime: ns ? formatNs(tree.selfWeight[node]) : null,
    ofProfile: root > 0 ? tree.totalWeight[node] / root : 0,
    ofZoom: zoomNode > 0 && insideZoom && zoomTotal > 0 ? tree.totalWeight[node] / zoomTotal : null,
    ...lineOf(snapshot, tree, node),
  };
}

/** The node's heaviest source line (see FrameInfo.line): base trees only, a derived one has no map. */
function lineOf(snapshot: ProfileSnapshot, tree: CallTree, node: NodeIndex): { line?: string; lines?: number } {
  const lines = snapshot.lines;
  if (!lines) return {};
  const at = tree === snapshot.inline ? lines.inline : tree === snapshot.functions ? lines.functions : null;
  if (!at || node <= 0 || node >= at.location.length) return {};
  const loc = at.location[node];
  if (loc < 0) return {};
  return { line: `${snapshot.frames.strings[lines.file[loc]]}:${lines.line[loc]}`, lines: at.count[node] };
}

/** The figures of a function (a row of the function table), over all its call sites; null if absent. */
export function functionInfo(snapshot: ProfileSnapshot, table: FunctionTable, name: string): FrameInfo | null {
  const frames = snapshot.frames;
  const s = nameIndex(frames, name);
  const row = s < 0 ? -1 : table.rowOfName[s];
  if (row < 0) return null;
  let module: string | null = null;
  for (let f = 0; f < frames.count && module === null; f++) if (frames.name[f] === s) module = frameModule(frames, f);
  const ns = snapshot.meta.weightUnit === 'nanoseconds';
  const flags = table.flags[row];
  return {
    node: -1,
    name,
    module,
    inlined: (flags & FunctionFlags.INLINED) !== 0,
    kernel: (flags & FunctionFlags.KERNEL) !== 0,
    jit: false,
    totalSamples: table.totalSamples[row],
    selfSamples: table.selfSamples[row],
    totalTime: ns ? formatNs(table.totalWeight[row]) : null,
    selfTime: ns ? formatNs(table.selfWeight[row]) : null,
    ofProfile: table.rootWeight > 0 ? table.totalWeight[row] / table.rootWeight : 0,
    ofZoom: null,
    allCallSites: true,
  };
}
