// The Assembly panel's model: a function's disassembly as the file server answers it (the shape
// src/node/disasm.ts makes, checked here because it arrives as JSON), turned into the rows the
// listing shows, or, without binaries, the table of its hottest sampled offsets.
//
// Invariants: every row is an instruction (gutter `+0xOFFSET`) or a source label (`file:line`,
// no weight); a jump within the function names its target's row, which exists; `hottest` is the
// heaviest instruction's row (-1 when none was sampled); shares are of the function's self weight
// (perf annotate's local period). An answer of the wrong shape is an error string, never a throw.

import type { SymbolOffsets } from './leaf-addresses';

export type ListingRow =
  | { kind: 'source'; file: string; line: number }
  | {
      kind: 'insn';
      offset: number;
      address: string;
      text: string;
      weight: number;
      samples: number;
      share: number;
      /** A jump or call within the function: the target's offset. */
      target?: number;
    };

export interface Disassembly {
  function: string;
  dso: string | null;
  /** The file disassembled, or null when none could be. */
  binary: string | null;
  self: number;
  samples: number;
  /** The build id check: null when the recording or the binary has none. */
  buildId: { recorded: string; found: string | null; matches: boolean } | null;
  /** Why there is no listing, or what is wrong with it (build id mismatch): one sentence each. */
  problems: string[];
  /** The instructions with source labels between them; empty when there is no binary. */
  listing: ListingRow[];
  /** Every sampled offset (the page's table without binaries, and the fallback here). */
  offsets: { offset: number; weight: number; samples: number; share: number }[];
  /** True when `offsets` are addresses in the process (pprof), not offsets in the symbol. */
  absolute?: boolean;
}

export interface AsmRow {
  kind: 'insn' | 'source';
  gutter: string;
  text: string;
  weight: number;
  /** The row a jump within the function lands on (-1: none). */
  jumpTo: number;
  /** How the jump's target reads beside the instruction: `→ +0x1d`. */
  jumpLabel: string | null;
}

export interface AsmListing {
  rows: AsmRow[];
  hottest: number;
  /** The function's self weight: what 100 % stands for. */
  all: number;
}

/**
 * Why a DSO as the recording names it cannot be disassembled from a file, with what to pass, or
 * null when it is a file (which may still be missing: the file server says so).
 */
export function dsoProblem(dso: string | null): string | null {
  if (dso === null || dso === '[unknown]') return 'the recording does not say which binary this function is in: only its sampled offsets are shown';
  if (dso.startsWith('[')) return `${dso} is not a file: kernel code needs a readable vmlinux with symbols (perf annotate --vmlinux; flameview does not read it yet): only the sampled offsets are shown`;
  if (isJitDso(dso)) return `${dso} is JIT code: its instructions existed only in the running process (record with the runtime's perf jitdump and perf inject --jit): only the sampled offsets are shown`;
  return null;
}

/** Whether a DSO name is a file one could disassemble (not `[kernel.kallsyms]`, `[vdso]`, `[unknown]`, a JIT map). */
export function isFileDso(dso: string): boolean {
  return dsoProblem(dso) === null;
}

function isJitDso(dso: string): boolean {
  return /\/perf-\d+\.map$/.test(dso) || dso.includes('jitted-') || dso === '//anon';
}

export const hex = (offset: number): string => `+0x${offset.toString(16)}`;

/** The rows of a served disassembly (empty when it has no listing). */
export function asmListing(d: Disassembly): AsmListing {
  const rows: AsmRow[] = [];
  const rowOf = new Map<number, number>();
  let hottest = -1;
  for (const r of d.listing) {
    if (r.kind === 'source') {
      rows.push({ kind: 'source', gutter: '', text: `${r.file}:${r.line}`, weight: 0, jumpTo: -1, jumpLabel: null });
      continue;
    }
    rowOf.set(r.offset, rows.length);
    if (r.weight > 0 && (hottest < 0 || r.weight > rows[hottest].weight)) hottest = rows.length;
    rows.push({ kind: 'insn', gutter: hex(r.offset), text: r.text, weight: r.weight, jumpTo: -1, jumpLabel: null });
  }
  let i = 0;
  for (const r of d.listing) {
    if (r.kind === 'insn' && r.target !== undefined) {
      const to = rowOf.get(r.target);
      if (to !== undefined) {
        rows[i].jumpTo = to;
        rows[i].jumpLabel = `→ ${hex(r.target)}`;
      }
    }
    i++;
  }
  return { rows, hottest, all: d.self };
}

/**
 * The `limit` hottest offsets of a symbol, as `+0x195: 31 %` reads (heaviest first); a block of
 * addresses in the process (pprof) reads `0x4a8968` instead, the address itself.
 */
export function hottestTable(block: Pick<SymbolOffsets, 'rows' | 'mappings'>, limit = 50): { gutter: string; weight: number; share: number }[] {
  const gutter = block.mappings ? (a: number) => `0x${a.toString(16)}` : hex;
  return [...block.rows]
    .sort((a, b) => b.weight - a.weight || a.offset - b.offset)
    .slice(0, limit)
    .map((r) => ({ gutter: gutter(r.offset), weight: r.weight, share: r.share }));
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

/** The server's answer checked field by field; an error sentence for anything else. */
export function checkDisassembly(v: unknown): Disassembly | string {
  const bad = (what: string) => `the disassembly answer has ${what}`;
  if (!v || typeof v !== 'object') return bad('no object');
  const d = v as Record<string, unknown>;
  if (!isStr(d.function) || !(d.dso === null || isStr(d.dso)) || !(d.binary === null || isStr(d.binary))) return bad('no function, dso or binary');
  if (!isNum(d.self) || !isNum(d.samples)) return bad('no self weight');
  if (!Array.isArray(d.problems) || !d.problems.every(isStr)) return bad('no problems list');
  if (!Array.isArray(d.listing) || !Array.isArray(d.offsets)) return bad('no listing');
  for (const r of d.listing as Record<string, unknown>[]) {
    if (r?.kind === 'source' ? !isStr(r.file) || !isNum(r.line) : r?.kind !== 'insn' || !isNum(r.offset) || !isStr(r.text) || !isStr(r.address) || !isNum(r.weight) || !isNum(r.share) || !(r.target === undefined || isNum(r.target))) {
      return bad('a listing row of the wrong shape');
    }
  }
  for (const o of d.offsets as Record<string, unknown>[]) if (!isNum(o?.offset) || !isNum(o?.weight) || !isNum(o?.share)) return bad('an offset of the wrong shape');
  if (!(d.absolute === undefined || typeof d.absolute === 'boolean')) return bad('an absolute flag that is no boolean');
  const b = d.buildId as Record<string, unknown> | null;
  if (!(b === null || (b && typeof b === 'object' && isStr(b.recorded) && typeof b.matches === 'boolean'))) return bad('a build id of the wrong shape');
  return v as Disassembly;
}
