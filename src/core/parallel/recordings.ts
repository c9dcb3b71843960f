// Several recordings summed into one profile (issue 31, item 2): several runs, hosts or
// per-thread files, any mix of formats, shown as one graph, as pprof merges its inputs.
//
//   recordings ─▶ [optional: each under a root frame named after it] ─▶ mergeFrames ─▶ mergeTrees
//
// Invariants:
// - the result's folded stacks are the sum of the recordings' folded stacks (a stack in several
//   recordings once, with its weights added): frames are interned by (name, flags) and the trees
//   merged by path by the routines that merge the parts of one input (./merge.ts);
// - with `rootPerRecording`, every stack of recording i starts with the frame `labels[i]`, so the
//   root's children are the recordings (two recordings with one label share that frame);
// - the time-order column and the source lines are dropped (their timestamps and line trees
//   belong to one recording each), with a warning saying so; per-frame function names are kept.
// Linear in the recordings' nodes and frames, no recursion.

import type { CallTree } from '../model/call-tree';
import { newTreeColumns } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { ImportWarning, Profile, ProfileMeta } from '../model/profile';
import { fillTotalsAndEnds } from '../model/tree-builder';
import { mergeFrames, mergeTrees } from './merge';

export interface MergeRecordingsOptions {
  /** Each recording's stacks under a root frame of its own, named by `labels`. */
  rootPerRecording?: boolean;
  /** One name per recording (its file name): the root frames' names and the warnings' prefix. */
  labels?: readonly string[];
}

/** The sum of the recordings as one profile; one recording is returned as it is. */
export function mergeRecordings(profiles: readonly Profile[], options: MergeRecordingsOptions = {}): Profile {
  if (profiles.length === 0) throw new Error('mergeRecordings: no recordings');
  const labels = options.labels ?? profiles.map((_, i) => `recording ${i + 1}`);
  if (profiles.length === 1 && !options.rootPerRecording) return profiles[0];
  const inputs = options.rootPerRecording ? profiles.map((p, i) => underRoot(p, labels[i])) : profiles.map((p) => ({ frames: p.frames, tree: p.tree }));
  const merged = mergeFrames(inputs.map((x) => ({ frames: x.frames, moduleKnown: new Uint8Array(x.frames.count).fill(1) })));
  // Without late samples mergeFrames always merges.
  const { frames, frameMaps } = merged!;
  const { tree } = mergeTrees(inputs, frames, frameMaps);
  return {
    frames,
    tree,
    meta: { ...mergedMeta(profiles, labels), recordingRoots: Boolean(options.rootPerRecording) },
    samples: null,
    functionFrames: mergedFunctionFrames(profiles, frames.count, frameMaps),
    lines: null,
  };
}

/** The recording's frames plus one (its label, last), and its tree one level down under it. */
function underRoot(p: Profile, label: string): { frames: FrameTable; tree: CallTree } {
  const f = p.frames;
  const top = f.count;
  const extend = <T extends Int32Array | Uint8Array>(a: T, v: number): T => {
    const out = new (a.constructor as new (n: number) => T)(top + 1);
    out.set(a);
    out[top] = v;
    return out;
  };
  const frames: FrameTable = {
    count: top + 1,
    name: extend(f.name, f.strings.length),
    module: extend(f.module, -1),
    flags: extend(f.flags, 0),
    strings: [...f.strings, label],
  };
  const t = p.tree;
  const n = t.nodeCount + 1;
  const c = newTreeColumns(n);
  c.parent[0] = -1;
  c.frame[0] = -1;
  c.parent[1] = 0;
  c.frame[1] = top;
  c.depth[1] = 1;
  // Old node i (i ≥ 1) is new node i + 1, one level deeper; the old root's own weight (samples
  // with no frame at all) stays with the new root.
  c.selfWeight[0] = t.nodeCount > 0 ? t.selfWeight[0] : 0;
  c.selfSamples[0] = t.nodeCount > 0 ? t.selfSamples[0] : 0;
  for (let i = 1; i < t.nodeCount; i++) {
    c.parent[i + 1] = t.parent[i] === 0 ? 1 : t.parent[i] + 1;
    c.frame[i + 1] = t.frame[i];
    c.depth[i + 1] = t.depth[i] + 1;
    c.selfWeight[i + 1] = t.selfWeight[i];
    c.selfSamples[i + 1] = t.selfSamples[i];
  }
  fillTotalsAndEnds(n, c.parent, c.selfWeight, c.selfSamples, c.totalWeight, c.totalSamples, c.end);
  return { frames, tree: { nodeCount: n, ...c, maxDepth: t.maxDepth + 1 } };
}

function mergedMeta(profiles: readonly Profile[], labels: readonly string[]): ProfileMeta {
  const first = profiles[0].meta;
  const warnings: ImportWarning[] = [];
  let skipped = 0;
  profiles.forEach((p, i) => {
    skipped += p.meta.skippedLines;
    for (const w of p.meta.warnings) warnings.push({ line: w.line, message: `${labels[i]}: ${w.message}` });
  });
  if (profiles.some((p) => (p.samples?.count ?? 0) > 0)) {
    warnings.push({ line: 0, message: 'several recordings: no time-order chart (their clocks are not one clock)' });
  }
  if (profiles.some((p) => p.lines)) warnings.push({ line: 0, message: 'several recordings: source lines are not merged' });
  const units = new Set(profiles.map((p) => p.meta.weightUnit));
  const events = new Set(profiles.map((p) => p.meta.event));
  if (units.size > 1) warnings.push({ line: 0, message: `several recordings: weights in different units (${[...units].map((u) => u ?? 'counts').join(', ')}) are added as numbers` });
  const eventsByName = new Map<string, number>();
  for (const p of profiles) for (const e of p.meta.events) eventsByName.set(e.name, (eventsByName.get(e.name) ?? 0) + e.samples);
  return {
    format: first.format,
    events: [...eventsByName].map(([name, samples]) => ({ name, samples })),
    event: events.size === 1 ? first.event : null,
    weightUnit: units.size === 1 ? first.weightUnit : null,
    samples: profiles.reduce((n, p) => n + p.meta.samples, 0),
    hasInlineInfo: profiles.some((p) => p.meta.hasInlineInfo),
    skippedLines: skipped,
    warnings,
    recordings: [...labels],
    recordingFormats: profiles.map((p) => p.meta.format),
  };
}

/** Each recording's function-name map carried into the merged frames (the first map to name a frame wins). */
function mergedFunctionFrames(profiles: readonly Profile[], count: number, frameMaps: readonly Int32Array[]): Int32Array | null {
  if (!profiles.some((p) => p.functionFrames)) return null;
  const out = new Int32Array(count).fill(-1);
  profiles.forEach((p, i) => {
    const ff = p.functionFrames;
    if (!ff) return;
    const map = frameMaps[i];
    for (let f = 0; f < ff.length; f++) if (out[map[f]] < 0 && ff[f] !== f) out[map[f]] = map[ff[f]];
  });
  for (let f = 0; f < count; f++) if (out[f] < 0) out[f] = f;
  return out;
}
