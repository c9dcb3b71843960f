// Frame line text → line id, for the perf script importer's cache of distinct frame lines.
//
// A Map<string, number> hashes every character of every looked-up line (~100 per frame line,
// most of the importer's time in CPU profiles). Here the hash samples a few characters where
// perf's frame lines differ: the length, the end of the right-aligned address column, the start
// of the symbol, a few spread positions, and the last characters (offset and DSO). A hit is
// confirmed by string equality, so a collision costs time, never a wrong answer.
//
// Invariants: open addressing with linear probing over typed arrays; keys are stored as given
// (callers pass detached copies); ids are chosen by the caller and are ≥ 0; the table is at most
// half full.

const EMPTY = -1;

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
    for (let i = n - 14; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x85ebca6b);
  } else {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x85ebca6b);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

export class LineCache {
  private slots = new Int32Array(4096).fill(EMPTY);
  private mask = 4095;
  private keys: string[] = [];
  private hashes = new Int32Array(2048);
  private ids = new Int32Array(2048);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The id stored for `text`, or -1. */
  get(text: string): number {
    const h = sampledLineHash(text);
    const hashes = this.hashes;
    const keys = this.keys;
    for (let slot = h & this.mask; ; slot = (slot + 1) & this.mask) {
      const k = this.slots[slot];
      if (k === EMPTY) return -1;
      if (hashes[k] === h && keys[k] === text) return this.ids[k];
    }
  }

  /** Stores `id` for `text`, which must not be present yet. */
  set(text: string, id: number): void {
    const k = this.count++;
    if (k === this.hashes.length) {
      this.hashes = grow(this.hashes, k * 2);
      this.ids = grow(this.ids, k * 2);
    }
    const h = sampledLineHash(text);
    this.keys.push(text);
    this.hashes[k] = h;
    this.ids[k] = id;
    this.insert(k, h);
    if (this.count * 2 > this.mask) this.rehash();
  }

  private insert(k: number, h: number): void {
    let slot = h & this.mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & this.mask;
    this.slots[slot] = k;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(EMPTY);
    this.mask = this.slots.length - 1;
    for (let k = 0; k < this.count; k++) this.insert(k, this.hashes[k]);
  }
}

function grow(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
