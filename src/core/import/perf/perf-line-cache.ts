// Frame line text → line id, for the perf script importer's cache of distinct frame lines.
//
// A Map<string, number> hashes every character of every looked-up line (~100 per frame line,
// most of the importer's time in CPU profiles). Here the hash samples a few characters where
// perf's frame lines differ: the length, the end of the right-aligned address column, the start
// of the symbol, a few spread positions, and the last characters (offset and DSO). A hit is
// confirmed by string equality, so a collision costs time, never a wrong answer.
//
// Invariants: open addressing with linear probing over a typed array; keys are stored as given
// (callers pass detached copies); ids are chosen by the caller and are ≥ 0; the table is at most
// half full.

import { markMutable } from '../../model/mutable-fields';

/**
 * A hash of `text` from sampled characters; equal strings always hash equal. An int32 (not
 * `>>> 0`), so a call that is not inlined never returns a heap number.
 */
export function sampledLineHash(text: string): number {
  const n = text.length;
  let h = Math.imul(n, 0x9e3779b1);
  if (n >= 40) {
    // perf's layout: TAB, the address right-aligned in 16 columns, a space, the symbol.
    h = Math.imul(h ^ text.charCodeAt(13), 0x85ebca6b);
    h = Math.imul(h ^ text.charCodeAt(14), 0xc2b2ae35);
    h = Math.imul(h ^ text.charCodeAt(15), 0x85ebca6b);
    h = Math.imul(h ^ text.charCodeAt(16), 0xc2b2ae35);
    h = Math.imul(h ^ text.charCodeAt(n >>> 1), 0x85ebca6b);
    h = Math.imul(h ^ text.charCodeAt((n >>> 2) + (n >>> 1)), 0xc2b2ae35);
    h = Math.imul(h ^ text.charCodeAt(18 + (n >>> 3)), 0x85ebca6b);
    h = Math.imul(h ^ text.charCodeAt(18 + (n >>> 2)), 0xc2b2ae35);
    h = Math.imul(h ^ text.charCodeAt(12), 0x85ebca6b);
    // The end: the offset before a short DSO (`+0x79 (inlined)`), else the DSO's own name.
    h = Math.imul(h ^ text.charCodeAt(n - 2), 0xc2b2ae35);
    h = Math.imul(h ^ text.charCodeAt(n - 3), 0x85ebca6b);
    h = Math.imul(h ^ text.charCodeAt(n - 6), 0xc2b2ae35);
    h = Math.imul(h ^ text.charCodeAt(n - 9), 0x85ebca6b);
    h = Math.imul(h ^ text.charCodeAt(n - 12), 0xc2b2ae35);
    h = Math.imul(h ^ text.charCodeAt(n - 14), 0x85ebca6b);
  } else {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x85ebca6b);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

export class LineCache {
  // Per slot: [hash, id + 1] side by side (0 = empty), so a probe touches one cache line. The keys
  // are a dense array indexed by insertion order (slot value - 1 without the caller's id): an
  // array made with `new Array(n)` for n over ~100,000 is a dictionary in V8 (every key read a
  // hash lookup), which a table of 2^17 slots was, and which cost a fifth of the perf importer's
  // time on 50 MB inputs; an array grown by push() keeps fast elements.
  private table = new Int32Array(2 * 4096);
  private readonly keys: string[] = [];
  private readonly hashes: number[] = [];
  private readonly ids: number[] = [];
  private mask = 4095;

  constructor() {
    markMutable(this, ['table', 'mask']);
  }

  get size(): number {
    return this.keys.length;
  }

  /** The id stored for `text`, or -1. */
  get(text: string): number {
    const h = sampledLineHash(text);
    const table = this.table;
    const mask = this.mask;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const stored = table[2 * slot + 1];
      if (stored === 0) return -1;
      if (table[2 * slot] === h && this.keys[stored - 1] === text) return this.ids[stored - 1];
    }
  }

  /** Stores `id` (≥ 0) for `text`, which must not be present yet. */
  set(text: string, id: number): void {
    const h = sampledLineHash(text);
    this.keys.push(text);
    this.hashes.push(h);
    this.ids.push(id);
    this.place(h, this.keys.length);
    if (this.keys.length * 2 > this.mask) this.rehash();
  }

  private place(h: number, stored: number): void {
    let slot = h & this.mask;
    while (this.table[2 * slot + 1] !== 0) slot = (slot + 1) & this.mask;
    this.table[2 * slot] = h;
    this.table[2 * slot + 1] = stored;
  }

  private rehash(): void {
    const size = (this.mask + 1) * 2;
    this.table = new Int32Array(2 * size);
    this.mask = size - 1;
    for (let k = 0; k < this.keys.length; k++) this.place(this.hashes[k], k + 1);
  }
}
