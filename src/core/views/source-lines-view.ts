// Where the nodes of a view stand in the source: the line tree (../model/source-lines.ts) seen
// through a view. In the inline-frame view a line-tree node is at its own location; in the
// function view inlined frames are merged into the physical frame that contains them
// (./function-view.ts), so a node is at its physical frame's location. Pure, linear or
// O(L log L) in line-tree nodes, no recursion.

import type { Profile } from '../model/profile';
import type { SourceLines } from '../model/source-lines';
import { FrameFlags } from '../model/types';

export type LinesView = 'inline' | 'functions';

/** What the per-line queries read of a profile: a session keeps only this after an open. */
export type LinesProfile = Pick<Profile, 'frames' | 'functionFrames' | 'lines'>;

const MERGED = FrameFlags.INLINED | FrameFlags.FOLDED;

/**
 * The frame each line-tree node is shown as in `view`, and the node whose location it takes:
 * itself in the inline view; in the function view, the physical node its inline frame merges into.
 */
export function viewNodes(profile: LinesProfile, lines: SourceLines, view: LinesView): { frame: Int32Array; owner: Int32Array } {
  const t = lines.tree;
  const n = t.nodeCount;
  const frame = new Int32Array(n).fill(-1);
  const owner = new Int32Array(n);
  const flags = profile.frames.flags;
  const rename = view === 'functions' ? profile.functionFrames ?? null : null;
  for (let ln = 1; ln < n; ln++) {
    const f = lines.locatedFrame[t.frame[ln]];
    const p = t.parent[ln];
    if (view === 'functions' && flags[f] & MERGED && p !== 0) {
      owner[ln] = owner[p];
      frame[ln] = frame[p];
    } else {
      owner[ln] = ln;
      frame[ln] = rename ? rename[f] : f;
    }
  }
  return { frame, owner };
}

/** Per node of a view's tree: its heaviest source location (-1: none known) and how many it has. */
export interface NodeLines {
  location: Int32Array;
  count: Int32Array;
}

/**
 * The heaviest location of every node of the base tree of `view` (Profile.tree, or the function
 * view through `toFunction`), by the total weight of the samples at it, and the number of distinct
 * known locations: what a tooltip shows as `file:line`. In the function view a node's locations
 * are its physical frame's. Sorts the (node, location) pairs once: O(L log L) in line-tree nodes.
 */
export function nodeLines(profile: Profile, view: LinesView, toFunction: Int32Array | null, nodeCount: number): NodeLines | null {
  const lines = profile.lines;
  if (!lines) return null;
  const t = lines.tree;
  const { owner } = viewNodes(profile, lines, view);
  const node = new Int32Array(t.nodeCount);
  const location = new Int32Array(t.nodeCount);
  const order: number[] = [];
  for (let ln = 1; ln < t.nodeCount; ln++) {
    if (owner[ln] !== ln) continue;
    const loc = lines.locatedLocation[t.frame[ln]];
    if (loc < 0) continue;
    const inline = lines.node[ln];
    node[ln] = view === 'functions' && toFunction ? toFunction[inline] : inline;
    location[ln] = loc;
    order.push(ln);
  }
  order.sort((a, b) => node[a] - node[b] || location[a] - location[b]);
  const out = { location: new Int32Array(nodeCount).fill(-1), count: new Int32Array(nodeCount) };
  const best = new Float64Array(nodeCount);
  for (let i = 0; i < order.length; ) {
    const n = node[order[i]];
    const loc = location[order[i]];
    let w = 0;
    for (; i < order.length && node[order[i]] === n && location[order[i]] === loc; i++) w += t.totalWeight[order[i]];
    if (n < 0 || n >= nodeCount) continue;
    out.count[n]++;
    if (out.location[n] < 0 || w > best[n]) {
      out.location[n] = loc;
      best[n] = w;
    }
  }
  return out;
}
