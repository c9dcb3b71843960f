// speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json):
//
//   { "$schema": "https://www.speedscope.app/file-format-schema.json",
//     "shared": { "frames": [{ "name": "main", "file": "a.c", "line": 3 }, …] },
//     "profiles": [
//       { "type": "sampled", "name": "…", "unit": "milliseconds", "startValue": 0, "endValue": 9,
//         "samples": [[0, 1], [0, 2]], "weights": [4, 5] },          ← stacks root-first
//       { "type": "evented", "name": "…", "unit": "nanoseconds", "startValue": 0, "endValue": 9,
//         "events": [{ "type": "O", "frame": 0, "at": 0 }, { "type": "C", "frame": 0, "at": 9 }] } ],
//     "activeProfileIndex": 0 }
//
// Decisions and invariants:
// - One profile is imported: options.event names it; by default activeProfileIndex (what
//   speedscope itself opens first), else the first. meta.events lists every profile by name with
//   its number of samples (sampled) or of opened frames (evented).
// - A frame is its name; the module is its file. Its `file` and `line` are the location of every
//   sample at it (Profile.lines, ../model/source-lines.ts): shared frames of one name at several
//   lines are one frame of the tree at several locations; no file is the unknown location, no
//   line (or 0) a known file without a line. A file without any file names has no lines. Time units become nanoseconds (weightUnit
//   'nanoseconds'); 'bytes' and 'none' keep their values (weightUnit null).
// - Sampled: one sample per stack, weighted by its weight. Evented: the time between two events
//   goes to the frame on top of the open stack (its self time); each such interval counts as one
//   sample. A close that does not match the top closes down to its frame (or is ignored if the
//   frame is not open), events going back in time count as zero time, frames still open at the
//   end close at endValue: all with warnings, never an exception. Frame indices out of range
//   become `[unknown frame N]`.

import { FrameTableBuilder } from '../model/frame-table';
import { TreeBuilder, finishProfile } from '../model/tree-builder';
import { ROOT_NODE, type FrameIndex, type NodeIndex } from '../model/types';
import { ImportError, quoteInput, type EventSummary, type ImportWarning, type Profile } from '../model/profile';
import type { BytesImporter, Detection, ImportOptions } from './importer';
import { headText, parseJsonBytes } from './whole-input';
import { withoutNul } from '../util/wire';
import { NO_LOCATION, SourceLinesBuilder } from '../model/source-lines';

const DESCRIPTION = 'a speedscope JSON file';
const SCHEMA = 'speedscope.app/file-format-schema.json';
const TIME_SCALE: Record<string, number> = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9 };

interface SpeedscopeProfile {
  type?: unknown;
  name?: unknown;
  unit?: unknown;
  endValue?: unknown;
  samples?: unknown;
  weights?: unknown;
  events?: unknown;
}

export const speedscopeImporter: BytesImporter = {
  format: 'speedscope',
  description: DESCRIPTION,
  detectBytes(head: Uint8Array): Detection {
    const text = headText(head).trimStart();
    if (!text.startsWith('{')) return 'no';
    if (text.includes(SCHEMA)) return 'yes';
    return /"shared"\s*:\s*\{\s*"frames"/.test(text) && /"profiles"\s*:/.test(text) ? 'yes' : 'no';
  },
  parseBytes(bytes: Uint8Array, options: ImportOptions): Profile {
    return buildSpeedscope(parseJsonBytes(bytes, DESCRIPTION, options.source), options);
  },
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function profileName(p: unknown, i: number): string {
  return isObject(p) && typeof p.name === 'string' && p.name !== '' ? p.name : `profile ${i + 1}`;
}

export function buildSpeedscope(json: unknown, options: ImportOptions): Profile {
  const fail = (found: string) => new ImportError(DESCRIPTION, 0, found, options.source);
  if (!isObject(json)) throw fail(`JSON ${Array.isArray(json) ? 'array' : typeof json}, not an object`);
  const shared = json.shared;
  if (!isObject(shared) || !Array.isArray(shared.frames)) throw fail('no "shared": { "frames": [...] }');
  if (!Array.isArray(json.profiles) || json.profiles.length === 0) throw fail('no "profiles" (or an empty list)');
  const profiles = json.profiles as unknown[];
  const names = profiles.map(profileName);
  let chosen: number;
  if (options.event !== undefined) {
    chosen = names.indexOf(options.event);
    if (chosen < 0) throw new ImportError(`a profile named "${options.event}"`, 0, `only ${names.map((n) => quoteInput(n)).join(', ')}`, options.source);
  } else {
    const active = json.activeProfileIndex;
    chosen = typeof active === 'number' && Number.isInteger(active) && active >= 0 && active < profiles.length ? active : 0;
  }
  const events: EventSummary[] = profiles.map((p, i) => ({ name: names[i], samples: countOf(p) }));
  const p = profiles[chosen];
  if (!isObject(p)) throw fail(`profiles[${chosen}] that is not an object`);
  const sp = p as SpeedscopeProfile;
  const unit = typeof sp.unit === 'string' ? sp.unit : 'none';
  const scale = TIME_SCALE[unit] ?? 1;

  const frames = new FrameTableBuilder();
  const table = shared.frames as unknown[];
  const frameIndex = new Int32Array(table.length).fill(-1);
  const sourceLines = new SourceLinesBuilder(frames.strings);
  let anyFile = false;
  // Per shared frame, its location (-2: not made yet).
  const frameLocation = new Int32Array(table.length).fill(-2);
  const locationOf = (i: unknown): number => {
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= table.length) return NO_LOCATION;
    if (frameLocation[i] === -2) {
      const f = table[i];
      const file = isObject(f) && typeof f.file === 'string' ? clean(f.file) : '';
      const line = isObject(f) && typeof f.line === 'number' && Number.isSafeInteger(f.line) && f.line > 0 ? f.line : 0;
      if (file !== '') anyFile = true;
      frameLocation[i] = file === '' ? NO_LOCATION : sourceLines.location(file, line);
    }
    return frameLocation[i];
  };
  const problems = new Map<string, number>();
  const problem = (what: string) => problems.set(what, (problems.get(what) ?? 0) + 1);
  const frameOf = (i: unknown): FrameIndex => {
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= table.length) {
      problem('a stack refers to a frame index that is not in "shared.frames"');
      return frames.intern(`[unknown frame ${String(i).slice(0, 20)}]`, 0);
    }
    if (frameIndex[i] < 0) {
      const f = table[i];
      const name = isObject(f) && typeof f.name === 'string' ? f.name : '';
      if (!isObject(f) || typeof f.name !== 'string') problem('a frame without a "name"');
      const file = isObject(f) && typeof f.file === 'string' && f.file !== '' ? f.file : undefined;
      frameIndex[i] = frames.intern(clean(name === '' ? '[unknown]' : name), 0, file);
    }
    return frameIndex[i];
  };

  const builder = new TreeBuilder();
  let samples = 0;
  if (sp.type === 'sampled') {
    if (!Array.isArray(sp.samples)) throw fail(`a sampled profile without "samples"`);
    const weights = Array.isArray(sp.weights) ? (sp.weights as unknown[]) : null;
    if (!weights || weights.length !== sp.samples.length) problem('"weights" is missing or does not match "samples": each sample weighs 1');
    const stack: FrameIndex[] = [];
    const locations: number[] = [];
    const path: NodeIndex[] = [];
    for (let s = 0; s < sp.samples.length; s++) {
      const sample = sp.samples[s] as unknown;
      if (!Array.isArray(sample)) {
        problem('a sample that is not an array of frame indices');
        continue;
      }
      const w = weights && weights.length === sp.samples.length ? weights[s] : 1;
      if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) {
        problem('a weight that is not a finite, non-negative number; the sample was skipped');
        continue;
      }
      // Past 2^53 (in ns for times) it is no real weight, and a few of them sum to Infinity.
      if (!(w * scale <= Number.MAX_SAFE_INTEGER)) {
        problem('a weight past 2^53; the sample was skipped');
        continue;
      }
      stack.length = locations.length = 0;
      for (const i of sample) {
        stack.push(frameOf(i));
        locations.push(locationOf(i));
      }
      let node: NodeIndex = ROOT_NODE;
      for (let k = 0; k < stack.length; k++) path[k] = node = builder.child(node, stack[k]);
      builder.addSelf(node, w * scale, 1);
      sourceLines.addStack(stack, locations, path, stack.length, w * scale, 1);
      samples++;
    }
  } else if (sp.type === 'evented') {
    if (!Array.isArray(sp.events)) throw fail(`an evented profile without "events"`);
    samples = replayEvents(sp.events, typeof sp.endValue === 'number' ? sp.endValue : NaN, scale, builder, frameOf, problem, sourceLines, locationOf);
  } else {
    throw fail(`profiles[${chosen}] of type ${quoteInput(String(sp.type))} (expected "sampled" or "evented")`);
  }

  const warnings: ImportWarning[] = [];
  for (const [what, n] of problems) warnings.push({ line: 0, message: n > 1 ? `${what} (${n} times)` : what });
  return finishProfile(
    frames,
    builder,
    () => ({
      format: 'speedscope',
      events,
      event: names[chosen],
      weightUnit: unit in TIME_SCALE ? 'nanoseconds' : null,
      samples,
      hasInlineInfo: false,
      skippedLines: 0,
      warnings,
    }),
    anyFile ? (table, order) => sourceLines.finish(table, order) : null,
  );
}

function countOf(p: unknown): number {
  if (!isObject(p)) return 0;
  if (Array.isArray(p.samples)) return p.samples.length;
  if (Array.isArray(p.events)) {
    let opens = 0;
    for (const e of p.events as unknown[]) if (isObject(e) && e.type === 'O') opens++;
    return opens;
  }
  return 0;
}

/** Replays O/C events with an explicit stack; returns the number of weighted intervals. */
function replayEvents(
  events: unknown[],
  endValue: number,
  scale: number,
  builder: TreeBuilder,
  frameOf: (i: unknown) => FrameIndex,
  problem: (what: string) => void,
  lines: SourceLinesBuilder,
  locationOf: (i: unknown) => number,
): number {
  const nodes: NodeIndex[] = [ROOT_NODE];
  // The open frames' line-tree nodes, parallel to `nodes`.
  const lineNodes: NodeIndex[] = [ROOT_NODE];
  const open: FrameIndex[] = [];
  let last = NaN;
  let intervals = 0;
  const advance = (at: number) => {
    if (!Number.isNaN(last) && nodes.length > 1) {
      if (at < last) problem('events go back in time; those intervals count as zero');
      else if (!((at - last) * scale <= Number.MAX_SAFE_INTEGER)) problem('an interval between events past 2^53; it counts as zero');
      else if (at > last) {
        builder.addSelf(nodes[nodes.length - 1], (at - last) * scale, 1);
        lines.addSelf(lineNodes[lineNodes.length - 1], (at - last) * scale, 1);
        intervals++;
      }
    }
    if (Number.isNaN(last) || at > last) last = at;
  };
  for (const e of events) {
    if (!isObject(e) || typeof e.at !== 'number' || !Number.isFinite(e.at) || (e.type !== 'O' && e.type !== 'C')) {
      problem('an event without "type" O or C and a numeric "at"; it was ignored');
      continue;
    }
    advance(e.at);
    const frame = frameOf(e.frame);
    if (e.type === 'O') {
      const node = builder.child(nodes[nodes.length - 1], frame);
      nodes.push(node);
      lineNodes.push(lines.child(lineNodes[lineNodes.length - 1], frame, locationOf(e.frame), node));
      open.push(frame);
    } else {
      const at = open.lastIndexOf(frame);
      if (at < 0) {
        problem('a close event for a frame that is not open; it was ignored');
        continue;
      }
      if (at !== open.length - 1) problem('a close event for a frame that is not on top; the frames above it were closed too');
      open.length = at;
      nodes.length = at + 1;
      lineNodes.length = at + 1;
    }
  }
  if (open.length > 0) {
    problem('frames still open at the end; they were closed at "endValue"');
    if (Number.isFinite(endValue)) advance(endValue);
  }
  return intervals;
}

function clean(name: string): string {
  return withoutNul(name);
}
