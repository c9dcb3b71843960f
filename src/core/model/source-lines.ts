// Source lines of a recording, kept beside the call tree without growing it: a frame's identity
// stays its name and flags, and the line each sample was at in each of its frames lives in a
// side tree, the LINE TREE.
//
//   locations  │ file (StringIndex) │ line          located │ frame │ location (-1: unknown)
//   ───────────┼────────────────────┼──────         ────────┼───────┼──────────
//       0      │ "t.c"              │ 3                 0   │ main  │ 1
//       1      │ "t.c"              │ 4                 1   │ work  │ 0
//
//   line tree: a CallTree whose frames are LOCATED ids (a frame at one location), and per node
//   its node in Profile.tree (`node`), the inline-frame call tree:
//
//     all ─ tc ─ main@t.c:4 ─ work@t.c:3        all ─ tc ─ main ─ work     (Profile.tree)
//                         └─ work@t.c:2
//
// Invariants:
// - every line-tree node projects onto one node of Profile.tree: node[parent[ln]] is the parent
//   of node[ln], and the frame of node[ln] is locatedFrame[frame[ln]]; several line-tree nodes
//   may project onto one tree node (one per distinct path of locations), never the other way;
// - a sample's leaf weight is in the line tree at the line-tree node of its whole located path, so
//   the line tree's self weights summed by `node` are the tree's self weights, for the samples
//   that carried lines (`coverage` says how much of the tree's weight that is);
// - unknown locations (perf's `??:0`, `:0`, `dso[addr]`, a frame printed without a source line)
//   are location -1; line numbers are 1-based, 0 for a known file without a line;
// - file names are indices into the profile's string table (frames.strings).
// The line tree is in depth-first order with siblings sorted like the tree's, then by location,
// so a walk with a stack of the open path visits each sample's located frames in order: what
// per-line totals with recursion counted once need (../query/source-lines.ts).

import type { CallTree } from './call-tree';
import type { FrameTable } from './frame-table';
import { markMutable } from './mutable-fields';
import type { StringTable } from './string-table';
import { TreeBuilder } from './tree-builder';
import type { FrameIndex, NodeIndex } from './types';
import { grown } from './grown';

export interface SourceLocations {
  readonly count: number;
  /** String index of the file name, as the recording names it (a path or a base name). */
  readonly file: Int32Array;
  /** 1-based line number; 0: the file is known, the line not (DWARF's line 0). */
  readonly line: Int32Array;
}

export interface SourceLines {
  readonly locations: SourceLocations;
  /** Per located id, its frame (Profile.frames) and its location (-1: unknown). */
  readonly locatedFrame: Int32Array;
  readonly locatedLocation: Int32Array;
  /** The line tree: a call tree over located ids, depth-first. */
  readonly tree: CallTree;
  /** Per line-tree node, its node in Profile.tree (the inline-frame view). */
  readonly node: Int32Array;
}

/** The unknown location. */
export const NO_LOCATION = -1;


export class SourceLinesBuilder {
  readonly tree = new TreeBuilder();
  private readonly byLocation = new Map<string, number>();
  private file = new Int32Array(256);
  private line = new Int32Array(256);
  private locationCount = 0;
  // Located ids by (frame, location): open addressing over typed arrays, slots [frame, location + 1,
  // id + 1] (0 = empty): a Map with such keys hashed doubles, measured at 5 % of a srcline load.
  private slots = new Int32Array(3 * 1024);
  private mask = 1023;
  private locatedFrame = new Int32Array(1024);
  private locatedLocation = new Int32Array(1024);
  private locatedCount = 0;
  // Per line-tree builder node, its node in the caller's TreeBuilder.
  private plain = new Int32Array(1024);

  constructor(private readonly strings: StringTable) {
    markMutable(this, ['file', 'line', 'locatedFrame', 'locatedLocation', 'plain', 'slots', 'mask']);
  }

  /**
   * The location of `file`:`line`, or NO_LOCATION when the file is unknown (`??`, empty) or the
   * line is not a number ≥ 0. Line 0 is a known file without a line (DWARF's line 0).
   */
  location(file: string, line: number): number {
    if (file === '' || file === '??' || !(line >= 0) || !Number.isSafeInteger(line) || line > 0x7fffffff) return NO_LOCATION;
    const key = `${line}:${file}`;
    let id = this.byLocation.get(key);
    if (id === undefined) {
      id = this.locationCount++;
      if (id === this.file.length) {
        this.file = grown(this.file, id * 2);
        this.line = grown(this.line, id * 2);
      }
      this.file[id] = this.strings.intern(file);
      this.line[id] = line;
      this.byLocation.set(key, id);
    }
    return id;
  }

  get locations(): number {
    return this.locationCount;
  }

  /** The located id of `frame` at `location`. */
  located(frame: FrameIndex, location: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const l = location + 1;
    let slot = hashPair(frame, l) & mask;
    for (; ; slot = (slot + 1) & mask) {
      const stored = slots[3 * slot + 2];
      if (stored === 0) break;
      if (slots[3 * slot] === frame && slots[3 * slot + 1] === l) return stored - 1;
    }
    const id = this.locatedCount++;
    if (id === this.locatedFrame.length) {
      this.locatedFrame = grown(this.locatedFrame, id * 2);
      this.locatedLocation = grown(this.locatedLocation, id * 2);
    }
    this.locatedFrame[id] = frame;
    this.locatedLocation[id] = location;
    slots[3 * slot] = frame;
    slots[3 * slot + 1] = l;
    slots[3 * slot + 2] = id + 1;
    if (this.locatedCount * 2 > mask) this.rehash();
    return id;
  }

  private rehash(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(3 * size);
    const mask = size - 1;
    for (let s = 0; s < old.length; s += 3) {
      if (old[s + 2] === 0) continue;
      let slot = hashPair(old[s], old[s + 1]) & mask;
      while (slots[3 * slot + 2] !== 0) slot = (slot + 1) & mask;
      slots[3 * slot] = old[s];
      slots[3 * slot + 1] = old[s + 1];
      slots[3 * slot + 2] = old[s + 2];
    }
    this.slots = slots;
    this.mask = mask;
  }

  /** The child of line-tree node `parent` for `frame` at `location`; `plain` is its node in the caller's tree. */
  child(parent: NodeIndex, frame: FrameIndex, location: number, plain: NodeIndex): NodeIndex {
    const before = this.tree.nodeCount;
    const node = this.tree.child(parent, this.located(frame, location));
    if (node === before) {
      if (node >= this.plain.length) this.plain = grown(this.plain, node * 2);
      this.plain[node] = plain;
    }
    return node;
  }

  /** Adds a whole stack, root first: frames, their locations and their nodes in the caller's tree. */
  addStack(frames: ArrayLike<FrameIndex>, locations: ArrayLike<number>, plain: ArrayLike<NodeIndex>, length: number, weight: number, samples: number): NodeIndex {
    let node: NodeIndex = 0;
    for (let i = 0; i < length; i++) node = this.child(node, frames[i], locations[i], plain[i]);
    this.tree.addSelf(node, weight, samples);
    return node;
  }

  addSelf(node: NodeIndex, weight: number, samples: number): void {
    this.tree.addSelf(node, weight, samples);
  }

  /** Freezes; `order` is the caller's TreeBuilder.finish order (its builder node → tree node). */
  finish(frames: FrameTable, order: Int32Array): SourceLines {
    return this.finishOrdered(frames, order).lines;
  }

  /** As finish(), with the line tree's own order (builder node → line-tree node: what a sample column's line nodes go through). */
  finishOrdered(frames: FrameTable, order: Int32Array): { lines: SourceLines; order: Int32Array } {
    const count = this.locatedCount;
    const locatedFrame = this.locatedFrame.slice(0, count);
    const locatedLocation = this.locatedLocation.slice(0, count);
    const { tree, order: lineOrder } = this.tree.finish(locatedTable(frames, locatedFrame));
    const node = new Int32Array(tree.nodeCount);
    for (let b = 1; b < tree.nodeCount; b++) node[lineOrder[b]] = order[this.plain[b]];
    const lines = {
      locations: { count: this.locationCount, file: this.file.slice(0, this.locationCount), line: this.line.slice(0, this.locationCount) },
      locatedFrame,
      locatedLocation,
      tree,
      node,
    };
    return { lines, order: lineOrder };
  }
}

/**
 * The located ids as a frame table for TreeBuilder.finish, which ranks siblings by (name, flags)
 * then index: the line tree's sibling order, the frames' (name, flags), then the located id.
 */
export function locatedTable(frames: FrameTable, locatedFrame: ArrayLike<number>): FrameTable {
  const count = locatedFrame.length;
  const name = new Int32Array(count);
  const flags = new Uint8Array(count);
  for (let k = 0; k < count; k++) {
    name[k] = frames.name[locatedFrame[k]];
    flags[k] = frames.flags[locatedFrame[k]];
  }
  return { count, name, module: new Int32Array(count).fill(-1), flags, strings: frames.strings };
}

/** `file:line` of a location, or null when it is unknown. */
export function locationText(lines: SourceLines, strings: readonly string[], location: number): string | null {
  if (location < 0) return null;
  return `${strings[lines.locations.file[location]]}:${lines.locations.line[location]}`;
}

function hashPair(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}
