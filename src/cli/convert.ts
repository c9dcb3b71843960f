// `flameview convert IN -o OUT`: a recording in another format: flameview's processed recording
// (`.flameview`, gzipped: what flameview opens without parsing, src/core/export/processed.ts), or
// pprof (profile.proto, gzipped as `go tool pprof`, Pyroscope and Parca expect), chosen by an OUT
// ending in `.pb.gz` or `.pb` (not compressed), or by `--to`. Both views survive either way; in
// pprof inline chains are a location's lines (src/core/export/pprof.ts). IN may be either too.
//
// Exit codes as the other commands: 0 written, 1 unreadable input or output, 2 usage error. OUT
// is written whole or not at all (a temporary file renamed into place), so a failure leaves no
// truncated profile for another tool to choke on.

import { gzipSync } from 'node:zlib';
import { toPprof } from '../core/export/pprof';
import { toProcessed } from '../core/export/processed';
import { loadRecording, writeWhole } from './cli-common';
import { CommandLine, PERF_DATA_OPTIONS, PERF_DATA_USAGE, SPLIT_OPTIONS, perfDataOf, splitOf } from './command-args';
import type { CliIo } from './main';

export const CONVERT_USAGE = `usage: flameview convert [options] IN|- -o OUT|-
  -o OUT             where to write (- for stdout)
  --to flameview|pprof
                     the format to write: flameview's processed recording (gzipped), or pprof
                     (profile.proto, gzipped); by default pprof for an OUT ending in .pb.gz
                     (or .pb: not compressed), else the processed recording
  --event NAME       perf script: samples of this event (default: the CPU samples;
                     off-cpu, wall: derived from sched:sched_switch)
  --pid, --tid       perf script: the root frames are process-PID (or thread-TID) names
${PERF_DATA_USAGE}`;

export async function runConvert(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'convert', CONVERT_USAGE);
  const parsed = command.parse(args, { ...SPLIT_OPTIONS, o: { type: 'string', short: 'o' }, to: { type: 'string' }, event: { type: 'string' }, ...PERF_DATA_OPTIONS });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const file = command.oneFile(positionals);
  if (typeof file === 'number') return file;
  const out = values.o;
  if (out === undefined) return command.usageError('missing -o OUT (use - for stdout)');
  const to = values.to ?? (out.endsWith('.pb.gz') || out.endsWith('.pb') ? 'pprof' : 'flameview');
  if (to !== 'pprof' && to !== 'flameview') return command.usageError(`--to must be flameview or pprof, not '${to}'`);

  const perfData = await perfDataOf(values, io, 'convert');
  if (typeof perfData === 'number') return perfData;
  const profile = await loadRecording(file, io, { event: values.event, split: splitOf(values) }, perfData.srcline, perfData.symfs);
  if (!profile) return 1;
  const raw = to === 'pprof' ? toPprof(profile) : toProcessed(profile);
  const bytes = to === 'pprof' && out.endsWith('.pb') ? raw : gzipSync(raw);
  if (out === '-') {
    // Binary on stdout, one write; a closed pipe ends it quietly, as the text commands do.
    await new Promise<void>((resolve) => {
      io.stdout.once('error', () => resolve());
      io.stdout.write(bytes, () => resolve());
    });
    return 0;
  }
  if (!(await writeWhole(out, bytes, io))) return 1;
  return 0;
}
