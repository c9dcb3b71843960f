// Per-line weights of a function: for each source line the function was at, its self weight
// (samples whose leaf is the function, at that line) and its total weight (samples with the
// function at that line anywhere in their stack, each sample counted once per line however deep
// the recursion), as `pprof -list` prints them. Read from the line tree
// (../model/source-lines.ts); the tree itself never holds lines.
//
// Which line a frame is at, per view:
// - inline-frame view: each frame's own line: an inlined frame's line is inside the inlined
//   function, and its caller's line is the call site (what perf, pprof and addr2line -i print);
// - function view: inlined frames are merged into the physical frame that contains them
//   (../views/function-view.ts), so a function's line is the line of its physical frame, the call
//   site of whatever was inlined there, and the inlined code's self weight lands on that line.
//   The leaf line of a sample in the inline view is its innermost line, the one `perf report
//   --sort srcline` gives.
//
// Invariants: linear in line-tree nodes (one depth-first walk with a stack of the open matching
// nodes), no recursion; the sum of the lines' self weights is the function's self weight over the
// samples that carried lines (an unknown line is a row of its own, file null); a function's total
// counts each sample once.

import type { Profile } from '../model/profile';
import { viewNodes, type LinesProfile, type LinesView } from '../views/source-lines-view';
import { FrameFlags } from '../model/types';

export type { LinesProfile, LinesView };

export interface LineWeight {
  /** The file as the recording names it, or null for the unknown line. */
  file: string | null;
  /** 1-based; 0 for a known file without a line, and for the unknown line. */
  line: number;
  self: number;
  total: number;
  selfSamples: number;
  totalSamples: number;
}

export interface FunctionLines {
  /** The function's own figures over the samples with lines (total: recursion counted once). */
  self: number;
  total: number;
  selfSamples: number;
  totalSamples: number;
  /** Total weight of the samples with lines (the share's denominator). */
  all: number;
  allSamples: number;
  /** One row per line the function was at, in file order (file, then line; unknown last). */
  lines: LineWeight[];
  /**
   * Inline-frame view, an inlined function: the lines of its callers it was inlined at, with the
   * total weight of the samples inside it there (outermost occurrence only; self is 0), file order.
   */
  callSites: LineWeight[];
  /**
   * Under a time range: 'applied' when the figures are the range's; 'not-linked' when the
   * recording does not link its samples to lines, so they are the whole recording's. Absent: no range.
   */
  range?: 'applied' | 'not-linked';
}

/**
 * The per-line weights of the function whose view frames are marked in `match` (by frame index:
 * several frames may be one function, as a name with and without `(inlined)`). Null when the
 * recording has no lines.
 */
export function functionLines(profile: LinesProfile, view: LinesView, match: Uint8Array): FunctionLines | null {
  const lines = profile.lines;
  if (!lines) return null;
  const t = lines.tree;
  const n = t.nodeCount;
  const { frame, owner } = viewNodes(profile, lines, view);
  const locations = lines.locations.count;
  const unknown = locations;
  // Per location (the unknown one last): weights, and how many matching nodes on the open path are at it.
  const self = new Float64Array(locations + 1);
  const selfSamples = new Float64Array(locations + 1);
  const total = new Float64Array(locations + 1);
  const totalSamples = new Float64Array(locations + 1);
  const open = new Int32Array(locations + 1);
  const seen = new Uint8Array(locations + 1);
  const siteTotal = new Float64Array(locations + 1);
  const siteSamples = new Float64Array(locations + 1);
  const siteSeen = new Uint8Array(locations + 1);
  // The open matching nodes (a node counts for totals when it is its own owner), with their location.
  let stack = new Int32Array(64);
  let stackLoc = new Int32Array(64);
  let top = 0;
  let fnSelf = 0;
  let fnSelfSamples = 0;
  let fnTotal = 0;
  let fnTotalSamples = 0;
  for (let ln = 1; ln < n; ln++) {
    while (top > 0 && ln >= t.end[stack[top - 1]]) open[stackLoc[--top]]--;
    const f = frame[ln];
    if (f < 0 || match[f] !== 1) continue;
    const at = lines.locatedLocation[t.frame[owner[ln]]];
    const loc = at < 0 ? unknown : at;
    if (t.selfWeight[ln] !== 0 || t.selfSamples[ln] !== 0) {
      self[loc] += t.selfWeight[ln];
      selfSamples[loc] += t.selfSamples[ln];
      seen[loc] = 1;
      fnSelf += t.selfWeight[ln];
      fnSelfSamples += t.selfSamples[ln];
    }
    if (owner[ln] !== ln) continue;
    if (top === 0) {
      fnTotal += t.totalWeight[ln];
      fnTotalSamples += t.totalSamples[ln];
      const p = t.parent[ln];
      if (view === 'inline' && p > 0 && profile.frames.flags[lines.locatedFrame[t.frame[ln]]] & FrameFlags.INLINED) {
        const site = lines.locatedLocation[t.frame[p]];
        const at = site < 0 ? unknown : site;
        siteTotal[at] += t.totalWeight[ln];
        siteSamples[at] += t.totalSamples[ln];
        siteSeen[at] = 1;
      }
    }
    if (open[loc] === 0) {
      total[loc] += t.totalWeight[ln];
      totalSamples[loc] += t.totalSamples[ln];
      seen[loc] = 1;
    }
    open[loc]++;
    if (top === stack.length) {
      const s = new Int32Array(top * 2);
      s.set(stack);
      stack = s;
      const l = new Int32Array(top * 2);
      l.set(stackLoc);
      stackLoc = l;
    }
    stack[top] = ln;
    stackLoc[top++] = loc;
  }
  const fn = { self: fnSelf, total: fnTotal, selfSamples: fnSelfSamples, totalSamples: fnTotalSamples, all: n > 0 ? t.totalWeight[0] : 0, allSamples: n > 0 ? t.totalSamples[0] : 0 };
  return lineRows(profile, lines, fn, { self, selfSamples, total, totalSamples, seen }, { total: siteTotal, samples: siteSamples, seen: siteSeen });
}

/** Per location (the unknown one last, at index `locations.count`): a function's line sums. */
export interface LineSums {
  self: Float64Array;
  selfSamples: Float64Array;
  total: Float64Array;
  totalSamples: Float64Array;
  seen: Uint8Array;
}

/** The rows of FunctionLines from per-location sums (shared with ./narrowed-lines.ts). */
export function lineRows(
  profile: LinesProfile,
  lines: NonNullable<LinesProfile['lines']>,
  fn: Omit<FunctionLines, 'lines' | 'callSites'>,
  sums: LineSums,
  sites: { total: Float64Array; samples: Float64Array; seen: Uint8Array },
): FunctionLines {
  const strings = profile.frames.strings;
  const unknown = lines.locations.count;
  const row = (loc: number, w: number, ws: number, tw: number, ts: number): LineWeight => {
    const known = loc < unknown;
    return { file: known ? strings[lines.locations.file[loc]] : null, line: known ? lines.locations.line[loc] : 0, self: w, total: tw, selfSamples: ws, totalSamples: ts };
  };
  const rows: LineWeight[] = [];
  const callSites: LineWeight[] = [];
  for (let loc = 0; loc <= unknown; loc++) {
    if (sums.seen[loc]) rows.push(row(loc, sums.self[loc], sums.selfSamples[loc], sums.total[loc], sums.totalSamples[loc]));
    if (sites.seen[loc]) callSites.push(row(loc, 0, 0, sites.total[loc], sites.samples[loc]));
  }
  callSites.sort(byFileOrder);
  rows.sort(byFileOrder);
  return { ...fn, lines: rows, callSites };
}

/** File order: by file, then line; the unknown line last. */
export function byFileOrder(a: Pick<LineWeight, 'file' | 'line'>, b: Pick<LineWeight, 'file' | 'line'>): number {
  if (a.file === null || b.file === null) return a.file === b.file ? 0 : a.file === null ? 1 : -1;
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line;
}

/**
 * Self weight per location over the whole recording, by the leaf's line in the inline view (what
 * `perf report --no-children --sort srcline` sums): `file:line` → weight, the unknown line as null.
 */
export function leafLineWeights(profile: Profile): Map<string | null, number> | null {
  const lines = profile.lines;
  if (!lines) return null;
  const t = lines.tree;
  const strings = profile.frames.strings;
  const out = new Map<string | null, number>();
  for (let ln = 1; ln < t.nodeCount; ln++) {
    const w = t.selfWeight[ln];
    if (w === 0) continue;
    const loc = lines.locatedLocation[t.frame[ln]];
    const key = loc < 0 ? null : `${strings[lines.locations.file[loc]]}:${lines.locations.line[loc]}`;
    out.set(key, (out.get(key) ?? 0) + w);
  }
  return out;
}

/** Frames shown as one function in `view` whose name satisfies `test` (a mask over frame indices). */
export function framesMatching(profile: LinesProfile, view: LinesView, test: (name: string) => boolean): Uint8Array {
  const { frames } = profile;
  const mask = new Uint8Array(frames.count);
  const rename = view === 'functions' ? profile.functionFrames ?? null : null;
  for (let f = 0; f < frames.count; f++) {
    const shown = rename ? rename[f] : f;
    if (test(frames.strings[frames.name[shown]])) mask[shown] = 1;
  }
  return mask;
}


/** The source files the recording names (its known locations' files), each once. */
export function recordedFiles(profile: Profile): string[] {
  const lines = profile.lines;
  if (!lines) return [];
  const strings = profile.frames.strings;
  const files = new Set<number>(lines.locations.file.subarray(0, lines.locations.count));
  return [...files].map((f) => strings[f]);
}
