// The call tree as typed-array columns in depth-first (pre-)order.
//
//   node │ parent │ frame │ depth │ end │ self │ total        all          (node 0, frame -1)
//   ─────┼────────┼───────┼───────┼─────┼──────┼──────        ├─ a        (node 1)
//     0  │   -1   │  -1   │   0   │  4  │   0  │  10          │  └─ b     (node 2)
//     1  │    0   │   a   │   1   │  3  │   2  │   7          └─ d        (node 3)
//     2  │    1   │   b   │   2   │  3  │   5  │   5
//     3  │    0   │   d   │   1   │  4  │   3  │   3
//
// Invariants:
// - node 0 is the synthetic root "all" (frame -1, depth 0); every other node's parent < node.
// - the subtree of n is exactly the index range [n, end[n]), so "is A inside B" is a range check
//   and no walk needs recursion.
// - siblings are ordered by frame name (then flags), as flamegraph.pl orders them, so the layout
//   is stable across recordings of the same program.
// - total = self + sum of children's totals, for both weights (period and sample count).

import type { FrameIndex, NodeIndex } from './types';

export interface CallTree {
  readonly nodeCount: number;
  readonly parent: Int32Array;
  readonly frame: Int32Array;
  readonly depth: Int32Array;
  /** Exclusive end of the node's subtree range. */
  readonly end: Int32Array;
  /** Summed period (for cpu-clock: ns). The default width weight. */
  readonly selfWeight: Float64Array;
  readonly totalWeight: Float64Array;
  /** Number of samples. */
  readonly selfSamples: Float64Array;
  readonly totalSamples: Float64Array;
  readonly maxDepth: number;
}

export function isInside(tree: CallTree, node: NodeIndex, ancestor: NodeIndex): boolean {
  return node >= ancestor && node < tree.end[ancestor];
}

/** Children of a node, in order. Allocates; meant for tests and small UI lists. */
export function childrenOf(tree: CallTree, node: NodeIndex): NodeIndex[] {
  const out: NodeIndex[] = [];
  for (let child = node + 1; child < tree.end[node]; child = tree.end[child]) out.push(child);
  return out;
}

/** The child of `node` with the given frame, or -1. */
export function findChild(tree: CallTree, node: NodeIndex, frame: FrameIndex): NodeIndex {
  for (let child = node + 1; child < tree.end[node]; child = tree.end[child]) {
    if (tree.frame[child] === frame) return child;
  }
  return -1;
}

/** Frames from the first frame under the root down to `node` (the root excluded). */
export function pathOf(tree: CallTree, node: NodeIndex): FrameIndex[] {
  const path: FrameIndex[] = [];
  for (let n = node; n > 0; n = tree.parent[n]) path.push(tree.frame[n]);
  return path.reverse();
}

/** Fresh, zeroed columns of an n-node tree: what TreeBuilder and DerivedTreeBuilder fill. */
export function newTreeColumns(n: number) {
  return {
    parent: new Int32Array(n),
    frame: new Int32Array(n),
    depth: new Int32Array(n),
    end: new Int32Array(n),
    selfWeight: new Float64Array(n),
    selfSamples: new Float64Array(n),
    totalWeight: new Float64Array(n),
    totalSamples: new Float64Array(n),
  };
}
