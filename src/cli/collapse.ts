// `flameview collapse`: a recording (perf script text or folded stacks, gzip or not) in, sorted
// folded stacks out, as inferno-collapse-perf / stackcollapse-perf.pl print them. Several
// recordings (any mix of formats) print their sum: each stack once, with its weights added, as
// folding their concatenated folded text would (several runs, hosts or per-thread files).
//
// Exit codes: 0 done (also for an empty recording, with a note on stderr; skipped lines are
// reported on stderr), 1 the input cannot be read or is not a recording (one line on stderr,
// never a stack trace), 2 usage error.

import { foldedStackChunks, foldedStacks, sumFolded, type FoldedOptions, type FoldedStacks } from '../core/export/folded';
import { loadRecording, writeChunks } from './cli-common';
import { CommandLine, perfDataOf, SPLIT_OPTIONS, splitOf, SYMFS_HELP, SYMFS_OPTIONS, TRANSFORM_HELP, TRANSFORM_OPTIONS, UNIT_HELP, UNIT_OPTIONS, VIEW_OPTIONS } from './command-args';
import type { CliIo } from './main';

export const COLLAPSE_USAGE = `usage: flameview collapse [options] FILE|- [FILE...]
  several FILEs: their stacks summed into one folded text (at most one - for stdin)
  --view inline|functions  inline (default, as inferno-collapse-perf prints perf script): every
                           frame, inlined ones marked _[i]; functions: inlined frames merged into
                           their caller (the view the viewer, top and svg open with)
  --samples                weight by sample count instead of the summed period
  --pid, --tid             root frame comm-PID or comm-PID/TID instead of the process name
  --event NAME             perf script: keep samples of this event (default: the CPU samples);
                           off-cpu or wall: the time off CPU, or on and off CPU, from
                           sched:sched_switch (ns)
${UNIT_HELP}${SYMFS_HELP}  --kernel, --jit          annotate kernel frames _[k], JIT frames _[j]; --all: both
  --full-names             keep argument lists and full names (only ';' becomes ':')
${TRANSFORM_HELP}`;

export async function runCollapse(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'collapse', COLLAPSE_USAGE);
  const parsed = command.parse(args, {
    ...VIEW_OPTIONS,
    ...UNIT_OPTIONS,
    ...SPLIT_OPTIONS,
    kernel: { type: 'boolean' },
    jit: { type: 'boolean' },
    all: { type: 'boolean' },
    ...SYMFS_OPTIONS,
    ...TRANSFORM_OPTIONS,
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const tree = command.foldedTree(values);
  if (typeof tree === 'number') return tree;
  const { view, transforms, unit: inputUnit } = tree;
  if (positionals.length === 0) return command.usageError('missing FILE (use - for stdin)');
  if (positionals.filter((f) => f === '-').length > 1) return command.usageError('only one FILE can be - (stdin)');

  const options: FoldedOptions = {
    view,
    weight: values.samples ? 'samples' : 'period',
    annotateInline: true,
    annotateKernel: Boolean(values.kernel || values.all),
    annotateJit: Boolean(values.jit || values.all),
    fullNames: Boolean(values['full-names']),
    transforms,
  };
  const perfData = await perfDataOf(values, io, 'collapse');
  if (typeof perfData === 'number') return perfData;
  // One recording at a time: only its stacks are kept while the next one loads.
  const lists: FoldedStacks[] = [];
  for (const file of positionals) {
    const source = file === '-' ? '<stdin>' : file;
    const profile = await loadRecording(file, io, { event: values.event, split: splitOf(values), unit: inputUnit }, false, perfData.symfs);
    if (!profile) return 1;
    if (profile.meta.format === 'folded') {
      const ignored = [values.event !== undefined && '--event', values.pid && '--pid', values.tid && '--tid', values.symfs !== undefined && '--symfs'].filter(Boolean);
      if (ignored.length > 0) io.stderr.write(`flameview: ${source}: note: ${ignored.join(', ')} ignored: the input is already folded\n`);
    }
    if (profile.tree.totalSamples[0] === 0 && profile.tree.totalWeight[0] === 0) {
      if (!profile.meta.warnings.some((w) => w.message.includes('no samples'))) {
        io.stderr.write(`flameview: ${source}: note: no samples; nothing to print${positionals.length > 1 ? ' from it' : ''}\n`);
      }
      continue;
    }
    lists.push(foldedStacks(profile, options));
  }
  if (lists.length === 0) return 0;
  return writeChunks(io.stdout, foldedStackChunks(lists.length === 1 ? lists[0] : sumFolded(lists)));
}
