// The reversed (bottom-up) flamegraph, as flamegraph.pl --reverse draws it: every stack is
// reversed, so the leaves (where the time is spent) are the roots and their callers grow upward.
//
//   profile          reversedTree
//   a;b;c 3          all
//   a;c 2            └─ c 5/0
//   a 1              │  ├─ a 2/2
//                    │  └─ b 3/0
//                    │     └─ a 3/3
//                    └─ a 1/1
// Invariants: the root total is preserved; a depth-1 node's total is the self weight of its
// function's frame (over all call sites); a node's self is the weight of the stacks that end there
// (a root frame of the original). Not the icicle switch, which only flips the picture.
//
// Built without hashing, straight in depth-first order: an output node is a group of *cursors*
// (a stack with self weight, and how far up its callers the path has climbed); its children are
// the cursors' next callers, sorted by frame rank and grouped by frame. A group of one cursor is a
// plain chain of callers, emitted without sorting (most of a deep tree). Iterative, O(sum of the
// depths of nodes with self weight) plus the sorts of the shared levels; the result is exactly
// TreeBuilder's (same nodes and order, self sums in input order, totals as finish()). Memoised by
// (tree, frames).

import type { CallTree } from '../model/call-tree';
import { cachedFrameRanks } from '../model/derived-builder';
import type { FrameTable } from '../model/frame-table';
import { grown } from '../model/grown';
import { Memo } from '../util/memo';

const cache = new Memo<CallTree>();

/**
 * The most nodes a reversed tree may have. Reversing can multiply the node count (every stack
 * with self weight becomes its own chain of callers: a 1M-node synthetic tree reverses to tens of
 * millions), so past this the build stops with ReversedTooLargeError instead of allocating
 * gigabytes. 8M nodes is about 350 MB of columns.
 */
export const MAX_REVERSED_NODES = 8_000_000;

export class ReversedTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(
      `The reversed view of this profile would have more than ${limit.toLocaleString('en-US')} frames; ` +
        'focus on a function or hide frames first, then reverse.',
    );
    this.name = 'ReversedTooLargeError';
  }
}

/** The bottom-up tree (see the module comment), over the same FrameTable. */
export function reversedTree(tree: CallTree, frames: FrameTable, maxNodes = MAX_REVERSED_NODES): CallTree {
  return cache.get([tree, frames], () => computeReversed(tree, frames, maxNodes));
}

function computeReversed(tree: CallTree, frames: FrameTable, maxNodes: number): CallTree {
  const n = tree.nodeCount;
  const { parent: inParent, frame: inFrame, selfWeight: inW, selfSamples: inS } = tree;
  const rank = cachedFrameRanks(frames);
  // Output columns, grown on demand (the size is only known at the end).
  let oParent = new Int32Array(Math.max(16, n));
  let oFrame = new Int32Array(oParent.length);
  let oDepth = new Int32Array(oParent.length);
  let next = 1;
  oParent[0] = -1;
  oFrame[0] = -1;
  /** For each stack (input node with self weight): the output node where its reversed path ends. */
  const leafOut = new Int32Array(n).fill(-1);
  // Pending groups' cursors (origin stack, current caller node), the group stack, and the
  // candidates of one group. A cursor is in at most one pending group: all sized by n.
  const memO = new Int32Array(n);
  const memC = new Int32Array(n);
  const gStart = new Int32Array(n + 1);
  const gLen = new Int32Array(n + 1);
  const gParent = new Int32Array(n + 1);
  const candO = new Int32Array(n);
  const candC = new Int32Array(n);
  let perm = new Int32Array(0);
  let gTop = 0;
  let memTop = 0;

  /** Sorts candidates [0, k) by their caller's frame rank, pushes one group per frame under `out`. */
  const pushGroups = (out: number, k: number): void => {
    if (k === 0) return;
    if (k <= 24) {
      for (let i = 1; i < k; i++) {
        const o = candO[i];
        const c = candC[i];
        const r = rank[inFrame[c]];
        let j = i - 1;
        while (j >= 0 && rank[inFrame[candC[j]]] > r) {
          candO[j + 1] = candO[j];
          candC[j + 1] = candC[j];
          j--;
        }
        candO[j + 1] = o;
        candC[j + 1] = c;
      }
      pushSorted(out, k, null);
      return;
    }
    if (perm.length < k) perm = new Int32Array(Math.max(k, perm.length * 2));
    const p = perm.subarray(0, k);
    for (let i = 0; i < k; i++) p[i] = i;
    p.sort((a, b) => rank[inFrame[candC[a]]] - rank[inFrame[candC[b]]]);
    pushSorted(out, k, p);
  };
  /** Pushes the (sorted, through `order` if given) candidates as groups, last first. */
  const pushSorted = (out: number, k: number, order: Int32Array | null): void => {
    let hi = k;
    while (hi > 0) {
      const f = inFrame[candC[order ? order[hi - 1] : hi - 1]];
      let lo = hi - 1;
      while (lo > 0 && inFrame[candC[order ? order[lo - 1] : lo - 1]] === f) lo--;
      const g = gTop++;
      gStart[g] = memTop;
      gLen[g] = hi - lo;
      gParent[g] = out;
      for (let j = lo; j < hi; j++) {
        const at = order ? order[j] : j;
        memO[memTop] = candO[at];
        memC[memTop++] = candC[at];
      }
      hi = lo;
    }
  };
  const ensure = (size: number): void => {
    if (size > maxNodes + 1) throw new ReversedTooLargeError(maxNodes);
    if (size <= oParent.length) return;
    const next = Math.min(Math.max(oParent.length * 2, size), maxNodes + 1);
    oParent = grown(oParent, next);
    oFrame = grown(oFrame, next);
    oDepth = grown(oDepth, next);
  };

  // The root's children: every stack with weight, by its leaf frame.
  let k = 0;
  for (let i = 1; i < n; i++) {
    if (inW[i] === 0 && inS[i] === 0) continue;
    candO[k] = i;
    candC[k++] = i;
  }
  pushGroups(0, k);
  while (gTop > 0) {
    const g = --gTop;
    const s = gStart[g];
    const len = gLen[g];
    const p = gParent[g];
    memTop = s;
    ensure(next + 1);
    let idx = next++;
    oParent[idx] = p;
    oFrame[idx] = inFrame[memC[s]];
    oDepth[idx] = oDepth[p] + 1;
    if (len === 1) {
      // One stack: the rest is the chain of its callers.
      let c = inParent[memC[s]];
      while (c > 0) {
        ensure(next + 1);
        const at = next++;
        oParent[at] = idx;
        oFrame[at] = inFrame[c];
        oDepth[at] = oDepth[idx] + 1;
        idx = at;
        c = inParent[c];
      }
      leafOut[memO[s]] = idx;
      continue;
    }
    k = 0;
    for (let j = s; j < s + len; j++) {
      const c = inParent[memC[j]];
      if (c > 0) {
        candO[k] = memO[j];
        candC[k++] = c;
      } else {
        leafOut[memO[j]] = idx;
      }
    }
    pushGroups(idx, k);
  }

  const count = next;
  const parent = oParent.slice(0, count);
  const frame = oFrame.slice(0, count);
  const depth = oDepth.slice(0, count);
  const end = new Int32Array(count);
  const selfWeight = new Float64Array(count);
  const selfSamples = new Float64Array(count);
  const totalWeight = new Float64Array(count);
  const totalSamples = new Float64Array(count);
  // Self sums in input order, as TreeBuilder.addSelf added them (root self first).
  selfWeight[0] += inW[0];
  selfSamples[0] += inS[0];
  for (let i = 1; i < n; i++) {
    const m = leafOut[i];
    if (m < 0) continue;
    selfWeight[m] += inW[i];
    selfSamples[m] += inS[i];
  }
  let maxDepth = 0;
  for (let i = count - 1; i >= 0; i--) {
    totalWeight[i] += selfWeight[i];
    totalSamples[i] += selfSamples[i];
    if (end[i] === 0) end[i] = i + 1;
    if (depth[i] > maxDepth) maxDepth = depth[i];
    const q = parent[i];
    if (q >= 0) {
      totalWeight[q] += totalWeight[i];
      totalSamples[q] += totalSamples[i];
      if (end[i] > end[q]) end[q] = end[i];
    }
  }
  return { nodeCount: count, parent, frame, depth, end, selfWeight, totalWeight, selfSamples, totalSamples, maxDepth };
}
