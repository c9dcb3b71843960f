// Grows a call tree one stack at a time, then freezes it into a depth-first CallTree.
//
// Invariants while building: node 0 is the root; nodes are numbered in creation order; the pair
// (parent, frame) names at most one node, found through an open-addressing hash table held in
// typed arrays (a Map keyed by pairs would allocate per lookup on the hottest path of every
// importer). Children are kept as singly linked lists (firstChild / nextSibling) so finish() can
// order them without per-node arrays.

import type { CallTree } from './call-tree';
import type { FrameTable } from './frame-table';
import { ROOT_NODE, type FrameIndex, type NodeIndex } from './types';

const EMPTY = -1;

export class TreeBuilder {
  private parent: Int32Array;
  private frame: Int32Array;
  private firstChild: Int32Array;
  private nextSibling: Int32Array;
  private selfWeight: Float64Array;
  private selfSamples: Float64Array;
  // The child of each node that child() returned last (0 = none: the root is nobody's child).
  // Consecutive stacks mostly repeat the path just taken, so this answers most lookups from a
  // row next to the parent's own, without a probe into the (cache-missing) hash table.
  private recent: Int32Array;
  private count = 1;

  // Hash slots, two ints each: [frame, node + 1] (0 = empty); the key of a slot is
  // (parent[node], frame). The frame beside the node rejects most wrong slots without a second
  // memory access.
  private slots: Int32Array;
  private mask: number;

  /** `capacity`: expected node count (a derived tree knows its bound), to skip the regrowth. */
  constructor(capacity = 1024) {
    const size = Math.max(1024, capacity + 1);
    this.parent = new Int32Array(size);
    this.frame = new Int32Array(size);
    this.firstChild = new Int32Array(size);
    this.nextSibling = new Int32Array(size);
    this.selfWeight = new Float64Array(size);
    this.selfSamples = new Float64Array(size);
    this.recent = new Int32Array(size);
    let slots = 4096;
    while (slots < size * 2 + 2) slots *= 2;
    this.slots = new Int32Array(2 * slots);
    this.mask = slots - 1;
    this.parent[0] = -1;
    this.frame[0] = -1;
    this.firstChild[0] = EMPTY;
    this.nextSibling[0] = EMPTY;
  }

  get nodeCount(): number {
    return this.count;
  }

  /** The child of `parent` for `frame`, created (with zero weight) on first use. */
  child(parent: NodeIndex, frame: FrameIndex): NodeIndex {
    const recent = this.recent[parent];
    if (recent !== 0 && this.frame[recent] === frame) return recent;
    const slots = this.slots;
    const mask = this.mask;
    let slot = hashPair(parent, frame) & mask;
    for (;;) {
      const stored = slots[2 * slot + 1];
      if (stored === 0) break;
      if (slots[2 * slot] === frame && this.parent[stored - 1] === parent) {
        this.recent[parent] = stored - 1;
        return stored - 1;
      }
      slot = (slot + 1) & mask;
    }
    const node = this.count++;
    if (node === this.parent.length) this.growNodes();
    this.parent[node] = parent;
    this.frame[node] = frame;
    this.firstChild[node] = EMPTY;
    this.nextSibling[node] = this.firstChild[parent];
    this.firstChild[parent] = node;
    this.recent[parent] = node;
    slots[2 * slot] = frame;
    slots[2 * slot + 1] = node + 1;
    if (this.count * 2 > mask) this.growSlots();
    return node;
  }

  /** Adds weight to a node's self columns (the leaf of a sample). */
  addSelf(node: NodeIndex, weight: number, samples: number): void {
    this.selfWeight[node] += weight;
    this.selfSamples[node] += samples;
  }

  /** Adds a whole stack, root-first frames in stack[0..length). Returns the leaf node. */
  addStack(stack: ArrayLike<FrameIndex>, length: number, weight: number, samples: number): NodeIndex {
    let node: NodeIndex = ROOT_NODE;
    for (let i = 0; i < length; i++) node = this.child(node, stack[i]);
    this.addSelf(node, weight, samples);
    return node;
  }

  parentOf(node: NodeIndex): NodeIndex {
    return this.parent[node];
  }

  frameOf(node: NodeIndex): FrameIndex {
    return this.frame[node];
  }

  /**
   * Freezes the tree into depth-first order with siblings sorted by frame name, then flags.
   * Returns the tree and, for each builder node, its index in the frozen tree.
   */
  finish(frames: FrameTable): { tree: CallTree; order: Int32Array } {
    const n = this.count;
    const rank = frameRanks(frames);
    this.sortChildren(rank);

    const parent = new Int32Array(n);
    const frame = new Int32Array(n);
    const depth = new Int32Array(n);
    const end = new Int32Array(n);
    const selfWeight = new Float64Array(n);
    const selfSamples = new Float64Array(n);
    const totalWeight = new Float64Array(n);
    const totalSamples = new Float64Array(n);
    const newIndex = new Int32Array(n);

    // Iterative pre-order walk with an explicit stack of builder nodes.
    const stack = new Int32Array(n);
    let top = 0;
    stack[top++] = 0;
    let next = 0;
    let maxDepth = 0;
    while (top > 0) {
      const old = stack[--top];
      const idx = next++;
      newIndex[old] = idx;
      const oldParent = this.parent[old];
      const p = oldParent < 0 ? -1 : newIndex[oldParent];
      parent[idx] = p;
      frame[idx] = this.frame[old];
      const d = p < 0 ? 0 : depth[p] + 1;
      depth[idx] = d;
      if (d > maxDepth) maxDepth = d;
      selfWeight[idx] = this.selfWeight[old];
      selfSamples[idx] = this.selfSamples[old];
      // Children are pushed in reverse so the first (smallest) pops first. The lists are already
      // sorted in descending order by sortChildren, so pushing in list order is the reverse.
      for (let c = this.firstChild[old]; c !== EMPTY; c = this.nextSibling[c]) stack[top++] = c;
    }

    fillTotalsAndEnds(n, parent, selfWeight, selfSamples, totalWeight, totalSamples, end);

    const tree: CallTree = {
      nodeCount: n,
      parent,
      frame,
      depth,
      end,
      selfWeight,
      totalWeight,
      selfSamples,
      totalSamples,
      maxDepth,
    };
    return { tree, order: newIndex };
  }

  /** Re-links every child list in descending rank order (see finish for why descending). */
  private sortChildren(rank: Int32Array): void {
    const scratch: number[] = [];
    for (let node = 0; node < this.count; node++) {
      let c = this.firstChild[node];
      if (c === EMPTY || this.nextSibling[c] === EMPTY) continue;
      scratch.length = 0;
      for (; c !== EMPTY; c = this.nextSibling[c]) scratch.push(c);
      scratch.sort((a, b) => rank[this.frame[b]] - rank[this.frame[a]]);
      this.firstChild[node] = scratch[0];
      for (let i = 0; i < scratch.length - 1; i++) this.nextSibling[scratch[i]] = scratch[i + 1];
      this.nextSibling[scratch[scratch.length - 1]] = EMPTY;
    }
  }

  private growNodes(): void {
    const size = this.parent.length * 2;
    this.parent = growInt(this.parent, size);
    this.frame = growInt(this.frame, size);
    this.firstChild = growInt(this.firstChild, size);
    this.nextSibling = growInt(this.nextSibling, size);
    this.recent = growInt(this.recent, size);
    const w = new Float64Array(size);
    w.set(this.selfWeight);
    this.selfWeight = w;
    const s = new Float64Array(size);
    s.set(this.selfSamples);
    this.selfSamples = s;
  }

  private growSlots(): void {
    // Four times the slots: a rehash re-inserts every node at a random slot (a cache miss each), so
    // growing 4x does that for about 1.33 n nodes in all instead of 2 n. The table stays between
    // 1/8 and 1/2 full (at most 8 slots, 64 bytes, per node).
    const size = (this.mask + 1) * 4;
    const slots = new Int32Array(2 * size);
    const mask = size - 1;
    for (let node = 1; node < this.count; node++) {
      const frame = this.frame[node];
      let slot = hashPair(this.parent[node], frame) & mask;
      while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = frame;
      slots[2 * slot + 1] = node + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

function growInt(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

function hashPair(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}

/**
 * Rank of every frame when sorted by name (UTF-16 code units, which orders like UTF-8 bytes
 * except for astral characters), then flags. Siblings are ordered by this rank.
 */
export function frameRanks(frames: FrameTable): Int32Array {
  const order = Array.from({ length: frames.count }, (_, i) => i);
  const names = frames.strings;
  order.sort((a, b) => {
    const na = names[frames.name[a]];
    const nb = names[frames.name[b]];
    if (na !== nb) return na < nb ? -1 : 1;
    return frames.flags[a] - frames.flags[b];
  });
  const rank = new Int32Array(frames.count);
  for (let i = 0; i < order.length; i++) rank[order[i]] = i;
  return rank;
}

/**
 * Fills the totals and subtree ends of a tree whose nodes are in depth-first order (parents
 * before children): one backward walk, children before parents. `totalWeight`, `totalSamples`
 * and `end` must start zeroed; selfs are added in. Shared by TreeBuilder and DerivedTreeBuilder
 * so both sum in the same order (their results are compared column for column).
 */
export function fillTotalsAndEnds(
  n: number,
  parent: Int32Array,
  selfWeight: Float64Array,
  selfSamples: Float64Array,
  totalWeight: Float64Array,
  totalSamples: Float64Array,
  end: Int32Array,
): void {
  for (let i = n - 1; i >= 0; i--) {
    totalWeight[i] += selfWeight[i];
    totalSamples[i] += selfSamples[i];
    if (end[i] === 0) end[i] = i + 1;
    const p = parent[i];
    if (p >= 0) {
      totalWeight[p] += totalWeight[i];
      totalSamples[p] += totalSamples[i];
      if (end[i] > end[p]) end[p] = end[i];
    }
  }
}
