// Decodes the messages of pprof's profile.proto (github.com/google/pprof/proto/profile.proto) that
// a flamegraph needs, with @bufbuild/protobuf's wire reader (no generated code, no hand-written
// varint decoding). Field numbers:
//
//   Profile   1 sample_type: ValueType*   2 sample: Sample*   3 mapping: Mapping*
//             4 location: Location*       5 function: Function*   6 string_table: string*
//             7 drop_frames  8 keep_frames  9 time_nanos  10 duration_nanos  11 period_type
//             12 period  13 comment*  14 default_sample_type  15 doc_url
//   ValueType 1 type (string index)  2 unit (string index)
//   Sample    1 location_id* (packed or not; [0] is the leaf)  2 value*  3 label*
//   Mapping   1 id  2 memory_start  3 memory_limit  4 file_offset  5 filename  6 build_id
//             (string indices)
//   Location  1 id  2 mapping_id  3 address  4 line: Line*  (line[0] is the innermost, inlined
//             frame; the last line is the physical function)
//   Line      1 function_id  2 line
//   Function  1 id  2 name  3 system_name  4 filename (string indices)
//
// Invariants: ids are uint64 on the wire and become JS numbers (exact below 2^53; larger ids only
// need to stay distinct); string indices are checked against the table when used, not here; any
// decoding failure (truncation, bad wire type) is an ImportError with the byte offset.

import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { ImportError } from '../../model/profile';

export const PPROF_DESCRIPTION = 'a pprof profile (profile.proto, usually gzipped)';

export interface PprofLocation {
  mapping: number;
  address: number;
  /** Function ids of the lines, innermost first (as on the wire). */
  functions: number[];
  /** Their line numbers (Line.line; 0: unknown), parallel to `functions`. */
  lines: number[];
}

export interface PprofMapping {
  start: number;
  limit: number;
  offset: number;
  /** String indices. */
  filename: number;
  buildId: number;
}

export interface PprofFunction {
  name: number;
  systemName: number;
  filename: number;
}

export interface PprofProfile {
  /** [type, unit] string indices per sample type. */
  sampleTypes: Array<[number, number]>;
  /** Location ids of every sample, leaf first, concatenated; sample i is locs[locStart[i]..locStart[i+1]). */
  locs: Float64Array;
  locStart: Float64Array;
  /** Values of every sample, concatenated; sample i is values[valueStart[i]..valueStart[i+1]). */
  values: Float64Array;
  valueStart: Float64Array;
  locations: Map<number, PprofLocation>;
  functions: Map<number, PprofFunction>;
  mappings: Map<number, PprofMapping>;
  strings: string[];
  defaultSampleType: number;
}

/**
 * A growing column of numbers: pushing millions of ids onto a JS array cost many times the varint
 * decoding itself (bench/README.md).
 */
class Column {
  data = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }
  grow(): void {
    const next = new Float64Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
  finish(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

interface SampleColumns {
  locs: Column;
  locStart: Column;
  values: Column;
  valueStart: Column;
}

function sampleColumns(): SampleColumns {
  const c = { locs: new Column(), locStart: new Column(), values: new Column(), valueStart: new Column() };
  c.locStart.push(0);
  c.valueStart.push(0);
  return c;
}

const decodeUtf8 = (bytes: Uint8Array) => utf8.decode(bytes);
const utf8 = new TextDecoder('utf-8');

/**
 * One varint as a number. Ids and values nearly always fit in four varint bytes (28 bits), which
 * the reader's uint32() decodes without allocating; longer ones are re-read as 64-bit (a bigint
 * or string from the library) so nothing is truncated.
 */
function varint(r: BinaryReader, signed: boolean): number {
  const start = r.pos;
  const v = r.uint32();
  if (r.pos - start < 5) return v;
  r.pos = start;
  return Number(signed ? r.int64() : r.uint64());
}

/** Reads a repeated scalar field that may be packed (LEN) or not (one varint). */
function readRepeated(r: BinaryReader, wire: WireType, out: Column, signed: boolean): void {
  if (wire === WireType.LengthDelimited) {
    const end = r.uint32() + r.pos;
    if (end > r.len) throw new Error('packed field runs past the end');
    // The column's array and length in locals: the hottest loop of the decoder.
    let data = out.data;
    let n = out.length;
    while (r.pos < end) {
      if (n === data.length) {
        out.length = n;
        out.grow();
        data = out.data;
      }
      data[n++] = varint(r, signed);
    }
    out.length = n;
  } else if (wire === WireType.Varint) {
    out.push(varint(r, signed));
  } else {
    throw new Error(`wire type ${wire} for a repeated integer`);
  }
}

function sub(r: BinaryReader): BinaryReader {
  return new BinaryReader(r.bytes(), decodeUtf8);
}

export function decodePprof(bytes: Uint8Array, source?: string): PprofProfile {
  const r = new BinaryReader(bytes, decodeUtf8);
  const columns = sampleColumns();
  const p: PprofProfile = {
    sampleTypes: [],
    locs: new Float64Array(0),
    locStart: new Float64Array(0),
    values: new Float64Array(0),
    valueStart: new Float64Array(0),
    locations: new Map(),
    functions: new Map(),
    mappings: new Map(),
    strings: [],
    defaultSampleType: 0,
  };
  let at = 0;
  try {
    while (r.pos < r.len) {
      at = r.pos;
      const [field, wire] = r.tag();
      switch (field) {
        case 1:
          p.sampleTypes.push(decodeValueType(sub(r)));
          break;
        case 2: {
          if (wire !== WireType.LengthDelimited) throw new Error(`wire type ${wire} for a sample`);
          const end = r.uint32() + r.pos;
          if (end > r.len) throw new Error('sample runs past the end');
          decodeSample(r, end, columns);
          break;
        }
        case 3: {
          const [id, mapping] = decodeMapping(sub(r));
          p.mappings.set(id, mapping);
          break;
        }
        case 4: {
          const [id, location] = decodeLocation(sub(r));
          p.locations.set(id, location);
          break;
        }
        case 5: {
          const [id, fn] = decodeFunction(sub(r));
          p.functions.set(id, fn);
          break;
        }
        case 6:
          p.strings.push(r.string());
          break;
        case 14:
          p.defaultSampleType = wire === WireType.Varint ? varint(r, true) : (r.skip(wire, field), 0);
          break;
        default:
          r.skip(wire, field);
      }
    }
  } catch (e) {
    if (e instanceof ImportError) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new ImportError(PPROF_DESCRIPTION, 0, `invalid protobuf in the field at byte ${at} (${why})`, source);
  }
  p.locs = columns.locs.finish();
  p.locStart = columns.locStart.finish();
  p.values = columns.values.finish();
  p.valueStart = columns.valueStart.finish();
  return p;
}

function decodeValueType(r: BinaryReader): [number, number] {
  let type = 0;
  let unit = 0;
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WireType.Varint) type = varint(r, true);
    else if (field === 2 && wire === WireType.Varint) unit = varint(r, true);
    else r.skip(wire, field);
  }
  return [type, unit];
}

/** Reads a Sample in place, from r.pos up to `end` (no sub-reader per sample). */
function decodeSample(r: BinaryReader, end: number, p: SampleColumns): void {
  while (r.pos < end) {
    const [field, wire] = r.tag();
    if (field === 1) readRepeated(r, wire, p.locs, false);
    else if (field === 2) readRepeated(r, wire, p.values, true);
    else r.skip(wire, field);
  }
  if (r.pos !== end) throw new Error('a sample field runs past the end of the sample');
  p.locStart.push(p.locs.length);
  p.valueStart.push(p.values.length);
}

function decodeMapping(r: BinaryReader): [number, PprofMapping] {
  let id = 0;
  const m: PprofMapping = { start: 0, limit: 0, offset: 0, filename: 0, buildId: 0 };
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    if (wire !== WireType.Varint) r.skip(wire, field);
    else if (field === 1) id = varint(r, false);
    else if (field === 2) m.start = varint(r, false);
    else if (field === 3) m.limit = varint(r, false);
    else if (field === 4) m.offset = varint(r, false);
    else if (field === 5) m.filename = varint(r, true);
    else if (field === 6) m.buildId = varint(r, true);
    else r.skip(wire, field);
  }
  return [id, m];
}

function decodeLocation(r: BinaryReader): [number, PprofLocation] {
  let id = 0;
  const location: PprofLocation = { mapping: 0, address: 0, functions: [], lines: [] };
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WireType.Varint) id = varint(r, false);
    else if (field === 2 && wire === WireType.Varint) location.mapping = varint(r, false);
    else if (field === 3 && wire === WireType.Varint) location.address = varint(r, false);
    else if (field === 4 && wire === WireType.LengthDelimited) {
      const [fn, line] = decodeLine(sub(r));
      location.functions.push(fn);
      location.lines.push(line);
    }
    else r.skip(wire, field);
  }
  return [id, location];
}

function decodeLine(r: BinaryReader): [number, number] {
  let fn = 0;
  let line = 0;
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WireType.Varint) fn = varint(r, false);
    else if (field === 2 && wire === WireType.Varint) line = varint(r, true);
    else r.skip(wire, field);
  }
  return [fn, line];
}

function decodeFunction(r: BinaryReader): [number, PprofFunction] {
  let id = 0;
  const fn: PprofFunction = { name: 0, systemName: 0, filename: 0 };
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    if (wire !== WireType.Varint) r.skip(wire, field);
    else if (field === 1) id = varint(r, false);
    else if (field === 2) fn.name = varint(r, true);
    else if (field === 3) fn.systemName = varint(r, true);
    else if (field === 4) fn.filename = varint(r, true);
    else r.skip(wire, field);
  }
  return [id, fn];
}

// Expected wire type of each top-level Profile field, for detection. 13 (comment) may be packed.
const TOP_WIRE: Record<number, number[]> = {
  1: [2], 2: [2], 3: [2], 4: [2], 5: [2], 6: [2], 7: [0], 8: [0], 9: [0], 10: [0],
  11: [2], 12: [0], 13: [0, 2], 14: [0], 15: [2],
};

/**
 * True when the head reads as the start of a Profile message: every top-level field has a known
 * number and its expected wire type, sample types and samples parse, and only the last field may
 * be cut off by the end of the head (or by the end of a truncated input, after two whole fields).
 */
export function looksLikePprof(head: Uint8Array, atEnd: boolean): boolean {
  if (head.length < 2 || !hasControlByte(head)) return false;
  const r = new BinaryReader(head, decodeUtf8);
  let fields = 0;
  let sawCore = false;
  let at = 0;
  try {
    while (r.pos < r.len) {
      at = r.pos;
      const [field, wire] = r.tag();
      const expected = TOP_WIRE[field];
      // Past a few well-formed fields it is a pprof profile, damaged further on: claimed, so that
      // decoding names the byte where it breaks instead of "binary data, expected perf script".
      if (!expected || !expected.includes(wire)) return damagedAfter(fields, sawCore);
      if (wire === WireType.Varint) {
        r.int64();
      } else {
        const length = r.uint32();
        if (r.pos + length > r.len) return sawCore && (!atEnd || fields >= 2);
        const body = new BinaryReader(head.subarray(r.pos, r.pos + length), decodeUtf8);
        r.pos += length;
        if (field === 1 || field === 11) {
          decodeValueType(body);
          sawCore = true;
        } else if (field === 2) {
          decodeSample(body, body.len, sampleColumns());
          sawCore = true;
        } else if (field >= 3 && field <= 6) {
          sawCore = true;
        }
      }
      fields++;
    }
  } catch {
    // A varint or tag cut off by the end of the head: more input follows, or the input is a
    // truncated profile (claimed, so that parsing reports the truncation).
    return (sawCore && (!atEnd || fields >= 2) && head.length - at <= 20) || damagedAfter(fields, sawCore);
  }
  return fields > 0 && sawCore;
}

/**
 * Whether `head` holds a byte below 0x20 other than tab, LF and CR. Every profile does (the tags
 * of its messages' first fields, 0x08 and 0x10, and most lengths); a text does not, and a folded
 * file of a few lines can read as protobuf by chance (fast-check found one: `zA` is field 15 with
 * 65 bytes, and a later `\n` field 1).
 */
function hasControlByte(head: Uint8Array): boolean {
  for (let i = 0; i < head.length; i++) {
    const b = head[i];
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return true;
  }
  return false;
}

/** Enough well-formed profile fields before the damage that the input is a broken pprof, not something else. */
const damagedAfter = (fields: number, sawCore: boolean) => sawCore && fields >= 3;
