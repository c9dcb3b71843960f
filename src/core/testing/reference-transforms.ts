// The TreeBuilder implementations of dropFrames, collapseRecursion, calleesTree and reversedTree
// that derived-builder.ts and the grouped reversed.ts replaced (hashed child lookups for every
// node, then finish() re-sorts every child list). Kept as the oracles of the property tests and
// as the "before" of bench/transform-bench.ts --ref. An oracle must not share code with what it
// checks, so nothing here comes from views/ (callers-callees-trees.ts, transforms.ts, frame-groups.ts): the
// small rules those transforms rest on (which frame stands for a function, how a builder's
// indices become the frozen tree's, how a module names its library) are written again below.

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { TreeBuilder } from '../model/tree-builder';
import { FrameFlags, type FrameIndex, type StringIndex } from '../model/types';
import type { PathSegment } from '../views/zoom-path';
import type { DerivedTree } from '../views/callers-callees-trees';
import type { GroupKind } from '../views/frame-groups';

/** The frame a function's tree is rooted at: its first frame neither inlined nor folded, else its first, else -1. */
function rootFrameOf(frames: FrameTable, name: StringIndex): FrameIndex {
  const named = Array.from({ length: frames.count }, (_, f) => f).filter((f) => frames.name[f] === name);
  return named.find((f) => (frames.flags[f] & (FrameFlags.INLINED | FrameFlags.FOLDED)) === 0) ?? named[0] ?? -1;
}

/** The builder frozen, with `mapped` (builder node per input node, or -1) read through finish()'s order. */
function frozen(builder: TreeBuilder, frames: FrameTable, mapped: Int32Array): DerivedTree {
  const { tree, order } = builder.finish(frames);
  return { tree, toNew: mapped.map((m) => (m < 0 ? -1 : order[m])) };
}

/** A module's library: the npm package under node_modules/ (with its @scope), else the file name. */
function libraryOf(module: string): string {
  const path = module.split(/[?#]/)[0];
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  const base = path.split('/').pop() ?? '';
  return base === '' ? module : base;
}

/** A function name's namespace: its first `ident::` (after an opening `<`), or null. */
function namespaceOfName(name: string): string | null {
  const m = /^<?([A-Za-z_]\w*)::/.exec(name);
  return m ? `${m[1]}::` : null;
}

export function refDrop(tree: CallTree, frames: FrameTable, drop: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  const builder = new TreeBuilder(n);
  const mapped = new Int32Array(n);
  builder.addSelf(0, tree.selfWeight[0], tree.selfSamples[0]);
  for (let i = 1; i < n; i++) {
    const f = tree.frame[i];
    const p = mapped[tree.parent[i]];
    const m = drop[f] ? p : builder.child(p, f);
    mapped[i] = m;
    builder.addSelf(m, tree.selfWeight[i], tree.selfSamples[i]);
  }
  return frozen(builder, frames, mapped);
}

export function refCollapse(tree: CallTree, frames: FrameTable, collapse: Uint8Array): DerivedTree {
  const n = tree.nodeCount;
  const { parent, frame } = tree;
  const builder = new TreeBuilder(n);
  const mapped = new Int32Array(n);
  builder.addSelf(0, tree.selfWeight[0], tree.selfSamples[0]);
  for (let i = 1; i < n; i++) {
    const f = frame[i];
    const p = parent[i];
    const m = p > 0 && collapse[f] && frames.name[frame[p]] === frames.name[f] ? mapped[p] : builder.child(mapped[p], f);
    mapped[i] = m;
    builder.addSelf(m, tree.selfWeight[i], tree.selfSamples[i]);
  }
  return frozen(builder, frames, mapped);
}

export function refCallees(tree: CallTree, frames: FrameTable, name: StringIndex): DerivedTree {
  const n = tree.nodeCount;
  const builder = new TreeBuilder(n);
  const mapped = new Int32Array(n).fill(-1);
  const root = rootFrameOf(frames, name);
  if (root >= 0) {
    const fNode = builder.child(0, root);
    let outerEnd = 0;
    for (let i = 1; i < n; i++) {
      if (i >= outerEnd) {
        if (frames.name[tree.frame[i]] !== name) continue;
        outerEnd = tree.end[i];
        mapped[i] = fNode;
      } else {
        mapped[i] = builder.child(mapped[tree.parent[i]], tree.frame[i]);
      }
      builder.addSelf(mapped[i], tree.selfWeight[i], tree.selfSamples[i]);
    }
  }
  return frozen(builder, frames, mapped);
}

export function refReversed(tree: CallTree, frames: FrameTable): CallTree {
  const builder = new TreeBuilder(tree.nodeCount);
  builder.addSelf(0, tree.selfWeight[0], tree.selfSamples[0]);
  for (let i = 1; i < tree.nodeCount; i++) {
    const w = tree.selfWeight[i];
    const s = tree.selfSamples[i];
    if (w === 0 && s === 0) continue;
    let at = 0;
    for (let p = i; p > 0; p = tree.parent[p]) at = builder.child(at, tree.frame[p]);
    builder.addSelf(at, w, s);
  }
  return builder.finish(frames).tree;
}

// Stack-level references of the transforms that frame-groups.ts and the later transforms
// added: each sample's stack (tree-dsl tokens, `name`, `name_[i]`, `name⟨module⟩`) rewritten on
// its own, as the transforms are defined, with none of the tree code. The result is the
// rewritten stacks; compare them to a tree with stacksOfTree.


export interface RefStack {
  tokens: string[];
  weight: number;
}

export interface RefToken {
  name: string;
  inlined: boolean;
  module: string | null;
}

export function parseToken(token: string): RefToken {
  const at = token.endsWith('⟩') ? token.lastIndexOf('⟨') : -1;
  const name = at < 0 ? token : token.slice(0, at);
  const inlined = name.endsWith('_[i]');
  return { name: inlined ? name.slice(0, -4) : name, inlined, module: at < 0 ? null : token.slice(at + 1, -1) };
}

/** A token as dumpTree-like output prints it: the name, `_[i]` when inlined (no module). */
const show = (t: RefToken) => (t.inlined ? `${t.name}_[i]` : t.name);

/** Each token's group (an inlined frame without a module takes the library of the frame above). */
function groupsOfStack(tokens: RefToken[], kind: GroupKind): (string | null)[] {
  const out: (string | null)[] = [];
  tokens.forEach((t, i) => {
    if (kind === 'ns') out.push(namespaceOfName(t.name));
    else if (t.module !== null) out.push(libraryOf(t.module));
    else out.push(t.inlined && i > 0 ? out[i - 1] : null);
  });
  return out;
}

export type RefTransform =
  | { kind: 'subtree'; path: PathSegment[] }
  | { kind: 'focus-group' | 'collapse-group'; group: GroupKind; name: string }
  | { kind: 'drop' | 'collapse' | 'rec'; name: string }
  | { kind: 'pattern'; op: 'focus' | 'drop' | 'merge' | 'collapse'; pattern: string; ignoreCase: boolean };

/** The stacks after one transform; an empty token list is weight left at the root. */
export function refStacks(stacks: RefStack[], t: RefTransform): RefStack[] {
  const out: RefStack[] = [];
  refPaths(stacks, t).forEach((tokens, k) => {
    if (tokens) out.push({ tokens, weight: stacks[k].weight });
  });
  return out;
}

/**
 * Each stack rewritten by one transform, in input order: its tokens (empty: weight left at the
 * root), or null when the transform removes it. Applied to every node's path of a tree, this
 * says where the transformed tree must place that node (its `toNew`).
 */
export function refPaths(stacks: RefStack[], t: RefTransform): (string[] | null)[] {
  const parsed = stacks.map((s) => s.tokens.map(parseToken));
  if (t.kind === 'subtree') {
    const key = (x: { name: string; inlined: boolean }) => `${x.inlined ? 'i' : 'p'}:${x.name}`;
    const want = t.path.map(key);
    const startsExactly = (tokens: RefToken[]) => tokens.length >= want.length && want.every((k, i) => key(tokens[i]) === k);
    const exact = parsed.some(startsExactly);
    const physical = t.path.filter((s) => !s.inlined).map((s) => s.name);
    return parsed.map((tokens) => {
      if (exact) return startsExactly(tokens) ? tokens.slice(want.length - 1).map(show) : null;
      // By physical frames: the first physical token that completes the path.
      let k = 0;
      for (let i = 0; i < tokens.length && physical.length > 0; i++) {
        if (tokens[i].inlined) continue;
        if (tokens[i].name !== physical[k]) break;
        if (++k === physical.length) return tokens.slice(i).map(show);
      }
      return null;
    });
  }
  return parsed.map((tokens) => {
    const names = tokens.map((x) => x.name);
    switch (t.kind) {
      case 'drop':
        return names.includes(t.name) ? null : tokens.map(show);
      case 'collapse': {
        const at = names.indexOf(t.name);
        return (at < 0 ? tokens : tokens.slice(0, at + 1)).map(show);
      }
      case 'rec': {
        const stack: string[] = [];
        let outer = -1;
        for (const x of tokens) {
          if (x.name === t.name && outer >= 0) stack.length = outer + 1;
          else {
            if (x.name === t.name) outer = stack.length;
            stack.push(show(x));
          }
        }
        return stack;
      }
      case 'focus-group': {
        const g = groupsOfStack(tokens, t.group);
        return tokens.filter((_, i) => g[i] === t.name).map(show);
      }
      case 'pattern': {
        // A fresh RegExp per stack and no flag but `i`: each test starts from a clean state.
        const hit = names.map((x) => new RegExp(t.pattern, t.ignoreCase ? 'i' : '').test(x));
        switch (t.op) {
          case 'focus': {
            const at = hit.indexOf(true);
            return at < 0 ? null : tokens.slice(at).map(show);
          }
          case 'drop':
            return hit.includes(true) ? null : tokens.map(show);
          case 'merge':
            return tokens.filter((_, i) => !hit[i]).map(show);
          case 'collapse':
            return tokens.filter((_, i) => !(i > 0 && hit[i] && hit[i - 1])).map(show);
        }
        break;
      }
      case 'collapse-group': {
        const g = groupsOfStack(tokens, t.group);
        const stack: string[] = [];
        tokens.forEach((x, i) => {
          if (g[i] !== t.name) stack.push(show(x));
          else if (i === 0 || g[i - 1] !== t.name) stack.push(t.name);
        });
        return stack;
      }
    }
  });
}

/** `stack weight` lines, sorted and merged, for comparing stacks with stacksOfTree. */
export function foldedLines(stacks: RefStack[]): string[] {
  const sums = new Map<string, number>();
  for (const s of stacks) {
    const key = s.tokens.join(';');
    sums.set(key, (sums.get(key) ?? 0) + s.weight);
  }
  return [...sums].map(([k, w]) => `${k} ${w}`).sort();
}

/**
 * The tokens from the root to `node` (the root itself has none): each frame's name, `_[i]` when
 * inlined, and with `modules` the `⟨module⟩` the frame was given, as a RefStack spells it.
 */
export function pathTokens(tree: CallTree, frames: FrameTable, node: number, modules = false): string[] {
  const tokens: string[] = [];
  for (let m = node; m > 0; m = tree.parent[m]) {
    const f = tree.frame[m];
    const mod = frames.module[f];
    tokens.push(frames.strings[frames.name[f]] + (frames.flags[f] & FrameFlags.INLINED ? '_[i]' : '') + (modules && mod >= 0 ? `⟨${frames.strings[mod]}⟩` : ''));
  }
  return tokens.reverse();
}

/** A tree's stacks (each node's self weight under its path; not the root's), as foldedLines prints them. */
export function stacksOfTree(tree: CallTree, frames: FrameTable): string[] {
  const out: RefStack[] = [];
  for (let n = 1; n < tree.nodeCount; n++) {
    if (tree.selfWeight[n] !== 0) out.push({ tokens: pathTokens(tree, frames, n), weight: tree.selfWeight[n] });
  }
  return foldedLines(out);
}
