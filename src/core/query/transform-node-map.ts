// Carries the zoomed and the selected node across a change of the shown tree (a transform pushed
// or undone, the reversed switch, the other view, a time range). Pure.
//
// Each shown tree says what it was derived from (`input`: snapshot, view and time range of the
// transforms' input tree) and how (`toNew`: input node → shown node; null: the shown tree is the
// input itself; 'none': no node correspondence, the reversed tree). Between two trees of the same
// input, a node goes back to the input (its heaviest preimage) and forward through the new
// toNew; otherwise, or when that lands on a dropped node, it goes by frame path (the deepest
// ancestor whose path exists in the new tree), and at worst to the root.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { NodeIndex } from '../model/types';
import { findNearestPath } from '../views/frame-path';

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
  return mapShownNodes(frames, from, [node], to)[0];
}

/** Several nodes at once (the zoom and the selection): one pass over toNew for all of them. */
export function mapShownNodes(frames: FrameTable, from: ShownTree, nodes: readonly NodeIndex[], to: ShownTree): NodeIndex[] {
  const out = nodes.map((node) => (node < 0 ? -1 : node === 0 || node >= from.tree.nodeCount ? 0 : from.tree === to.tree ? node : -2));
  const open = out.some((n) => n === -2);
  if (open && from.inputKey === to.inputKey && from.toNew !== 'none' && to.toNew !== 'none') {
    const back = nodes.map((node, k) => (out[k] !== -2 ? -1 : from.toNew === null ? node : -1));
    if (from.toNew !== null) {
      // The heaviest preimage of each wanted node, in one scan.
      const toNew = from.toNew;
      const input = from.input;
      for (let i = 0; i < toNew.length; i++) {
        const t = toNew[i];
        for (let k = 0; k < nodes.length; k++) {
          if (out[k] !== -2 || t !== nodes[k]) continue;
          if (back[k] < 0 || (input && input.totalWeight[i] > input.totalWeight[back[k]])) back[k] = i;
        }
      }
    }
    for (let k = 0; k < nodes.length; k++) {
      const b = back[k];
      if (out[k] !== -2 || b < 0) continue;
      const n = to.toNew === null ? b : to.toNew[b];
      if (n >= 0 && n < to.tree.nodeCount) out[k] = n;
    }
  }
  for (let k = 0; k < nodes.length; k++) {
    if (out[k] === -2) out[k] = findNearestPath({ tree: from.tree, frames }, nodes[k], { tree: to.tree, frames }).node;
  }
  return out;
}
