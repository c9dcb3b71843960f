// pprof profiles (profile.proto, as Go's runtime/pprof and Google's pprof write them; usually
// gzipped, which loadProfile undoes before detection). Decoding is in ./pprof-decode.ts.
//
// Decisions and invariants:
// - Stacks are root-first in the tree: a sample's location_id[0] is the leaf, and within a
//   location the lines run innermost first, so a location's lines are added last to first. Every
//   line but the last of a location is an inlined call: FrameFlags.INLINED, so the function view
//   merges it into the physical function (the last line).
// - No synthetic root: pprof records no process name; the outermost function is at depth 1.
// - Sample type (pprof's -sample_index): options.event names one, by `type` or `type/unit`;
//   by default default_sample_type, else the last one, as pprof does. meta.events lists all of
//   them as `type/unit` with the samples (as counted below) of the records where it is non-zero.
// - Weight is the chosen value, scaled to nanoseconds for time units (meta.weightUnit
//   'nanoseconds'); the sample count is the `samples/count` value when the profile has one (Go CPU
//   profiles do), the chosen value when its unit is `count`, else one per sample record. Records
//   whose chosen value is 0 are left out, as pprof does.
// - A location without lines (unsymbolized) is named by its address, `0x…`. A missing location or
//   function, or a string index out of range, gives a `[unknown …]` frame and one warning: weight
//   is never dropped.
// - Source lines (Profile.lines, ../../model/source-lines.ts): each frame of a location is at its
//   Line's line in its Function's filename (a location's lines are its inline chain, so an
//   inlined frame has its own line and its caller the call site); an empty filename is the
//   unknown location, a line of 0 a known file without a line. A profile with no filename and
//   no line at all has no lines (null).
// - The module is the location's mapping file name. Mappings named `[kernel…]` mark frames KERNEL,
//   perf's JIT maps (`perf-<pid>.map`, `[jit]`) mark them JIT.
// - Sampled instructions (Profile.leafAddresses, ../../model/leaf-addresses.ts): each sample's leaf
//   location address, under the location's physical function (its last line), as an address in
//   the process (pprof records no symbol start), with the profile's mappings that place it in a
//   file. A location without an address (0, as symbolized-only profiles write), without a mapping,
//   or past 2^53 (a kernel address a double cannot hold) adds no row.

import { FrameTableBuilder } from '../../model/frame-table';
import { TreeBuilder, finishProfile } from '../../model/tree-builder';
import { FrameFlags, type FrameIndex } from '../../model/types';
import { ImportError, type EventSummary, type ImportWarning, type Profile } from '../../model/profile';
import type { BytesImporter, Detection, ImportOptions } from '../importer';
import { decodePprof, looksLikePprof, PPROF_DESCRIPTION, type PprofProfile } from './pprof-decode';
import { LeafAddressesBuilder, type AddressMapping } from '../../model/leaf-addresses';
import { withoutNul } from '../../util/wire';
import { NO_LOCATION, SourceLinesBuilder } from '../../model/source-lines';
import { ROOT_NODE, type NodeIndex } from '../../model/types';

const TIME_SCALE: Record<string, number> = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9 };

export const pprofImporter: BytesImporter = {
  format: 'pprof',
  description: PPROF_DESCRIPTION,
  detectBytes(head: Uint8Array, atEnd: boolean): Detection {
    return looksLikePprof(head, atEnd) ? 'yes' : 'no';
  },
  parseBytes(bytes: Uint8Array, options: ImportOptions): Profile {
    return buildPprof(decodePprof(bytes, options.source), options);
  },
};

function sampleTypeNames(p: PprofProfile): string[] {
  return p.sampleTypes.map(([t, u]) => `${p.strings[t] ?? '?'}/${p.strings[u] ?? '?'}`);
}

function chooseSampleType(p: PprofProfile, names: string[], options: ImportOptions): number {
  if (options.event !== undefined) {
    const wanted = options.event;
    const i = names.findIndex((n) => n === wanted || n.slice(0, n.lastIndexOf('/')) === wanted);
    if (i < 0) throw new ImportError(`samples of type "${wanted}"`, 0, `only ${names.join(', ')}`, options.source);
    return i;
  }
  if (p.defaultSampleType > 0) {
    const name = p.strings[p.defaultSampleType];
    const i = p.sampleTypes.findIndex(([t]) => p.strings[t] === name);
    if (i >= 0) return i;
  }
  return p.sampleTypes.length - 1;
}

export function buildPprof(p: PprofProfile, options: ImportOptions): Profile {
  if (p.sampleTypes.length === 0) {
    throw new ImportError(PPROF_DESCRIPTION, 0, 'a protobuf message without sample types', options.source);
  }
  const names = sampleTypeNames(p);
  const chosen = chooseSampleType(p, names, options);
  const typeCount = p.sampleTypes.length;
  const unit = p.strings[p.sampleTypes[chosen][1]] ?? '';
  const scale = TIME_SCALE[unit] ?? 1;
  const countIndex = names.indexOf('samples/count');
  const sampleColumn = countIndex >= 0 ? countIndex : unit === 'count' ? chosen : -1;

  const frames = new FrameTableBuilder();
  const builder = new TreeBuilder();
  const warnings: ImportWarning[] = [];
  const problems = new Map<string, number>();
  const problem = (what: string) => problems.set(what, (problems.get(what) ?? 0) + 1);
  const str = (i: number, what: string): string => {
    const s = p.strings[i];
    if (s === undefined) {
      problem(`${what} refers to string ${i}, past the end of the string table`);
      return '';
    }
    return s;
  };

  // Location id → its frames, root-first (the reverse of the wire's line order), and their source locations.
  const chains = new Map<number, FrameIndex[]>();
  const chainLocations = new Map<number, number[]>();
  const sourceLines = new SourceLinesBuilder(frames.strings);
  let anyLine = false;
  const sourceLocation = (fnId: number, line: number): number => {
    const fn = p.functions.get(fnId);
    const file = fn ? p.strings[fn.filename] ?? '' : '';
    if (file === '' && line === 0) return NO_LOCATION;
    anyLine = true;
    return sourceLines.location(withoutNul(file), line);
  };
  let inlined = false;
  const chainOf = (id: number): FrameIndex[] => {
    let chain = chains.get(id);
    if (chain) return chain;
    const loc = p.locations.get(id);
    chain = [];
    const located: number[] = [];
    if (!loc) {
      problem('a sample refers to a missing location');
      chain.push(frames.intern(`[unknown location ${id}]`, 0));
    } else {
      const module = loc.mapping !== 0 && p.mappings.has(loc.mapping) ? str(p.mappings.get(loc.mapping)!.filename, 'a mapping') : '';
      const base = moduleFlags(module);
      const mod = module === '' ? undefined : clean(module);
      if (loc.functions.length === 0) chain.push(frames.intern(`0x${loc.address.toString(16)}`, base, mod));
      for (let i = loc.functions.length - 1; i >= 0; i--) {
        const flags = base | (i < loc.functions.length - 1 ? ((inlined = true), FrameFlags.INLINED) : 0);
        chain.push(frames.intern(functionName(p, loc.functions[i], str, problem), flags, mod));
        located.push(sourceLocation(loc.functions[i], loc.lines[i] ?? 0));
      }
    }
    while (located.length < chain.length) located.push(NO_LOCATION);
    chains.set(id, chain);
    chainLocations.set(id, located);
    return chain;
  };

  const leaves = new LeafAddressesBuilder();
  /** Whether a location's address is one to keep: sampled in a mapped file, exactly representable. */
  const addressed = (id: number): boolean => {
    const loc = p.locations.get(id);
    return loc !== undefined && loc.address > 0 && Number.isSafeInteger(loc.address) && p.mappings.has(loc.mapping);
  };

  const events: EventSummary[] = names.map((name) => ({ name, samples: 0 }));
  let samples = 0;
  const stack: FrameIndex[] = [];
  const stackLocations: number[] = [];
  const path: NodeIndex[] = [];
  const records = p.locStart.length - 1;
  for (let s = 0; s < records; s++) {
    const v0 = p.valueStart[s];
    const v1 = p.valueStart[s + 1];
    if (v1 - v0 !== typeCount) {
      problem(`a sample has ${v1 - v0} values for ${typeCount} sample types`);
      continue;
    }
    const count = sampleColumn >= 0 ? p.values[v0 + sampleColumn] : 1;
    for (let t = 0; t < typeCount; t++) if (p.values[v0 + t] !== 0) events[t].samples += count;
    const value = p.values[v0 + chosen];
    if (value === 0) continue;
    stack.length = 0;
    stackLocations.length = 0;
    for (let l = p.locStart[s + 1] - 1; l >= p.locStart[s]; l--) {
      const chain = chainOf(p.locs[l]);
      const located = chainLocations.get(p.locs[l])!;
      for (let k = 0; k < chain.length; k++) {
        stack.push(chain[k]);
        stackLocations.push(located[k]);
      }
    }
    let node: NodeIndex = ROOT_NODE;
    for (let i = 0; i < stack.length; i++) path[i] = node = builder.child(node, stack[i]);
    builder.addSelf(node, value * scale, count);
    const leafId = p.locs[p.locStart[s]];
    // The leaf location's chain is root-first: its physical function is chain[0].
    if (stack.length > 0 && addressed(leafId)) leaves.add(chains.get(leafId)![0], p.locations.get(leafId)!.address, value * scale, count);
    sourceLines.addStack(stack, stackLocations, path, stack.length, value * scale, count);
    samples += count;
  }
  for (const [what, n] of problems) warnings.push({ line: 0, message: n > 1 ? `${what} (${n} times)` : what });

  const profile = finishProfile(
    frames,
    builder,
    () => ({
      format: 'pprof',
      events,
      event: names[chosen],
      weightUnit: unit in TIME_SCALE ? 'nanoseconds' : null,
      samples,
      hasInlineInfo: inlined,
      skippedLines: 0,
      warnings,
    }),
    anyLine ? (table, order) => sourceLines.finish(table, order) : null,
  );
  // Frame indices are the builder's (finish keeps them), so the rows need no mapping.
  return leaves.size > 0 ? { ...profile, leafAddresses: leaves.finish(mappingsOf(p)) } : profile;
}

/** The profile's mappings with their names and build ids, for placing addresses in files. */
function mappingsOf(p: PprofProfile): AddressMapping[] {
  const out: AddressMapping[] = [];
  for (const m of p.mappings.values()) {
    if (!Number.isSafeInteger(m.start) || !Number.isSafeInteger(m.limit) || !Number.isSafeInteger(m.offset)) continue;
    out.push({ file: clean(p.strings[m.filename] ?? ''), start: m.start, limit: m.limit, offset: m.offset, buildId: clean(p.strings[m.buildId] ?? '') });
  }
  return out;
}

function functionName(
  p: PprofProfile,
  id: number,
  str: (i: number, what: string) => string,
  problem: (what: string) => void,
): string {
  const fn = p.functions.get(id);
  if (!fn) {
    problem('a location line refers to a missing function');
    return `[unknown function ${id}]`;
  }
  const name = str(fn.name, 'a function name') || str(fn.systemName, 'a function name');
  return name === '' ? '[unknown]' : clean(name);
}

/** NUL separates names in snapshots; it never occurs in a real symbol. */
function clean(name: string): string {
  return withoutNul(name);
}

function moduleFlags(module: string): number {
  if (module.startsWith('[kernel')) return FrameFlags.KERNEL;
  if (module === '[jit]' || /(^|\/)perf-\d+\.map$/.test(module)) return FrameFlags.JIT;
  return 0;
}
