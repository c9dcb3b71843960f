// Per-line weights of a function in a TRANSFORMED view: the figures of ./source-lines.ts
// (functionLines) over the stacks the flame graph shows after its transforms (focus, merge, drop,
// collapse, recursion, hide, patterns), not over the whole recording.
//
// A transform maps each node of its input (the view's base tree) onto a node of its result, or
// drops it (`toNew`, ../views/transforms.ts). Every line-tree node projects onto a base node
// (../model/source-lines.ts), so each sample's located path maps onto the stack the transformed
// view shows for it: the distinct result nodes along the path, its OCCURRENCES. A sample whose
// leaf maps to -1 is gone (drop, focus elsewhere); otherwise its weight is the result leaf's.
//
// Which line an occurrence is at: the deepest node of the path that maps onto it AND is shown as
// its frame (a collapsed `rec:F` puts the inner call's weight at the inner call's line, where it
// ran; `collapse:F` and `merge:G` put the callees' weight at F's line that called them), else the
// outermost node that maps onto it (a collapse-group frame, which no recorded frame is).
// Self: the result leaf's line, when the leaf is the function. Total: each line of the function's
// occurrences once per sample (recursion counted once), as functionLines counts. With the identity
// mapping both give the same figures (tested).
//
// Invariants: one depth-first walk of the line tree with an undo log per open node (the
// occurrence stack of the current path, restored when the walk leaves a node); no recursion;
// O(line-tree nodes + Σ matching occurrences over the nodes that carry samples).

import { grown } from '../model/grown';
import { spanShare, type SampleColumns } from '../model/sample-column';
import { FrameFlags } from '../model/types';
import { viewNodes } from '../views/source-lines-view';
import { lineRows, type FunctionLines, type LinesProfile, type LinesView } from './source-lines';

/** How the view the page shows differs from the whole recording's base tree. */
export interface LinesNarrowing {
  /**
   * Per node of the view's base tree (function view: the function tree), its node in the shown
   * tree (before any reversal: a bottom-up view shows the same stacks); -1: dropped. Null: the
   * base tree itself (no transforms).
   */
  toNew: Int32Array | null;
  /** Per node of the shown tree, its frame (null with toNew null). */
  frame: Int32Array | null;
  /** Per line-tree node, its self weight and samples (a time range's, ./range-lines.ts); absent: the recording's. */
  weights?: { self: Float64Array; samples: Float64Array };
}

/**
 * The per-line weights of the function whose shown frames are marked in `match`, over the view
 * `narrowing` describes. `toFunction` maps inline nodes to function-view nodes (null: the
 * recording has no inline frames, and both views are the inline tree). Null without lines.
 */
export function narrowedFunctionLines(profile: LinesProfile, view: LinesView, toFunction: Int32Array | null, match: Uint8Array, narrowing: LinesNarrowing): FunctionLines | null {
  const lines = profile.lines;
  if (!lines) return null;
  const t = lines.tree;
  const n = t.nodeCount;
  const { frame: viewFrame, owner } = viewNodes(profile, lines, view);
  const toBase = view === 'functions' ? toFunction : null;
  const baseOf = (ln: number) => (toBase ? toBase[lines.node[ln]] : lines.node[ln]);
  const toNew = narrowing.toNew;
  const shownFrame = narrowing.frame ?? baseFrames(n, baseOf, viewFrame);
  const selfWeight = narrowing.weights?.self ?? t.selfWeight;
  const selfSamples = narrowing.weights?.samples ?? t.selfSamples;
  const unknown = lines.locations.count;
  const flags = profile.frames.flags;
  const isMatch = (r: number) => match[shownFrame[r]] === 1;
  const sums = { self: new Float64Array(unknown + 1), selfSamples: new Float64Array(unknown + 1), total: new Float64Array(unknown + 1), totalSamples: new Float64Array(unknown + 1), seen: new Uint8Array(unknown + 1) };
  const sites = { total: new Float64Array(unknown + 1), samples: new Float64Array(unknown + 1), seen: new Uint8Array(unknown + 1) };
  const stamp = new Int32Array(unknown + 1);
  // Where each shown node stands in the occurrence stack (index + 1; 0: not on it).
  const posOf = new Int32Array(shownFrame.length);
  // The occurrence stack of the current path: shown node, its line, whether a node shown as its
  // frame set that line, the nearest matching occurrence at or below (-1: none). Entry 0 is the root.
  let cap = 64;
  let occR = new Int32Array(cap);
  let occLoc = new Int32Array(cap);
  let occHas = new Uint8Array(cap);
  let occMatch = new Int32Array(cap);
  occLoc[0] = unknown;
  occMatch[0] = -1;
  let len = 1;
  // Per open line-tree node: its undo record (the stack length before it, the entry it wrote and
  // that entry's old values, the old position of the shown node it placed).
  let openCap = 64;
  let open = new Int32Array(openCap);
  let undo = new Int32Array(openCap * 7);
  let top = 0;
  const fn = { self: 0, total: 0, selfSamples: 0, totalSamples: 0, all: 0, allSamples: 0 };
  for (let ln = 1; ln < n; ln++) {
    while (top > 0 && ln >= t.end[open[top - 1]]) {
      const u = --top * 7;
      len = undo[u];
      const k = undo[u + 1];
      if (k >= 0) {
        posOf[occR[k]] = undo[u + 6];
        occR[k] = undo[u + 2];
        occLoc[k] = undo[u + 3];
        occHas[k] = undo[u + 4];
        occMatch[k] = undo[u + 5];
      }
    }
    const b = baseOf(ln);
    const r = toNew === null ? b : b >= 0 && b < toNew.length ? toNew[b] : -1;
    if (top === openCap) {
      openCap *= 2;
      open = grown(open, openCap);
      undo = grown(undo, openCap * 7);
    }
    const u = top * 7;
    open[top++] = ln;
    undo[u] = len;
    undo[u + 1] = -1;
    if (r >= 0 && r < shownFrame.length) {
      const at = lines.locatedLocation[t.frame[owner[ln]]];
      const loc = at < 0 ? unknown : at;
      const p = posOf[r] - 1;
      const k = p >= 0 && p < len && occR[p] === r ? p : len;
      if (k === cap) {
        cap *= 2;
        occR = grown(occR, cap);
        occLoc = grown(occLoc, cap);
        occHas = grown(occHas, cap);
        occMatch = grown(occMatch, cap);
      }
      undo[u + 1] = k;
      undo[u + 2] = occR[k];
      undo[u + 3] = occLoc[k];
      undo[u + 4] = occHas[k];
      undo[u + 5] = occMatch[k];
      undo[u + 6] = posOf[r];
      const own = viewFrame[ln] === shownFrame[r];
      if (k === len) {
        occR[k] = r;
        occLoc[k] = loc;
        occHas[k] = own ? 1 : 0;
      } else if (own) {
        occLoc[k] = loc;
        occHas[k] = 1;
      }
      occMatch[k] = isMatch(r) ? k : k > 0 ? occMatch[k - 1] : -1;
      posOf[r] = k + 1;
      len = k + 1;
    }
    const w = selfWeight[ln];
    const ws = selfSamples[ln];
    if ((w === 0 && ws === 0) || r < 0 || r >= shownFrame.length) continue;
    fn.all += w;
    fn.allSamples += ws;
    const leaf = len - 1;
    if (isMatch(occR[leaf])) {
      const loc = occLoc[leaf];
      sums.self[loc] += w;
      sums.selfSamples[loc] += ws;
      sums.seen[loc] = 1;
      fn.self += w;
      fn.selfSamples += ws;
    }
    let k = occMatch[leaf];
    if (k < 0) continue;
    fn.total += w;
    fn.totalSamples += ws;
    let outer = k;
    for (; k >= 0; k = k > 0 ? occMatch[k - 1] : -1) {
      outer = k;
      const loc = occLoc[k];
      if (stamp[loc] === ln) continue;
      stamp[loc] = ln;
      sums.total[loc] += w;
      sums.totalSamples[loc] += ws;
      sums.seen[loc] = 1;
    }
    // An inlined function's call site: the line of the occurrence that holds its outermost one.
    if (view === 'inline' && outer > 1 && flags[shownFrame[occR[outer]]] & FrameFlags.INLINED) {
      const site = occLoc[outer - 1];
      sites.total[site] += w;
      sites.samples[site] += ws;
      sites.seen[site] = 1;
    }
  }
  return lineRows(profile, lines, fn, sums, sites);
}

/**
 * Per node of the base tree, its frame as the view shows it: every line-tree node that projects
 * onto a base node is shown as that node's frame (an inlined one as its physical frame's in the
 * function view), so the line tree alone says it.
 */
function baseFrames(n: number, baseOf: (ln: number) => number, viewFrame: Int32Array): Int32Array {
  let count = 1;
  for (let ln = 1; ln < n; ln++) count = Math.max(count, baseOf(ln) + 1);
  const frame = new Int32Array(count).fill(-1);
  for (let ln = 1; ln < n; ln++) frame[baseOf(ln)] = viewFrame[ln];
  return frame;
}

/**
 * Per line-tree node, the self weight and samples of the samples with from ≤ time < to (a span
 * by its share inside, as the flame graph's range counts it): what LinesNarrowing.weights takes.
 * Null when the column does not link its samples to the line tree.
 */
export function rangeLineWeights(samples: SampleColumns, lineNodes: number, from: number, to: number): { self: Float64Array; samples: Float64Array } | null {
  const line = samples.line;
  if (!line) return null;
  const self = new Float64Array(lineNodes);
  const count = new Float64Array(lineNodes);
  for (let i = 0; i < samples.count; i++) {
    const ln = line[i];
    if (ln < 0 || ln >= lineNodes) continue;
    const share = spanShare(samples, i, from, to);
    if (share === 0) continue;
    self[ln] += share * samples.weight[i];
    count[ln] += 1;
  }
  return { self, samples: count };
}
