// The tree the main flame graph shows, derived from a recording's base trees in one pipeline:
//
//   base view tree ──(time range: treeForRange, when samples exist)──▶ input
//        input ──(transforms, in order: applyTransforms)──▶ transformed ──(reversed?)──▶ result
//
// Pure (runs in the analysis worker, in tests and in the bench). `toNew` maps each node of the
// *input* (the range-restricted tree, or the base view tree when no range applies) to its node in
// the result, or -1 when dropped; it is null for a reversed result (a bottom-up tree has no
// node-to-node correspondence).
//
// Invariants: an identity request (no transforms, not reversed, no range) is `isIdentity` and
// the caller shows the base tree itself; `sharesInput` is true when the result's columns are the
// input's own arrays (a transform that touched nothing), so a host that transfers the result
// must copy it first; apart from that, derive never hands out arrays a memo keeps (each call
// passes a fresh tree object to the memoised views), so the result's buffers may be transferred.
// For the function view, the samples' leaves (inline-view nodes) are mapped through toFunction.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { withLeaves, type SampleColumns } from '../model/sample-column';
import { treeForRangeMapped } from './time-order';
import { reversedTree } from './reversed';
import { applyTransforms, type Transform } from './transforms';

export type DeriveView = 'functions' | 'inline';

export interface DeriveInput {
  frames: FrameTable;
  inline: CallTree;
  functions: CallTree | null;
  toFunction: Int32Array | null;
  samples: SampleColumns | null;
}

export interface DeriveRequest {
  view: DeriveView;
  transforms: readonly Transform[];
  reversed: boolean;
  range: { from: number; to: number } | null;
}

/**
 * Where the nodes of the view's base tree went, for what reads the samples by base node (the
 * Source panel's line figures): toNew maps a base node to its node in the transformed tree
 * BEFORE any reversal (a bottom-up tree shows the same stacks), through the range-restricted tree
 * when a range applies (-1: dropped, or no sample in the range); `frame` is that tree's frames,
 * null when it is the result tree itself (not reversed).
 */
export interface BaseMap {
  toNew: Int32Array;
  frame: Int32Array | null;
}

export interface DeriveResult {
  tree: CallTree;
  /** The base tree's nodes in the shown stacks (see BaseMap). */
  base: BaseMap;
  /** Input node → result node (-1: dropped); null when reversed. */
  toNew: Int32Array | null;
  /** Whether the time range was applied (the input is the range-restricted tree). */
  ranged: boolean;
  /** The result's columns are the input tree's own arrays. */
  sharesInput: boolean;
}

/** The base tree of a view (the function view falls back to the inline tree). */
export function baseTree(input: Pick<DeriveInput, 'inline' | 'functions'>, view: DeriveView): CallTree {
  return view === 'functions' && input.functions ? input.functions : input.inline;
}

/** Whether the range restricts anything for this input (it needs the sample column). */
export function rangeApplies(input: Pick<DeriveInput, 'samples'>, request: Pick<DeriveRequest, 'range'>): boolean {
  return request.range !== null && input.samples !== null && input.samples.count > 0;
}

/** True when the request shows the base view tree unchanged. */
export function isIdentity(input: Pick<DeriveInput, 'samples'>, request: DeriveRequest): boolean {
  return request.transforms.length === 0 && !request.reversed && !rangeApplies(input, request);
}

/** The samples with their leaves in the function view's node space (memoised per column). */
const functionSamples = new WeakMap<SampleColumns, SampleColumns>();
function samplesFor(input: DeriveInput, view: DeriveView): SampleColumns {
  const s = input.samples as SampleColumns;
  if (view !== 'functions' || !input.functions || !input.toFunction) return s;
  let mapped = functionSamples.get(s);
  if (!mapped) {
    const toFunction = input.toFunction;
    const leaf = new Int32Array(s.count);
    for (let i = 0; i < s.count; i++) leaf[i] = s.leaf[i] < 0 ? 0 : toFunction[s.leaf[i]];
    functionSamples.set(s, (mapped = withLeaves(s, leaf)));
  }
  return mapped;
}

/** The input of the transforms: the base view tree, restricted to the time range when one applies. */
export function deriveInputTree(input: DeriveInput, request: Pick<DeriveRequest, 'view' | 'range'>): { tree: CallTree; ranged: boolean; toRange?: Int32Array } {
  const base = baseTree(input, request.view);
  if (!rangeApplies(input, request)) return { tree: base, ranged: false };
  const { from, to } = request.range as { from: number; to: number };
  const { tree, toRange } = treeForRangeMapped(base, input.frames, samplesFor(input, request.view), from, to);
  return { tree, ranged: true, toRange };
}

/**
 * Runs the pipeline (see the module comment). `inputTree` lets a host pass a cached
 * range-restricted tree (from deriveInputTree with the same view and range).
 */
export function derive(input: DeriveInput, request: DeriveRequest, inputTree?: ReturnType<typeof deriveInputTree>): DeriveResult {
  const start = inputTree ?? deriveInputTree(input, request);
  const { frames } = input;
  // A fresh object per call: the views memoise by tree identity, and what they keep must not be
  // what a host transfers away.
  const fresh = { ...start.tree };
  const transformed = applyTransforms(fresh, frames, request.transforms);
  const toRange = start.toRange;
  // Base node → transformed node: through the range tree when there is one (a fresh array, so the
  // transforms' memoised toNew is never handed out twice).
  const baseToNew = toRange ? toRange.map((r) => (r < 0 ? -1 : transformed.toNew[r])) : transformed.toNew;
  if (request.reversed) {
    const tree = reversedTree({ ...transformed.tree }, frames);
    return { tree, toNew: null, base: { toNew: baseToNew === transformed.toNew ? baseToNew.slice() : baseToNew, frame: transformed.tree.frame.slice() }, ranged: start.ranged, sharesInput: false };
  }
  const tree = transformed.tree === fresh ? start.tree : transformed.tree;
  return { tree, toNew: transformed.toNew, base: { toNew: baseToNew, frame: null }, ranged: start.ranged, sharesInput: tree.parent === start.tree.parent };
}

/** The typed-array columns of a tree (what crosses threads by transfer). */
export function treeColumns(tree: CallTree): ArrayBuffer[] {
  return [tree.parent, tree.frame, tree.depth, tree.end, tree.selfWeight, tree.totalWeight, tree.selfSamples, tree.totalSamples].map((a) => a.buffer as ArrayBuffer);
}

/** A copy of a tree with its own column buffers. */
export function copyTree(tree: CallTree): CallTree {
  return {
    nodeCount: tree.nodeCount,
    maxDepth: tree.maxDepth,
    parent: tree.parent.slice(),
    frame: tree.frame.slice(),
    depth: tree.depth.slice(),
    end: tree.end.slice(),
    selfWeight: tree.selfWeight.slice(),
    totalWeight: tree.totalWeight.slice(),
    selfSamples: tree.selfSamples.slice(),
    totalSamples: tree.totalSamples.slice(),
  };
}
