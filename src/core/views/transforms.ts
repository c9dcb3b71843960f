// Tree transforms: pure functions CallTree → CallTree, applied in order as a list (the Firefox
// Profiler's transform stack). Each is undoable by dropping it from the list; the list is
// recorded in the URL as a short string (transforms-codec.ts).
//
//   kind          │ URL form         │ effect
//   ──────────────┼──────────────────┼──────────────────────────────────────────────────────────
//   focus         │ focus:NAME       │ only the stacks through NAME, re-rooted at it (outermost
//                 │                  │ NAME of each stack; recursion counted once)
//   merge         │ merge:NAME       │ frames named NAME dropped: self to the caller, callees
//                 │                  │ attached to the caller
//   rec           │ rec:NAME / rec   │ direct recursion NAME→NAME→… collapsed into one frame
//                 │                  │ (by name, so an inlined and a physical NAME merge); `rec`:
//                 │                  │ every function
//   hide kernel   │ hide:kernel      │ KERNEL frames merged into their caller (the nearest user
//                 │                  │ frame above)
//   hide unknown  │ hide:unknown     │ frames whose whole name is bracketed (`[unknown]`,
//                 │                  │ `[libc.so.6]`: perf's unresolved symbols) merged likewise
//
// Invariants: except for focus, the root total is preserved (merged frames give their weight to
// the caller); a transform that touches no frame returns the input tree itself (identity
// mapping); every result shares the input's FrameTable; built by derived-builder.ts, which copies
// untouched subtrees as blocks and sorts only the merged child lists: no recursion, no hashing,
// O(nodes + merged children × log). `toNew` maps each input
// node to its node in the result, or -1 when dropped (focus). A name missing from the profile
// makes merge/rec no-ops and focus an empty tree.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { mergeIntoParents } from '../model/derived-builder';
import { TreeBuilder } from '../model/tree-builder';
import { FrameFlags, type StringIndex } from '../model/types';
import { calleesTree, finishDerived, type DerivedTree } from './butterfly';
import { encodeTransforms } from './transforms-codec';

export type Transform =
  | { kind: 'focus'; name: string }
  | { kind: 'merge'; name: string }
  | { kind: 'rec'; name: string | null }
  | { kind: 'hide'; what: 'kernel' | 'unknown' };

export type { DerivedTree };

/** A short human label for breadcrumbs / the undo list. */
export function describeTransform(t: Transform): string {
  switch (t.kind) {
    case 'focus':
      return `Focus on ${t.name}`;
    case 'merge':
      return `Merge ${t.name} into callers`;
    case 'rec':
      return t.name === null ? 'Collapse all recursion' : `Collapse recursion of ${t.name}`;
    case 'hide':
      return t.what === 'kernel' ? 'Hide kernel frames' : 'Hide [unknown] frames';
  }
}

/** Whether a frame name is perf's stand-in for an unresolved symbol (`[unknown]`, `[libc.so.6]`). */
export function isUnknownName(name: string): boolean {
  return name.length >= 2 && name.charCodeAt(0) === 91 /* [ */ && name.charCodeAt(name.length - 1) === 93 /* ] */ && name.indexOf(']') === name.length - 1;
}

/** The string index of a frame name used by some frame, or -1. */
export function nameIndex(frames: FrameTable, name: string): StringIndex {
  for (let f = 0; f < frames.count; f++) if (frames.strings[frames.name[f]] === name) return frames.name[f];
  return -1;
}

/** Applies one transform (see the module comment). */
export function applyTransform(tree: CallTree, frames: FrameTable, t: Transform): DerivedTree {
  switch (t.kind) {
    case 'focus': {
      const s = nameIndex(frames, t.name);
      return s < 0 ? emptyTree(tree, frames) : calleesTree(tree, frames, s);
    }
    case 'merge': {
      const s = nameIndex(frames, t.name);
      const drop = new Uint8Array(frames.count);
      if (s >= 0) for (let f = 0; f < frames.count; f++) if (frames.name[f] === s) drop[f] = 1;
      return dropFrames(tree, frames, drop);
    }
    case 'hide': {
      const drop = new Uint8Array(frames.count);
      for (let f = 0; f < frames.count; f++) {
        if (t.what === 'kernel' ? frames.flags[f] & FrameFlags.KERNEL : isUnknownName(frames.strings[frames.name[f]])) drop[f] = 1;
      }
      return dropFrames(tree, frames, drop);
    }
    case 'rec': {
      const collapse = new Uint8Array(frames.count);
      const s = t.name === null ? -1 : nameIndex(frames, t.name);
      for (let f = 0; f < frames.count; f++) if (t.name === null || frames.name[f] === s) collapse[f] = 1;
      if (t.name !== null && s < 0) collapse.fill(0);
      return collapseRecursion(tree, frames, collapse);
    }
  }
}

/** The tree with the frames marked in `drop` merged into their callers. */
export function dropFrames(tree: CallTree, frames: FrameTable, drop: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  if (!touches(tree, drop)) return identityResult(tree);
  const up = new Uint8Array(n);
  const frame = tree.frame;
  for (let i = 1; i < n; i++) up[i] = drop[frame[i]];
  return mergeIntoParents(tree, frames, up);
}

/** The tree with runs of same-named frames (where `collapse` marks the frame) merged into the run's first. */
export function collapseRecursion(tree: CallTree, frames: FrameTable, collapse: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  const { parent, frame } = tree;
  const name = frames.name;
  const up = new Uint8Array(n);
  let any = false;
  for (let i = 1; i < n; i++) {
    const p = parent[i];
    const f = frame[i];
    if (p > 0 && collapse[f] === 1 && name[frame[p]] === name[f]) {
      up[i] = 1;
      any = true;
    }
  }
  if (!any) return identityResult(tree);
  return mergeIntoParents(tree, frames, up);
}

function touches(tree: CallTree, mask: Uint8Array): boolean {
  for (let i = 1; i < tree.nodeCount; i++) if (mask[tree.frame[i]]) return true;
  return false;
}

function identityResult(tree: CallTree): DerivedTree {
  const toNew = new Int32Array(tree.nodeCount);
  for (let i = 0; i < toNew.length; i++) toNew[i] = i;
  return { tree, toNew };
}

function emptyTree(tree: CallTree, frames: FrameTable): DerivedTree {
  return finishDerived(new TreeBuilder(), frames, new Int32Array(tree.nodeCount).fill(-1));
}

const chains = new WeakMap<CallTree, WeakMap<FrameTable, Map<string, DerivedTree>>>();

/**
 * Applies a list of transforms in order; `toNew` maps the input's nodes to the final tree's
 * (-1 when dropped on the way). Memoised per (tree, frames, encoded list), a few lists per tree,
 * so undo/redo of the last step is instant.
 */
export function applyTransforms(tree: CallTree, frames: FrameTable, list: readonly Transform[]): DerivedTree {
  if (list.length === 0) return identityResult(tree);
  let byFrames = chains.get(tree);
  if (!byFrames) chains.set(tree, (byFrames = new WeakMap()));
  let byKey = byFrames.get(frames);
  if (!byKey) byFrames.set(frames, (byKey = new Map()));
  const key = encodeTransforms(list);
  const hit = byKey.get(key);
  if (hit) return hit;
  // Reuse the longest memoised prefix (the usual case: one transform pushed on the stack).
  let result = identityResult(tree);
  let start = 0;
  for (let k = list.length - 1; k > 0; k--) {
    const prefix = byKey.get(encodeTransforms(list.slice(0, k)));
    if (prefix) {
      result = prefix;
      start = k;
      break;
    }
  }
  for (let k = start; k < list.length; k++) {
    const step = applyTransform(result.tree, frames, list[k]);
    const toNew = new Int32Array(tree.nodeCount);
    for (let i = 0; i < toNew.length; i++) toNew[i] = result.toNew[i] < 0 ? -1 : step.toNew[result.toNew[i]];
    result = { tree: step.tree, toNew };
    if (k < list.length - 1) remember(byKey, encodeTransforms(list.slice(0, k + 1)), result);
  }
  remember(byKey, key, result);
  return result;
}

function remember(map: Map<string, DerivedTree>, key: string, value: DerivedTree): void {
  if (map.has(key)) return;
  if (map.size >= 8) map.delete(map.keys().next().value as string);
  map.set(key, value);
}
