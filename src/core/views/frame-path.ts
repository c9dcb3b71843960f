// Frame identity across two recordings, and looking up "the same path" in another tree.
//
// Two profiles have independent frame tables, so frame 7 in A and frame 7 in B are unrelated.
// A frame's identity is its (name, flags) pair (see frame-table.ts), so two frames are "the same"
// exactly when their name strings and flags are equal. mapFrames builds a shared frame space:
//
//   shared id │ 0 … to.count-1         │ to.count … sharedCount-1
//   ──────────┼────────────────────────┼──────────────────────────────────
//   meaning   │ the frames of `to`     │ frames of `from` absent in `to`
//
// Invariants: map[f] < to.count iff `to` has a frame with f's name and flags; two frames of
// `from` never share an id (a frame table holds each (name, flags) once); O(frames) time.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { FrameIndex, NodeIndex } from '../model/types';
import { Memo } from '../util/memo';

export interface FrameMapping {
  /** For each frame of `from`: its frame in `to`, or a new id ≥ to.count when `to` lacks it. */
  map: Int32Array;
  /** Number of ids in the shared space: to.count plus the frames only `from` has. */
  sharedCount: number;
}

const mappings = new Memo<FrameMapping>();

/** Maps the frames of `from` into the frame space of `to` by (name, flags); memoised. */
export function mapFrames(from: FrameTable, to: FrameTable): FrameMapping {
  return mappings.get([from, to], () => computeMapping(from, to));
}

function computeMapping(from: FrameTable, to: FrameTable): FrameMapping {
  if (from === to) return identityFrames(to);
  // One string-keyed map (the costly kind) for the names of `to`: name → its first frame; the
  // other frames of the same name (other flags) hang off it in a chain, usually of length 1.
  const first = new Map<string, FrameIndex>();
  const sameName = new Int32Array(to.count).fill(-1);
  for (let f = to.count - 1; f >= 0; f--) {
    const name = to.strings[to.name[f]];
    const head = first.get(name);
    if (head !== undefined) sameName[f] = head;
    first.set(name, f);
  }
  const map = new Int32Array(from.count);
  let next = to.count;
  for (let f = 0; f < from.count; f++) {
    const want = from.flags[f];
    let t = first.get(from.strings[from.name[f]]) ?? -1;
    while (t >= 0 && to.flags[t] !== want) t = sameName[t];
    map[f] = t >= 0 ? t : next++;
  }
  return { map, sharedCount: next };
}

/** The identity mapping of a frame table onto itself (for the side that owns the shared space). */
export function identityFrames(frames: FrameTable): FrameMapping {
  const map = new Int32Array(frames.count);
  for (let f = 0; f < frames.count; f++) map[f] = f;
  return { map, sharedCount: frames.count };
}

type Side = { tree: CallTree; frames: FrameTable };

/**
 * The node of `to` with the same frame path (root-first, by name and flags) as `node` of `from`,
 * or -1 when `to` has no such path. For one-off lookups (sync zoom, search); a whole-tree match
 * is diffTrees' job. O(depth × siblings scanned).
 */
export function findSamePath(from: Side, node: NodeIndex, to: Side, mapping?: FrameMapping): NodeIndex {
  const r = walkPath(from, node, to, mapping);
  return r.fromNode === node ? r.node : -1;
}

/**
 * The deepest ancestor-or-self of `node` whose path exists in `to`, and that counterpart: what a
 * synchronised zoom shows when the exact path is missing (`exact` false, so the UI can say so).
 * The root always matches the root.
 */
export function findNearestPath(
  from: Side,
  node: NodeIndex,
  to: Side,
  mapping?: FrameMapping,
): { node: NodeIndex; fromNode: NodeIndex; exact: boolean } {
  const r = walkPath(from, node, to, mapping);
  return { ...r, exact: r.fromNode === node };
}

function walkPath(from: Side, node: NodeIndex, to: Side, mapping = mapFrames(from.frames, to.frames)): { node: NodeIndex; fromNode: NodeIndex } {
  if (node <= 0) return { node: 0, fromNode: 0 };
  const depth = from.tree.depth[node];
  const path = new Int32Array(depth);
  for (let n = node, d = depth - 1; n > 0; n = from.tree.parent[n], d--) path[d] = n;
  const t = to.tree;
  let at: NodeIndex = 0;
  let fromNode: NodeIndex = 0;
  for (let d = 0; d < depth; d++) {
    const want = mapping.map[from.tree.frame[path[d]]];
    let found = -1;
    if (want < to.frames.count) {
      for (let c = at + 1; c < t.end[at]; c = t.end[c]) {
        if (t.frame[c] === want) {
          found = c;
          break;
        }
      }
    }
    if (found < 0) break;
    at = found;
    fromNode = path[d];
  }
  return { node: at, fromNode };
}
