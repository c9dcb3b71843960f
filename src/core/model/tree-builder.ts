// Grows a call tree one stack at a time, then freezes it into a depth-first CallTree.
//
// Invariants while building: node 0 is the root; nodes are numbered in creation order; the pair
// (parent, frame) names at most one node. Children are kept as singly linked lists (firstChild /
// nextSibling, 0 = none: the root is nobody's child, so fresh zeroed columns need no fill) that
// finish() orders without per-node arrays.
//
// Child lookup: most parents have one or two children (200 MB folded: 0.8 list steps per lookup
// on average), so a parent's list is simply scanned until it reaches WIDE children; from then on
// its children are also in an open-addressing hash table held in typed arrays, so a root with
// 100,000 children costs one probe, not a scan. Only wide parents' children are hashed: the table
// stays small (a tenth of the nodes on the bench inputs) instead of one random cache miss per new
// node into a table of 8 slots per node, and its regrowth re-inserts only those children.

import { newTreeColumns, type CallTree } from './call-tree';
import type { FrameTable, FrameTableBuilder } from './frame-table';
import type { Profile, ProfileMeta } from './profile';
import { markMutable } from './mutable-fields';
import { ROOT_NODE, type FrameIndex, type NodeIndex } from './types';
import { grown } from './grown';

const NONE = 0;
/** Child count from which a parent's children are found through the hash table. */
const WIDE = 8;

export class TreeBuilder {
  private parent: Int32Array;
  private frame: Int32Array;
  private firstChild: Int32Array;
  private nextSibling: Int32Array;
  private selfWeight: Float64Array;
  // Null while every addSelf had samples === weight (folded input: the count is both), so the
  // column would equal selfWeight: 8 bytes a node of fresh memory saved, and the sample sums of
  // finish() are copies of the weight sums (the same additions in the same order).
  private selfSamples: Float64Array | null = null;
  /** Children per node, counted up to WIDE (then the node's children are hashed). */
  private kids: Uint8Array;
  private count = 1;

  // Hash slots, two ints each: [frame, node] (node 0 = empty); the key of a slot is
  // (parent[node], frame). The frame beside the node rejects most wrong slots without a second
  // memory access.
  // Starts tiny, so its first growths run within the first wide parent's children, before child()
  // is optimised: a first growth later ran code the optimised child() had no feedback for and
  // threw it away (--trace-deopt, at ~13 MB of a 200 MB folded file).
  private slots = new Int32Array(2 * 16);
  private mask = 15;
  private hashed = 0;

  /** `capacity`: expected node count (a derived tree knows its bound), to skip the regrowth. */
  constructor(capacity = 1024) {
    const size = Math.max(1024, capacity + 1);
    this.parent = new Int32Array(size);
    this.frame = new Int32Array(size);
    this.firstChild = new Int32Array(size);
    this.nextSibling = new Int32Array(size);
    this.selfWeight = new Float64Array(size);
    this.kids = new Uint8Array(size);
    this.parent[0] = -1;
    this.frame[0] = -1;
    // Columns and the hash table are replaced when they grow: variable fields from the start, so
    // no optimised code is compiled against the first ones and thrown away at the first growth.
    // (Columns sized for a known bound rarely grow, and marking copies them: only small ones.)
    markMutable(this, size <= 4096 ? ['parent', 'frame', 'firstChild', 'nextSibling', 'selfWeight', 'kids', 'slots', 'mask'] : ['slots', 'mask']);
  }

  get nodeCount(): number {
    return this.count;
  }

  /** The child of `parent` for `frame`, created (with zero weight) on first use. */
  child(parent: NodeIndex, frame: FrameIndex): NodeIndex {
    const k = this.kids[parent];
    if (k < WIDE) {
      const frames = this.frame;
      const next = this.nextSibling;
      for (let c = this.firstChild[parent]; c !== NONE; c = next[c]) if (frames[c] === frame) return c;
      const node = this.add(parent, frame);
      this.kids[parent] = k + 1;
      if (k + 1 === WIDE) {
        for (let c = this.firstChild[parent]; c !== NONE; c = this.nextSibling[c]) this.insert(c);
      }
      return node;
    }
    const slots = this.slots;
    const mask = this.mask;
    for (let slot = hashPair(parent, frame) & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[2 * slot + 1];
      if (stored === NONE) break;
      if (slots[2 * slot] === frame && this.parent[stored] === parent) return stored;
    }
    const node = this.add(parent, frame);
    this.insert(node);
    return node;
  }

  /** A new node, first in its parent's child list (the lists are ordered by finish()). */
  private add(parent: NodeIndex, frame: FrameIndex): NodeIndex {
    const node = this.count++;
    if (node === this.parent.length) this.growNodes();
    this.parent[node] = parent;
    this.frame[node] = frame;
    this.nextSibling[node] = this.firstChild[parent];
    this.firstChild[parent] = node;
    return node;
  }

  /** Puts a child of a wide parent into the hash table. */
  private insert(node: NodeIndex): void {
    if (++this.hashed * 2 > this.mask) this.growSlots();
    const frame = this.frame[node];
    const slots = this.slots;
    const mask = this.mask;
    let slot = hashPair(this.parent[node], frame) & mask;
    while (slots[2 * slot + 1] !== NONE) slot = (slot + 1) & mask;
    slots[2 * slot] = frame;
    slots[2 * slot + 1] = node;
  }

  /** Adds weight to a node's self columns (the leaf of a sample). */
  addSelf(node: NodeIndex, weight: number, samples: number): void {
    if (this.selfSamples === null) {
      if (samples === weight) {
        this.selfWeight[node] += weight;
        return;
      }
      this.selfSamples = this.selfWeight.slice();
    }
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

  /** The child created last under `node`, or 0 when it has none (a cheap guess for importers). */
  lastChild(node: NodeIndex): NodeIndex {
    return this.firstChild[node];
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

    const { parent, frame, depth, end, selfWeight, selfSamples, totalWeight, totalSamples } = newTreeColumns(n);
    const newIndex = new Int32Array(n);

    // Iterative pre-order walk with an explicit stack of builder nodes and, beside each, its
    // parent's new index. The stack holds the pending siblings along one path: it starts small
    // and grows on demand (a column of n ints would be fresh memory, which costs page faults).
    // A node's children are pushed, then that segment is sorted by rank, largest first, so the
    // smallest pops first: siblings come out in name order without re-linking the lists first.
    let nodes = new Int32Array(1024);
    let parents = new Int32Array(1024);
    let top = 0;
    nodes[0] = 0;
    parents[0] = -1;
    top = 1;
    let next = 0;
    let maxDepth = 0;
    const { firstChild, nextSibling } = this;
    const inFrame = this.frame;
    const inWeight = this.selfWeight;
    const inSamples = this.selfSamples;
    while (top > 0) {
      top--;
      const old = nodes[top];
      const p = parents[top];
      const idx = next++;
      newIndex[old] = idx;
      parent[idx] = p;
      frame[idx] = inFrame[old];
      const d = p < 0 ? 0 : depth[p] + 1;
      depth[idx] = d;
      if (d > maxDepth) maxDepth = d;
      selfWeight[idx] = inWeight[old];
      if (inSamples !== null) selfSamples[idx] = inSamples[old];
      const base = top;
      for (let c = firstChild[old]; c !== NONE; c = nextSibling[c]) {
        if (top === nodes.length) {
          nodes = grown(nodes, top * 2);
          parents = grown(parents, top * 2);
        }
        nodes[top] = c;
        parents[top++] = idx;
      }
      if (top - base > 1) sortByRankDescending(nodes, base, top, inFrame, rank);
    }

    fillTotalsAndEnds(n, parent, selfWeight, selfSamples, totalWeight, totalSamples, end, inSamples === null);

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

  private growNodes(): void {
    // Four times the rows: a growth costs the copy of the old rows (fresh pages are touched only
    // when written), and growing 4x copies about n/3 rows in all instead of n (bench/README.md).
    const size = this.parent.length * 4;
    this.parent = grown(this.parent, size);
    this.frame = grown(this.frame, size);
    this.firstChild = grown(this.firstChild, size);
    this.nextSibling = grown(this.nextSibling, size);
    const kids = new Uint8Array(size);
    kids.set(this.kids);
    this.kids = kids;
    const w = new Float64Array(size);
    w.set(this.selfWeight);
    this.selfWeight = w;
    if (this.selfSamples !== null) {
      const s = new Float64Array(size);
      s.set(this.selfSamples);
      this.selfSamples = s;
    }
  }

  private growSlots(): void {
    // Re-inserts the hashed nodes from the old slots (not a walk over every node).
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(2 * size);
    const mask = size - 1;
    for (let i = 1; i < old.length; i += 2) {
      const node = old[i];
      if (node === NONE) continue;
      const frame = old[i - 1];
      let slot = hashPair(this.parent[node], frame) & mask;
      while (slots[2 * slot + 1] !== NONE) slot = (slot + 1) & mask;
      slots[2 * slot] = frame;
      slots[2 * slot + 1] = node;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** Sorts a[from..to) by the rank of each node's frame, largest first (sibling frames are distinct). */
function sortByRankDescending(a: Int32Array, from: number, to: number, frame: Int32Array, rank: Int32Array): void {
  if (to - from > 16) {
    a.subarray(from, to).sort((x, y) => rank[frame[y]] - rank[frame[x]]);
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const c = a[i];
    const r = rank[frame[c]];
    let j = i - 1;
    while (j >= from && rank[frame[a[j]]] < r) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = c;
  }
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
 * `samplesAreWeights`: selfSamples is not filled yet and equals selfWeight; both sample columns
 * become copies of the weight columns, which is what the same additions would give.
 */
export function fillTotalsAndEnds(
  n: number,
  parent: Int32Array,
  selfWeight: Float64Array,
  selfSamples: Float64Array,
  totalWeight: Float64Array,
  totalSamples: Float64Array,
  end: Int32Array,
  samplesAreWeights = false,
): void {
  if (samplesAreWeights) {
    for (let i = n - 1; i >= 0; i--) {
      totalWeight[i] += selfWeight[i];
      if (end[i] === 0) end[i] = i + 1;
      const p = parent[i];
      if (p >= 0) {
        totalWeight[p] += totalWeight[i];
        if (end[i] > end[p]) end[p] = end[i];
      }
    }
    selfSamples.set(selfWeight);
    totalSamples.set(totalWeight);
    return;
  }
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

/**
 * The profile two builders made: the frame table frozen, then the tree finished over it. `meta`
 * may read both (the samples at the root, whether a frame is inlined); `lines` finishes the source
 * lines over the tree's node order (model/source-lines.ts), when the recording has them.
 */
export function finishProfile(
  frames: FrameTableBuilder,
  builder: TreeBuilder,
  meta: (table: FrameTable, tree: CallTree) => ProfileMeta,
  lines: ((table: FrameTable, order: Int32Array) => Profile['lines']) | null = null,
): Profile {
  const table = frames.finish();
  const { tree, order } = builder.finish(table);
  return { frames: table, tree, lines: lines?.(table, order) ?? null, meta: meta(table, tree) };
}
