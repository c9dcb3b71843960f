// The function view: one frame per physical frame, what `perf script --no-inline` prints for the
// same recording. Inlined frames are merged into the physical frame that contains them (their
// nearest non-inlined ancestor), which keeps their weight.
//
// Invariants: total weight is preserved; a tree without INLINED frames (and no doubled frames)
// maps to an identical tree; toFunction/toInline let the viewer keep the zoom across a toggle.
//
// perf artefact: for some addresses `addr2line -i` reports the physical function twice, so perf
// prints it twice in a row. The perf importer detects which frames only ever repeat in even runs
// (meta.doubledFrames); here every second frame of such a run is merged into the one before it.

import type { CallTree } from '../model/call-tree';
import { FrameFlags, type NodeIndex } from '../model/types';
import { TreeBuilder } from '../model/tree-builder';
import type { Profile } from '../profile';

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

function deriveFunctionView(profile: Profile): FunctionView {
  const { tree, frames } = profile;
  const n = tree.nodeCount;
  const doubled = new Uint8Array(frames.count);
  if (profile.meta.doubledFrames) for (const f of profile.meta.doubledFrames) doubled[f] = 1;

  // At most one function node per inline node: sized once, no regrowth of columns or hash slots.
  const builder = new TreeBuilder(n);
  // Builder node for each inline node (pre-order means parents are mapped before children).
  const mapped = new Int32Array(n);
  // Position of a node within a run of identical consecutive physical frames (0 = first).
  const runPosition = new Int32Array(n);
  mapped[0] = 0;
  for (let i = 1; i < n; i++) {
    const p = tree.parent[i];
    const f = tree.frame[i];
    // An inlined frame with no physical frame above it (possible in folded input: `f_[i]` at
    // the root) has nothing to merge into; it stays a frame so its weight stays visible.
    if (frames.flags[f] & FrameFlags.INLINED && mapped[p] !== 0) {
      mapped[i] = mapped[p];
    } else {
      runPosition[i] = p > 0 && tree.frame[p] === f ? runPosition[p] + 1 : 0;
      mapped[i] = doubled[f] && runPosition[i] % 2 === 1 ? mapped[p] : builder.child(mapped[p], f);
    }
    builder.addSelf(mapped[i], tree.selfWeight[i], tree.selfSamples[i]);
  }
  const { tree: fnTree, order } = builder.finish(frames);

  const toFunction = new Int32Array(n);
  const toInline = new Int32Array(fnTree.nodeCount).fill(-1);
  const best = new Float64Array(fnTree.nodeCount).fill(-1);
  toInline[0] = 0;
  for (let i = 1; i < n; i++) {
    const target = order[mapped[i]];
    toFunction[i] = target;
    const ownNode = !(frames.flags[tree.frame[i]] & FrameFlags.INLINED) || mapped[i] !== mapped[tree.parent[i]];
    const physical = ownNode && tree.frame[i] === fnTree.frame[target];
    if (physical && tree.totalWeight[i] > best[target]) {
      best[target] = tree.totalWeight[i];
      toInline[target] = i;
    }
  }
  return { tree: fnTree, toFunction, toInline };
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
