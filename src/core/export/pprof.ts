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
//   (cpu-clock, Chrome profiles), else `EVENT/count` (EVENT is the recording's event without
//   perf's modifiers, `cpu-clock` for `cpu-clock/freq=999/`, or `weight`); default_sample_type is
//   the weight, which is what flameview's importer and pprof show by default. Weights are int64
//   on the wire: a fraction is rounded to the nearest integer.
// - Source lines (Profile.lines): a sample that carried lines is written from the line tree, each
//   frame's Line at its line and its Function at (name, file), as pprof's own profiles are; the
//   samples of a node without lines are written beside them without any. A Function is one per
//   (name, file): the unknown location is the same name without a file.
// - One Mapping per module, marked symbolized (has_functions …) so pprof never tries to
//   symbolize; kernel frames get a `[kernel…]` mapping and JIT frames `[jit]`, which is how
//   flameview's importer and pprof's own tools recognise them. The first Mapping is what pprof
//   calls the main binary (`File:` in its reports): the heaviest by the samples whose stack holds
//   it among those pprof itself would take for one (not `[…]`, not a `.so`, not JIT code's
//   `perf-PID.map`), else the heaviest. Locations carry no address: perf's
//   leaf offsets are from a symbol's start, not where it was mapped.
// - The process and thread frames perf puts at the root are ordinary outermost functions: pprof
//   has no synthetic root.

import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { ProfileMeta } from '../model/profile';
import { NO_LOCATION, type SourceLines } from '../model/source-lines';
import { FrameFlags, type FrameIndex, type NodeIndex } from '../model/types';

export interface PprofInput {
  frames: FrameTable;
  /** The inline-frame view (every frame). */
  tree: CallTree;
  /** Profile.functionFrames: a physical frame's line is named as the function view shows it. */
  functionFrames?: Int32Array | null;
  /** Profile.lines: the line each sample was at in each of its frames (Line.line, Function.filename). */
  lines?: SourceLines | null;
  meta: Pick<ProfileMeta, 'event' | 'weightUnit'>;
}

/** The lines of one location share it: an inlined (or folded) frame continues the one above it. */
const CONTINUES = FrameFlags.INLINED | FrameFlags.FOLDED;

/** perf's event terms that set how it sampled, not what: dropped from a sample type's name. */
const SAMPLING_TERMS = new Set(['freq', 'period', 'call-graph', 'stack-size', 'max-stack', 'inherit', 'no-inherit', 'overwrite', 'no-overwrite', 'percore', 'aux-output', 'time', 'max-events', 'branch_type']);

/**
 * A sample type's name for perf's event: without its modifiers (`cycles:u`, `cpu-clock:ppp`) and
 * sampling terms (`cpu-clock/freq=999/`); a PMU's event keeps its name (`cpu_core/cycles/` is
 * `cpu_core/cycles`, `cpu/name=loads,event=0xd0/` is `loads`, raw terms stay); a tracepoint's
 * `sched:sched_switch` is its name whole (its `:` part is no modifier).
 */
export function pprofEventName(event: string): string {
  const pmu = /^([^/]+)\/([^/]*)\/([a-zA-Z]*)$/.exec(event);
  if (pmu) {
    const terms = pmu[2].split(',').filter((t) => t !== '');
    const named = terms.find((t) => t.startsWith('name='));
    if (named) return named.slice('name='.length) || event;
    const rest = terms.filter((t) => !SAMPLING_TERMS.has(t.split('=')[0]));
    return rest.length === 0 ? pmu[1] : `${pmu[1]}/${rest.join(',')}`;
  }
  const bare = event.replace(/:[ukhHGIpPSDWe]+$/, '');
  return bare === '' ? event : bare;
}

export function toPprof({ frames, tree, functionFrames, lines, meta }: PprofInput): Uint8Array {
  const strings = new Map<string, number>([['', 0]]);
  const str = (s: string): number => {
    let i = strings.get(s);
    if (i === undefined) strings.set(s, (i = strings.size));
    return i;
  };
  const samplesType = [str('samples'), str('count')];
  const event = meta.event && meta.event !== 'samples' ? pprofEventName(meta.event) : 'weight';
  const weightType = [str(event), str(meta.weightUnit === 'nanoseconds' ? 'nanoseconds' : 'count')];

  const out = new BinaryWriter();
  for (const [type, unit] of [samplesType, weightType]) out.tag(1, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int64(type).tag(2, WireType.Varint).int64(unit).join();

  // Function id per (name, file), mapping id per module, location id per run of located frames.
  const functionIds = new Map<string, { id: number; name: string; file: string }>();
  const functionOf = (frame: FrameIndex, file: string): number => {
    const name = frames.strings[frames.name[frame]];
    const key = `${name}\n${file}`;
    let fn = functionIds.get(key);
    if (fn === undefined) functionIds.set(key, (fn = { id: functionIds.size + 1, name, file }));
    return fn.id;
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
  // Per mapping id, the weight of the samples whose stack holds it (counted once per sample).
  const mappingWeight: number[] = [];
  const mappingSeen: number[] = [];
  let sampleStamp = 0;
  const locationIds = new Map<string, number>();
  const locations: Array<{ mapping: number; functions: number[]; lines: number[] }> = [];
  // A run of frames (outermost, the physical frame, first) and each one's source location (-1: unknown).
  const locationOf = (run: FrameIndex[], at: number[]): number => {
    const key = `${run.join(',')}/${at.join(',')}`;
    let id = locationIds.get(key);
    if (id === undefined) {
      locationIds.set(key, (id = locations.length + 1));
      // Innermost first on the wire: the run is outermost (the physical frame) first, and named as
      // the function view names it (one name per function: pprof's function view is that line).
      const fns = run.map((f, k) => functionOf(k === 0 && functionFrames ? functionFrames[f] : f, at[k] < 0 ? '' : frames.strings[lines!.locations.file[at[k]]]));
      const nums = at.map((l) => (l < 0 ? 0 : lines!.locations.line[l]));
      locations.push({ mapping: mappingOf(run[0]), functions: fns.reverse(), lines: nums.reverse() });
    }
    return id;
  };

  // Depth-first over a tree whose node frames `frameAt` maps to frames and `lineAt` to source
  // locations, the path kept per depth: a node either starts a location (a physical frame) or
  // continues its parent's, which then ends one line lower. `self` gives a node's [samples,
  // weight] and its node in `tree`. Counts are int64 on the wire: rounded per node of `tree` as
  // they add up, so a node whose weight the line tree splits (a .cpuprofile's lines do) still
  // totals its own weight rounded, as without lines.
  const stack: number[] = [];
  const exactSamples = new Float64Array(tree.nodeCount);
  const exactWeight = new Float64Array(tree.nodeCount);
  const sentSamples = new Float64Array(tree.nodeCount);
  const sentWeight = new Float64Array(tree.nodeCount);
  const walk = (t: CallTree, frameAt: (f: number) => FrameIndex, lineAt: (f: number) => number, self: (n: number) => [number, number, NodeIndex]): void => {
    const runStart = new Int32Array(t.maxDepth + 2); // depth at which the run holding this depth began
    const path = new Int32Array(t.maxDepth + 2); // frame per depth
    const at = new Int32Array(t.maxDepth + 2); // source location per depth
    for (let n = 1; n < t.nodeCount; n++) {
      const d = t.depth[n];
      const f = frameAt(t.frame[n]);
      path[d] = f;
      at[d] = lineAt(t.frame[n]);
      runStart[d] = d > 1 && frames.flags[f] & CONTINUES ? runStart[d - 1] : d;
      const [s0, w0, node] = self(n);
      if (s0 === 0 && w0 === 0) continue;
      exactSamples[node] += s0;
      exactWeight[node] += w0;
      const samples = Math.round(exactSamples[node]) - sentSamples[node];
      const weight = Math.round(exactWeight[node]) - sentWeight[node];
      sentSamples[node] += samples;
      sentWeight[node] += weight;
      if (weight === 0 && samples === 0) continue;
      // Locations leaf first: walk the runs from this depth up to depth 1.
      stack.length = 0;
      for (let end = d; end >= 1; ) {
        const start = runStart[end];
        stack.push(locationOf(Array.from(path.subarray(start, end + 1)), Array.from(at.subarray(start, end + 1))));
        end = start - 1;
      }
      const s = out.tag(2, WireType.LengthDelimited).fork();
      s.tag(1, WireType.LengthDelimited).fork();
      sampleStamp++;
      for (const id of stack) {
        s.uint64(id);
        const m = locations[id - 1].mapping;
        if (m && mappingSeen[m] !== sampleStamp) {
          mappingSeen[m] = sampleStamp;
          mappingWeight[m] = (mappingWeight[m] ?? 0) + Math.abs(weight);
        }
      }
      s.join();
      s.tag(2, WireType.LengthDelimited).fork().int64(samples).int64(weight).join();
      s.join();
    }
  };

  // What a node keeps beyond its lines: the two sums add the same parts in other orders, so a
  // difference within rounding is none (never a negative count, nor a sample of weight 1 for it).
  const rest = (all: number, covered: number): number => (all - covered > 1e-9 * Math.max(1, Math.abs(all)) ? all - covered : 0);
  // With lines, the samples that carried them are written from the line tree (a location per
  // distinct run of lines), and each tree node's rest, the samples without lines, from the tree.
  const coveredWeight = new Float64Array(tree.nodeCount);
  const coveredSamples = new Float64Array(tree.nodeCount);
  if (lines) {
    const lt = lines.tree;
    for (let ln = 1; ln < lt.nodeCount; ln++) {
      coveredWeight[lines.node[ln]] += lt.selfWeight[ln];
      coveredSamples[lines.node[ln]] += lt.selfSamples[ln];
    }
    walk(lt, (id) => lines.locatedFrame[id], (id) => lines.locatedLocation[id], (n) => [lt.selfSamples[n], lt.selfWeight[n], lines.node[n]]);
  }
  walk(tree, (f) => f, () => NO_LOCATION, (n) => [rest(tree.selfSamples[n], coveredSamples[n]), rest(tree.selfWeight[n], coveredWeight[n]), n]);

  // The main binary first, then the others as they came; ids follow the order, as pprof's own.
  const files = [...mappingIds.keys()];
  const heaviest = (candidates: string[]) => candidates.reduce<string | null>((best, f) => (best === null || (mappingWeight[mappingIds.get(f)!] ?? 0) > (mappingWeight[mappingIds.get(best)!] ?? 0) ? f : best), null);
  const main = heaviest(files.filter((f) => !f.startsWith('[') && !/([.]so$|[.]so[._][0-9]+)/.test(f) && !/(^|\/)perf-\d+\.map$/.test(f))) ?? heaviest(files);
  const order = main === null ? files : [main, ...files.filter((f) => f !== main)];
  const newId = new Map(order.map((f, i) => [mappingIds.get(f)!, i + 1]));
  for (const [i, file] of order.entries()) {
    out.tag(3, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(i + 1).tag(5, WireType.Varint).int64(str(file));
    // has_functions, has_filenames, has_line_numbers, has_inline_frames: nothing left to symbolize.
    for (const field of [7, 8, 9, 10]) out.tag(field, WireType.Varint).bool(true);
    out.join();
  }
  locations.forEach((loc, i) => {
    out.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(i + 1);
    if (loc.mapping) out.tag(2, WireType.Varint).uint64(newId.get(loc.mapping)!);
    loc.functions.forEach((fn, k) => {
      const line = out.tag(4, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(fn);
      if (loc.lines[k] > 0) line.tag(2, WireType.Varint).int64(loc.lines[k]);
      line.join();
    });
    out.join();
  });
  for (const { id, name, file } of functionIds.values()) {
    const s = str(name);
    const fn = out.tag(5, WireType.LengthDelimited).fork().tag(1, WireType.Varint).uint64(id).tag(2, WireType.Varint).int64(s).tag(3, WireType.Varint).int64(s);
    if (file !== '') fn.tag(4, WireType.Varint).int64(str(file));
    fn.join();
  }
  // The string table last: every index above is known by now (the wire order is free).
  for (const s of strings.keys()) out.tag(6, WireType.LengthDelimited).string(s);
  out.tag(11, WireType.LengthDelimited).fork().tag(1, WireType.Varint).int64(weightType[0]).tag(2, WireType.Varint).int64(weightType[1]).join();
  out.tag(14, WireType.Varint).int64(weightType[0]);
  return out.finish();
}
