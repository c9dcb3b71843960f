// Libraries and namespaces: the groups of frames that the "focus on library" and "collapse
// library" transforms work on.
//
//   group │ what a frame belongs to                          │ e.g.
//   ──────┼──────────────────────────────────────────────────┼─────────────────────────────────
//   lib   │ its module's file name (perf: the DSO in the      │ libc.so.6, [kernel.kallsyms],
//         │ line's parentheses; pprof: the mapping's file;    │ toyc, loader, react-dom
//         │ Chrome/Node: the script URL's last part, or the   │
//         │ npm package under node_modules/)                  │
//   ns    │ the first `ident::` of its name (a leading `<` of │ std::, core::, toyc::
//         │ a Rust qualified path skipped)                    │
//
// Folded stacks carry no modules, so there only namespaces group frames. perf keeps no module
// on an inlined frame (the same function is inlined into several DSOs): a node of an inlined or
// folded frame belongs to the library of the physical frame that contains it (nodeGroups).
//
// Invariants: withGroupFrames appends, once per distinct group name, a frame flagged GROUP
// named after the group (so a collapsed run of frames can be one frame of the shared table, and
// every index of the input table keeps its meaning); it is idempotent and memoised per table.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { FrameFlags, type FrameIndex } from '../model/types';

export type GroupKind = 'lib' | 'ns';

/** The library of a module path or URL: its file name, or its npm package. */
export function libraryName(module: string): string {
  const path = module.replace(/[?#].*$/, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const [scope, name] = path.slice(nm + 'node_modules/'.length).split('/');
    if (scope) return scope.startsWith('@') && name ? `${scope}/${name}` : scope;
  }
  const slash = path.lastIndexOf('/');
  const base = slash >= 0 && slash < path.length - 1 ? path.slice(slash + 1) : path;
  return base === '' ? module : base;
}

const NAMESPACE = /^<?([A-Za-z_][A-Za-z0-9_]*)::/;

/** The namespace of a function name (`std::vector<int>::push_back` → `std::`), or null. */
export function namespaceOf(name: string): string | null {
  const m = NAMESPACE.exec(name);
  return m ? `${m[1]}::` : null;
}

export interface FrameGroups {
  /** Per frame: the GROUP frame of its library / namespace, or -1. */
  lib: Int32Array;
  ns: Int32Array;
  /** Group name → its GROUP frame. */
  libFrame: Map<string, FrameIndex>;
  nsFrame: Map<string, FrameIndex>;
}

const extended = new WeakMap<FrameTable, FrameTable>();

/** The table with a GROUP frame appended for every library and namespace its frames belong to. */
export function withGroupFrames(frames: FrameTable): FrameTable {
  for (let f = 0; f < frames.count; f++) if (frames.flags[f] & FrameFlags.GROUP) return frames;
  let out = extended.get(frames);
  if (out) return out;
  const names = new Set<string>();
  for (let f = 0; f < frames.count; f++) {
    const m = frames.module[f];
    if (m >= 0) names.add(libraryName(frames.strings[m]));
    const ns = namespaceOf(frames.strings[frames.name[f]]);
    if (ns !== null) names.add(ns);
  }
  const strings = frames.strings.slice();
  const byString = new Map<string, number>();
  const count = frames.count + names.size;
  const name = new Int32Array(count);
  name.set(frames.name);
  const module = new Int32Array(count).fill(-1);
  module.set(frames.module);
  const flags = new Uint8Array(count);
  flags.set(frames.flags);
  let f = frames.count;
  for (const n of names) {
    let s = byString.get(n);
    if (s === undefined) byString.set(n, (s = strings.push(n) - 1));
    name[f] = s;
    flags[f++] = FrameFlags.GROUP;
  }
  out = { count, name, module, flags, strings };
  extended.set(frames, out);
  return out;
}

const groupsCache = new WeakMap<FrameTable, FrameGroups>();

/** Each frame's library and namespace as GROUP frames of the table (none when it has no GROUP frames). */
export function frameGroups(frames: FrameTable): FrameGroups {
  let g = groupsCache.get(frames);
  if (g) return g;
  const libFrame = new Map<string, FrameIndex>();
  const nsFrame = new Map<string, FrameIndex>();
  for (let f = 0; f < frames.count; f++) {
    if (!(frames.flags[f] & FrameFlags.GROUP)) continue;
    const n = frames.strings[frames.name[f]];
    // A name such as `std::` is a namespace; every other group name is a library.
    if (namespaceOf(n) === n) nsFrame.set(n, f);
    else libFrame.set(n, f);
  }
  const lib = new Int32Array(frames.count).fill(-1);
  const ns = new Int32Array(frames.count).fill(-1);
  for (let f = 0; f < frames.count; f++) {
    if (frames.flags[f] & FrameFlags.GROUP) {
      // A group's frame (a collapsed run) belongs to its own group.
      if (nsFrame.get(frames.strings[frames.name[f]]) === f) ns[f] = f;
      else lib[f] = f;
      continue;
    }
    const m = frames.module[f];
    if (m >= 0) lib[f] = libFrame.get(libraryName(frames.strings[m])) ?? -1;
    const name = namespaceOf(frames.strings[frames.name[f]]);
    if (name !== null) ns[f] = nsFrame.get(name) ?? -1;
  }
  groupsCache.set(frames, (g = { lib, ns, libFrame, nsFrame }));
  return g;
}

/**
 * Per node, the GROUP frame of its library or namespace, or -1. A node of an inlined or folded
 * frame without a library of its own takes its parent's (the physical frame containing it).
 */
export function nodeGroups(tree: CallTree, frames: FrameTable, kind: GroupKind): Int32Array {
  const g = frameGroups(frames);
  const byFrame = kind === 'lib' ? g.lib : g.ns;
  const out = new Int32Array(tree.nodeCount).fill(-1);
  const { parent, frame } = tree;
  for (let i = 1; i < tree.nodeCount; i++) {
    const f = frame[i];
    let v = byFrame[f];
    if (v < 0 && kind === 'lib' && frames.flags[f] & (FrameFlags.INLINED | FrameFlags.FOLDED)) v = out[parent[i]];
    out[i] = v;
  }
  return out;
}

/** A frame's library and namespace names (a GROUP frame is in its own group), for menus. */
export function frameGroupNames(frames: FrameTable, f: FrameIndex): { lib: string | null; ns: string | null } {
  const name = frames.strings[frames.name[f]];
  const ns = namespaceOf(name);
  if (frames.flags[f] & FrameFlags.GROUP) return ns === name ? { lib: null, ns } : { lib: name, ns: null };
  const m = frames.module[f];
  return { lib: m >= 0 ? libraryName(frames.strings[m]) : null, ns };
}

/** A node's library and namespace names: an inlined frame's library is its container's. */
export function groupNamesOf(tree: CallTree, frames: FrameTable, node: number): { lib: string | null; ns: string | null } {
  if (node <= 0 || node >= tree.nodeCount) return { lib: null, ns: null };
  const own = frameGroupNames(frames, tree.frame[node]);
  let lib = own.lib;
  for (let n = node; lib === null && n > 0 && frames.flags[tree.frame[n]] & (FrameFlags.INLINED | FrameFlags.FOLDED); ) {
    n = tree.parent[n];
    if (n > 0) lib = frameGroupNames(frames, tree.frame[n]).lib;
  }
  return { lib, ns: own.ns };
}
