// Evidence for perf's "doubled physical frame" artefact, gathered over a whole recording.
//
// In inline mode, perf 6.1 with addr2line sometimes prints one physical frame twice in a row
// (`sqlite3_step+0x23f` twice; `--no-inline` prints it once). Real recursion from one call site
// prints identical consecutive lines too. One sample cannot tell them apart; the recording can:
// a recursive call site is seen at depth 1 (a run of one line) or at odd depths, a doubled one
// only ever in runs of 2, 4, … . So runs are counted per (frame, return address) KEY:
//
//   key kinds bits: 1 = seen a run of length 1, 2 = an even run, 4 = an odd run ≥ 3
//   a key is doubled          ⇔ kinds === 2
//   a frame is doubled        ⇔ one of its keys is doubled, and every key of it that ever
//                               repeated is doubled (so halving its runs in the tree, which no
//                               longer knows addresses, never halves real recursion seen so far)
//
// Invariants: one open-addressing table in typed arrays (no allocation per line); addresses are
// the importer's interned address ids (small non-negative integers).

import { FrameFlags, type FrameIndex } from '../model/types';
import { markMutable } from '../model/mutable-fields';

const EMPTY = -1;
const RUN_ONE = 1;
const RUN_EVEN = 2;
const RUN_ODD_LONG = 4;

export interface RunEntries {
  frame: Int32Array;
  address: Int32Array;
  kinds: Uint8Array;
}

export class RunStats {
  private frame = new Int32Array(4096).fill(EMPTY);
  private address = new Int32Array(4096);
  private kinds = new Uint8Array(4096);
  private mask = 4095;
  private count = 0;
  // Per address id: frame + 1 of a key whose run of one is already noted (nearly every run is a
  // run of one, and noting it again changes nothing), so repeats skip the table.
  private onceNoted = new Int32Array(4096);

  constructor() {
    markMutable(this, ['frame', 'address', 'kinds', 'mask', 'onceNoted']);
  }

  /**
   * Notes the runs of identical consecutive physical lines (same frame, same address) of one
   * sample, frames leaf first in stack[0, depth). An inlined frame between two equal physical
   * frames breaks the run, as it does in the function view.
   */
  noteStack(stack: Int32Array, address: Int32Array, depth: number, frames: { flagsOf(frame: FrameIndex): number }): void {
    let prevFrame = -1;
    let prevAddress = 0;
    let run = 0;
    for (let i = depth - 1; i >= 0; i--) {
      const f = stack[i];
      const a = address[i];
      if (f === prevFrame && a === prevAddress) {
        run++;
        continue;
      }
      if (run > 0) this.note(prevFrame, prevAddress, run);
      if (frames.flagsOf(f) & FrameFlags.INLINED) {
        prevFrame = -1;
        run = 0;
      } else {
        prevFrame = f;
        prevAddress = a;
        run = 1;
      }
    }
    if (run > 0) this.note(prevFrame, prevAddress, run);
  }

  /** Notes a run of `length` identical consecutive physical lines of (frame, address id). */
  note(frame: FrameIndex, address: number, length: number): void {
    if (length === 1) {
      if (address < this.onceNoted.length && this.onceNoted[address] === frame + 1) return;
      this.add(frame, address, RUN_ONE);
      if (address >= this.onceNoted.length) {
        const grown = new Int32Array(Math.max(address + 1, this.onceNoted.length * 2));
        grown.set(this.onceNoted);
        this.onceNoted = grown;
      }
      this.onceNoted[address] = frame + 1;
      return;
    }
    this.add(frame, address, length % 2 === 0 ? RUN_EVEN : RUN_ODD_LONG);
  }

  /**
   * Every key noted, as columns (frame, address id, kinds bits): the evidence of one part of a
   * split input, which the merge ORs into one table (../parallel/).
   */
  entries(): RunEntries {
    const frame = new Int32Array(this.count);
    const address = new Int32Array(this.count);
    const kinds = new Uint8Array(this.count);
    let k = 0;
    for (let slot = 0; slot <= this.mask; slot++) {
      if (this.frame[slot] === EMPTY) continue;
      frame[k] = this.frame[slot];
      address[k] = this.address[slot];
      kinds[k++] = this.kinds[slot];
    }
    return { frame, address, kinds };
  }

  /** Adds another table's evidence for one key (kinds bits are ORed, as note() does). */
  addKinds(frame: FrameIndex, address: number, kinds: number): void {
    this.add(frame, address, kinds);
  }

  private add(frame: FrameIndex, address: number, kind: number): void {
    let slot = hash(frame, address) & this.mask;
    for (;;) {
      const f = this.frame[slot];
      if (f === EMPTY) break;
      if (f === frame && this.address[slot] === address) {
        this.kinds[slot] |= kind;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
    this.frame[slot] = frame;
    this.address[slot] = address;
    this.kinds[slot] = kind;
    if (++this.count * 2 > this.mask) this.grow();
  }

  /** Frames judged doubled by the rule in the module comment, ascending. */
  doubledFrames(): Int32Array {
    const doubledKey = new Set<number>();
    const vetoed = new Set<number>();
    for (let slot = 0; slot <= this.mask; slot++) {
      const f = this.frame[slot];
      if (f === EMPTY) continue;
      const k = this.kinds[slot];
      if (k === RUN_EVEN) doubledKey.add(f);
      else if (k & RUN_ODD_LONG || (k & RUN_EVEN && k & RUN_ONE)) vetoed.add(f);
    }
    return Int32Array.from([...doubledKey].filter((f) => !vetoed.has(f)).sort((a, b) => a - b));
  }

  private grow(): void {
    const oldFrame = this.frame;
    const oldAddress = this.address;
    const oldKinds = this.kinds;
    const size = oldFrame.length * 2;
    this.frame = new Int32Array(size).fill(EMPTY);
    this.address = new Int32Array(size);
    this.kinds = new Uint8Array(size);
    this.mask = size - 1;
    for (let i = 0; i < oldFrame.length; i++) {
      if (oldFrame[i] === EMPTY) continue;
      let slot = hash(oldFrame[i], oldAddress[i]) & this.mask;
      while (this.frame[slot] !== EMPTY) slot = (slot + 1) & this.mask;
      this.frame[slot] = oldFrame[i];
      this.address[slot] = oldAddress[i];
      this.kinds[slot] = oldKinds[i];
    }
  }
}

function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ 0x7f4a7c15, 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}
