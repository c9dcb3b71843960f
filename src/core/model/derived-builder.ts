// Builds a derived call tree (a transform's result) straight from its input tree, without the
// hashed child lookups and the full re-sort of TreeBuilder.
//
// A derived tree maps every input node i either onto the output node of its parent ("merged up":
// a dropped frame, a collapsed recursion step) or onto the child of that node for frame[i]. The
// output nodes are produced directly in depth-first pre-order from a stack of *groups*: the input
// nodes that land on one output node. Popping a group gathers its members' children (looking
// through merged-up ones), sorts them by frame rank and pushes one group per distinct frame.
//
//   input (DFS, siblings sorted)       group stack                      output
//   all                                {all}                ──▶ 0 all
//   ├─ a                               {a}  singleton, clean ──▶ 1 a ┐ copied as one block:
//   │  └─ b                                                    2 b ┘ columns + offset
//   └─ x (merged up)                   {c} ∪ {c under x}     ──▶ 3 c   (two members)
//      └─ c ...
//
// Invariants:
// - a group of one input node whose subtree holds no merged-up node maps onto a contiguous output
//   block, node for node: the input is already in DFS order with siblings sorted by rank, so its
//   columns are copied with an index offset (O(size), no lookups, no sort). This is most of a
//   typical transform's tree;
// - only groups with several members or with merged-up children are sorted, and an input whose
//   siblings are not strictly rank-ordered (not a finished CallTree) is always sorted, so the
//   result is exactly TreeBuilder's: same nodes, same order, same sums in the same order (self
//   weights are accumulated in input node order; totals and ends come from finish()'s loop);
// - a node whose parent keeps all its children (no merged child) is numbered by a sequential scan
//   of the input, not pushed as a group of its own;
// - no recursion: explicit stacks in typed arrays grown on demand, no per-node objects, no Map;
// - two phases: the walk only numbers output nodes (toNew) and records the blocks; the columns
//   are then allocated at their exact size and filled (see DerivedBuilder.finish).

import { newTreeColumns, type CallTree } from './call-tree';
import type { FrameTable } from './frame-table';
import { fillTotalsAndEnds, frameRanks } from './tree-builder';
import type { FrameIndex, NodeIndex } from './types';
import { grown } from './grown';

export interface Derived {
  tree: CallTree;
  /** For each input node: its output node, or -1 when it was dropped. */
  toNew: Int32Array;
}

const rankCache = new WeakMap<FrameTable, Int32Array>();

/** frameRanks(frames), memoised by identity (a transform stack reuses one FrameTable). */
export function cachedFrameRanks(frames: FrameTable): Int32Array {
  let rank = rankCache.get(frames);
  if (!rank || rank.length !== frames.count) rankCache.set(frames, (rank = frameRanks(frames)));
  return rank;
}

// Keyed by the columns, not the tree object: a tree's columns are frozen, and copies of a tree
// object (memo busting) share them.
const sortedCache = new WeakMap<Int32Array, { end: Int32Array; byRank: WeakMap<Int32Array, boolean> }>();

/** Whether every node's next sibling has a strictly greater rank (true for a finished tree). */
function siblingsSorted(tree: CallTree, rank: Int32Array): boolean {
  let entry = sortedCache.get(tree.frame);
  if (!entry || entry.end !== tree.end) sortedCache.set(tree.frame, (entry = { end: tree.end, byRank: new WeakMap() }));
  let ok = entry.byRank.get(rank);
  if (ok === undefined) {
    ok = true;
    const { parent, frame, end } = tree;
    for (let i = 1; i < tree.nodeCount && ok; i++) {
      const next = end[i];
      if (next < end[parent[i]] && rank[frame[next]] <= rank[frame[i]]) ok = false;
    }
    entry.byRank.set(rank, ok);
  }
  return ok;
}

/** A derived tree is sorted by construction: skip the check when it is transformed again. */
function markSorted(tree: CallTree, rank: Int32Array): void {
  const byRank = new WeakMap<Int32Array, boolean>();
  byRank.set(rank, true);
  sortedCache.set(tree.frame, { end: tree.end, byRank });
}

// Bits of the per-input-node flags.
const MERGED = 1; // merged into its parent's output node
const DIRTY = 2; // a merged node strictly inside the subtree: no block copy
const MERGED_CHILD = 4; // a merged direct child: its children list needs the general gather
const BLOCK = 8; // root of a block copy (set by phase 1)

/**
 * The tree where every node with mergeUp[node] = 1 is merged into its parent's output node (its
 * self weight to that node, its children hung there). mergeUp[0] is ignored. `mergeUp` (0 or 1
 * per node) is used as scratch: other bits of it are set.
 */
export function mergeIntoParents(tree: CallTree, frames: FrameTable, mergeUp: Uint8Array): Derived {
  const { parent } = tree;
  mergeUp[0] = 0;
  for (let i = 1; i < tree.nodeCount; i++) {
    // Bits of node i are only set by its descendants, which come later: clear stray ones first.
    if ((mergeUp[i] &= MERGED) === 0) continue;
    let p = parent[i];
    mergeUp[p] |= MERGED_CHILD;
    // Ancestors up to the first already dirty one: each node is marked once, O(nodes) in all.
    while (p >= 0 && (mergeUp[p] & DIRTY) === 0) {
      mergeUp[p] |= DIRTY;
      p = parent[p];
    }
  }
  const b = new DerivedBuilder(tree, frames, mergeUp);
  b.next = 1;
  b.expand(0, Int32Array.of(0));
  return b.finish(-1);
}

/**
 * A tree with one node under the root, for `rootFrame`, onto which the input nodes `roots`
 * (ascending, none inside another) and their subtrees are merged; every other input node is
 * dropped (-1). calleesTree's shape.
 */
export function mergeSubtrees(tree: CallTree, frames: FrameTable, rootFrame: FrameIndex, roots: Int32Array): Derived {
  const b = new DerivedBuilder(tree, frames, new Uint8Array(tree.nodeCount));
  b.toNew.fill(-1);
  b.next = 2;
  b.expand(1, roots);
  return b.finish(rootFrame);
}

// Two phases. expand() numbers the output nodes in pre-order: it maps the input nodes of the
// gathered groups (toNew) and records the block copies. finish() then fills the columns: for
// the gathered nodes in input order (an output node's frame and parent come from any input node
// mapped onto it that is not merged up: its parent is toNew[its input parent]), then each block
// with an index offset.
class DerivedBuilder {
  readonly toNew: Int32Array;
  /** Output nodes numbered so far. */
  next = 0;
  // Members of the pending groups (the group on top of the stack last), the group stack (where
  // its members start in mem, how many), the children gathered for one group, a stack for
  // merged-up chains, and the blocks (input root, output root). They grow on demand: pending
  // groups are few next to the node count.
  private mem = new Int32Array(1024);
  private gStart = new Int32Array(1024);
  private gLen = new Int32Array(1024);
  private cand = new Int32Array(1024);
  private work = new Int32Array(1024);
  private blockIn = new Int32Array(1024);
  private blockOut = new Int32Array(1024);
  private blocks = 0;
  private memTop = 0;
  private gTop = 0;
  private readonly rank: Int32Array;
  /** Whether the input's sibling order can be trusted (block copies, no sort of single groups). */
  private readonly sorted: boolean;

  constructor(
    private readonly tree: CallTree,
    frames: FrameTable,
    /** MERGED | DIRTY | MERGED_CHILD | BLOCK per input node. */
    private readonly flags: Uint8Array,
  ) {
    this.toNew = new Int32Array(tree.nodeCount);
    this.rank = cachedFrameRanks(frames);
    this.sorted = siblingsSorted(tree, this.rank);
  }

  /** Hangs under output node `out` the merged children of the input nodes `members`. */
  expand(out: NodeIndex, members: Int32Array): void {
    if (members.length > this.mem.length) this.mem = new Int32Array(members.length);
    this.mem.set(members);
    this.memTop = 0;
    this.gather(out, 0, members.length);
    const sorted = this.sorted;
    const flags = this.flags;
    const end = this.tree.end;
    while (this.gTop > 0) {
      const g = --this.gTop;
      const s = this.gStart[g];
      const l = this.gLen[g];
      if (l < 0) {
        // The rest of a scan. mem above memTop is free: the groups pushed after it are done.
        this.scan(s, -l);
        continue;
      }
      const idx = this.next++;
      this.memTop = s;
      const x = this.mem[s];
      if (l === 1 && sorted) {
        const f = flags[x];
        if ((f & DIRTY) === 0) {
          this.block(x, idx);
        } else if ((f & MERGED_CHILD) === 0) {
          this.toNew[x] = idx;
          this.scan(x + 1, end[x]);
        } else {
          this.gather(idx, s, l);
        }
      } else {
        this.gather(idx, s, l);
      }
    }
  }

  /** Input node x's subtree maps onto output nodes idx… one for one (filled by finish). */
  private block(x: number, idx: number): void {
    const b = this.blocks++;
    if (b === this.blockIn.length) {
      this.blockIn = grown(this.blockIn, this.blockIn.length * 2);
      this.blockOut = grown(this.blockOut, this.blockOut.length * 2);
    }
    this.blockIn[b] = x;
    this.blockOut[b] = idx;
    this.flags[x] |= BLOCK;
    this.next = idx + (this.tree.end[x] - x);
  }

  /**
   * Numbers input nodes [i, stop) in input order: their parents keep all their children (no
   * merged child), so the output order is the input order. Stops at a node with a merged child:
   * gathers it and leaves the rest of the range on the stack, under its groups.
   */
  private scan(i: number, stop: number): void {
    const { toNew, flags } = this;
    const end = this.tree.end;
    while (i < stop) {
      const f = flags[i];
      const idx = this.next++;
      if ((f & DIRTY) === 0) {
        this.block(i, idx);
        i = end[i];
        continue;
      }
      toNew[i] = idx;
      if ((f & MERGED_CHILD) === 0) {
        i++; // its children follow it in the input, in order
        continue;
      }
      const e = end[i];
      if (e < stop) this.push(e, -stop);
      if (this.memTop === this.mem.length) this.mem = grown(this.mem, this.mem.length * 2);
      this.mem[this.memTop] = i;
      this.gather(idx, this.memTop, 1);
      return;
    }
  }

  /** A group (start in mem, member count) or, with len < 0, a scan (first node, -stop). */
  private push(start: number, len: number): void {
    if (this.gTop === this.gStart.length) {
      this.gStart = grown(this.gStart, this.gStart.length * 2);
      this.gLen = grown(this.gLen, this.gLen.length * 2);
    }
    this.gStart[this.gTop] = start;
    this.gLen[this.gTop++] = len;
  }

  /** Maps the members onto `out`, gathers their children (through merged ones), one group per frame. */
  private gather(out: NodeIndex, start: number, len: number): void {
    const { mem, toNew, flags, rank } = this;
    const { frame, end } = this.tree;
    let cand = this.cand;
    let cn = 0;
    let simple = len === 1 && this.sorted;
    for (let k = start; k < start + len; k++) {
      const x = mem[k];
      toNew[x] = out;
      for (let c = x + 1; c < end[x]; c = end[c]) {
        if ((flags[c] & MERGED) === 0) {
          if (cn === cand.length) cand = this.cand = grown(cand, cand.length * 2);
          cand[cn++] = c;
          continue;
        }
        simple = false;
        let work = this.work;
        let w = 0;
        work[w++] = c;
        while (w > 0) {
          const d = work[--w];
          toNew[d] = out;
          for (let e = d + 1; e < end[d]; e = end[e]) {
            if ((flags[e] & MERGED) === 0) {
              if (cn === cand.length) cand = this.cand = grown(cand, cand.length * 2);
              cand[cn++] = e;
            } else {
              if (w === work.length) work = this.work = grown(work, work.length * 2);
              work[w++] = e;
            }
          }
        }
      }
    }
    if (cn === 0) return;
    if (!simple && cn > 1) sortByRank(cand, cn, frame, rank);
    // Push the groups last first, so the first pops first and its members sit on top of mem.
    if (this.memTop + cn > this.mem.length) this.mem = grown(this.mem, Math.max(this.mem.length * 2, this.memTop + cn));
    const mem2 = this.mem;
    let top = this.memTop;
    let hi = cn;
    while (hi > 0) {
      const f = frame[cand[hi - 1]];
      let lo = hi - 1;
      if (!simple) while (lo > 0 && frame[cand[lo - 1]] === f) lo--;
      this.push(top, hi - lo);
      for (let k = lo; k < hi; k++) mem2[top++] = cand[k];
      hi = lo;
    }
    this.memTop = top;
  }

  /**
   * Freezes the output: exact-size columns, self sums in input order, totals/ends as finish().
   * `rootFrame` ≥ 0: mergeSubtrees' layout (node 1 has that frame, input nodes mapped onto it are
   * the merged roots); -1: mergeIntoParents'.
   */
  finish(rootFrame: FrameIndex): Derived {
    const n = this.next;
    const tree = this.tree;
    const { toNew, flags } = this;
    const { parent, frame, depth, end, selfWeight, selfSamples, totalWeight, totalSamples } = newTreeColumns(n);
    const { parent: inParent, frame: inFrame, depth: inDepth, end: inEnd, selfWeight: inW, selfSamples: inS } = tree;
    parent[0] = -1;
    frame[0] = -1;
    let first = 1;
    if (rootFrame >= 0) {
      frame[1] = rootFrame;
      depth[1] = 1;
      first = 2; // output nodes below 2 are set here, not from input nodes
    } else {
      selfWeight[0] += inW[0];
      selfSamples[0] += inS[0];
    }
    let maxDepth = n > 1 ? 1 : 0;
    // Gathered nodes in input order (so sums run in TreeBuilder's order), skipping the blocks.
    for (let i = 1; i < tree.nodeCount; i++) {
      const f = flags[i];
      if (f & BLOCK) {
        i = inEnd[i] - 1;
        continue;
      }
      const m = toNew[i];
      if (m < 0) continue;
      selfWeight[m] += inW[i];
      selfSamples[m] += inS[i];
      if (m < first || f & MERGED) continue;
      const p = toNew[inParent[i]];
      parent[m] = p;
      frame[m] = inFrame[i];
      const d = depth[p] + 1;
      depth[m] = d;
      if (d > maxDepth) maxDepth = d;
    }
    // Blocks: every column with an offset. Their parents are gathered nodes, filled above.
    for (let b = 0; b < this.blocks; b++) {
      const x = this.blockIn[b];
      const idx = this.blockOut[b];
      const e = inEnd[x];
      const off = idx - x;
      const p = toNew[inParent[x]];
      const dd = depth[p] + 1 - inDepth[x];
      flags[x] &= ~BLOCK;
      for (let i = x; i < e; i++) {
        const o = i + off;
        toNew[i] = o;
        parent[o] = inParent[i] + off;
        frame[o] = inFrame[i];
        const d = inDepth[i] + dd;
        depth[o] = d;
        if (d > maxDepth) maxDepth = d;
        selfWeight[o] = 0 + inW[i]; // as TreeBuilder's 0 += w (-0 becomes 0)
        selfSamples[o] = 0 + inS[i];
      }
      parent[idx] = p;
    }
    fillTotalsAndEnds(n, parent, selfWeight, selfSamples, totalWeight, totalSamples, end);
    const out: CallTree = { nodeCount: n, parent, frame, depth, end, selfWeight, totalWeight, selfSamples, totalSamples, maxDepth };
    if (this.sorted) markSorted(out, this.rank);
    return { tree: out, toNew };
  }
}

/** Sorts cand[0..n) by the rank of the node's frame (order among equal frames is irrelevant). */
function sortByRank(cand: Int32Array, n: number, frame: Int32Array, rank: Int32Array): void {
  if (n <= 24) {
    for (let i = 1; i < n; i++) {
      const c = cand[i];
      const r = rank[frame[c]];
      let j = i - 1;
      while (j >= 0 && rank[frame[cand[j]]] > r) {
        cand[j + 1] = cand[j];
        j--;
      }
      cand[j + 1] = c;
    }
    return;
  }
  cand.subarray(0, n).sort((a, b) => rank[frame[a]] - rank[frame[b]]);
}
