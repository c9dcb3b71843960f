// `flameview collapse`: a recording (perf script text or folded stacks, gzip or not) in, sorted
// folded stacks out, as inferno-collapse-perf / stackcollapse-perf.pl print them.
//
// Exit codes: 0 done (also for an empty recording, with a note on stderr; skipped lines are
// reported on stderr), 1 the input cannot be read or is not a recording (one line on stderr,
// never a stack trace), 2 usage error.

import { parseArgs } from 'node:util';
import { foldedChunks, type FoldedOptions } from '../core/export/folded';
import { describeArgsError, loadRecording, usageError as usageErrorOf, writeChunks } from './cli-common';
import type { CliIo } from './main';

export const COLLAPSE_USAGE = `usage: flameview collapse [options] FILE|-
  --view inline|functions  inline (default, as inferno-collapse-perf prints perf script): every
                           frame, inlined ones marked _[i]; functions: inlined frames merged into
                           their caller (the view the viewer, top and svg open with)
  --samples                weight by sample count instead of the summed period
  --pid, --tid             root frame comm-PID or comm-PID/TID instead of the process name
  --event NAME             perf script: keep samples of this event (default: the first seen)
  --kernel, --jit          annotate kernel frames _[k], JIT frames _[j]; --all: both
  --full-names             keep argument lists and full names (only ';' becomes ':')
`;

export async function runCollapse(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        view: { type: 'string' },
        samples: { type: 'boolean' },
        pid: { type: 'boolean' },
        tid: { type: 'boolean' },
        event: { type: 'string' },
        kernel: { type: 'boolean' },
        jit: { type: 'boolean' },
        all: { type: 'boolean' },
        'full-names': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return usageError(io, describeArgsError(e));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(COLLAPSE_USAGE);
    return 0;
  }
  const view = values.view ?? 'inline';
  if (view !== 'inline' && view !== 'functions') return usageError(io, `--view must be inline or functions, not '${view}'`);
  if (positionals.length !== 1) {
    return usageError(io, positionals.length === 0 ? 'missing FILE (use - for stdin)' : `expected one FILE, got ${positionals.length}`);
  }
  const file = positionals[0];
  const source = file === '-' ? '<stdin>' : file;
  const profile = await loadRecording(file, io, {
    event: values.event,
    split: values.tid ? 'tid' : values.pid ? 'pid' : 'process',
  });
  if (!profile) return 1;
  if (profile.meta.format === 'folded') {
    const ignored = [values.event !== undefined && '--event', values.pid && '--pid', values.tid && '--tid'].filter(Boolean);
    if (ignored.length > 0) io.stderr.write(`flameview: ${source}: note: ${ignored.join(', ')} ignored: the input is already folded\n`);
  }

  const options: FoldedOptions = {
    view,
    weight: values.samples ? 'samples' : 'period',
    annotateInline: true,
    annotateKernel: Boolean(values.kernel || values.all),
    annotateJit: Boolean(values.jit || values.all),
    fullNames: Boolean(values['full-names']),
  };
  if (profile.tree.totalSamples[0] === 0 && profile.tree.totalWeight[0] === 0) {
    if (!profile.meta.warnings.some((w) => w.message.includes('no samples'))) {
      io.stderr.write(`flameview: ${source}: note: no samples; nothing to print\n`);
    }
    return 0;
  }
  return writeChunks(io.stdout, foldedChunks(profile, options));
}

function usageError(io: CliIo, message: string): number {
  return usageErrorOf(io, 'collapse', COLLAPSE_USAGE, message);
}
