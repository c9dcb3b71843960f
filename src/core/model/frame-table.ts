// The frame table: one row per distinct (name, flags) pair.
//
//   frame │ name (StringIndex) │ module (StringIndex | -1) │ flags (INLINED|KERNEL|JIT)
//   ──────┼────────────────────┼───────────────────────────┼───────────────────────────
//     0   │ "toyc"             │ -1                        │ 0
//     1   │ "main"             │ "/build/rust/toyc"        │ 0
//     2   │ "main"             │ -1                        │ INLINED   ← a different frame
//
// Invariants: a frame's identity is its name and flags (as `b` and `b_[i]` are distinct in
// folded text); the module is informational and is the one given by the first call that named
// one (a module or -1, "none"; a call without the argument leaves it open), so a name that
// occurs in two modules stays one frame, as it does in folded output. First-given, not first
// non-empty, so that tables built from parts of an input merge to the table of the whole
// (../parallel/merge.ts): the merge takes each frame's module from the first part that gave one.

import { markMutable } from './mutable-fields';
import { StringTable } from './string-table';
import { FrameFlags, type FrameIndex, type StringIndex } from './types';

export interface FrameTable {
  readonly count: number;
  readonly name: Int32Array;
  readonly module: Int32Array;
  readonly flags: Uint8Array;
  /** The string table the name and module columns point into. */
  readonly strings: readonly string[];
}

export class FrameTableBuilder {
  readonly strings: StringTable;
  private name = new Int32Array(1024);
  private module = new Int32Array(1024);
  private flags = new Uint8Array(1024);
  // 1 once a call gave the frame's module (see the module comment).
  private known = new Uint8Array(1024);
  private count = 0;
  // Key: name index * 16 + flags. Flags use 4 bits, so the key is exact below 2^49 names.
  private readonly byKey = new Map<number, FrameIndex>();

  constructor(strings: StringTable = new StringTable()) {
    this.strings = strings;
    // Replaced when they grow: variable fields from the start (see mutable-fields.ts).
    markMutable(this, ['name', 'module', 'flags', 'known']);
  }

  /** The frame for this name and flags, created on first use. */
  intern(name: string, flags: number, module?: string): FrameIndex {
    return this.internIndex(this.strings.intern(name), flags, module === undefined ? undefined : this.strings.intern(module));
  }

  /** `module` undefined: this call does not know the module (-1 says there is none). */
  internIndex(name: StringIndex, flags: number, module?: StringIndex | -1): FrameIndex {
    const key = name * 16 + flags;
    let frame = this.byKey.get(key);
    if (frame === undefined) {
      frame = this.count++;
      if (frame === this.name.length) this.grow();
      this.name[frame] = name;
      this.module[frame] = module ?? -1;
      this.flags[frame] = flags;
      this.known[frame] = module === undefined ? 0 : 1;
      this.byKey.set(key, frame);
    } else if (module !== undefined && this.known[frame] === 0) {
      this.module[frame] = module;
      this.known[frame] = 1;
    }
    return frame;
  }

  get size(): number {
    return this.count;
  }

  nameOf(frame: FrameIndex): string {
    return this.strings.get(this.name[frame]);
  }

  nameIndex(frame: FrameIndex): StringIndex {
    return this.name[frame];
  }

  moduleOf(frame: FrameIndex): StringIndex | -1 {
    return this.module[frame];
  }

  flagsOf(frame: FrameIndex): number {
    return this.flags[frame];
  }

  finish(): FrameTable {
    // A FOLDED frame made by folding a run (perf-runs.ts foldRuns) is not given a module: it takes
    // its physical twin's, known by now. Deciding it here rather than when it is folded keeps it
    // the same when a recording is read in parts (../parallel/merge.ts), whose twins may have met
    // another module first.
    for (let f = 0; f < this.count; f++) {
      if (this.known[f] === 1 || !(this.flags[f] & FrameFlags.FOLDED)) continue;
      const twin = this.byKey.get(this.name[f] * 16 + (this.flags[f] & ~FrameFlags.FOLDED));
      if (twin !== undefined) this.module[f] = this.module[twin];
    }
    return {
      count: this.count,
      name: this.name.slice(0, this.count),
      module: this.module.slice(0, this.count),
      flags: this.flags.slice(0, this.count),
      strings: this.strings.strings,
    };
  }

  /** Per frame, 1 when a call gave its module (what a merge of parts needs beside finish()). */
  moduleKnown(): Uint8Array {
    return this.known.slice(0, this.count);
  }

  private grow(): void {
    const size = this.name.length * 2;
    const name = new Int32Array(size);
    name.set(this.name);
    const module = new Int32Array(size);
    module.set(this.module);
    const flags = new Uint8Array(size);
    flags.set(this.flags);
    const known = new Uint8Array(size);
    known.set(this.known);
    this.known = known;
    this.name = name;
    this.module = module;
    this.flags = flags;
  }
}

export function frameName(frames: FrameTable, frame: FrameIndex): string {
  return frames.strings[frames.name[frame]];
}

export function frameModule(frames: FrameTable, frame: FrameIndex): string | null {
  const m = frames.module[frame];
  return m < 0 ? null : frames.strings[m];
}
