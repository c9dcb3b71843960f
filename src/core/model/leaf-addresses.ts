// Where in its function each sample was: the sampled instruction's offset within its symbol,
// kept beside the call tree (never in it: a frame stays its name and flags), so the self weight
// per instruction of a function is a query (../query/leaf-addresses.ts), not a re-parse.
//
//   row │ frame (physical leaf) │ offset │ weight │ samples
//   ────┼───────────────────────┼────────┼────────┼────────
//    0  │ work                  │ 0x19   │ 3000   │ 3
//    1  │ work                  │ 0x1d   │ 1000   │ 1
//
// Invariants:
// - one row per distinct (frame, offset); rows sorted by frame, then offset;
// - `frame` is the PHYSICAL frame of the sample's first address (the ELF symbol perf printed as
//   `symbol+0xOFFSET`, never an `(inlined)` one), so its module is the DSO to disassemble;
// - a sample whose leaf has no offset (`[unknown]`, a JIT map, a format without addresses) has
//   no row: the rows' weights sum to at most the tree's total;
// - memory is one row per distinct sampled instruction, bounded by the code that ran, not by the
//   number of samples;
// - with `process` (pprof: Location.address, no symbol start known) the `offset` column holds the
//   instruction's address in the process instead, and `process.mappings` place each address in a
//   file (what `flameview annotate` needs to find it in the binary); addresses past 2^53 (kernel
//   addresses) are not kept, since a double cannot hold them exactly.

import type { FrameIndex } from './types';

export interface LeafAddresses {
  readonly count: number;
  readonly frame: Int32Array;
  /** Offset of the sampled instruction from its symbol's start, in bytes. */
  readonly offset: Float64Array;
  readonly weight: Float64Array;
  readonly samples: Float64Array;
  /** Present when `offset` is an address in the process (pprof), not an offset in the symbol. */
  readonly process?: { readonly mappings: readonly AddressMapping[] };
}

/** A pprof Mapping: where a file was mapped in the process (memory_start, memory_limit, file_offset). */
export interface AddressMapping {
  file: string;
  start: number;
  limit: number;
  /** The file offset mapped at `start`. */
  offset: number;
  /** The binary's build id as the profile recorded it ('' when none). */
  buildId: string;
}

export class LeafAddressesBuilder {
  // frame → offset → row.
  private readonly rows = new Map<number, Map<number, number>>();
  private frame: number[] = [];
  private offset: number[] = [];
  private weight: number[] = [];
  private samples: number[] = [];

  get size(): number {
    return this.frame.length;
  }

  add(frame: FrameIndex, offset: number, weight: number, samples: number): void {
    let byOffset = this.rows.get(frame);
    if (byOffset === undefined) {
      byOffset = new Map();
      this.rows.set(frame, byOffset);
    }
    let row = byOffset.get(offset);
    if (row === undefined) {
      row = this.frame.length;
      byOffset.set(offset, row);
      this.frame.push(frame);
      this.offset.push(offset);
      this.weight.push(0);
      this.samples.push(0);
    }
    this.weight[row] += weight;
    this.samples[row] += samples;
  }

  /** Adds every row of `data`, its frames mapped by `frameMap` (null: the same frames). */
  addAll(data: LeafAddresses, frameMap: Int32Array | null): void {
    for (let i = 0; i < data.count; i++) {
      this.add(frameMap ? frameMap[data.frame[i]] : data.frame[i], data.offset[i], data.weight[i], data.samples[i]);
    }
  }

  /** `mappings`: the rows hold addresses in the process (pprof), placed in files by these. */
  finish(mappings?: readonly AddressMapping[]): LeafAddresses {
    const n = this.frame.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => this.frame[a] - this.frame[b] || this.offset[a] - this.offset[b]);
    const out = { count: n, frame: new Int32Array(n), offset: new Float64Array(n), weight: new Float64Array(n), samples: new Float64Array(n), ...(mappings ? { process: { mappings } } : {}) };
    order.forEach((row, i) => {
      out.frame[i] = this.frame[row];
      out.offset[i] = this.offset[row];
      out.weight[i] = this.weight[row];
      out.samples[i] = this.samples[row];
    });
    return out;
  }
}
