// Tree transforms: pure functions CallTree → CallTree, applied in order as a list (the Firefox
// Profiler's transform stack). Each is undoable by dropping it from the list; the list is
// recorded in the URL as a short string (transforms-codec.ts).
//
//   kind           │ URL form           │ effect
//   ───────────────┼────────────────────┼─────────────────────────────────────────────────────────
//   focus          │ focus:NAME         │ only the stacks through NAME, re-rooted at it (outermost
//                  │                    │ NAME of each stack; recursion counted once)
//   subtree        │ subtree:A;B_[i];C  │ only this call path's subtree, re-rooted at its last
//                  │                    │ frame (see focusSubtree for the other view's paths)
//   focus-group    │ focus-lib:LIB      │ only the frames of one library / namespace: the others
//                  │ focus-ns:NS        │ merged into their callers (frame-groups.ts)
//   merge          │ merge:NAME         │ frames named NAME dropped: self to the caller, callees
//                  │                    │ attached to the caller
//   drop           │ drop:NAME          │ every sample whose stack has NAME removed (totals shrink)
//   collapse       │ collapse:NAME      │ NAME's callees merged into it (its subtree is one frame)
//   collapse-group │ collapse-lib:LIB   │ each run of consecutive frames of LIB / NS becomes one
//                  │ collapse-ns:NS     │ frame named after the group (`libc.so.6`, `std::`)
//   rec            │ rec:NAME           │ any recursion of NAME: a call of NAME inside NAME is
//                  │                    │ merged into the outermost one, the frames between dropped
//                  │                    │ from that stack (the Firefox Profiler's "Collapse recursion")
//   direct-rec     │ drec:NAME / drec   │ direct recursion NAME→NAME→… only, into one frame (by
//                  │ (old links: rec)   │ name, so an inlined and a physical NAME merge); `drec`:
//                  │                    │ every function
//   hide kernel    │ hide:kernel        │ KERNEL frames merged into their caller (the nearest user
//                  │                    │ frame above)
//   hide unknown   │ hide:unknown       │ frames whose whole name is bracketed (`[unknown]`,
//                  │                    │ `[libc.so.6]`: perf's unresolved symbols) merged likewise
//   pattern        │ focus-re:RE        │ by a regular expression over frame names (`-i` after
//                  │ drop-re:RE         │ the kind: ignore case, focus-re-i:RE): focus re-roots
//                  │ merge-re:RE        │ each stack at its outermost matching frame (stacks with
//                  │ collapse-re:RE     │ none go); drop removes samples with a match; merge merges
//                  │                    │ matching frames into their callers; collapse merges each
//                  │                    │ run of consecutive matching frames into the run's first
//                  │                    │ (outermost) frame, which keeps its name
//
// Invariants: except for focus, subtree and drop, the root total is preserved (merged frames give
// their weight to the caller); a transform that touches no frame returns the input tree itself
// (identity mapping); every result shares the input's FrameTable (the group frames of
// collapse-group are in it already: withGroupFrames). merge, hide, focus-group, collapse,
// direct-rec and collapse-group are built by derived-builder.ts, which copies untouched subtrees
// as blocks and sorts only the merged child lists: no recursion, no hashing, O(nodes + merged
// children × log); drop compacts the kept nodes in one pass; rec re-parents subtrees, so it uses
// the hashed TreeBuilder (O(nodes)). `toNew` maps each input node to its node in the result, or
// -1 when dropped. A name missing from the profile makes the merging ones no-ops and focus an
// empty tree. A pattern is matched once per distinct name (model/match-names.ts, as the search
// worker does): a catastrophic one would run here for as long as in the search, so the page has
// the search worker try a pattern under its timeout before any transform uses it
// (controllers/derive-controller.ts).

import { newTreeColumns, type CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { mergeIntoParents, mergeSubtrees } from '../model/derived-builder';
import { fillTotalsAndEnds, TreeBuilder } from '../model/tree-builder';
import { FrameFlags, type StringIndex } from '../model/types';
import { describePath, resolvePath, type PathSegment } from './zoom-path';
import { calleesTree, finishDerived, type DerivedTree } from './callers-callees-trees';
import { frameGroups, nodeGroups, type GroupKind } from './frame-groups';
import { encodeTransforms } from './transforms-codec';
import { Memo } from '../util/memo';
import { matchNames } from '../model/match-names';

export type Transform =
  | { kind: 'focus'; name: string }
  | { kind: 'subtree'; path: PathSegment[] }
  | { kind: 'focus-group'; group: GroupKind; name: string }
  | { kind: 'merge'; name: string }
  | { kind: 'drop'; name: string }
  | { kind: 'collapse'; name: string }
  | { kind: 'collapse-group'; group: GroupKind; name: string }
  | { kind: 'rec'; name: string }
  | { kind: 'direct-rec'; name: string | null }
  | { kind: 'hide'; what: 'kernel' | 'unknown' }
  | { kind: 'pattern'; op: PatternOp; pattern: string; ignoreCase: boolean };

/** What a pattern transform does with the frames whose name matches. */
export type PatternOp = 'focus' | 'drop' | 'merge' | 'collapse';

export type TransformKind = Transform['kind'];

export type { DerivedTree };

/** A short human label for breadcrumbs / the undo list. */
export function describeTransform(t: Transform): string {
  switch (t.kind) {
    case 'focus':
      return `Focus on ${t.name}`;
    case 'subtree':
      return `Focus on subtree ${describePath(t.path.slice(-1))}`;
    case 'focus-group':
      return `Focus on ${t.group === 'lib' ? 'library' : 'namespace'} ${t.name}`;
    case 'merge':
      return `Merge ${t.name} into callers`;
    case 'drop':
      return `Drop samples with ${t.name}`;
    case 'collapse':
      return `Collapse ${t.name}`;
    case 'collapse-group':
      return `Collapse ${t.group === 'lib' ? 'library' : 'namespace'} ${t.name}`;
    case 'rec':
      return `Collapse recursion of ${t.name}`;
    case 'direct-rec':
      return t.name === null ? 'Collapse all direct recursion' : `Collapse direct recursion of ${t.name}`;
    case 'hide':
      return t.what === 'kernel' ? 'Hide kernel frames' : 'Hide [unknown] frames';
    case 'pattern': {
      const re = `/${t.pattern}/${t.ignoreCase ? 'i' : ''}`;
      switch (t.op) {
        case 'focus':
          return `Focus on ${re}`;
        case 'drop':
          return `Drop samples matching ${re}`;
        case 'merge':
          return `Merge ${re} into callers`;
        case 'collapse':
          return `Collapse runs of ${re}`;
      }
    }
  }
}

/** Whether a frame name is perf's stand-in for an unresolved symbol (`[unknown]`, `[libc.so.6]`). */
export function isUnknownName(name: string): boolean {
  return name.length >= 2 && name.charCodeAt(0) === 91 /* [ */ && name.charCodeAt(name.length - 1) === 93 /* ] */ && name.indexOf(']') === name.length - 1;
}

/** The string index of a frame name used by some frame, or -1. */
export function nameIndex(frames: FrameTable, name: string): StringIndex {
  for (let f = 0; f < frames.count; f++) if (frames.strings[frames.name[f]] === name) return frames.name[f];
  return -1;
}

/** Per frame, 1 for the frames named `name` (none when no frame is). */
function framesNamed(frames: FrameTable, name: string): Uint8Array {
  const s = nameIndex(frames, name);
  const mask = new Uint8Array(frames.count);
  if (s >= 0) for (let f = 0; f < frames.count; f++) if (frames.name[f] === s) mask[f] = 1;
  return mask;
}

/** Applies one transform (see the module comment). */
export function applyTransform(tree: CallTree, frames: FrameTable, t: Transform): DerivedTree {
  switch (t.kind) {
    case 'focus': {
      const s = nameIndex(frames, t.name);
      return s < 0 ? emptyTree(tree, frames) : calleesTree(tree, frames, s);
    }
    case 'subtree':
      return focusSubtree(tree, frames, t.path);
    case 'focus-group':
      return focusGroup(tree, frames, t.group, t.name);
    case 'merge':
      return dropFrames(tree, frames, framesNamed(frames, t.name));
    case 'drop':
      return dropSamples(tree, framesNamed(frames, t.name));
    case 'collapse':
      return collapseSubtrees(tree, frames, framesNamed(frames, t.name));
    case 'collapse-group':
      return collapseGroup(tree, frames, t.group, t.name);
    case 'rec':
      return collapseAnyRecursion(tree, frames, framesNamed(frames, t.name));
    case 'hide': {
      const drop = new Uint8Array(frames.count);
      for (let f = 0; f < frames.count; f++) {
        if (t.what === 'kernel' ? frames.flags[f] & FrameFlags.KERNEL : isUnknownName(frames.strings[frames.name[f]])) drop[f] = 1;
      }
      return dropFrames(tree, frames, drop);
    }
    case 'direct-rec': {
      const collapse = new Uint8Array(frames.count);
      const s = t.name === null ? -1 : nameIndex(frames, t.name);
      for (let f = 0; f < frames.count; f++) if (t.name === null || frames.name[f] === s) collapse[f] = 1;
      if (t.name !== null && s < 0) collapse.fill(0);
      return collapseRecursion(tree, frames, collapse);
    }
    case 'pattern': {
      const mask = framesMatching(frames, t.pattern, t.ignoreCase);
      switch (t.op) {
        case 'focus':
          return focusMatching(tree, frames, mask);
        case 'drop':
          return dropSamples(tree, mask);
        case 'merge':
          return dropFrames(tree, frames, mask);
        case 'collapse':
          return collapseRuns(tree, frames, mask);
      }
    }
  }
}

// Per frame table, the masks of a few patterns (undo and redo ask again for the same ones).
const patternMasks = new Memo<Uint8Array>({ maxPrimitives: 16 });

/** Per frame, 1 when its name matches the pattern; throws on an invalid pattern (the codec checks links). */
export function framesMatching(frames: FrameTable, pattern: string, ignoreCase: boolean): Uint8Array {
  return patternMasks.get([frames, `${ignoreCase ? 'i' : '-'}${pattern}`], () => matchNames(frames.strings, frames.name, new RegExp(pattern, ignoreCase ? 'i' : '')));
}

/**
 * Each stack re-rooted at its outermost marked frame, stacks without one removed: the subtrees of
 * the outermost marked nodes, merged by frame under the root.
 */
export function focusMatching(tree: CallTree, frames: FrameTable, mask: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  const { parent, frame, end, selfWeight, selfSamples } = tree;
  const builder = new TreeBuilder(n);
  const mapped = new Int32Array(n).fill(-1);
  mapped[0] = 0;
  for (let i = 1; i < n; ) {
    if (!mask[frame[i]]) {
      i++;
      continue;
    }
    // i is an outermost match: its subtree goes under the root (the hashed builder merges equal frames).
    const stop = end[i];
    for (let j = i; j < stop; j++) {
      mapped[j] = builder.child(j === i ? 0 : mapped[parent[j]], frame[j]);
      builder.addSelf(mapped[j], selfWeight[j], selfSamples[j]);
    }
    i = stop;
  }
  return finishDerived(builder, frames, mapped);
}

/** Each run of consecutive marked frames merged into its first (outermost) frame. */
export function collapseRuns(tree: CallTree, frames: FrameTable, mask: Uint8Array): DerivedTree {
  const { parent, frame } = tree;
  const up = new Uint8Array(tree.nodeCount);
  let any = false;
  for (let i = 1; i < tree.nodeCount; i++) {
    const p = parent[i];
    if (p > 0 && mask[frame[i]] && mask[frame[p]]) {
      up[i] = 1;
      any = true;
    }
  }
  return any ? mergeIntoParents(tree, frames, up) : identityResult(tree);
}

/** The tree with the frames marked in `drop` merged into their callers. */
export function dropFrames(tree: CallTree, frames: FrameTable, drop: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  if (!touches(tree, drop)) return identityResult(tree);
  const up = new Uint8Array(n);
  const frame = tree.frame;
  for (let i = 1; i < n; i++) up[i] = drop[frame[i]];
  return mergeIntoParents(tree, frames, up);
}

/** The tree with runs of same-named frames (where `collapse` marks the frame) merged into the run's first. */
export function collapseRecursion(tree: CallTree, frames: FrameTable, collapse: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  const { parent, frame } = tree;
  const name = frames.name;
  const up = new Uint8Array(n);
  let any = false;
  for (let i = 1; i < n; i++) {
    const p = parent[i];
    const f = frame[i];
    if (p > 0 && collapse[f] === 1 && name[frame[p]] === name[f]) {
      up[i] = 1;
      any = true;
    }
  }
  if (!any) return identityResult(tree);
  return mergeIntoParents(tree, frames, up);
}

/**
 * The subtree of one call path, re-rooted at its last frame. The path names frames of the view it
 * was taken in; in the other view (function ↔ inline frames) it may not exist as such, so a path
 * that does not resolve exactly matches by its physical frames (inlined and folded ones skipped
 * on both sides), and the subtrees of all matching nodes merge.
 */
export function focusSubtree(tree: CallTree, frames: FrameTable, path: readonly PathSegment[]): DerivedTree {
  if (path.length === 0) return identityResult(tree);
  const exact = resolvePath(frames, tree, path);
  const roots = exact.matched === path.length ? Int32Array.of(exact.node) : physicalMatches(tree, frames, path);
  if (roots.length === 0) return emptyTree(tree, frames);
  return mergeSubtrees(tree, frames, tree.frame[roots[0]], roots);
}

const MERGED = FrameFlags.INLINED | FrameFlags.FOLDED;

/** The outermost nodes whose physical frames from the root are the path's physical segments. */
function physicalMatches(tree: CallTree, frames: FrameTable, path: readonly PathSegment[]): Int32Array {
  const want = path.filter((s) => !s.inlined).map((s) => s.name);
  const out: number[] = [];
  if (want.length === 0) return Int32Array.of();
  const { parent, frame, end } = tree;
  const matched = new Int32Array(tree.nodeCount);
  for (let i = 1; i < tree.nodeCount; ) {
    const k = matched[parent[i]];
    const f = frame[i];
    if (frames.flags[f] & MERGED) {
      matched[i] = k;
      i++;
    } else if (frames.strings[frames.name[f]] !== want[k]) {
      i = end[i];
    } else if (k + 1 === want.length) {
      out.push(i);
      i = end[i];
    } else {
      matched[i] = k + 1;
      i++;
    }
  }
  return Int32Array.from(out);
}

function groupFrame(frames: FrameTable, group: GroupKind, name: string): number {
  const g = frameGroups(frames);
  return (group === 'lib' ? g.libFrame : g.nsFrame).get(name) ?? -1;
}

/** Only the frames of one library or namespace: every other frame merged into its caller. */
export function focusGroup(tree: CallTree, frames: FrameTable, group: GroupKind, name: string): DerivedTree {
  const target = groupFrame(frames, group, name);
  const groups = nodeGroups(tree, frames, group);
  const up = new Uint8Array(tree.nodeCount);
  let any = false;
  for (let i = 1; i < tree.nodeCount; i++) {
    if (groups[i] !== target || target < 0) up[i] = 1;
    any ||= up[i] === 1;
  }
  return any ? mergeIntoParents(tree, frames, up) : identityResult(tree);
}

/** Each run of consecutive frames of the group becomes one node of the group's frame. */
export function collapseGroup(tree: CallTree, frames: FrameTable, group: GroupKind, name: string): DerivedTree {
  const target = groupFrame(frames, group, name);
  if (target < 0) return identityResult(tree);
  const groups = nodeGroups(tree, frames, group);
  const { parent, frame } = tree;
  const up = new Uint8Array(tree.nodeCount);
  let renamed: Int32Array | null = null;
  let any = false;
  for (let i = 1; i < tree.nodeCount; i++) {
    if (groups[i] !== target) continue;
    const p = parent[i];
    if (p > 0 && groups[p] === target) {
      up[i] = 1;
      any = true;
    } else if (frame[i] !== target) {
      renamed ??= frame.slice();
      renamed[i] = target;
    }
  }
  if (!any && !renamed) return identityResult(tree);
  // Renamed run heads leave siblings unsorted (two heads may now be one frame): the derived
  // builder sorts and merges the child lists of such an input.
  return mergeIntoParents(renamed ? { ...tree, frame: renamed } : tree, frames, up);
}

/** The callees of every frame marked in `mask` merged into it (its subtree becomes one node). */
export function collapseSubtrees(tree: CallTree, frames: FrameTable, mask: Uint8Array): DerivedTree {
  const { frame, end } = tree;
  const up = new Uint8Array(tree.nodeCount);
  let any = false;
  for (let i = 1; i < tree.nodeCount; ) {
    if (mask[frame[i]] && end[i] > i + 1) {
      up.fill(1, i + 1, end[i]);
      any = true;
      i = end[i];
    } else {
      i++;
    }
  }
  return any ? mergeIntoParents(tree, frames, up) : identityResult(tree);
}

/**
 * Every sample whose stack holds a frame marked in `mask` removed: those nodes and their
 * subtrees go, their callers lose that weight, and a caller left without weight or samples goes
 * too. The kept nodes keep their order (no merging), so the result is a compaction of the input.
 */
export function dropSamples(tree: CallTree, mask: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  const { parent, frame, end, depth, selfWeight, selfSamples } = tree;
  const gone = new Uint8Array(n);
  let any = false;
  for (let i = 1; i < n; ) {
    if (mask[frame[i]]) {
      gone.fill(1, i, end[i]);
      any = true;
      i = end[i];
    } else {
      i++;
    }
  }
  if (!any) return identityResult(tree);
  const weight = new Float64Array(n);
  const samples = new Float64Array(n);
  for (let i = n - 1; i > 0; i--) {
    if (gone[i]) continue;
    weight[i] += selfWeight[i];
    samples[i] += selfSamples[i];
    weight[parent[i]] += weight[i];
    samples[parent[i]] += samples[i];
  }
  const toNew = new Int32Array(n).fill(-1);
  let count = 1;
  toNew[0] = 0;
  for (let i = 1; i < n; i++) if (!gone[i] && (weight[i] > 0 || samples[i] > 0)) toNew[i] = count++;
  const cols = newTreeColumns(count);
  let maxDepth = 0;
  cols.parent[0] = -1;
  cols.frame[0] = frame[0];
  cols.selfWeight[0] = selfWeight[0];
  cols.selfSamples[0] = selfSamples[0];
  for (let i = 1; i < n; i++) {
    const j = toNew[i];
    if (j < 0) continue;
    cols.parent[j] = toNew[parent[i]];
    cols.frame[j] = frame[i];
    cols.depth[j] = depth[i];
    if (depth[i] > maxDepth) maxDepth = depth[i];
    cols.selfWeight[j] = selfWeight[i];
    cols.selfSamples[j] = selfSamples[i];
  }
  fillTotalsAndEnds(count, cols.parent, cols.selfWeight, cols.selfSamples, cols.totalWeight, cols.totalSamples, cols.end);
  return { tree: { nodeCount: count, maxDepth, ...cols }, toNew };
}

/**
 * Any recursion of the marked frames (one function name): a marked node inside another maps onto
 * the outermost one, so its callees hang there and the frames in between keep only what they
 * did outside it (a frame left with no weight and no samples goes).
 */
export function collapseAnyRecursion(tree: CallTree, frames: FrameTable, mask: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  const { parent, frame, end, selfWeight, selfSamples } = tree;
  // jump[i]: the outermost marked node that node i maps onto, or 0.
  const jump = new Int32Array(n);
  let any = false;
  for (let i = 1, outer = -1; i < n; i++) {
    if (outer >= 0 && i >= end[outer]) outer = -1;
    if (!mask[frame[i]]) continue;
    if (outer < 0) outer = i;
    else {
      jump[i] = outer;
      any = true;
    }
  }
  if (!any) return identityResult(tree);
  // What each node ends up with: its self and what its children keep; a jumping node's goes to
  // the node it jumps to (an ancestor, so later in this backward walk).
  const weight = new Float64Array(n);
  const samples = new Float64Array(n);
  for (let i = n - 1; i > 0; i--) {
    weight[i] += selfWeight[i];
    samples[i] += selfSamples[i];
    const to = jump[i] !== 0 ? jump[i] : parent[i];
    weight[to] += weight[i];
    samples[to] += samples[i];
  }
  const builder = new TreeBuilder(n);
  const mapped = new Int32Array(n);
  builder.addSelf(0, selfWeight[0], selfSamples[0]);
  for (let i = 1; i < n; i++) {
    if (jump[i] !== 0) mapped[i] = mapped[jump[i]];
    else if (weight[i] > 0 || samples[i] > 0) mapped[i] = builder.child(mapped[parent[i]], frame[i]);
    else {
      mapped[i] = -1;
      continue;
    }
    builder.addSelf(mapped[i], selfWeight[i], selfSamples[i]);
  }
  return finishDerived(builder, frames, mapped);
}

function touches(tree: CallTree, mask: Uint8Array): boolean {
  for (let i = 1; i < tree.nodeCount; i++) if (mask[tree.frame[i]]) return true;
  return false;
}

function identityResult(tree: CallTree): DerivedTree {
  const toNew = new Int32Array(tree.nodeCount);
  for (let i = 0; i < toNew.length; i++) toNew[i] = i;
  return { tree, toNew };
}

function emptyTree(tree: CallTree, frames: FrameTable): DerivedTree {
  return finishDerived(new TreeBuilder(), frames, new Int32Array(tree.nodeCount).fill(-1));
}

// A few lists per (tree, frames): the last steps of the transform stack.
const chains = new Memo<DerivedTree>({ maxPrimitives: 8 });

/**
 * Applies a list of transforms in order; `toNew` maps the input's nodes to the final tree's
 * (-1 when dropped on the way). Memoised per (tree, frames, encoded list), a few lists per tree,
 * so undo/redo of the last step is instant.
 */
export function applyTransforms(tree: CallTree, frames: FrameTable, list: readonly Transform[]): DerivedTree {
  if (list.length === 0) return identityResult(tree);
  const key = encodeTransforms(list);
  const hit = chains.peek([tree, frames, key]);
  if (hit) return hit;
  // Reuse the longest memoised prefix (the usual case: one transform pushed on the stack).
  let result = identityResult(tree);
  let start = 0;
  for (let k = list.length - 1; k > 0; k--) {
    const prefix = chains.peek([tree, frames, encodeTransforms(list.slice(0, k))]);
    if (prefix) {
      result = prefix;
      start = k;
      break;
    }
  }
  for (let k = start; k < list.length; k++) {
    const step = applyTransform(result.tree, frames, list[k]);
    const toNew = new Int32Array(tree.nodeCount);
    for (let i = 0; i < toNew.length; i++) toNew[i] = result.toNew[i] < 0 ? -1 : step.toNew[result.toNew[i]];
    result = { tree: step.tree, toNew };
    const done = result;
    if (k < list.length - 1) chains.get([tree, frames, encodeTransforms(list.slice(0, k + 1))], () => done);
  }
  const done = result;
  return chains.get([tree, frames, key], () => done);
}
