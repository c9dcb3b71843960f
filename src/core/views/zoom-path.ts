// A zoomed frame as a path of frame names, the form links carry (`zoom=` in the hash):
//   main;parse%3Bx;lex_[i]
// Each name is percent-encoded on its own (so `;` inside a name is `%3B`), names are joined by a
// literal `;`, and an inlined frame carries the suffix `_[i]` as in folded text (an inlined and a
// physical frame of one name can be siblings). The root "all" is not part of the path.
//
// Invariants: no recursion (walks are loops over parent links and sibling ranges); a frame is
// identified by its name and its INLINED flag only (KERNEL/JIT flags are not in the path); the
// name → frames index is built once per frame table and kept in a WeakMap.

import { findChild, pathOf, type CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { FrameFlags, type FrameIndex, type NodeIndex } from '../model/types';

export interface PathSegment {
  name: string;
  inlined: boolean;
}

const INLINE_SUFFIX = '_[i]';
/** A link longer than this many frames is refused (a hostile hash must not allocate unbounded). */
export const MAX_PATH_SEGMENTS = 20_000;

/** `a;b_[i]` (names percent-encoded) → segments, or an error message. */
export function decodeZoomPath(text: string): { ok: true; path: PathSegment[] } | { ok: false; message: string } {
  if (text === '') return { ok: true, path: [] };
  const parts = text.split(';', MAX_PATH_SEGMENTS + 1);
  if (parts.length > MAX_PATH_SEGMENTS) return { ok: false, message: `a zoom path of more than ${MAX_PATH_SEGMENTS} frames` };
  const path: PathSegment[] = [];
  for (const part of parts) {
    let name: string;
    try {
      name = decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return { ok: false, message: `a badly percent-encoded frame name "${part.slice(0, 80)}"` };
    }
    const inlined = name.endsWith(INLINE_SUFFIX) && name.length > INLINE_SUFFIX.length;
    path.push({ name: inlined ? name.slice(0, -INLINE_SUFFIX.length) : name, inlined });
  }
  return { ok: true, path };
}

export function encodeZoomPath(path: readonly PathSegment[]): string {
  return path.map((s) => encodeURIComponent(s.inlined ? s.name + INLINE_SUFFIX : s.name)).join(';');
}

/** The segments from the first frame under the root down to `node`. */
export function segmentsOf(frames: FrameTable, tree: CallTree, node: NodeIndex): PathSegment[] {
  return pathOf(tree, node).map((f) => ({
    name: frames.strings[frames.name[f]] ?? '',
    inlined: (frames.flags[f] & FrameFlags.INLINED) !== 0,
  }));
}

/** Human-readable form for notices: "main → parse → lex [inlined]". */
export function describePath(path: readonly PathSegment[]): string {
  if (path.length === 0) return 'all';
  const one = (s: PathSegment) => {
    const name = s.name.length > 120 ? `${s.name.slice(0, 120)}…` : s.name;
    return s.inlined ? `${name} [inlined]` : name;
  };
  // A notice about a 10,000-deep path names its head and its tail.
  if (path.length > 12) return [...path.slice(0, 3).map(one), `… ${path.length - 9} more …`, ...path.slice(-6).map(one)].join(' → ');
  return path.map(one).join(' → ');
}

const indexes = new WeakMap<FrameTable, Map<string, FrameIndex[]>>();

function keyOf(name: string, inlined: boolean): string {
  return inlined ? `i\u0000${name}` : `p\u0000${name}`;
}

function frameIndex(frames: FrameTable): Map<string, FrameIndex[]> {
  let index = indexes.get(frames);
  if (!index) {
    index = new Map();
    for (let f = 0; f < frames.count; f++) {
      const key = keyOf(frames.strings[frames.name[f]] ?? '', (frames.flags[f] & FrameFlags.INLINED) !== 0);
      const list = index.get(key);
      if (list) list.push(f);
      else index.set(key, [f]);
    }
    indexes.set(frames, index);
  }
  return index;
}

/**
 * Walks the path down from the root. `node` is the deepest node reached and `matched` how many
 * segments it covers (matched === path.length means the exact frame was found).
 */
export function resolvePath(frames: FrameTable, tree: CallTree, path: readonly PathSegment[]): { node: NodeIndex; matched: number } {
  const index = frameIndex(frames);
  let node: NodeIndex = 0;
  let matched = 0;
  for (const segment of path) {
    const candidates = index.get(keyOf(segment.name, segment.inlined));
    let next = -1;
    if (candidates) {
      for (const frame of candidates) {
        next = findChild(tree, node, frame);
        if (next >= 0) break;
      }
    }
    if (next < 0) break;
    node = next;
    matched++;
  }
  return { node, matched };
}
