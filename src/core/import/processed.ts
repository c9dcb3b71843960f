// The processed recording (`.flameview`, gzipped): what the core holds once a recording is parsed,
// opened again without parsing the original. Written by ../export/processed.ts; the layout is in
// docs/processed-format.md. A processed file is as untrusted as any recording.
//
// Layout (after gunzip, which loadProfile undoes before detection), all integers little-endian:
//
//   "flameview-processed\n"  20 bytes of magic
//   u32 version              FORMAT_VERSION; older versions are upgraded on read, newer refused
//   u32 header length        then the header: UTF-8 JSON {meta, counts, columns: [{name, type, length}]}
//   zero padding to 8        then each column in header order, each padded to 8 bytes
//
// Columns are typed arrays, each stored byte-shuffled (byte k of every element, then byte k+1 …),
// which lets gzip find the repeats in sorted timestamps and small integers; strings are one UTF-8
// column joined by NUL (names never hold NUL). The call tree keeps only parent, frame and the self
// weights: depth, subtree ends and totals are derived here, so they cannot disagree with the rest.
//
// Invariants checked before anything is built, each failure an ImportError naming what was wrong:
// every length against the bytes left and against the header's counts (allocation is bounded by
// the input's size), every index in range, the tree in depth-first order (a parent is an
// ancestor-or-self of the previous node) with siblings strictly in the builder's order (no
// duplicate child), every weight finite and not negative.

import { fillTotalsAndEnds, frameRanks } from '../model/tree-builder';
import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { ImportError, type FormatId, type Profile, type ProfileMeta } from '../model/profile';
import type { SampleColumns } from '../model/sample-column';
import type { SourceLines } from '../model/source-lines';
import type { AddressMapping, LeafAddresses } from '../model/leaf-addresses';
import type { BytesImporter, Detection } from './importer';

export const PROCESSED_MAGIC = 'flameview-processed\n';
export const FORMAT_VERSION = 5;
export const PROCESSED_DESCRIPTION = 'a flameview processed recording (.flameview)';

export type ColumnType = 'i32' | 'f64' | 'u8' | 'utf8';
export interface ColumnSpec {
  name: string;
  type: ColumnType;
  /** Elements (bytes for utf8). */
  length: number;
}

export interface ProcessedHeader {
  meta: ProfileMeta;
  /** locations, located, lineNodes: version 2, when the recording has source lines (Profile.lines); addresses: version 4, when it has sampled instructions (Profile.leafAddresses). */
  counts: { strings: number; frames: number; nodes: number; samples: number; locations?: number; located?: number; lineNodes?: number; addresses?: number };
  columns: ColumnSpec[];
  /** Version 5, with the address columns: their offsets are addresses in the process (pprof), placed in files by these mappings. */
  addressMappings?: AddressMapping[];
}

/** The columns of version 5 (4 and 5 have the same), by name, and their element type (the header must agree). */
export const COLUMNS: Record<string, ColumnType> = {
  strings: 'utf8',
  'frame.name': 'i32',
  'frame.module': 'i32',
  'frame.flags': 'u8',
  'frame.function': 'i32',
  'node.parent': 'i32',
  'node.frame': 'i32',
  'node.selfWeight': 'f64',
  'node.selfSamples': 'f64',
  'sample.leaf': 'i32',
  'sample.time': 'f64',
  'sample.weight': 'f64',
  'sample.thread': 'i32',
  // Version 3: each sample's span in seconds (an off-CPU interval; 0: an instant), optional.
  'sample.duration': 'f64',
  // Version 5: each sample's node in the line tree (-1: no lines), optional, with the line columns.
  'sample.line': 'i32',
  // Version 2: the source lines (../model/source-lines.ts), all or none.
  'location.file': 'i32',
  'location.line': 'i32',
  'located.frame': 'i32',
  'located.location': 'i32',
  'line.parent': 'i32',
  'line.located': 'i32',
  'line.node': 'i32',
  'line.selfWeight': 'f64',
  'line.selfSamples': 'f64',
  // Version 3: the sampled instructions (../model/leaf-addresses.ts), all or none.
  'address.frame': 'i32',
  'address.offset': 'f64',
  'address.weight': 'f64',
  'address.samples': 'f64',
};

const ADDRESS_COLUMNS = ['address.frame', 'address.offset', 'address.weight', 'address.samples'];
const LINE_COLUMNS = ['location.file', 'location.line', 'located.frame', 'located.location', 'line.parent', 'line.located', 'line.node', 'line.selfWeight', 'line.selfSamples'];

export const ELEMENT_BYTES: Record<ColumnType, number> = { i32: 4, f64: 8, u8: 1, utf8: 1 };

/** Byte-shuffles `bytes` (elements of `size` bytes): plane k holds byte k of every element. */
export function shuffle(bytes: Uint8Array, size: number): Uint8Array {
  if (size === 1) return bytes;
  const n = bytes.length / size;
  const out = new Uint8Array(bytes.length);
  for (let k = 0; k < size; k++) for (let i = 0; i < n; i++) out[k * n + i] = bytes[i * size + k];
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * The inverse of shuffle. For 4- and 8-byte elements on a little-endian host (every browser's),
 * each output word is assembled from the planes and written whole: the byte-at-a-time loop's
 * strided writes took 69 ms of a 1.1 GB recording's 1.05 s link open (its 19.6 MB of columns).
 */
export function unshuffle(planes: Uint8Array, size: number): Uint8Array {
  if (size === 1) return planes.slice();
  const n = planes.length / size;
  const out = new Uint8Array(planes.length);
  if (LITTLE_ENDIAN && (size === 4 || size === 8)) {
    const words = new Uint32Array(out.buffer);
    for (let half = 0; half < size; half += 4) {
      const p0 = planes.subarray(half * n, (half + 1) * n);
      const p1 = planes.subarray((half + 1) * n, (half + 2) * n);
      const p2 = planes.subarray((half + 2) * n, (half + 3) * n);
      const p3 = planes.subarray((half + 3) * n, (half + 4) * n);
      const step = size >> 2;
      for (let i = 0, w = half >> 2; i < n; i++, w += step) words[w] = (p0[i] | (p1[i] << 8) | (p2[i] << 16) | (p3[i] << 24)) >>> 0;
    }
    return out;
  }
  for (let k = 0; k < size; k++) for (let i = 0; i < n; i++) out[i * size + k] = planes[k * n + i];
  return out;
}

const pad8 = (n: number) => (n + 7) & ~7;

export const processedImporter: BytesImporter = {
  format: 'flameview',
  description: PROCESSED_DESCRIPTION,
  detectBytes(head: Uint8Array, atEnd: boolean): Detection {
    const magic = new TextEncoder().encode(PROCESSED_MAGIC);
    for (let i = 0; i < magic.length; i++) {
      if (i >= head.length) return atEnd ? 'no' : 'need-more';
      if (head[i] !== magic[i]) return 'no';
    }
    return 'yes';
  },
  checkHead(head) {
    checkVersion(head);
  },
  parseBytes(bytes, options) {
    const profile = decodeProcessed(bytes, options.source);
    // One event is kept: another one is in the original recording only.
    const wanted = options.event;
    if (wanted !== undefined && wanted !== profile.meta.event && !profile.meta.event?.startsWith(`${wanted}/`)) {
      throw new ImportError(`the event kept in this processed recording (${profile.meta.event ?? 'none'})`, 0, `a request for "${wanted}": open the original recording for it`, options.source);
    }
    return profile;
  },
};

/** The version of a processed recording's head (magic already checked); an ImportError for a short head or a version it cannot read. */
function checkVersion(bytes: Uint8Array, source?: string): number {
  const fail = (found: string): never => {
    throw new ImportError(PROCESSED_DESCRIPTION, 0, found, source);
  };
  const start = PROCESSED_MAGIC.length;
  if (bytes.length < start + 8) fail(`${bytes.length} bytes, too short for its header`);
  const version = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(start, true);
  if (version > FORMAT_VERSION) fail(`format version ${version}, newer than this flameview reads (${FORMAT_VERSION}): open it with a newer flameview`);
  if (version < 1) fail(`format version ${version}, which never existed`);
  return version;
}

/** Reads a processed recording; throws an ImportError for anything that is not a valid one. */
export function decodeProcessed(bytes: Uint8Array, source?: string): Profile {
  const fail = (found: string): never => {
    throw new ImportError(PROCESSED_DESCRIPTION, 0, found, source);
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = PROCESSED_MAGIC.length;
  const version = checkVersion(bytes, source);
  const headerLength = view.getUint32(start + 4, true);
  if (headerLength > bytes.length - start - 8) fail(`a header of ${headerLength} bytes in a file of ${bytes.length}`);
  let header: ProcessedHeader;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start + 8, start + 8 + headerLength)));
  } catch {
    return fail('a header that is not JSON');
  }
  header = upgrade(header, version, fail);
  checkHeader(header, fail);

  // The columns, each checked against the bytes left before anything of its size is allocated.
  const columns = new Map<string, Uint8Array>();
  let at = pad8(start + 8 + headerLength);
  for (const spec of header.columns) {
    const size = spec.length * ELEMENT_BYTES[spec.type];
    if (size > bytes.length - at) fail(`column ${spec.name} of ${size} bytes with ${Math.max(0, bytes.length - at)} left (a cut file?)`);
    columns.set(spec.name, bytes.subarray(at, at + size));
    at = pad8(at + size);
  }
  const typed = <T>(name: string, make: (b: ArrayBuffer) => T): T | null => {
    const planes = columns.get(name);
    return planes ? make(unshuffle(planes, ELEMENT_BYTES[COLUMNS[name]]).buffer as ArrayBuffer) : null;
  };
  const i32 = (name: string) => typed(name, (b) => new Int32Array(b));
  const f64 = (name: string) => typed(name, (b) => new Float64Array(b));
  const { counts } = header;

  const text = new TextDecoder('utf-8', { fatal: false }).decode(columns.get('strings')!);
  const strings = counts.strings === 0 ? [] : text.split('\0');
  if (strings.length !== counts.strings) fail(`${strings.length} strings where the header says ${counts.strings}`);
  const name = i32('frame.name')!;
  const module = i32('frame.module')!;
  const flags = columns.get('frame.flags')!.slice();
  for (let f = 0; f < counts.frames; f++) {
    if (name[f] < 0 || name[f] >= strings.length) fail(`frame ${f} named by string ${name[f]} of ${strings.length}`);
    if (module[f] < -1 || module[f] >= strings.length) fail(`frame ${f} in module string ${module[f]} of ${strings.length}`);
    if (flags[f] > 15) fail(`frame ${f} with flags ${flags[f]}`);
  }
  const identities = new Set<number>();
  for (let f = 0; f < counts.frames; f++) {
    const key = name[f] * 16 + flags[f];
    if (identities.has(key)) fail(`frame ${f} a second time (${JSON.stringify(strings[name[f]]).slice(0, 60)})`);
    identities.add(key);
  }
  const frames: FrameTable = { count: counts.frames, name, module, flags, strings };
  const functionFrames = i32('frame.function');
  if (functionFrames) for (let f = 0; f < counts.frames; f++) if (functionFrames[f] < 0 || functionFrames[f] >= counts.frames) fail(`frame ${f} shown as frame ${functionFrames[f]} of ${counts.frames}`);

  const tree = buildTree(counts.nodes, i32('node.parent')!, i32('node.frame')!, f64('node.selfWeight')!, f64('node.selfSamples')!, frames, fail);

  let samples: SampleColumns | null = null;
  if (counts.samples > 0) {
    const leaf = i32('sample.leaf')!;
    const time = f64('sample.time')!;
    const weight = f64('sample.weight')!;
    const thread = i32('sample.thread') ?? undefined;
    const duration = f64('sample.duration') ?? undefined;
    for (let i = 0; i < counts.samples; i++) {
      if (leaf[i] < 0 || leaf[i] >= counts.nodes) fail(`sample ${i} at node ${leaf[i]} of ${counts.nodes}`);
      if (!Number.isFinite(time[i]) || !(weight[i] >= 0) || !Number.isFinite(weight[i])) fail(`sample ${i} with time ${time[i]} and weight ${weight[i]}`);
      if (duration && !(duration[i] >= 0 && Number.isFinite(duration[i]))) fail(`sample ${i} lasting ${duration[i]} s`);
    }
    const line = i32('sample.line') ?? undefined;
    if (line) for (let i = 0; i < counts.samples; i++) if (line[i] < -1 || line[i] >= (counts.lineNodes ?? 0)) fail(`sample ${i} at line-tree node ${line[i]} of ${counts.lineNodes ?? 0}`);
    samples = { count: counts.samples, leaf, time, weight, ...(thread ? { thread } : {}), ...(duration ? { duration } : {}), ...(line ? { line } : {}) };
  }
  const lines = counts.lineNodes !== undefined ? buildLines(counts as Required<ProcessedHeader['counts']>, i32, f64, frames, tree, fail) : null;
  const leafAddresses = counts.addresses !== undefined ? buildAddresses(counts.addresses, i32, f64, frames, header.addressMappings, fail) : null;
  return {
    frames,
    tree,
    meta: metaOf(header.meta, fail),
    samples,
    ...(functionFrames ? { functionFrames } : {}),
    ...(lines ? { lines } : {}),
    ...(leafAddresses ? { leafAddresses } : {}),
    processed: true,
  };
}

/** The sampled instructions (version 4; 5: with the mappings of addresses in the process), checked as LeafAddressesBuilder makes them: frames in range, rows sorted by (frame, offset) without a repeat, offsets whole bytes, weights finite. */
function buildAddresses(
  n: number,
  i32: (name: string) => Int32Array | null,
  f64: (name: string) => Float64Array | null,
  frames: FrameTable,
  mappings: unknown,
  fail: (found: string) => never,
): LeafAddresses {
  const frame = i32('address.frame')!;
  const offset = f64('address.offset')!;
  const weight = f64('address.weight')!;
  const samples = f64('address.samples')!;
  for (let i = 0; i < n; i++) {
    if (frame[i] < 0 || frame[i] >= frames.count) fail(`address ${i} of frame ${frame[i]} of ${frames.count}`);
    if (!Number.isSafeInteger(offset[i]) || offset[i] < 0) fail(`address ${i} at offset ${offset[i]}`);
    if (!(weight[i] >= 0) || !Number.isFinite(weight[i]) || !(samples[i] >= 0) || !Number.isFinite(samples[i])) fail(`address ${i} with weights ${weight[i]}, ${samples[i]}`);
    if (i > 0 && (frame[i] < frame[i - 1] || (frame[i] === frame[i - 1] && offset[i] <= offset[i - 1]))) fail(`address ${i} out of order (rows are sorted by frame, then offset, each once)`);
  }
  return { count: n, frame, offset, weight, samples, ...(mappings !== undefined ? { process: { mappings: checkMappings(mappings, fail) } } : {}) };
}

/** The header's address mappings: a list of {file, start, limit, offset, buildId}, whole numbers, start ≤ limit. */
function checkMappings(v: unknown, fail: (found: string) => never): AddressMapping[] {
  if (!Array.isArray(v)) return fail(`address mappings of ${JSON.stringify(v).slice(0, 60)}, not a list`);
  const whole = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  v.forEach((m: Partial<AddressMapping> | null, i) => {
    if (!m || typeof m !== 'object' || typeof m.file !== 'string' || typeof m.buildId !== 'string' || !whole(m.start) || !whole(m.limit) || !whole(m.offset) || m.start! > m.limit!) {
      fail(`address mapping ${i} of the wrong shape (${JSON.stringify(m).slice(0, 80)})`);
    }
  });
  return (v as AddressMapping[]).map(({ file, start, limit, offset, buildId }) => ({ file, start, limit, offset, buildId }));
}

/** The source lines (version 2), checked: every index in range, the line tree projecting onto the tree. */
function buildLines(
  counts: Required<ProcessedHeader['counts']>,
  i32: (name: string) => Int32Array | null,
  f64: (name: string) => Float64Array | null,
  frames: FrameTable,
  tree: CallTree,
  fail: (found: string) => never,
): SourceLines {
  const file = i32('location.file')!;
  const line = i32('location.line')!;
  for (let l = 0; l < counts.locations; l++) {
    if (file[l] < 0 || file[l] >= frames.strings.length) fail(`location ${l} in file string ${file[l]} of ${frames.strings.length}`);
    if (line[l] < 0) fail(`location ${l} at line ${line[l]}`);
  }
  const locatedFrame = i32('located.frame')!;
  const locatedLocation = i32('located.location')!;
  for (let k = 0; k < counts.located; k++) {
    if (locatedFrame[k] < 0 || locatedFrame[k] >= frames.count) fail(`located frame ${k} of frame ${locatedFrame[k]} of ${frames.count}`);
    if (locatedLocation[k] < -1 || locatedLocation[k] >= counts.locations) fail(`located frame ${k} at location ${locatedLocation[k]} of ${counts.locations}`);
  }
  // Ranked as the writer's TreeBuilder ranked them: the frames' (name, flags), then the located id.
  const name = new Int32Array(counts.located);
  const flags = new Uint8Array(counts.located);
  for (let k = 0; k < counts.located; k++) {
    name[k] = frames.name[locatedFrame[k]];
    flags[k] = frames.flags[locatedFrame[k]];
  }
  const ranked: FrameTable = { count: counts.located, name, module: new Int32Array(counts.located).fill(-1), flags, strings: frames.strings };
  const lineTree = buildTree(counts.lineNodes, i32('line.parent')!, i32('line.located')!, f64('line.selfWeight')!, f64('line.selfSamples')!, ranked, (found) => fail(`a line tree with ${found}`));
  const node = i32('line.node')!;
  if (node[0] !== 0) fail('a line tree whose root is not the root');
  for (let ln = 1; ln < counts.lineNodes; ln++) {
    const n = node[ln];
    if (n <= 0 || n >= tree.nodeCount) fail(`line node ${ln} on node ${n} of ${tree.nodeCount}`);
    if (tree.frame[n] !== locatedFrame[lineTree.frame[ln]] || tree.parent[n] !== node[lineTree.parent[ln]]) fail(`line node ${ln} that is not on the path of node ${n}`);
  }
  return { locations: { count: counts.locations, file, line }, locatedFrame, locatedLocation, tree: lineTree, node };
}

const FORMATS: readonly FormatId[] = ['perf-script', 'folded', 'pprof', 'cpuprofile', 'chrome-trace', 'speedscope', 'svg', 'flameview'];

/** The header's meta rebuilt field by field: only the fields and types a ProfileMeta has. */
function metaOf(m: ProfileMeta, fail: (found: string) => never): ProfileMeta {
  const num = (v: unknown, what: string): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fail(`meta.${what} of ${JSON.stringify(v)}`));
  const str = (v: unknown, what: string): string => (typeof v === 'string' ? v : fail(`meta.${what} of ${JSON.stringify(v)}`));
  if (!FORMATS.includes(m.format)) fail(`meta.format ${JSON.stringify(m.format)}`);
  return {
    format: m.format,
    events: m.events.map((e, i) => ({ name: str(e?.name, `events[${i}].name`), samples: num(e?.samples, `events[${i}].samples`) })),
    event: m.event === null ? null : str(m.event, 'event'),
    weightUnit: m.weightUnit === 'nanoseconds' ? 'nanoseconds' : m.weightUnit === null ? null : fail(`meta.weightUnit ${JSON.stringify(m.weightUnit)}`),
    samples: num(m.samples, 'samples'),
    hasInlineInfo: m.hasInlineInfo === true,
    skippedLines: num(m.skippedLines, 'skippedLines'),
    warnings: m.warnings.map((w, i) => ({ line: num(w?.line, `warnings[${i}].line`), message: str(w?.message, `warnings[${i}].message`) })),
  };
}

/**
 * Older headers made current, one step per version. 1 → 2: version 2 added the source-line
 * columns, which a version 1 file never has (a line count or column in one is refused, as then).
 * 2 → 3: version 3 added the optional sample.duration column (off-CPU spans in time order), which
 * an older file never has: its samples are all instants, read as they were.
 * 3 → 4: version 4 added the sampled-instruction columns, which an older file never has.
 * 4 → 5: version 5 added the optional sample.line column (each sample's line-tree node, what a
 * time range narrows the Source panel by), which an older file never has.
 *   It also added the address mappings (pprof's addresses in the process), which an older
 * file never has: its addresses are offsets in their symbols, read as they were.
 */
function upgrade(header: ProcessedHeader, version: number, fail: (found: string) => never): ProcessedHeader {
  if (!header || typeof header !== 'object' || !Array.isArray(header.columns)) return header;
  const counts: Record<string, unknown> = header.counts && typeof header.counts === 'object' ? header.counts : {};
  if (version === 1) {
    for (const c of header.columns) if (c && LINE_COLUMNS.includes(c.name)) fail(`column ${c.name} in a version 1 file`);
    if ('lineNodes' in counts || 'located' in counts || 'locations' in counts) fail('line counts in a version 1 file');
  }
  if (version <= 3) {
    for (const c of header.columns) if (c && ADDRESS_COLUMNS.includes(c.name)) fail(`column ${c.name} in a version ${version} file`);
    if ('addresses' in counts) fail(`an address count in a version ${version} file`);
  }
  if (version <= 4 && 'addressMappings' in header) fail(`address mappings in a version ${version} file`);
  if (version < 3) for (const c of header.columns) if (c && c.name === 'sample.duration') fail(`column sample.duration in a version ${version} file`);
  if (version < 5) for (const c of header.columns) if (c && c.name === 'sample.line') fail(`column sample.line in a version ${version} file`);
  return header;
}

function checkHeader(h: ProcessedHeader, fail: (found: string) => never): void {
  const isCount = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) < 2 ** 31;
  if (!h || typeof h !== 'object' || !h.meta || typeof h.meta !== 'object' || !h.counts || !Array.isArray(h.columns)) fail('a header without meta, counts and columns');
  const { counts } = h;
  for (const k of ['strings', 'frames', 'nodes', 'samples'] as const) if (!isCount(counts[k])) fail(`a header count ${k} of ${JSON.stringify(counts[k])}`);
  const lineCounts = (['locations', 'located', 'lineNodes'] as const).filter((k) => counts[k] !== undefined);
  if (lineCounts.length !== 0 && lineCounts.length !== 3) fail('a header with some of the line counts (locations, located, lineNodes) but not all');
  for (const k of lineCounts) if (!isCount(counts[k])) fail(`a header count ${k} of ${JSON.stringify(counts[k])}`);
  if (counts.lineNodes !== undefined && counts.lineNodes < 1) fail('a line tree without its root');
  if (counts.addresses !== undefined && !isCount(counts.addresses)) fail(`a header count addresses of ${JSON.stringify(counts.addresses)}`);
  if (h.addressMappings !== undefined && counts.addresses === undefined) fail('address mappings without the address columns');
  if (counts.nodes < 1) fail('a call tree without its root');
  if (!Array.isArray(h.meta.events) || !Array.isArray(h.meta.warnings) || typeof h.meta.format !== 'string') fail('a header whose meta lacks format, events or warnings');
  const want: Record<string, number> = {
    'frame.name': counts.frames,
    'frame.module': counts.frames,
    'frame.flags': counts.frames,
    'node.parent': counts.nodes,
    'node.frame': counts.nodes,
    'node.selfWeight': counts.nodes,
    'node.selfSamples': counts.nodes,
  };
  if (counts.samples > 0) Object.assign(want, { 'sample.leaf': counts.samples, 'sample.time': counts.samples, 'sample.weight': counts.samples });
  if (counts.lineNodes !== undefined) {
    Object.assign(want, { 'location.file': counts.locations, 'location.line': counts.locations, 'located.frame': counts.located, 'located.location': counts.located });
    for (const c of ['line.parent', 'line.located', 'line.node', 'line.selfWeight', 'line.selfSamples']) want[c] = counts.lineNodes;
  }
  if (counts.addresses !== undefined) for (const c of ADDRESS_COLUMNS) want[c] = counts.addresses;
  const seen = new Set<string>();
  for (const c of h.columns) {
    if (!c || typeof c.name !== 'string' || !(c.name in COLUMNS) || c.type !== COLUMNS[c.name] || !isCount(c.length)) fail(`a column ${JSON.stringify(c).slice(0, 80)}`);
    if (seen.has(c.name)) fail(`column ${c.name} twice`);
    seen.add(c.name);
    for (const optional of ['sample.thread', 'sample.duration', 'sample.line']) if (c.name === optional && c.length !== counts.samples) fail(`column ${optional} of ${c.length} for ${counts.samples} samples`);
    if (c.name === 'frame.function' && c.length !== counts.frames) fail(`column frame.function of ${c.length} for ${counts.frames} frames`);
    if (c.name in want && c.length !== want[c.name]) fail(`column ${c.name} of ${c.length} where the counts say ${want[c.name]}`);
  }
  for (const name of ['strings', ...Object.keys(want)]) if (!seen.has(name)) fail(`no column ${name}`);
  for (const name of LINE_COLUMNS) if (seen.has(name) && !(name in want)) fail(`column ${name} without the line counts`);
  if (seen.has('sample.line') && counts.lineNodes === undefined) fail('column sample.line without the line counts');
  for (const name of ADDRESS_COLUMNS) if (seen.has(name) && !(name in want)) fail(`column ${name} without the address count`);
}

/** The call tree from its parent, frame and self columns, checked; ends, depths and totals derived. */
function buildTree(
  n: number,
  parent: Int32Array,
  frame: Int32Array,
  selfWeight: Float64Array,
  selfSamples: Float64Array,
  frames: FrameTable,
  fail: (found: string) => never,
): CallTree {
  if (parent[0] !== -1 || frame[0] !== -1) fail('a root that is not the root');
  const rank = frameRanks(frames);
  const depth = new Int32Array(n);
  // The open path from the root to the previous node, and the last child seen under each of them.
  const path = new Int32Array(n);
  const lastChild = new Int32Array(n).fill(-1);
  let top = 0; // path[0..top] is open; path[top] is the previous node
  let maxDepth = 0;
  for (let i = 0; i < n; i++) {
    if (!(selfWeight[i] >= 0) || !Number.isFinite(selfWeight[i]) || !(selfSamples[i] >= 0) || !Number.isFinite(selfSamples[i])) fail(`node ${i} with weights ${selfWeight[i]}, ${selfSamples[i]}`);
    if (i === 0) continue;
    const p = parent[i];
    if (p < 0 || p >= i) fail(`node ${i} under node ${p}`);
    while (top >= 0 && path[top] !== p) top--;
    if (top < 0) fail(`node ${i} under node ${p}, which is not on the path to node ${i - 1} (not depth-first)`);
    const f = frame[i];
    if (f < 0 || f >= frames.count) fail(`node ${i} of frame ${f} of ${frames.count}`);
    const before = lastChild[p];
    if (before >= 0 && rank[frame[before]] >= rank[f]) fail(`node ${i} out of order among its siblings (or a second child of the same frame)`);
    lastChild[p] = i;
    depth[i] = depth[p] + 1;
    if (depth[i] > maxDepth) maxDepth = depth[i];
    path[++top] = i;
  }
  const totalWeight = new Float64Array(n);
  const totalSamples = new Float64Array(n);
  const end = new Int32Array(n);
  fillTotalsAndEnds(n, parent, selfWeight, selfSamples, totalWeight, totalSamples, end);
  return { nodeCount: n, parent, frame, depth, end, selfWeight, selfSamples, totalWeight, totalSamples, maxDepth };
}
