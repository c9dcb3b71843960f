// Folded-stack export: the text `stackcollapse-perf.pl` / `inferno-collapse-perf` print, one line
// per distinct stack, `frame;frame;...;leaf weight`.
//
// Invariants:
// - one line per distinct stack string with a weight > 0; stacks that become equal after
//   tidying (two overloads of one function, or `b` and an unannotated `b_[i]`) are merged by
//   summing, as the collapsers merge them;
// - lines are sorted by the stack string in UTF-8 byte order (what inferno and perl's `sort`
//   give, and `LC_ALL=C sort` except for names holding control characters);
// - weights print as integers without a decimal point, fractions in the shortest form that reads
//   back to the same double, never in exponent form;
// - no line ever contains '\n' or a ';' inside a frame name (';' → ':', newlines → ' ').
// The tree is walked iteratively in its depth-first order with one prefix string per depth.

import { frameName } from '../model/frame-table';
import { FrameFlags } from '../model/types';
import type { Profile } from '../model/profile';
import type { CallTree } from '../model/call-tree';
import { viewTree, type ViewKind } from '../views/function-view';
import { applyTransforms, type Transform } from '../views/transforms';
import { rawName, tidyName } from './tidy-name';

export interface FoldedOptions {
  /** 'inline' (default): every frame; 'functions': inlined frames merged into their caller. */
  view?: ViewKind;
  /** 'period' (default): summed periods, as perf collapsers print; 'samples': sample counts. */
  weight?: 'period' | 'samples';
  /** Suffix inlined frames with `_[i]` (default true; inline view only). A physical frame never gets it. */
  annotateInline?: boolean;
  /** Suffix kernel frames with `_[k]` (inferno's --kernel). */
  annotateKernel?: boolean;
  /** Suffix JIT frames with `_[j]` (inferno's --jit). */
  annotateJit?: boolean;
  /** Keep names as recorded instead of inferno's tidying (only ';' is replaced). */
  fullNames?: boolean;
  /** Applied to the view's tree in order, as the viewer does (the CLI's --transform). */
  transforms?: readonly Transform[];
}

/** The view's tree with the transforms applied (the tree itself when there are none). */
export function transformedViewTree(profile: Profile, view: ViewKind, transforms: readonly Transform[] = []): CallTree {
  const tree = viewTree(profile, view);
  return transforms.length === 0 ? tree : applyTransforms(tree, profile.frames, transforms).tree;
}

export interface FoldedStacks {
  /** Distinct stacks, sorted in UTF-8 byte order. */
  stacks: string[];
  weights: Float64Array;
}

/** Sorted, merged stacks of a profile. Holds every stack string at once. */
export function foldedStacks(profile: Profile, options: FoldedOptions = {}): FoldedStacks {
  const tree = transformedViewTree(profile, options.view ?? 'inline', options.transforms);
  const labels = frameLabels(profile, options);
  const self = options.weight === 'samples' ? tree.selfSamples : tree.selfWeight;

  const prefix: string[] = new Array(tree.maxDepth + 1);
  prefix[0] = '';
  const raw: string[] = [];
  const rawWeight: number[] = [];
  // inferno's tidy_java: under a process named java*, `Ljava/io/Foo;::bar` loses its 'L'.
  let javaText: string[] | null = null;
  let text = labels.text;
  for (let n = 1; n < tree.nodeCount; n++) {
    const d = tree.depth[n];
    if (d === 1) {
      text = labels.text;
      if (!options.fullNames && frameName(profile.frames, tree.frame[n]).startsWith('java')) {
        javaText ??= labels.text.map((t) => (t.charCodeAt(0) === 76 /* L */ && t.includes('/') ? t.slice(1) : t));
        text = javaText;
      }
    }
    const label = text[tree.frame[n]];
    const stack = d === 1 ? label : prefix[d - 1] + ';' + label;
    prefix[d] = stack;
    if (self[n] > 0) {
      raw.push(stack);
      rawWeight.push(self[n]);
    }
  }

  const compare = labels.astral ? compareUtf8 : compareUnits;
  // The depth-first order of a tree whose siblings are sorted by name is usually already the
  // line order; one pass checks that (and flattens each stack once, which printing needs anyway).
  if (isStrictlyAscending(raw, compare)) return { stacks: raw, weights: Float64Array.from(rawWeight) };

  const order = Array.from({ length: raw.length }, (_, i) => i);
  order.sort((a, b) => compare(raw[a], raw[b]));
  const stacks: string[] = [];
  const weights: number[] = [];
  for (const i of order) {
    const last = stacks.length - 1;
    if (last >= 0 && stacks[last] === raw[i]) weights[last] += rawWeight[i];
    else {
      stacks.push(raw[i]);
      weights.push(rawWeight[i]);
    }
  }
  return { stacks, weights: Float64Array.from(weights) };
}

function compareUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isStrictlyAscending(xs: string[], compare: (a: string, b: string) => number): boolean {
  for (let i = 1; i < xs.length; i++) if (compare(xs[i - 1], xs[i]) >= 0) return false;
  return true;
}

/** The folded text as chunks of whole lines (about 64 KiB each), for streaming writers. */
export function* foldedChunks(profile: Profile, options: FoldedOptions = {}): Generator<string> {
  yield* foldedStackChunks(foldedStacks(profile, options));
}

/**
 * Several recordings' stacks summed: a stack in several lists once, with the sum of its weights
 * (what folding their concatenated text gives). Each list sorted and distinct, as foldedStacks
 * gives them; so is the result.
 */
export function sumFolded(lists: readonly FoldedStacks[]): FoldedStacks {
  const all: { stack: string; weight: number }[] = [];
  for (const f of lists) for (let i = 0; i < f.stacks.length; i++) all.push({ stack: f.stacks[i], weight: f.weights[i] });
  all.sort((a, b) => compareUtf8(a.stack, b.stack));
  const stacks: string[] = [];
  const weights: number[] = [];
  for (const { stack, weight } of all) {
    if (stacks.length > 0 && stacks[stacks.length - 1] === stack) weights[weights.length - 1] += weight;
    else {
      stacks.push(stack);
      weights.push(weight);
    }
  }
  return { stacks, weights: Float64Array.from(weights) };
}

/** Sorted stacks as folded text, in chunks of whole lines (about 64 KiB each). */
export function* foldedStackChunks({ stacks, weights }: FoldedStacks): Generator<string> {
  // Parts joined once per chunk: `chunk +=` would build a rope that is flattened again on write.
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; i < stacks.length; i++) {
    const line = stacks[i] + ' ' + formatWeight(weights[i]) + '\n';
    parts.push(line);
    size += line.length;
    if (size >= 65536) {
      yield parts.join('');
      parts.length = 0;
      size = 0;
    }
  }
  if (size > 0) yield parts.join('');
}

/** Writes the folded text through `write`, chunk by chunk. */
export function writeFolded(profile: Profile, options: FoldedOptions, write: (chunk: string) => void): void {
  for (const chunk of foldedChunks(profile, options)) write(chunk);
}

/** The folded lines (without '\n'). For tests and small profiles. */
export function collapseLines(profile: Profile, options: FoldedOptions = {}): string[] {
  const { stacks, weights } = foldedStacks(profile, options);
  return stacks.map((s, i) => s + ' ' + formatWeight(weights[i]));
}

function frameLabels(profile: Profile, options: FoldedOptions): { text: string[]; astral: boolean } {
  const { frames } = profile;
  // In the function view every remaining frame is a function; a frame flagged INLINED there is
  // one with no physical caller to merge into, and is shown as the function it stands for.
  const inline = (options.annotateInline ?? true) && (options.view ?? 'inline') === 'inline';
  const tidy = options.fullNames ? rawName : tidyName;
  const text: string[] = new Array(frames.count);
  let astral = false;
  for (let f = 0; f < frames.count; f++) {
    let name = tidy(frameName(frames, f));
    if (name.indexOf('\n') >= 0 || name.indexOf('\r') >= 0) name = name.replace(/[\r\n]/g, ' ');
    const flags = frames.flags[f];
    if (inline && flags & FrameFlags.INLINED) name += '_[i]';
    else if (options.annotateKernel && flags & FrameFlags.KERNEL) name += '_[k]';
    else if (options.annotateJit && flags & FrameFlags.JIT) name += '_[j]';
    if (!astral && hasSurrogate(name)) astral = true;
    text[f] = name;
  }
  return { text, astral };
}

function hasSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

/**
 * Compares strings in UTF-8 byte order (= code point order). UTF-16 code unit order differs only
 * where a surrogate (an astral character) meets a code unit in U+E000–U+FFFF: as code units the
 * surrogate sorts first, as code points it sorts last.
 */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
}

/** A weight as folded text: integers without '.', fractions minimal, never exponent form. */
export function formatWeight(w: number): string {
  const s = String(w);
  if (s.indexOf('e') < 0) return s;
  if (Number.isInteger(w)) return BigInt(w).toString();
  // Tiny fractions (below 1e-6) are printed in fixed notation with enough digits to round-trip.
  for (let digits = 7; digits <= 100; digits++) {
    const fixed = w.toFixed(digits);
    if (Number(fixed) === w) return fixed.replace(/0+$/, '').replace(/\.$/, '');
  }
  return w.toFixed(100).replace(/0+$/, '').replace(/\.$/, '');
}
