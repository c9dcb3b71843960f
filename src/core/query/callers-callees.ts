// The callers and callees of one function (speedscope's "sandwich"): the trees of core/views/callers-callees-trees.ts
// for a function name, paired once per pair of trees, how the two graphs are oriented around the
// function, and what a tooltip says about one of their nodes. Pure, memoised by identity.
//
// Invariants: in a reversed (bottom-up) tree a function's children are its callers, so the two
// trees swap; one CallersCalleesTrees object per (callers, callees) pair, so selectors see the same
// value until the trees change.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { FrameFlags, type NodeIndex } from '../model/types';
import type { Orientation } from '../model/view-types';
import { callersTree, calleesTree } from '../views/callers-callees-trees';
import { frameNameIndex } from '../views/derive-analysis';

export type CallersCalleesPane = 'callers' | 'callees';

/** The callers and callees trees of one function. */
export interface CallersCalleesTrees {
  callers: CallTree;
  callees: CallTree;
  /** The selected function's total weight (both trees' root total). */
  total: number;
}

const pairs = new WeakMap<CallTree, CallersCalleesTrees>();

/** The callers and callees trees of `name` in `tree`, or null when no frame has that name. */
export function callersCalleesOf(tree: CallTree, frames: FrameTable, name: string, reversed = false): CallersCalleesTrees | null {
  const s = frameNameIndex(frames, name);
  if (s < 0) return null;
  const down = calleesTree(tree, frames, s).tree;
  const up = callersTree(tree, frames, s).tree;
  const callees = reversed ? up : down;
  const callers = reversed ? down : up;
  const hit = pairs.get(callees);
  if (hit && hit.callers === callers) return hit;
  const out = callersCalleesPair(callers, callees);
  pairs.set(callees, out);
  return out;
}

/** The CallersCalleesTrees of a callers/callees pair. */
export function callersCalleesPair(callers: CallTree, callees: CallTree): CallersCalleesTrees {
  return { callers, callees, total: callees.nodeCount > 0 ? callees.totalWeight[0] : 0 };
}

/**
 * Orientation of each graph so the function sits between them: with the main graph as a flame
 * (root at the bottom) the callees grow up above it and the callers hang below it (icicle); with
 * the main graph as an icicle, the other way round.
 */
export function paneOrientation(pane: CallersCalleesPane, main: Orientation): Orientation {
  if (pane === 'callees') return main;
  return main === 'flame' ? 'icicle' : 'flame';
}

/** Which pane is drawn first (on top). */
export function topPane(main: Orientation): CallersCalleesPane {
  return main === 'flame' ? 'callees' : 'callers';
}

export interface CallersCalleesNodeInfo {
  name: string;
  inlined: boolean;
  totalWeight: number;
  selfWeight: number;
  totalSamples: number;
  selfSamples: number;
  /** Share of the selected function's total weight, 0..1. */
  ofFunction: number;
}

/** What the tooltip of a callers or callees graph says about one of its nodes, or null. */
export function callersCalleesNodeInfo(tree: CallTree, frames: FrameTable, node: NodeIndex): CallersCalleesNodeInfo | null {
  if (node < 0 || node >= tree.nodeCount) return null;
  const f = tree.frame[node];
  const total = tree.totalWeight[0];
  return {
    name: f < 0 ? 'all' : frames.strings[frames.name[f]],
    inlined: f >= 0 && (frames.flags[f] & FrameFlags.INLINED) !== 0,
    totalWeight: tree.totalWeight[node],
    selfWeight: tree.selfWeight[node],
    totalSamples: tree.totalSamples[node],
    selfSamples: tree.selfSamples[node],
    ofFunction: total > 0 ? tree.totalWeight[node] / total : 0,
  };
}
