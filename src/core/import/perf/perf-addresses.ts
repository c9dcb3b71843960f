// Frame addresses of `perf script` lines → small dense ids, for address-group and run detection
// (./perf-stack.ts, ./perf-runs.ts), which only ever ask whether two addresses are equal.
//
// Why not a Map<string, number>: a recording has hundreds of thousands of distinct return
// addresses (243k in the 1 GB bench input), and each first sight of a frame line paid a slice, a
// full string hash and a lookup in that big Map, plus a detached copy of the text to keep
// (~0.9 µs together, 7 % of the importer's time at 1 GB). Here the hex digits are read straight
// from the line into two 32-bit halves and looked up in an open-addressing table of typed arrays.
//
// Invariants: equal numeric values get equal ids (so `0278ef` and `278ef` are one address; perf
// prints no leading zeros anyway); ids are 0, 1, 2, … in order of first sight; an address of more
// than 16 significant hex digits (not a 64-bit value, so not from perf) falls back to its text.

import { markMutable } from '../../model/mutable-fields';

const EMPTY = 0;

/** AddressTable.data(). */
export interface AddressData {
  count: number;
  slots: Int32Array;
  long: { id: number; text: string }[];
}

export class AddressTable {
  // Per slot: [high 32 bits, low 32 bits, id + 1] (0 = empty).
  private slots = new Int32Array(3 * 4096);
  private mask = 4095;
  private count = 0;
  private readonly long = new Map<string, number>();

  constructor() {
    markMutable(this, ['slots', 'mask']);
  }

  get size(): number {
    return this.count;
  }

  /** The id of the hex address text[start, end) (hex digits only, as parseFrame checked). */
  id(text: string, start: number, end: number): number {
    while (start < end - 1 && text.charCodeAt(start) === 48 /* 0 */) start++;
    if (end - start > 16) return this.longId(text.slice(start, end));
    const split = Math.max(start, end - 8);
    return this.pairId(parseHex(text, start, split), parseHex(text, split, end));
  }

  /** The id of the address whose high and low 32 bits are `hi`, `lo`. */
  pairId(hi: number, lo: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let slot = hashPair(hi, lo) & mask;
    for (;;) {
      const stored = slots[3 * slot + 2];
      if (stored === EMPTY) break;
      if (slots[3 * slot + 1] === lo && slots[3 * slot] === hi) return stored - 1;
      slot = (slot + 1) & mask;
    }
    const id = this.count++;
    slots[3 * slot] = hi;
    slots[3 * slot + 1] = lo;
    slots[3 * slot + 2] = id + 1;
    if (this.count * 2 > mask) this.grow();
    return id;
  }

  /** The id of an address of more than 16 hex digits (leading zeros removed). */
  longId(text: string): number {
    let id = this.long.get(text);
    if (id === undefined) {
      id = this.count++;
      this.long.set((' ' + text).slice(1), id);
    }
    return id;
  }

  /** The table as plain data: (hi, lo, id + 1) triples, 0 = empty, and the long addresses by id. */
  data(): AddressData {
    return { count: this.count, slots: this.slots, long: [...this.long].map(([text, id]) => ({ id, text })) };
  }

  /** Per id of `data` (another table's), this table's id of the same address. */
  mapFrom(data: AddressData): Int32Array {
    const map = new Int32Array(data.count);
    const s = data.slots;
    for (let i = 0; i < s.length; i += 3) if (s[i + 2] !== EMPTY) map[s[i + 2] - 1] = this.pairId(s[i], s[i + 1]);
    for (const { id, text } of data.long) map[id] = this.longId(text);
    return map;
  }

  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    const slots = new Int32Array(3 * size);
    const mask = size - 1;
    for (let s = 0; s < old.length; s += 3) {
      if (old[s + 2] === EMPTY) continue;
      let slot = hashPair(old[s], old[s + 1]) & mask;
      while (slots[3 * slot + 2] !== EMPTY) slot = (slot + 1) & mask;
      slots[3 * slot] = old[s];
      slots[3 * slot + 1] = old[s + 1];
      slots[3 * slot + 2] = old[s + 2];
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** Up to 8 hex digits as an int32 (the bit pattern of the 32-bit value). */
function parseHex(text: string, start: number, end: number): number {
  let v = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    const d = c <= 57 ? c - 48 : (c | 32) - 87;
    v = (v << 4) | d;
  }
  return v;
}

function hashPair(a: number, b: number): number {
  let h = Math.imul(a ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}
