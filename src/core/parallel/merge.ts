// Merges the partial profiles of a split input (./split.ts) into the profile one parser over the
// whole input gives, bit for bit: same string and frame tables, same tree in the same order,
// same totals, time-order column, meta and warnings.
//
// Why it can be exact:
// - strings and frames are numbered in order of first sight, and a part numbers its own in that
//   order, so interning part 0's, then part 1's, … gives the whole input's numbering; a frame's
//   module is the first one given (FrameTableBuilder), taken from the first part that gave one;
// - a frozen tree's siblings are sorted by (name, flags), which does not depend on frame numbers,
//   so the parts' trees are merged by path in one pre-order walk, children of a shared path
//   merged by rank; a subtree only one part has is copied as a block (most of the tree);
// - weights are integers below 2^53 (PartialProfile.integralWeights), so sums of sums are exact,
//   and totals are summed by the same routine the tree builder uses; decimal weights (folded
//   `stack 4.3`) are added again from the parts' logs in input order, the one parser's roundings;
// - the importer's statistics are merged by the importer (Importer.mergeParts), with the line
//   numbers of each part moved by the lines of the parts before it;
// - samples a part could not add itself (perf script's runs waiting for the whole recording's
//   statistics) are placed by the importer (Importer.lateSamples) among the parts' frames and
//   time-order entries where one parser added them, and merged as one more partial tree;
// - source lines (perf script -F +srcline): the parts' line trees are merged too
//   (./merge-lines.ts); when they cannot be merged exactly, neither is the input (null).
//
// Linear in nodes (plus a sort of each shared node's children by rank), no recursion.

import { newTreeColumns, type CallTree } from '../model/call-tree';
import { FrameTableBuilder, type FrameTable } from '../model/frame-table';
import { fillTotalsAndEnds, frameRanks } from '../model/tree-builder';
import type { Profile } from '../model/profile';
import { addInputWarnings, type LoadOptions } from '../import/load';
import type { Importer, LateSamples, MergedParts, PartialProfile } from '../import/importer';
import type { SampleColumns } from '../model/sample-column';
import { DEFAULT_MAX_LINE_CHARS } from '../import/byte-stream';
import { grown } from '../model/grown';
import { mergeSourceLines } from './merge-lines';

const NO_RANK = 0x7fffffff;
/** Sums of integers stay exact below this. */
const EXACT = 2 ** 53;

/**
 * The profile of the whole input from its parts, in input order; null when the parts' weights
 * are not all integers and not logged: the caller reads the input with one parser instead.
 */
export function mergeParts(parts: readonly PartialProfile[], importer: Importer, options: LoadOptions = {}): Profile | null {
  const late = importer.lateSamples?.(parts.map((p) => p.meta)) ?? null;
  let total = late ? late.weight : 0;
  for (const p of parts) total += p.tree.nodeCount > 0 ? p.tree.totalWeight[0] : 0;
  const exact = parts.every((p) => p.integralWeights) && total < EXACT;
  if (!exact && (late || !parts.every((p) => p.weightLog))) return null;
  if (!importer.mergeParts) throw new Error(`${importer.description} cannot be read in parts`);

  const mergedFrames = mergeFrames(parts, late);
  if (!mergedFrames) return null;
  const { frames, frameMaps } = mergedFrames;
  const lateTree = late?.tree(frames);
  const trees = lateTree ? [...parts, { tree: lateTree }] : parts;
  const { tree, nodeMaps } = mergeTrees(trees, frames, lateTree ? [...frameMaps, identity(frames.count)] : frameMaps);
  // Late samples' lines would have to be placed by the importer, which does not: one parser.
  const lineMaps: Int32Array[] = [];
  const sourceLines = late && parts.some((p) => p.sourceLines) ? null : mergeSourceLines(parts, frames, frameMaps, nodeMaps, lineMaps);
  if (sourceLines === null) return null;
  const weightSum = exact ? undefined : replayWeights(parts, tree, nodeMaps);
  const lineOffsets: number[] = [];
  let lines = 0;
  for (const p of parts) {
    lineOffsets.push(lines);
    lines += p.lines;
  }
  const samples = late ? late.joinColumn(parts, nodeMaps, nodeMaps[parts.length]) : joinSamples(parts, nodeMaps, sourceLines ? lineMaps : null);
  const merged: MergedParts = { frames, tree, frameMaps, lineOffsets, samples, weightSum, late: late ?? undefined };
  const profile = importer.mergeParts(merged, parts.map((p) => p.meta), options);
  if (sourceLines) profile.lines = sourceLines;
  const tooLong = parts.flatMap((p, i) => p.tooLong.map((t) => ({ line: t.line + lineOffsets[i], length: t.length })));
  addInputWarnings(profile.meta, tooLong, parts.some((p) => p.sawReplacement), options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS);
  return profile;
}

/**
 * One frame table; per part, its frame → merged frame. Late samples are placed among each part's
 * frames where they ended (their folding interns frames where one parser did); null when they
 * cannot be merged exactly.
 */
export function mergeFrames(parts: readonly Pick<PartialProfile, 'frames' | 'moduleKnown'>[], late: LateSamples | null = null): { frames: FrameTable; frameMaps: Int32Array[] } | null {
  const builder = new FrameTableBuilder();
  const frameMaps = parts.map((part, p) => {
    const { strings, name, module, flags, count } = part.frames;
    const stringMap = new Int32Array(strings.length);
    for (let i = 0; i < strings.length; i++) stringMap[i] = builder.strings.intern(strings[i]);
    const map = new Int32Array(count);
    const stops = late ? late.frameStops(p) : NO_STOPS;
    let s = 0;
    for (let f = 0; f < count; f++) {
      while (s < stops.length && stops[s] === f) late!.place(p, s++, map, builder);
      const known = part.moduleKnown[f] === 1;
      map[f] = builder.internIndex(stringMap[name[f]], flags[f], known ? (module[f] < 0 ? -1 : stringMap[module[f]]) : undefined);
    }
    while (s < stops.length) late!.place(p, s++, map, builder);
    late?.partDone(p, map);
    return map;
  });
  if (late && !late.finishFrames(builder)) return null;
  return { frames: builder.finish(), frameMaps };
}

const NO_STOPS = new Int32Array(0);

function identity(n: number): Int32Array {
  const map = new Int32Array(n);
  for (let i = 0; i < n; i++) map[i] = i;
  return map;
}

/**
 * The parts' trees merged by path, in the order TreeBuilder.finish gives; per part, its node →
 * merged node.
 */
export function mergeTrees(
  parts: readonly { tree: CallTree }[],
  frames: FrameTable,
  frameMaps: readonly Int32Array[],
): { tree: CallTree; nodeMaps: Int32Array[] } {
  const trees = parts.map((p) => p.tree);
  const capacity = trees.reduce((n, t) => n + t.nodeCount, 0);
  const out = newTreeColumns(capacity);
  const nodeMaps = trees.map((t) => new Int32Array(t.nodeCount));
  const rank = frameRanks(frames);

  // Pending groups, a stack: each is a run of (part, node) items with one path, and the merged
  // parent. Children are pushed largest rank first, so the smallest pops first.
  let itemPart = new Int32Array(256);
  let itemNode = new Int32Array(256);
  let items = 0;
  let groupStart = new Int32Array(64);
  let groupParent = new Int32Array(64);
  let groups = 0;
  const pushItem = (part: number, node: number): void => {
    if (items === itemPart.length) {
      itemPart = grown(itemPart, itemPart.length * 2);
      itemNode = grown(itemNode, itemNode.length * 2);
    }
    itemPart[items] = part;
    itemNode[items++] = node;
  };
  const openGroup = (parent: number): void => {
    if (groups === groupStart.length) {
      groupStart = grown(groupStart, groupStart.length * 2);
      groupParent = grown(groupParent, groupParent.length * 2);
    }
    groupStart[groups] = items;
    groupParent[groups++] = parent;
  };
  // Children of one shared node, merged in rank order: (part, child, rank) in kid* columns, and
  // per member of the group its next child and that child's rank.
  let kidPart = new Int32Array(256);
  let kidNode = new Int32Array(256);
  let kidRank = new Int32Array(256);
  let cursor = new Int32Array(16);
  let cursorRank = new Int32Array(16);

  openGroup(-1);
  for (let p = 0; p < trees.length; p++) if (trees[p].nodeCount > 0) pushItem(p, 0);
  let next = 0;
  let maxDepth = 0;
  while (groups > 0) {
    groups--;
    const start = groupStart[groups];
    const parent = groupParent[groups];
    const end = items;
    items = start;
    const depth = parent < 0 ? 0 : out.depth[parent] + 1;
    if (end - start === 1 && parent >= 0) {
      // A subtree only one part has: copied as a block.
      const p = itemPart[start];
      const node = itemNode[start];
      const t = trees[p];
      const fm = frameMaps[p];
      const nm = nodeMaps[p];
      const base = next - node;
      const stop = t.end[node];
      const shift = depth - t.depth[node];
      for (let i = node; i < stop; i++) {
        const idx = base + i;
        nm[i] = idx;
        out.parent[idx] = i === node ? parent : t.parent[i] + base;
        out.frame[idx] = fm[t.frame[i]];
        const d = t.depth[i] + shift;
        out.depth[idx] = d;
        if (d > maxDepth) maxDepth = d;
        out.selfWeight[idx] = t.selfWeight[i];
        out.selfSamples[idx] = t.selfSamples[i];
      }
      next += stop - node;
      continue;
    }
    const idx = next++;
    out.parent[idx] = parent;
    out.depth[idx] = depth;
    if (depth > maxDepth) maxDepth = depth;
    let weight = 0;
    let samples = 0;
    const members = end - start;
    if (members > cursor.length) {
      cursor = new Int32Array(members * 2);
      cursorRank = new Int32Array(members * 2);
    }
    for (let k = start; k < end; k++) {
      const p = itemPart[k];
      const node = itemNode[k];
      const t = trees[p];
      nodeMaps[p][node] = idx;
      weight += t.selfWeight[node];
      samples += t.selfSamples[node];
      if (k === start) out.frame[idx] = node === 0 ? -1 : frameMaps[p][t.frame[node]];
      const c = node + 1;
      cursor[k - start] = c;
      cursorRank[k - start] = c < t.end[node] ? rank[frameMaps[p][t.frame[c]]] : NO_RANK;
    }
    out.selfWeight[idx] = weight;
    out.selfSamples[idx] = samples;
    // Each member's children are sorted by rank: a k-way merge, members in input order within a
    // rank (only the order of additions depends on it, and integer sums do not).
    let kids = 0;
    for (;;) {
      let min = NO_RANK;
      for (let j = 0; j < members; j++) if (cursorRank[j] < min) min = cursorRank[j];
      if (min === NO_RANK) break;
      for (let j = 0; j < members; j++) {
        if (cursorRank[j] !== min) continue;
        if (kids === kidPart.length) {
          kidPart = grown(kidPart, kidPart.length * 2);
          kidNode = grown(kidNode, kidNode.length * 2);
          kidRank = grown(kidRank, kidRank.length * 2);
        }
        const p = itemPart[start + j];
        const t = trees[p];
        const c = cursor[j];
        kidPart[kids] = p;
        kidNode[kids] = c;
        kidRank[kids++] = min;
        const following = t.end[c];
        cursor[j] = following;
        cursorRank[j] = following < t.end[itemNode[start + j]] ? rank[frameMaps[p][t.frame[following]]] : NO_RANK;
      }
    }
    // Largest rank pushed first, so the smallest pops first.
    for (let k = kids - 1; k >= 0; ) {
      let j = k;
      while (j > 0 && kidRank[j - 1] === kidRank[k]) j--;
      openGroup(idx);
      for (let m = j; m <= k; m++) pushItem(kidPart[m], kidNode[m]);
      k = j - 1;
    }
  }

  const n = next;
  const cut = <T extends Int32Array | Float64Array>(a: T): T => (n === capacity ? a : (a.slice(0, n) as T));
  const tree = {
    nodeCount: n,
    parent: cut(out.parent),
    frame: cut(out.frame),
    depth: cut(out.depth),
    end: cut(out.end),
    selfWeight: cut(out.selfWeight),
    selfSamples: cut(out.selfSamples),
    totalWeight: cut(out.totalWeight),
    totalSamples: cut(out.totalSamples),
    maxDepth,
  };
  fillTotalsAndEnds(n, tree.parent, tree.selfWeight, tree.selfSamples, tree.totalWeight, tree.totalSamples, tree.end);
  return { tree, nodeMaps };
}

/**
 * Decimal weights: the self columns summed again from the parts' weight logs in input order (the
 * additions one parser made, so the same roundings), then the totals; returns the weights' sum
 * in that order.
 */
function replayWeights(parts: readonly PartialProfile[], tree: CallTree, nodeMaps: readonly Int32Array[]): number {
  const { selfWeight, selfSamples, totalWeight, totalSamples, end, parent, nodeCount } = tree;
  for (const column of [selfWeight, selfSamples, totalWeight, totalSamples, end]) column.fill(0);
  let sum = 0;
  parts.forEach((p, i) => {
    const { leaf, weight } = p.weightLog!;
    const map = nodeMaps[i];
    for (let k = 0; k < leaf.length; k++) {
      const node = map[leaf[k]];
      selfWeight[node] += weight[k];
      sum += weight[k];
    }
  });
  fillTotalsAndEnds(nodeCount, parent, selfWeight, selfSamples, totalWeight, totalSamples, end, true);
  return sum;
}

/** The parts' time-order columns, one after the other (input order), leaves in merged nodes. */
function joinSamples(parts: readonly PartialProfile[], nodeMaps: readonly Int32Array[], lineMaps: readonly Int32Array[] | null): SampleColumns | null {
  let count = 0;
  for (const p of parts) count += p.samples?.count ?? 0;
  if (count === 0) return null;
  const leaf = new Int32Array(count);
  const time = new Float64Array(count);
  const weight = new Float64Array(count);
  const thread = new Int32Array(count);
  const duration = parts.some((p) => p.samples?.duration) ? new Float64Array(count) : null;
  // A part without lines (or before its first) has none for its samples: -1.
  const line = lineMaps && parts.some((p) => p.samples?.line) ? new Int32Array(count).fill(-1) : null;
  let at = 0;
  parts.forEach((p, i) => {
    const s = p.samples;
    if (!s) return;
    const map = nodeMaps[i];
    for (let k = 0; k < s.count; k++) leaf[at + k] = map[s.leaf[k]];
    time.set(s.time.subarray(0, s.count), at);
    weight.set(s.weight.subarray(0, s.count), at);
    if (s.thread) thread.set(s.thread.subarray(0, s.count), at);
    if (duration && s.duration) duration.set(s.duration.subarray(0, s.count), at);
    if (line && s.line) for (let k = 0; k < s.count; k++) line[at + k] = s.line[k] < 0 ? -1 : lineMaps![i][s.line[k]];
    at += s.count;
  });
  return { count, leaf, time, weight, thread, ...(duration ? { duration } : {}), ...(line ? { line } : {}) };
}

