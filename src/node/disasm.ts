// The instructions of one function of a recording, from its binary on this machine: finds the DSO
// (honouring --symfs as perf does), the symbol's range (`nm`), disassembles it (`objdump -d -l`),
// checks the binary's build id against the recording's, and joins the sampled offsets
// (src/core/query/leaf-addresses.ts) onto the instructions. Shared by `flameview annotate` and the
// file server's disassembly route.
//
// Decisions: a symbol is found by its name as perf prints it (demangled, no parameters, no return
// type); when several symbols carry it (static functions of two files), the one long enough for
// every sampled offset wins. Every reason the listing cannot be made (kernel without vmlinux, JIT
// code, a missing binary, no objdump) is one sentence saying why and what to pass; the offsets
// alone are still returned. Tool output is bounded (maxBuffer) and every tool has a timeout.
//
// pprof records addresses in the process, not offsets in symbols: an address is placed in its file
// through the profile's mapping (address − memory_start + file_offset), then in the ELF's virtual
// addresses through the LOAD program header holding that file offset (as pprof's elfexec does),
// and the symbol that holds every sampled address gives the offsets; the mapping's build id is
// checked as perf.data's are.

import { execFile } from 'node:child_process';
import { access, constants, mkdir, realpath, symlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { OffsetWeight, SymbolOffsets } from '../core/query/leaf-addresses';
import type { AddressMapping } from '../core/model/leaf-addresses';
import { dsoProblem, type Disassembly, type ListingRow } from '../core/query/disassembly';

const run = promisify(execFile);
const TOOL_TIMEOUT_MS = 30_000;
const MAX_TOOL_OUTPUT = 64 * 1024 * 1024;
/** A function listing longer than this is cut (a symbol's range from a corrupt table). */
export const MAX_INSTRUCTIONS = 20_000;

export type { Disassembly, ListingRow };

export interface DisasmOptions {
  /** perf's --symfs: the root the recording machine's files are under. */
  symfs?: string;
  /** Build ids of the recording by DSO path (perf buildid-list); absent: not checked. */
  buildIds?: Map<string, string>;
  objdump?: string;
  /** Finds the DSO's file (default: where perf would look, `binaryCandidates`); the file server passes one that asks its FileGuard. */
  locate?: (dso: string) => Promise<string | null>;
}

/** `perf buildid-list` output → DSO path → build id. */
export function parseBuildIds(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{8,}) (.+)$/.exec(line.trim());
    if (m) out.set(m[2], m[1]);
  }
  return out;
}

/** The recording's build ids, from `perf buildid-list -i FILE`; empty when perf cannot say. */
export async function recordedBuildIds(perfData: string): Promise<Map<string, string>> {
  try {
    const { stdout } = await run('perf', ['buildid-list', '-i', perfData], { timeout: TOOL_TIMEOUT_MS, maxBuffer: MAX_TOOL_OUTPUT });
    return parseBuildIds(stdout);
  } catch {
    return new Map();
  }
}

/**
 * A build-id cache of one run's own (perf's `--buildid-dir`, created in `into`) holding the
 * recording's binaries that perf would not find (not at their recorded paths with the recorded
 * build id, not in ~/.debug's build-id cache) but `symfs` has (DIR/path, then DIR/basename, as
 * the disassembler looks), each only when its build id is the recorded one. Without them a
 * recording made on another machine, or of a binary since moved, prints `[unknown]` for their
 * functions, where `perf annotate --symfs` would name them. perf reads this cache in place of
 * ~/.debug, so what ~/.debug holds of the recording (binaries since moved, [vdso], a kernel's
 * kallsyms) is linked into it too; ~/.debug is never written. Returns how many binaries came
 * from `symfs` (none: the caller need not pass the cache at all).
 */
export async function symfsBuildIdCache(perfData: string, symfs: string, into: string, home = process.env.HOME ?? ''): Promise<number> {
  let held = 0;
  const ids = await recordedBuildIds(perfData);
  const cached = (id: string) => (home ? join(home, '.debug', '.build-id', id.slice(0, 2), id.slice(2)) : '');
  for (const [dso, id] of ids) {
    if (dso.startsWith('[')) continue; // [kernel.kallsyms], [vdso]: not files
    if ((await readable(dso)) && (await fileBuildId(dso)) === id) continue;
    if (home && (await readable(cached(id)))) continue;
    for (const candidate of binaryCandidates(dso, symfs)) {
      if (!(await readable(candidate)) || (await fileBuildId(candidate)) !== id) continue;
      try {
        await run('perf', ['--buildid-dir', into, 'buildid-cache', '--add', candidate], { timeout: TOOL_TIMEOUT_MS, maxBuffer: MAX_TOOL_OUTPUT });
        held++;
      } catch {
        // perf could not copy it: that binary's functions stay unnamed, as without --symfs.
      }
      break;
    }
  }
  if (held > 0 && home) for (const id of new Set(ids.values())) await linkCached(cached(id), join(into, '.build-id', id.slice(0, 2), id.slice(2)));
  return held;
}

/** Links a ~/.debug build-id entry (itself a link to the cached copy) into another cache, when it exists and that one has none. */
async function linkCached(entry: string, link: string): Promise<void> {
  try {
    const target = await realpath(entry);
    await mkdir(dirname(link), { recursive: true });
    await symlink(target, link);
  } catch {
    // Not in ~/.debug, or already in the run's cache (perf put the symfs copy there).
  }
}

/** The GNU build id of an ELF file (`readelf -n`), or null. */
export async function fileBuildId(path: string): Promise<string | null> {
  try {
    const { stdout } = await run('readelf', ['-n', path], { timeout: TOOL_TIMEOUT_MS, maxBuffer: MAX_TOOL_OUTPUT });
    return /Build ID: ([0-9a-f]+)/.exec(stdout)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** A demangled symbol as perf prints it: no parameter list, no return type (`double dot<double>(…)` → `dot<double>`). */
export function perfShortName(demangled: string): string {
  let depth = 0;
  let params = demangled.length;
  let lastSpace = -1;
  for (let i = 0; i < demangled.length; i++) {
    const c = demangled[i];
    if (c === '<' || c === '{' || c === '[') depth++;
    else if ((c === '>' || c === '}' || c === ']') && depth > 0) depth--;
    else if (c === '(' && depth === 0 && i > 0 && !demangled.endsWith('operator', i)) {
      params = i;
      break;
    } else if (c === ' ' && depth === 0) lastSpace = i;
  }
  return demangled.slice(lastSpace + 1, params);
}

interface SymbolRange {
  start: number;
  size: number;
}

/** The symbols named `name` (as perf prints it) in `nm -S -C` output. */
export function findSymbols(nmText: string, name: string): SymbolRange[] {
  const out: SymbolRange[] = [];
  for (const line of nmText.split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) [TtWwiI] (.+)$/.exec(line);
    if (!m) continue;
    if (m[3] === name || perfShortName(m[3]) === name) out.push({ start: parseInt(m[1], 16), size: parseInt(m[2], 16) });
  }
  return out;
}

/** A LOAD segment of an ELF file: its bytes at `offset` of the file are at `vaddr`. */
export interface LoadSegment {
  offset: number;
  vaddr: number;
  fileSize: number;
}

/** The LOAD program headers of `readelf -lW` output. */
export function parseLoadSegments(text: string): LoadSegment[] {
  const out: LoadSegment[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*LOAD\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s/.exec(line);
    if (m) out.push({ offset: parseInt(m[1], 16), vaddr: parseInt(m[2], 16), fileSize: parseInt(m[3], 16) });
  }
  return out;
}

/**
 * An address in the process as the ELF's virtual address: through the mapping that holds it to a
 * file offset, then through the LOAD segment that holds that offset. Null when none holds it.
 */
export function elfAddress(address: number, mappings: readonly AddressMapping[], segments: readonly LoadSegment[]): number | null {
  const m = mappings.find((x) => x.start <= address && address < x.limit);
  if (!m) return null;
  const fileOffset = address - m.start + m.offset;
  const seg = segments.find((x) => x.offset <= fileOffset && fileOffset < x.offset + x.fileSize);
  return seg ? fileOffset - seg.offset + seg.vaddr : null;
}

/** Instructions and source labels of `objdump -d -l` output, offsets from `start`. */
export function parseObjdump(text: string, start: number, end: number): ListingRow[] {
  const rows: ListingRow[] = [];
  let count = 0;
  for (const line of text.split('\n')) {
    const insn = /^\s*([0-9a-f]+):\t(.*)$/.exec(line);
    if (insn) {
      const address = parseInt(insn[1], 16);
      if (address < start || address >= end) continue;
      if (++count > MAX_INSTRUCTIONS) break;
      const body = insn[2].replace(/\s+$/, '');
      const row: ListingRow = { kind: 'insn', offset: address - start, address: insn[1], text: body, weight: 0, samples: 0, share: 0 };
      const jump = /\b([0-9a-f]+) <[^>]*>$/.exec(body);
      if (jump) {
        const target = parseInt(jump[1], 16);
        if (target >= start && target < end) row.target = target - start;
      }
      rows.push(row);
      continue;
    }
    const source = /^(\/.*|[^\s:][^:]*):(\d+)(?: \(discriminator \d+\))?$/.exec(line);
    if (source && !line.endsWith('>:')) {
      const prev = rows[rows.length - 1];
      const lineNo = Number(source[2]);
      // objdump repeats a label after a `discriminator` change; one label per change is enough.
      if (!(prev?.kind === 'source' && prev.file === source[1] && prev.line === lineNo)) rows.push({ kind: 'source', file: source[1], line: lineNo });
    }
  }
  return rows;
}

async function readable(path: string): Promise<boolean> {
  try {
    await access(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where perf would look for `dso` with `symfs`: DIR/path, then DIR/basename. */
export function binaryCandidates(dso: string, symfs: string | undefined): string[] {
  return symfs ? [join(symfs, dso), join(symfs, basename(dso))] : [dso];
}

async function locate(dso: string, symfs: string | undefined): Promise<string | null> {
  for (const c of binaryCandidates(dso, symfs)) if (await readable(c)) return c;
  return null;
}

/** The listing of one symbol block of a function (the heaviest block when a name is in several DSOs). */
export async function disassemble(block: SymbolOffsets, options: DisasmOptions = {}): Promise<Disassembly> {
  const offsets = block.rows.map(({ offset, weight, samples, share }) => ({ offset, weight, samples, share }));
  const out: Disassembly = { function: block.name, dso: block.dso, binary: null, self: block.self, samples: block.samples, buildId: null, problems: [], listing: [], offsets, ...(block.mappings ? { absolute: true } : {}) };
  const dso = block.dso;
  const unreadable = dsoProblem(dso);
  if (unreadable !== null || dso === null) {
    out.problems.push(unreadable ?? '');
    return out;
  }
  const path = await (options.locate ? options.locate(dso) : locate(dso, options.symfs));
  if (path === null) {
    out.problems.push(
      options.symfs
        ? `${dso} is not under --symfs ${options.symfs} (looked for ${join(options.symfs, dso)} and ${join(options.symfs, basename(dso))}): only the sampled offsets are shown`
        : `${dso} is not on this machine: pass --symfs DIR, a copy of the recording machine's files, to disassemble it; only the sampled offsets are shown`,
    );
    return out;
  }
  out.binary = path;
  // perf.data's build ids (perf buildid-list), else the one pprof's mapping recorded.
  const recorded = options.buildIds?.get(dso) ?? (block.mappings?.find((m) => m.buildId !== '')?.buildId || undefined);
  if (recorded !== undefined) {
    const found = await fileBuildId(path);
    out.buildId = { recorded, found, matches: found === recorded };
    if (found !== recorded) {
      out.problems.push(
        `${path} is not the binary that was recorded: its build id is ${found ?? 'missing'}, the recording's ${recorded} (a rebuilt or stripped binary): the listing below may not be the code that ran`,
      );
    }
  }
  let nm: string;
  try {
    nm = (await run('nm', ['-S', '-C', '--defined-only', path], { timeout: TOOL_TIMEOUT_MS, maxBuffer: MAX_TOOL_OUTPUT })).stdout;
  } catch (e) {
    out.problems.push(`nm could not read the symbols of ${path} (${toolError(e)}): install binutils; only the sampled offsets are shown`);
    return out;
  }
  const symbols = findSymbols(nm, block.name);
  const need = offsets.reduce((m, o) => Math.max(m, o.offset), 0);
  let symbol: SymbolRange | null = null;
  let sampled: OffsetWeight[] = offsets;
  if (symbols.length === 0) {
    out.problems.push(`${path} has no symbol ${block.name} (a stripped binary? install its debug symbols or pass --symfs to an unstripped copy): only the sampled offsets are shown`);
    return out;
  }
  if (block.mappings) {
    const placed = await placeAddresses(block, path, symbols);
    if (typeof placed === 'string') {
      out.problems.push(placed);
      return out;
    }
    ({ symbol, sampled } = placed);
  } else {
    symbol = symbols.find((s) => s.size > need) ?? null;
    if (symbol === null) {
      out.problems.push(`${block.name} in ${path} is ${symbols[0].size} bytes, shorter than the sampled offset +0x${need.toString(16)}: not the binary that was recorded; only the sampled offsets are shown`);
      return out;
    }
  }
  const objdump = options.objdump ?? 'objdump';
  const end = symbol.start + symbol.size;
  let text: string;
  try {
    const args = ['-d', '-l', '-C', '--no-show-raw-insn', `--start-address=0x${symbol.start.toString(16)}`, `--stop-address=0x${end.toString(16)}`, path];
    text = (await run(objdump, args, { timeout: TOOL_TIMEOUT_MS, maxBuffer: MAX_TOOL_OUTPUT })).stdout;
  } catch (e) {
    out.problems.push(`${objdump} could not disassemble ${path} (${toolError(e)}): install binutils (or pass llvm-objdump); only the sampled offsets are shown`);
    return out;
  }
  const listing = parseObjdump(text, symbol.start, end);
  const byOffset = new Map(sampled.map((o) => [o.offset, o]));
  let placed = 0;
  for (const row of listing) {
    if (row.kind !== 'insn') continue;
    const o = byOffset.get(row.offset);
    if (!o) continue;
    row.weight = o.weight;
    row.samples = o.samples;
    row.share = o.share;
    placed += o.weight;
  }
  if (placed < block.self) {
    out.problems.push(`${formatShare(100 - (100 * placed) / block.self)} of the samples fall between instructions of ${path}: not the binary that was recorded`);
  }
  out.listing = listing;
  return out;
}

/**
 * pprof's addresses in the process as offsets in the symbol `block.name` of `path`: each through
 * its mapping and the ELF's LOAD segments, then the symbol holding them all. A sentence when they
 * cannot be placed.
 */
async function placeAddresses(block: SymbolOffsets, path: string, symbols: SymbolRange[]): Promise<{ symbol: SymbolRange; sampled: OffsetWeight[] } | string> {
  const mappings = block.mappings ?? [];
  if (mappings.length === 0) return `the profile maps no file ${block.dso} to addresses: only the sampled addresses are shown`;
  let segments: LoadSegment[];
  try {
    segments = parseLoadSegments((await run('readelf', ['-lW', path], { timeout: TOOL_TIMEOUT_MS, maxBuffer: MAX_TOOL_OUTPUT })).stdout);
  } catch (e) {
    return `readelf could not read the program headers of ${path} (${toolError(e)}): install binutils; only the sampled addresses are shown`;
  }
  const vaddrs: number[] = [];
  for (const row of block.rows) {
    const v = elfAddress(row.offset, mappings, segments);
    if (v === null) return `the sampled address 0x${row.offset.toString(16)} is in no mapping of ${path} the profile recorded, or in no LOAD segment of the file: not the binary that was recorded; only the sampled addresses are shown`;
    vaddrs.push(v);
  }
  const low = Math.min(...vaddrs);
  const high = Math.max(...vaddrs);
  const symbol = symbols.find((s) => s.start <= low && high < s.start + s.size) ?? null;
  if (symbol === null) return `no symbol ${block.name} of ${path} holds the sampled addresses 0x${low.toString(16)}–0x${high.toString(16)} (as placed by the profile's mapping): not the binary that was recorded; only the sampled addresses are shown`;
  return { symbol, sampled: block.rows.map((r, i) => ({ ...r, offset: vaddrs[i] - symbol.start })) };
}

function formatShare(p: number): string {
  return `${p.toFixed(p < 10 ? 1 : 0)} %`;
}

function toolError(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { stderr?: string };
  if (err.code === 'ENOENT') return 'not installed';
  const first = (err.stderr ?? err.message).trim().split('\n')[0] ?? '';
  return first.slice(0, 200);
}
