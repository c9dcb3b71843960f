// The function view: one frame per physical frame, what `perf script --no-inline` prints for the
// same recording. Inlined frames are merged into the physical frame that contains them (their
// nearest non-inlined ancestor), which keeps their weight.
//
// Invariants: total weight is preserved; a tree without INLINED frames (and no doubled frames)
// maps to an identical tree; toFunction/toInline let the viewer keep the zoom across a toggle.
//
// A FOLDED frame (a line perf printed as physical that belongs to the frame above it, see
// import/perf-runs.ts) merges into its parent like an inlined frame. A frame the importer knows
// to be another name of a function (Profile.functionFrames: perf's short DWARF name of a
// function whose ELF name it printed elsewhere) is shown under that one name.

import type { CallTree } from '../model/call-tree';
import { FrameFlags, type NodeIndex } from '../model/types';
import { mergeIntoParents } from '../model/derived-builder';
import { TreeBuilder } from '../model/tree-builder';
import type { Profile } from '../model/profile';

/** Frames the function view merges into their parent. */
const MERGED = FrameFlags.INLINED | FrameFlags.FOLDED;

export interface FunctionView {
  tree: CallTree;
  /** For each inline-view node, the function-view node that contains it. */
  toFunction: Int32Array;
  /** For each function-view node, its heaviest inline-view counterpart (a physical node). */
  toInline: Int32Array;
}

const cache = new WeakMap<CallTree, FunctionView>();

export function functionView(profile: Profile): FunctionView {
  let view = cache.get(profile.tree);
  if (!view) {
    view = deriveFunctionView(profile);
    cache.set(profile.tree, view);
  }
  return view;
}

/**
 * Inline trees from this many nodes take the derived-tree path, smaller ones the TreeBuilder
 * path. Both give the same tree, order, sums and maps (tested). TreeBuilder's code is already
 * optimised by the import, while the derived builder's is cold in a fresh worker: below ~200k
 * nodes that warm-up is most of its time; above, skipping the hashing and the full re-sort pays
 * (figures in bench/README.md).
 */
export const DERIVED_FROM_NODES = 200_000;

export function deriveFunctionView(profile: Profile, path: 'derived' | 'builder' = profile.tree.nodeCount >= DERIVED_FROM_NODES ? 'derived' : 'builder'): FunctionView {
  const { frames } = profile;
  const tree = renamedTree(profile);
  const n = tree.nodeCount;
  const { parent, frame } = tree;
  const flags = frames.flags;

  // Which inline nodes merge into their parent's function node.
  //
  // Only the root maps onto the root's function node (a merged node maps onto its parent's,
  // which is a non-root node), so "has a physical frame above it" is simply "parent is not the
  // root": an inlined frame directly under the root (possible in folded input: `f_[i]` first)
  // has nothing to merge into and stays a frame, so its weight stays visible.
  const mergeUp = new Uint8Array(n);
  for (let i = 1; i < n; i++) {
    if (flags[frame[i]] & MERGED && parent[i] !== 0) mergeUp[i] = 1;
  }
  // The derived tree (mergeIntoParents) copies subtrees without inlined frames as blocks and
  // sorts only merged child lists; TreeBuilder hashes and re-sorts every node.
  const { tree: fnTree, toNew: toFunction } = path === 'derived' ? mergeIntoParents(tree, frames, mergeUp) : viaBuilder(tree, profile, mergeUp);

  // For each function node, its heaviest physical counterpart: an inline node not merged away
  // whose frame is the function node's. toInline[target] is the best so far, its
  // total the best total (-1 before any), so no column of best totals is needed.
  const toInline = new Int32Array(fnTree.nodeCount).fill(-1);
  toInline[0] = 0;
  const fnFrame = fnTree.frame;
  const total = tree.totalWeight;
  for (let i = 1; i < n; i++) {
    const f = frame[i];
    if (flags[f] & MERGED && parent[i] !== 0) continue;
    const target = toFunction[i];
    if (f !== fnFrame[target]) continue;
    const current = toInline[target];
    if (total[i] > (current <= 0 ? -1 : total[current])) toInline[target] = i;
  }
  return { tree: fnTree, toFunction, toInline };
}

/** The inline tree with each frame replaced by its function frame (Profile.functionFrames). */
function renamedTree(profile: Profile): CallTree {
  const { tree, functionFrames: rename } = profile;
  if (!rename) return tree;
  const frame = new Int32Array(tree.nodeCount);
  for (let i = 0; i < tree.nodeCount; i++) frame[i] = rename[tree.frame[i]];
  return { ...tree, frame };
}

/** The function tree through TreeBuilder: each merged node's self goes to its parent's node. */
function viaBuilder(tree: CallTree, profile: Profile, mergeUp: Uint8Array): { tree: CallTree; toNew: Int32Array } {
  const n = tree.nodeCount;
  // At most one function node per inline node: sized once, no regrowth of the columns.
  const builder = new TreeBuilder(n);
  // Builder node of each inline node (pre-order: parents are mapped before their children),
  // then, in place, its node in the finished tree.
  const mapped = new Int32Array(n);
  for (let i = 1; i < n; i++) {
    const p = tree.parent[i];
    mapped[i] = mergeUp[i] ? mapped[p] : builder.child(mapped[p], tree.frame[i]);
  }
  for (let i = 0; i < n; i++) builder.addSelf(mapped[i], tree.selfWeight[i], tree.selfSamples[i]);
  const { tree: fnTree, order } = builder.finish(profile.frames);
  for (let i = 0; i < n; i++) mapped[i] = order[mapped[i]];
  return { tree: fnTree, toNew: mapped };
}

/** Whether any frame of the profile is inlined. */
export function hasInlinedFrames(profile: Profile): boolean {
  const { flags, count } = profile.frames;
  for (let f = 0; f < count; f++) if (flags[f] & FrameFlags.INLINED) return true;
  return false;
}

export type ViewKind = 'inline' | 'functions';

export function viewTree(profile: Profile, view: ViewKind): CallTree {
  return view === 'inline' ? profile.tree : functionView(profile).tree;
}

/** Maps a node between the views, so a toggle keeps the zoomed frame. */
export function counterpart(profile: Profile, node: NodeIndex, from: ViewKind): NodeIndex {
  if (node <= 0) return 0;
  const fv = functionView(profile);
  return from === 'inline' ? fv.toFunction[node] : fv.toInline[node];
}
