// The "Matched" figure: the share of the total weight under matching frames, without double
// counting a match nested under another match (the figure flamegraph.pl shows), and the same
// share within the current zoom.
//
// Invariants: 0 ≤ share ≤ 1; a matching node's subtree is counted once, at its topmost match
// (the walk skips it with i = end[i]); inside the zoom, a matching ancestor of the zoomed node
// (or the zoomed node itself) means the whole zoom matches.

import type { CallTree } from '../model/call-tree';
import type { NodeIndex } from '../model/types';

/** Weight under the topmost matching nodes inside node's subtree (node itself excluded if root). */
function matchedUnder(tree: CallTree, matches: Uint8Array, node: NodeIndex): number {
  let sum = 0;
  const end = tree.end[node];
  const frame = tree.frame;
  for (let i = node === 0 ? 1 : node; i < end; ) {
    if (matches[frame[i]]) {
      sum += tree.totalWeight[i];
      i = tree.end[i];
    } else {
      i++;
    }
  }
  return sum;
}

export interface MatchedShare {
  /** Of the whole profile, 0..1. */
  total: number;
  /** Of the zoomed node, 0..1 (equals total when not zoomed). */
  zoom: number;
}

export function matchedShare(tree: CallTree, matches: Uint8Array, zoomNode: NodeIndex): MatchedShare {
  const all = tree.totalWeight[0];
  const total = all > 0 ? matchedUnder(tree, matches, 0) / all : 0;
  if (zoomNode <= 0) return { total, zoom: total };
  for (let n = zoomNode; n > 0; n = tree.parent[n]) if (matches[tree.frame[n]]) return { total, zoom: 1 };
  const z = tree.totalWeight[zoomNode];
  return { total, zoom: z > 0 ? matchedUnder(tree, matches, zoomNode) / z : 0 };
}

/** `Matched: 12.3%`, followed by `(45.6% of zoom)` when zoomed. */
export function formatMatched(share: MatchedShare, zoomed: boolean): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return `Matched: ${pct(share.total)}${zoomed ? ` (${pct(share.zoom)} of zoom)` : ''}`;
}
