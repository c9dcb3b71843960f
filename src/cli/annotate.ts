// `flameview annotate FUNCTION FILE`: the cost of each instruction of a function, as `perf
// annotate --stdio --percent-type local-period` prints it: each instruction's share of the
// function's self weight, the `file:line` labels of objdump -l between them, from the binary on
// this machine (src/node/disasm.ts). Without the binary, the sampled offsets alone (a pprof
// profile's are addresses in the process, printed as `0x…`, not `+0x…`: pprof has no symbol start).
//
// Decisions: FUNCTION is the name perf printed (exact), else a regular expression, and the
// heaviest function it matches is annotated (perf annotates one symbol at a time too); a name in
// several DSOs is annotated in the DSO that holds most of its samples. A perf.data FILE's build
// ids (perf buildid-list), or a pprof mapping's, are checked against the binary; a mismatch is a warning on stderr and in
// the JSON, never a silent listing. Exit codes as top: 0 done (also when only offsets could be
// shown), 1 unreadable input, no such function, no addresses; 2 usage.

import type { Profile } from '../core/model/profile';
import { framesMatching } from '../core/query/source-lines';
import { functionOffsets, type SymbolOffsets } from '../core/query/leaf-addresses';
import { isPerfData } from '../core/import/sniff';
import { disassemble, recordedBuildIds, type Disassembly } from '../node/disasm';
import { readHead } from '../server/sniff';
import { loadRecording, writeChunks } from './cli-common';
import { CommandLine, SYMFS_OPTIONS } from './command-args';
import type { CliIo } from './main';

export const ANNOTATE_USAGE = `usage: flameview annotate [options] FUNCTION FILE
  FUNCTION          a function's name as perf prints it, or a regular expression (the
                    heaviest function it matches is annotated)
  --symfs DIR       look for the binaries under DIR, a copy of the recording machine's
                    files (as perf annotate --symfs)
  --objdump PATH    the disassembler (default objdump; llvm-objdump works too)
  --event NAME      perf script: samples of this event (default: the first seen)
  --json            one JSON object: {function, dso, binary, self, samples, buildId,
                    problems, listing: [{kind: "insn", offset, address, text, weight,
                    samples, share, target?} | {kind: "source", file, line}], offsets,
                    absolute?: true when offsets are pprof's addresses in the process}
The recording must carry sampled addresses (perf script prints symbol+0xOFFSET; pprof
profiles their Location.address, placed in the binary through their mapping); the
binaries are disassembled with binutils' objdump, nm and readelf. A perf.data FILE's
build ids, or a pprof mapping's, are checked against the binaries found.
`;

/** The heaviest symbol block FUNCTION names (exact name first, then as a regular expression). */
export function blockOf(profile: Profile, pattern: string): SymbolOffsets | null | undefined {
  let blocks = functionOffsets(profile, framesMatching(profile, 'functions', (n) => n === pattern));
  if (blocks === null) return null;
  if (blocks.length === 0) {
    const re = new RegExp(pattern);
    blocks = functionOffsets(profile, framesMatching(profile, 'functions', (n) => re.test(n)))!;
  }
  return blocks[0];
}

/** The listing as perf annotate --stdio prints it. */
export function formatAnnotate(d: Disassembly): string {
  const out: string[] = [];
  out.push(` Percent |\tDisassembly of ${printable(d.binary ?? d.dso ?? '?')} for ${printable(d.function)} (${d.samples} samples, percent: local period)`);
  out.push('-'.repeat(72));
  if (d.listing.length > 0) {
    for (const row of d.listing) {
      if (row.kind === 'source') out.push(`         :   ${printable(row.file)}:${row.line}`);
      else {
        const jump = row.target !== undefined ? `   # → +0x${row.target.toString(16)}` : '';
        out.push(`${percent(row.share)} :   ${row.address}:   ${printable(row.text)}${jump}`);
      }
    }
  } else {
    // pprof's are addresses in the process (no symbol start is known), printed as such.
    for (const o of d.offsets) out.push(`${percent(o.share)} :   ${d.absolute ? '' : '+'}0x${o.offset.toString(16)}`);
  }
  return out.join('\n') + '\n';
}

/** Names, paths and operands come from the recording and the binary: no control characters reach the terminal. */
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

function percent(p: number): string {
  return p.toFixed(2).padStart(8);
}

export async function runAnnotate(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'annotate', ANNOTATE_USAGE);
  const parsed = command.parse(args, {
    ...SYMFS_OPTIONS,
    objdump: { type: 'string' },
    event: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 2) {
    return command.usageError(positionals.length < 2 ? 'expected FUNCTION and FILE' : `expected FUNCTION and one FILE, got ${positionals.length} arguments`);
  }
  const [pattern, file] = positionals;
  if (file === '-') return command.usageError('annotate reads a FILE, not stdin (a perf.data file carries the build ids to check)');
  const profile = await loadRecording(file, io, { event: values.event }, false, values.symfs);
  if (!profile) return 1;
  let block: SymbolOffsets | null | undefined;
  try {
    block = blockOf(profile, pattern);
  } catch (e) {
    return command.usageError(`FUNCTION is no function's name and no regular expression: ${(e as Error).message}`);
  }
  if (block === null) {
    io.stderr.write(`flameview: ${file}: the recording has no sampled addresses (perf script prints them as symbol+0xOFFSET, pprof as location addresses; record with perf and open perf.data or its perf script text)\n`);
    return 1;
  }
  if (block === undefined) {
    io.stderr.write(`flameview: ${file}: no function named or matching '${pattern}' was sampled (flameview top -n 0 lists them)\n`);
    return 1;
  }
  const buildIds = isPerfData(await readHead(file, 8)) ? await recordedBuildIds(file) : undefined;
  const d = await disassemble(block, { symfs: values.symfs, buildIds, objdump: values.objdump });
  for (const p of d.problems) io.stderr.write(`flameview: ${printable(p)}\n`);
  await writeChunks(io.stdout, [values.json ? JSON.stringify(d) + '\n' : formatAnnotate(d)]);
  return 0;
}
