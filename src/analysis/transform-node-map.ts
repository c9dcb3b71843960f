// Carries the zoomed and the selected node across a change of the shown tree (a transform pushed
// or undone, the reversed switch, the other view, a time range). Pure.
//
// Each shown tree says what it was derived from (`input`: snapshot, view and time range of the
// transforms' input tree) and how (`toNew`: input node → shown node; null: the shown tree is the
// input itself; 'none': no node correspondence, the reversed tree). Between two trees of the same
// input, a node goes back to the input (its heaviest preimage) and forward through the new
// toNew; otherwise, or when that lands on a dropped node, it goes by frame path (the deepest
// ancestor whose path exists in the new tree), and at worst to the root.

import type { CallTree } from '../core/model/call-tree';
import type { FrameTable } from '../core/model/frame-table';
import type { NodeIndex } from '../core/model/types';
import { findNearestPath } from '../core/views/frame-path';

export interface ShownTree {
  tree: CallTree;
  /** What the transforms' input was: equal keys mean the same input tree. */
  inputKey: string;
  /** The input tree when it is known on this thread (its weights choose among preimages). */
  input: CallTree | null;
  toNew: Int32Array | null | 'none';
}

/** The input node that maps to `node` with the largest total (the first without weights), or -1. */
export function heaviestPreimage(toNew: Int32Array, node: NodeIndex, input: CallTree | null): NodeIndex {
  let best = -1;
  for (let i = 0; i < toNew.length; i++) {
    if (toNew[i] !== node) continue;
    if (!input) return i;
    if (best < 0 || input.totalWeight[i] > input.totalWeight[best]) best = i;
  }
  return best;
}

/** `node` of `from` in `to` (see the module comment); -1 stays -1. */
export function mapShownNode(frames: FrameTable, from: ShownTree, node: NodeIndex, to: ShownTree): NodeIndex {
  if (node < 0) return -1;
  if (node === 0 || node >= from.tree.nodeCount) return 0;
  if (from.tree === to.tree) return node;
  if (from.inputKey === to.inputKey && from.toNew !== 'none' && to.toNew !== 'none') {
    const b = from.toNew === null ? node : heaviestPreimage(from.toNew, node, from.input);
    const n = b < 0 ? -1 : to.toNew === null ? b : to.toNew[b];
    if (n >= 0 && n < to.tree.nodeCount) return n;
  }
  return findNearestPath({ tree: from.tree, frames }, node, { tree: to.tree, frames }).node;
}
