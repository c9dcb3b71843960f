// pprof export: a recording as Google's profile.proto (github.com/google/pprof/proto/profile.proto),
// the interchange `go tool pprof`, Pyroscope and Parca read. The bytes are not compressed here
// (the core has no zlib): the CLI gzips them with node:zlib, the page with CompressionStream, and
// `.pb.gz` is what pprof expects.
//
// Decisions and invariants:
// - One sample record per node of the inline-frame tree with self weight, its stack leaf first.
//   A physical frame and the inlined frames perf printed above it (FrameFlags.INLINED, and FOLDED
//   lines of a function inlined into itself) are one Location whose lines run innermost first, as
//   pprof's own inline chains do; so pprof's function view (the last line of each location) is
//   flameview's function view, and the inline-frame view is every line. A FOLDED line reads back
//   as an inlined one: the function view is the same, the inline view marks it `_[i]`. The
//   physical line takes the function view's name (Profile.functionFrames: the ELF symbol's where
//   perf printed a short DWARF name), so one function has one name in pprof too; the inline view
//   read back shows that name for the physical frame.
// - Two sample types: `samples/count` and the weight, `EVENT/nanoseconds` for time weights
//   (cpu-clock, Chrome profiles), else `EVENT/count` (EVENT is the recording's event, or
//   `weight`); default_sample_type is the weight, which is what flameview's importer and pprof
//   show by default. Weights are int64 on the wire: a fraction is rounded to the nearest integer.
// - One Mapping per module, marked symbolized (has_functions …) so pprof never tries to
//   symbolize; kernel frames get a `[kernel…]` mapping and JIT frames `[jit]`, which is how
//   flameview's importer and pprof's own tools recognise them. Locations carry no address (the
//   model keeps none yet).
// - The process and thread frames perf puts at the root are ordinary outermost functions: pprof
//   has no synthetic root.

import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { ProfileMeta } from '../model/profile';
import { FrameFlags, type FrameIndex } from '../model/types';

export interface PprofInput {
  frames: FrameTable;
  /** The inline-frame view (every frame). */
  tree: CallTree;
  /** Profile.functionFrames: a physical frame's line is named as the function view shows it. */
  functionFrames?: Int32Array | null;
  meta: Pick<ProfileMeta, 'event' | 'weightUnit'>;
}

/** The lines of one location share it: an inlined (or folded) frame continues the one above it. */
const CONTINUES = FrameFlags.INLINED | FrameFlags.FOLDED;

export function toPprof({ frames, tree, functionFrames, meta }: PprofInput): Uint8Array {
  const strings = new Map<string, number>([['', 0]]);
  const str = (s: string): number => {
    let i = strings.get(s);
    if (i === undefined) strings.set(s, (i = strings.size));
    return i;
  };
  const samplesType = [str('samples'), str('count')];
  const event = meta.event && meta.event !== 'samples' ? meta.event : 'weight';
  const weightType = [str(event), str(meta.weightUnit === 'nanoseconds' ? 'nanoseconds' : 'count')];

  const out = new BinaryWriter();
  for (const [type, unit] of [samplesType, weightType]) out.tag(1, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int64(type).tag(2, WireType.Varint).int64(unit).join();

  // Function id per frame name, mapping id per module, location id per run of frames.
  const functionIds = new Map<string, number>();
  const functionOf = (frame: FrameIndex): number => {
    const name = frames.strings[frames.name[frame]];
    let id = functionIds.get(name);
    if (id === undefined) functionIds.set(name, (id = functionIds.size + 1));
    return id;
  };
  const mappingIds = new Map<string, number>();
  const mappingOf = (frame: FrameIndex): number => {
    const m = frames.module[frame];
    let file = m < 0 ? '' : frames.strings[m];
    if (frames.flags[frame] & FrameFlags.KERNEL && !file.startsWith('[kernel')) file = '[kernel.kallsyms]';
    else if (frames.flags[frame] & FrameFlags.JIT && file !== '[jit]' && !/(^|\/)perf-\d+\.map$/.test(file)) file = '[jit]';
    if (file === '') return 0;
    let id = mappingIds.get(file);
    if (id === undefined) mappingIds.set(file, (id = mappingIds.size + 1));
    return id;
  };
  const locationIds = new Map<string, number>();
  const locations: Array<{ mapping: number; functions: number[] }> = [];
  const locationOf = (run: FrameIndex[]): number => {
    const key = run.join(',');
    let id = locationIds.get(key);
    if (id === undefined) {
      locationIds.set(key, (id = locations.length + 1));
      // Innermost first on the wire: the run is outermost (the physical frame) first, and named as
      // the function view names it (one name per function: pprof's function view is that line).
      const lines = run.map((f, k) => functionOf(k === 0 && functionFrames ? functionFrames[f] : f));
      locations.push({ mapping: mappingOf(run[0]), functions: lines.reverse() });
    }
    return id;
  };

  // Depth-first over the tree, the path's location ids kept per depth: a node either starts a
  // location (a physical frame) or continues its parent's, which then ends one line lower.
  const runStart = new Int32Array(tree.maxDepth + 2); // depth at which the run holding this depth began
  const path = new Int32Array(tree.maxDepth + 2); // frame per depth
  const stack: number[] = [];
  for (let n = 1; n < tree.nodeCount; n++) {
    const d = tree.depth[n];
    const f = tree.frame[n];
    path[d] = f;
    runStart[d] = d > 1 && frames.flags[f] & CONTINUES ? runStart[d - 1] : d;
    const samples = tree.selfSamples[n];
    const weight = Math.round(tree.selfWeight[n]);
    if (weight === 0 && samples === 0) continue;
    // Locations leaf first: walk the runs from this depth up to depth 1.
    stack.length = 0;
    for (let end = d; end >= 1; ) {
      const start = runStart[end];
      stack.push(locationOf(Array.from(path.subarray(start, end + 1))));
      end = start - 1;
    }
    const s = out.tag(2, WireType.LengthDelimited).fork();
    s.tag(1, WireType.LengthDelimited).fork();
    for (const id of stack) s.uint64(id);
    s.join();
    s.tag(2, WireType.LengthDelimited).fork().int64(samples).int64(weight).join();
    s.join();
  }

  for (const [file, id] of mappingIds) {
    out.tag(3, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(id).tag(5, WireType.Varint).int64(str(file));
    // has_functions, has_filenames, has_line_numbers, has_inline_frames: nothing left to symbolize.
    for (const field of [7, 8, 9, 10]) out.tag(field, WireType.Varint).bool(true);
    out.join();
  }
  locations.forEach((loc, i) => {
    out.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(i + 1);
    if (loc.mapping) out.tag(2, WireType.Varint).uint64(loc.mapping);
    for (const fn of loc.functions) out.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(fn).join();
    out.join();
  });
  for (const [name, id] of functionIds) {
    const s = str(name);
    out.tag(5, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(id).tag(2, WireType.Varint).int64(s).tag(3, WireType.Varint).int64(s).join();
  }
  // The string table last: every index above is known by now (the wire order is free).
  for (const s of strings.keys()) out.tag(6, WireType.LengthDelimited).string(s);
  out.tag(11, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int64(weightType[0]).tag(2, WireType.Varint).int64(weightType[1]).join();
  out.tag(14, WireType.Varint).int64(weightType[0]);
  return out.finish();
}
