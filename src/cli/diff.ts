// `flameview diff A B`: two recordings in (perf script text or folded stacks, gzip or not), the
// differential folded text out, `stack weightA weightB` per line, as FlameGraph's
// difffolded.pl prints it, ready for `flamegraph.pl` or `inferno-flamegraph`.
//
// Invariants: stack names and annotations are exactly those of `flameview collapse` with the
// same options (one exporter: core/export/folded.ts); every stack of either input appears once,
// with 0 for the input that lacks it; lines are sorted in UTF-8 byte order (difffolded.pl prints
// them in hash order; sorting makes the output reproducible and diffable).
// `--normalize` is difffolded.pl's -n: when the totals differ, every A weight becomes
// int(A × totalB / totalA), truncated toward zero, computed in doubles as perl does.
//
// Exit codes: 0 done, 1 an input cannot be read or is not a recording, 2 usage error.

import { compareUtf8, foldedStacks, formatWeight, type FoldedOptions, type FoldedStacks } from '../core/export/folded';
import { loadRecording, writeChunks } from './cli-common';
import { CommandLine, SPLIT_OPTIONS, splitOf, VIEW_OPTIONS } from './command-args';
import type { CliIo } from './main';

export const DIFF_USAGE = `usage: flameview diff [options] A B
  prints "stack weightA weightB" lines (A = baseline, B = comparison), sorted bytewise,
  for flamegraph.pl or inferno-flamegraph; a stack missing from one input gets 0 there.
  --view inline|functions  inline (default): every frame, inlined ones marked _[i];
                           functions: inlined frames merged into their caller
  --samples                weight by sample count instead of the summed period
  --pid, --tid             root frame comm-PID or comm-PID/TID instead of the process name
  --event NAME             perf script: keep samples of this event (default: the first seen)
  --full-names             keep argument lists and full names (only ';' becomes ':')
  --normalize, -n          scale A's weights to B's total, as difffolded.pl -n
  A or B may be - for stdin (not both).
`;

export async function runDiff(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'diff', DIFF_USAGE);
  if (args.includes('--open')) {
    return command.usageError('--open is not part of this command: `flameview A B` opens the comparison in the browser');
  }
  const parsed = command.parse(args, { ...VIEW_OPTIONS, ...SPLIT_OPTIONS, normalize: { type: 'boolean', short: 'n' } });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const view = command.view(values.view, 'inline', ['inline', 'functions']);
  if (typeof view === 'number') return view;
  if (positionals.length !== 2) return command.usageError(`expected two recordings A and B, got ${positionals.length}`);
  if (positionals[0] === '-' && positionals[1] === '-') return command.usageError('only one of A and B can be - (stdin)');

  const split = splitOf(values);
  const [a, b] = await Promise.all(positionals.map((file) => loadRecording(file, io, { event: values.event, split })));
  if (!a || !b) return 1;
  if (a.meta.event !== null && b.meta.event !== null && a.meta.event !== b.meta.event && !values.samples) {
    io.stderr.write(
      `flameview: warning: A's event is ${a.meta.event} but B's is ${b.meta.event}; their weights may not be comparable (--samples compares sample counts)\n`,
    );
  }

  const options: FoldedOptions = {
    view,
    weight: values.samples ? 'samples' : 'period',
    annotateInline: true,
    fullNames: Boolean(values['full-names']),
  };
  const lines = diffFoldedChunks(foldedStacks(a, options), foldedStacks(b, options), { normalize: Boolean(values.normalize) });
  return writeChunks(io.stdout, lines);
}

export interface DiffFoldedOptions {
  /** difffolded.pl -n: scale A to B's total. */
  normalize?: boolean;
}

/**
 * Merges two sorted folded stack lists into `stack a b` lines, in chunks of whole lines.
 * Both inputs must be sorted in UTF-8 byte order with distinct stacks (foldedStacks gives that).
 */
export function* diffFoldedChunks(a: FoldedStacks, b: FoldedStacks, options: DiffFoldedOptions = {}): Generator<string> {
  const totalA = sum(a.weights);
  const totalB = sum(b.weights);
  // difffolded.pl: `int($count1 * $total2 / $total1)` only when the totals differ. Perl multiplies
  // the (exact) integers and divides in doubles; JS doubles give the same result.
  const scale = options.normalize && totalA !== totalB && totalA > 0;
  const weightA = (w: number) => formatWeight(scale ? Math.trunc((w * totalB) / totalA) : w);
  let chunk = '';
  let i = 0;
  let j = 0;
  while (i < a.stacks.length || j < b.stacks.length) {
    const c = i >= a.stacks.length ? 1 : j >= b.stacks.length ? -1 : compareUtf8(a.stacks[i], b.stacks[j]);
    if (c < 0) {
      chunk += a.stacks[i] + ' ' + weightA(a.weights[i]) + ' 0\n';
      i++;
    } else if (c > 0) {
      chunk += b.stacks[j] + ' 0 ' + formatWeight(b.weights[j]) + '\n';
      j++;
    } else {
      chunk += a.stacks[i] + ' ' + weightA(a.weights[i]) + ' ' + formatWeight(b.weights[j]) + '\n';
      i++;
      j++;
    }
    if (chunk.length >= 65536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk.length > 0) yield chunk;
}

function sum(w: Float64Array): number {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w[i];
  return s;
}
