// Self weight per instruction of a function, from the sampled instructions kept beside the tree
// (../model/leaf-addresses.ts): what `perf annotate --percent-type local-period` shows, before
// any disassembly. One block per physical symbol the function is (a name in two DSOs is two
// blocks), each with its offsets in address order and each offset's share of the block.
//
// Invariants: a block's rows' weights sum to its `self`; shares are of the block's own self
// weight (local period), in percent; blocks are sorted by self weight, heaviest first; linear in
// the table's rows.

import type { Profile } from '../model/profile';
import type { FrameIndex } from '../model/types';
import type { AddressMapping } from '../model/leaf-addresses';

/** What the query reads of a recording (the profile worker keeps only this for the Assembly panel). */
export type AddressesProfile = Pick<Profile, 'frames' | 'functionFrames' | 'leafAddresses'>;

export interface OffsetWeight {
  /** Offset of the instruction from the symbol's start, in bytes; with `SymbolOffsets.mappings`, its address in the process. */
  offset: number;
  weight: number;
  samples: number;
  /** Percent of the block's self weight. */
  share: number;
}

export interface SymbolOffsets {
  frame: FrameIndex;
  /** The symbol as perf printed it, and its DSO (null: unknown). */
  name: string;
  dso: string | null;
  self: number;
  samples: number;
  rows: OffsetWeight[];
  /**
   * Present when the rows hold addresses in the process, not offsets (pprof records no symbol
   * start): the recording's mappings of this block's DSO, which place them in its file.
   */
  mappings?: AddressMapping[];
}

/**
 * The sampled offsets of the frames marked in `match` (a mask over the function view's frames,
 * as ./source-lines.ts `framesMatching` gives): null when the recording kept no addresses.
 */
export function functionOffsets(profile: AddressesProfile, match: Uint8Array): SymbolOffsets[] | null {
  const data = profile.leafAddresses;
  if (!data) return null;
  const { frames } = profile;
  const rename = profile.functionFrames ?? null;
  const blocks: SymbolOffsets[] = [];
  let block: SymbolOffsets | null = null;
  for (let i = 0; i < data.count; i++) {
    const f = data.frame[i];
    if (match[rename ? rename[f] : f] !== 1) continue;
    if (block === null || block.frame !== f) {
      const dsoIndex: number = frames.module[f];
      const dso: string | null = dsoIndex >= 0 ? frames.strings[dsoIndex] : null;
      block = { frame: f, name: frames.strings[frames.name[f]], dso, self: 0, samples: 0, rows: [] };
      if (data.process) block.mappings = data.process.mappings.filter((m) => m.file === dso);
      blocks.push(block);
    }
    block.self += data.weight[i];
    block.samples += data.samples[i];
    block.rows.push({ offset: data.offset[i], weight: data.weight[i], samples: data.samples[i], share: 0 });
  }
  for (const b of blocks) for (const row of b.rows) row.share = b.self > 0 ? (100 * row.weight) / b.self : 0;
  return blocks.sort((a, b) => b.self - a.self);
}

/** The `limit` heaviest rows of a block, heaviest first (ties: lower offset first). */
export function hottestOffsets(block: SymbolOffsets, limit: number): OffsetWeight[] {
  return [...block.rows].sort((a, b) => b.weight - a.weight || a.offset - b.offset).slice(0, limit);
}
