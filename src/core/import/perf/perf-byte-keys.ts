// Frame lines kept as bytes, for the perf importer's byte mode (./perf-bytes.ts): an arena of the
// bytes of every cached line, and a table from a line's bytes to its line id.
//
// Why bytes: most of a perf script is frame lines the importer has seen before. Decoding them
// into strings, slicing a string per line and comparing it with a kept string costs a copy of
// the input, an object per line for the GC, and a runtime call per comparison; comparing the
// input bytes with the kept bytes four at a time through DataViews costs none of that.
//
// Invariants: a key is the exact bytes of a line without its line end; the hash samples a few
// bytes where perf's frame lines differ (as ./perf-line-cache.ts does for strings) and a hit is
// confirmed byte for byte, so a collision costs time, never a wrong answer; ids are the caller's
// (≥ 1); the table is at most half full. Keys live in 1 MiB slabs, never moved (a doubling arena
// cost copies and fresh-page faults of ~3x its final size); a key is named by a REF,
// slab << 20 | offset; a line too long for a slab (over MAX_KEY bytes) is not kept.

import { markMutable } from '../../model/mutable-fields';
import { grown } from '../../model/grown';

/** A REF's slab is REF >>> SLAB_BITS, its offset REF & OFFSET_MASK. */
export const SLAB_BITS = 20;
const SLAB = 1 << SLAB_BITS;
export const OFFSET_MASK = SLAB - 1;
/** The longest line kept (longer ones are parsed each time they occur). */
export const MAX_KEY = SLAB >>> 4;

export class ByteKeys {
  /** DataViews of the slabs, by slab number (REF >>> 20). */
  readonly views: DataView[] = [];
  // Assigned twice (empty here, then in the constructor), so V8 never treats it as a constant
  // (see ../model/mutable-fields.ts) without markMutable copying a whole slab.
  private slab = new Uint8Array(0);
  private top = 0;
  // Per slot: [hash, id] (id 0 = empty). Per id: the key's REF and length.
  private table = new Int32Array(2 * 4096);
  private mask = 4095;
  private count = 0;
  private offset = new Int32Array(4096);
  private length = new Int32Array(4096);

  constructor() {
    // After markMutable, which replaces the slab by a copy: the view must see the slab written.
    markMutable(this, ['table', 'mask', 'offset', 'length']);
    this.slab = new Uint8Array(SLAB);
    this.views.push(new DataView(this.slab.buffer));
  }

  lengthOf(id: number): number {
    return this.length[id];
  }

  /** The id whose key equals input[start, end), or -1. `dv` views the same bytes as `input`. */
  find(input: Uint8Array, dv: DataView, start: number, end: number): number {
    const h = byteLineHash(input, start, end);
    const table = this.table;
    const mask = this.mask;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const id = table[2 * slot + 1];
      if (id === 0) return -1;
      if (table[2 * slot] !== h || this.length[id] !== end - start) continue;
      const ref = this.offset[id];
      if (bytesEqual(dv, start, this.views[ref >>> SLAB_BITS], ref & OFFSET_MASK, end - start)) return id;
    }
  }

  /** Keeps input[start, end) as the key of `id` (≥ 1, not present yet); returns its REF, or -1. */
  add(input: Uint8Array, start: number, end: number, id: number): number {
    const n = end - start;
    if (n > MAX_KEY) return -1;
    if (this.top + n > SLAB) this.nextSlab();
    const at = this.top;
    // A byte loop: not set(subarray()), since a typed-array view costs more to create than a
    // line to copy, nor four bytes at a time through DataViews (measured slower).
    const slab = this.slab;
    for (let i = 0; i < n; i++) slab[at + i] = input[start + i];
    this.top += n;
    return this.insert(id, at, n, byteLineHash(slab, at, at + n));
  }

  /** Keeps the UTF-8 bytes of `text` as the key of `id`; returns its REF, or -1. */
  addText(text: string, id: number): number {
    if (text.length * 3 > MAX_KEY) return -1;
    if (this.top + text.length * 3 > SLAB) this.nextSlab();
    const at = this.top;
    const { written } = ENCODER.encodeInto(text, this.slab.subarray(at));
    this.top += written;
    return this.insert(id, at, written, byteLineHash(this.slab, at, at + written));
  }

  private nextSlab(): void {
    this.slab = new Uint8Array(SLAB);
    this.top = 0;
    this.views.push(new DataView(this.slab.buffer));
  }

  private insert(id: number, at: number, n: number, h: number): number {
    const ref = ((this.views.length - 1) << SLAB_BITS) | at;
    if (id >= this.offset.length) {
      const size = Math.max(id + 1, this.offset.length * 2);
      this.offset = grown(this.offset, size);
      this.length = grown(this.length, size);
    }
    this.offset[id] = ref;
    this.length[id] = n;
    if (++this.count * 2 > this.mask) this.rehash();
    this.place(h, id);
    return ref;
  }

  private place(h: number, id: number): void {
    let slot = h & this.mask;
    while (this.table[2 * slot + 1] !== 0) slot = (slot + 1) & this.mask;
    this.table[2 * slot] = h;
    this.table[2 * slot + 1] = id;
  }

  private rehash(): void {
    const old = this.table;
    const size = (this.mask + 1) * 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    for (let s = 0; s < old.length; s += 2) if (old[s + 1] !== 0) this.place(old[s], old[s + 1]);
  }
}

const ENCODER = new TextEncoder();

/**
 * Whether a[aAt, aAt + n) equals b[bAt, bAt + n), eight bytes at a time read as doubles (half the
 * reads of 32-bit integers). Doubles are equal exactly when their bits are, except +0 and -0
 * (equal) and NaNs (never equal): those two cases, which text hardly ever holds, are settled by
 * comparing the eight bytes as two integers.
 */
export function bytesEqual(a: DataView, aAt: number, b: DataView, bAt: number, n: number): boolean {
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const x = a.getFloat64(aAt + i, true);
    const y = b.getFloat64(bAt + i, true);
    if (x !== y) {
      // Different values: different bits, unless x is a NaN (which equals nothing).
      if (x === x) return false;
    } else if (x !== 0) continue;
    if (a.getInt32(aAt + i, true) !== b.getInt32(bAt + i, true)) return false;
    if (a.getInt32(aAt + i + 4, true) !== b.getInt32(bAt + i + 4, true)) return false;
  }
  for (; i < n; i++) if (a.getUint8(aAt + i) !== b.getUint8(bAt + i)) return false;
  return true;
}

/**
 * A hash of bytes[start, end) from sampled bytes (see sampledLineHash in ./perf-line-cache.ts for
 * the positions): equal byte strings always hash equal.
 */
export function byteLineHash(b: Uint8Array, start: number, end: number): number {
  const n = end - start;
  let h = Math.imul(n, 0x9e3779b1);
  if (n >= 40) {
    h = Math.imul(h ^ b[start + 13], 0x85ebca6b);
    h = Math.imul(h ^ b[start + 14], 0xc2b2ae35);
    h = Math.imul(h ^ b[start + 15], 0x85ebca6b);
    h = Math.imul(h ^ b[start + 16], 0xc2b2ae35);
    h = Math.imul(h ^ b[start + (n >>> 1)], 0x85ebca6b);
    h = Math.imul(h ^ b[start + (n >>> 2) + (n >>> 1)], 0xc2b2ae35);
    h = Math.imul(h ^ b[start + 18 + (n >>> 3)], 0x85ebca6b);
    h = Math.imul(h ^ b[start + 18 + (n >>> 2)], 0xc2b2ae35);
    h = Math.imul(h ^ b[start + 12], 0x85ebca6b);
    h = Math.imul(h ^ b[end - 2], 0xc2b2ae35);
    h = Math.imul(h ^ b[end - 3], 0x85ebca6b);
    h = Math.imul(h ^ b[end - 6], 0xc2b2ae35);
    h = Math.imul(h ^ b[end - 9], 0x85ebca6b);
    h = Math.imul(h ^ b[end - 12], 0xc2b2ae35);
    h = Math.imul(h ^ b[end - 14], 0x85ebca6b);
  } else {
    for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], 0x85ebca6b);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

