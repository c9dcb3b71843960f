// `flameview convert IN -o OUT`: a recording in another format: flameview's processed recording
// (`.flameview`, gzipped: what flameview opens without parsing, src/core/export/processed.ts), or
// pprof (profile.proto, gzipped as `go tool pprof`, Pyroscope and Parca expect), chosen by an OUT
// ending in `.pb.gz` or `.pb` (not compressed), or by `--to`. Both views survive either way; in
// pprof inline chains are a location's lines (src/core/export/pprof.ts). IN may be either too.
//
// Exit codes as the other commands: 0 written, 1 unreadable input or output, 2 usage error. OUT
// is written whole or not at all (a temporary file renamed into place), so a failure leaves no
// truncated profile for another tool to choke on.

import { stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { toPprof } from '../core/export/pprof';
import { toProcessed } from '../core/export/processed';
import { loadRecording, writeWhole } from './cli-common';
import { CommandLine, SPLIT_OPTIONS, splitOf } from './command-args';
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
  --lines            perf.data: print it with its source lines (perf script -F +srcline), so
                     the output keeps each frame's line; other inputs carry their own lines
  --symfs DIR        perf.data: the recording machine's binaries are under DIR (those whose
                     build id matches are used, as annotate uses them); other inputs name
                     their functions already
`;

export async function runConvert(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'convert', CONVERT_USAGE);
  const parsed = command.parse(args, { ...SPLIT_OPTIONS, o: { type: 'string', short: 'o' }, to: { type: 'string' }, event: { type: 'string' }, lines: { type: 'boolean' }, symfs: { type: 'string' } });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const file = command.oneFile(positionals);
  if (typeof file === 'number') return file;
  const out = values.o;
  if (out === undefined) return command.usageError('missing -o OUT (use - for stdout)');
  const to = values.to ?? (out.endsWith('.pb.gz') || out.endsWith('.pb') ? 'pprof' : 'flameview');
  if (to !== 'pprof' && to !== 'flameview') return command.usageError(`--to must be flameview or pprof, not '${to}'`);

  // A mistyped --symfs is one line now, not functions left unnamed (as the opener checks it).
  if (values.symfs !== undefined && !(await stat(values.symfs).then((st) => st.isDirectory(), () => false))) {
    io.stderr.write(`flameview convert: --symfs ${values.symfs} is not a directory\n`);
    return 1;
  }
  const profile = await loadRecording(file, io, { event: values.event, split: splitOf(values) }, values.lines === true, values.symfs);
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
