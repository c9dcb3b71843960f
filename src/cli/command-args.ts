// The option handling the file-reading subcommands (collapse, diff, svg, top) share: strict
// parseArgs with -h/--help, one-line usage errors (exit 2, the message, then the usage text),
// --view, the FILE positional(s), and the option groups several commands accept.

import { stat } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { LoadOptions } from '../core/import/load';
import type { Transform } from '../core/views/transforms';
import { decodeTransform } from '../core/views/transforms-codec';
import { FOLDED_UNITS, foldedUnit, type FoldedUnit } from '../core/model/weight-text';
import { describeArgsError, usageError } from './cli-common';
import type { CliIo } from './main';

type Options = NonNullable<ParseArgsConfig['options']>;
type WithHelp<O extends Options> = O & { help: { type: 'boolean'; short: 'h' } };
type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: WithHelp<O> }>>;

/** --view, --samples, --event, --full-names: what selects the tree and names the frames. */
export const VIEW_OPTIONS = {
  view: { type: 'string' },
  samples: { type: 'boolean' },
  event: { type: 'string' },
  'full-names': { type: 'boolean' },
} as const;

/** --symfs: where a perf.data input's binaries are (perfDataOf). */
export const SYMFS_OPTIONS = {
  symfs: { type: 'string' },
} as const;

/** SYMFS_OPTIONS in the usage of the commands whose options start at column 27. */
export const SYMFS_HELP = `  --symfs DIR              perf.data: the recording machine's binaries are under DIR (those
                           whose build id matches name their functions, as for annotate)
`;

/** --lines, --symfs: how a perf.data input is printed (perfDataOf), for convert and html. */
export const PERF_DATA_OPTIONS = {
  lines: { type: 'boolean' },
  ...SYMFS_OPTIONS,
} as const;

/** PERF_DATA_OPTIONS in a command's usage. */
export const PERF_DATA_USAGE = `  --lines            perf.data: print it with its source lines (perf script -F +srcline), so
                     the output keeps each frame's line; other inputs carry their own lines
  --symfs DIR        perf.data: the recording machine's binaries are under DIR (those whose
                     build id matches are used, as annotate uses them); other inputs name
                     their functions already
`;

/** --pid, --tid: the root frame (LoadOptions.split). */
export const SPLIT_OPTIONS = {
  pid: { type: 'boolean' },
  tid: { type: 'boolean' },
} as const;

/** --transform SPEC, repeatable: the viewer's transforms, applied in order (see TRANSFORM_HELP). */
export const TRANSFORM_OPTIONS = {
  transform: { type: 'string', multiple: true },
} as const;

/** The usage lines of --transform (each command's usage text includes them). */
export const TRANSFORM_HELP = `  --transform SPEC         apply a transform of the viewer's, in order (repeatable), as a link
                           writes it with the argument as typed: focus-re:RE, drop-re:RE,
                           merge-re:RE, collapse-re:RE (regular expressions over function names;
                           -re-i: ignore case), focus:NAME, drop:NAME, merge:NAME, collapse:NAME,
                           hide:kernel, hide:unknown, drec, ... (README, "Transforms")
`;

/** --unit: what a folded input's numbers count (LoadOptions.unit). */
export const UNIT_OPTIONS = {
  unit: { type: 'string' },
} as const;

/** The usage lines of --unit (each command that takes UNIT_OPTIONS includes them). */
export const UNIT_HELP = `  --unit us|ns|ms|samples  folded input: what its numbers count (default samples); a time
                           (BPF offcputime -f prints us) makes the weights nanoseconds
`;

export type View = 'inline' | 'functions';

/** One subcommand's command line: parse it, or answer --help and usage errors. */
export class CommandLine {
  constructor(
    private readonly io: CliIo,
    readonly name: string,
    readonly usage: string,
  ) {}

  /** A usage error: one line, then the usage text; exit status 2. */
  usageError(message: string): number {
    return usageError(this.io, this.name, this.usage, message);
  }

  /** The parsed options and positionals, or the exit status when it is answered already (--help 0, usage 2). */
  parse<const O extends Options>(args: string[], options: O): Parsed<O> | number {
    let parsed: Parsed<O>;
    try {
      parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { ...options, help: { type: 'boolean', short: 'h' } } as WithHelp<O> });
    } catch (e) {
      return this.usageError(describeArgsError(e, args));
    }
    if ((parsed.values as { help?: boolean }).help) {
      this.io.stdout.write(this.usage);
      return 0;
    }
    return parsed;
  }

  /**
   * --view's value (`fallback` when absent), or a usage error naming the views in `order`, the
   * order the command's usage text lists them in.
   */
  view<F extends View | undefined>(value: string | undefined, fallback: F, order: readonly [View, View]): View | F | number {
    if (value === undefined) return fallback;
    if (value !== 'inline' && value !== 'functions') return this.usageError(`--view must be ${order[0]} or ${order[1]}, not '${value}'`);
    return value;
  }

  /** --unit's value (samples when absent), or a usage error naming the units. */
  unit(value: string | undefined): FoldedUnit | number {
    if (value === undefined) return 'samples';
    return foldedUnit(value) ?? this.usageError(`--unit must be one of ${Object.keys(FOLDED_UNITS).join(', ')}, not '${value}'`);
  }

  /** The --transform values decoded (argument as typed), or a usage error naming the bad one. */
  transforms(specs: readonly string[] | undefined): Transform[] | number {
    const out: Transform[] = [];
    for (const spec of specs ?? []) {
      const one = decodeTransform(spec, out.length + 1, false);
      if (!one.ok) return this.usageError(`--transform '${spec}': found ${one.found} (the forms are below)`);
      out.push(one.transform);
    }
    return out;
  }

  /**
   * --view (the inline view unless given: folded text names inlined frames), --transform and
   * --unit, as the commands that print folded stacks (collapse, diff) take them; or a usage error.
   */
  foldedTree(values: { view?: string; transform?: string[]; unit?: string }): { view: View; transforms: Transform[]; unit: FoldedUnit } | number {
    const view = this.view(values.view, 'inline', ['inline', 'functions']);
    if (typeof view === 'number') return view;
    const transforms = this.transforms(values.transform);
    if (typeof transforms === 'number') return transforms;
    const unit = this.unit(values.unit);
    return typeof unit === 'number' ? unit : { view, transforms, unit };
  }

  /** The one FILE (or -), or a usage error. */
  oneFile(positionals: readonly string[]): string | number {
    if (positionals.length === 1) return positionals[0];
    return this.usageError(positionals.length === 0 ? 'missing FILE (use - for stdin)' : `expected one FILE, got ${positionals.length}`);
  }
}

/** What is wrong with a --symfs DIR (not a directory), or null: a mistyped one is one line, not functions left unnamed. */
export async function symfsProblem(symfs: string | undefined): Promise<string | null> {
  if (symfs === undefined || (await stat(symfs).then((st) => st.isDirectory(), () => false))) return null;
  return `--symfs ${symfs} is not a directory`;
}

/** loadRecording's perf.data arguments from --lines and --symfs, or exit status 1 (symfsProblem). */
export async function perfDataOf(values: { lines?: boolean; symfs?: string }, io: CliIo, command: string): Promise<{ srcline: boolean; symfs?: string } | number> {
  const problem = await symfsProblem(values.symfs);
  if (problem) {
    io.stderr.write(`flameview ${command}: ${problem}\n`);
    return 1;
  }
  return { srcline: values.lines === true, symfs: values.symfs };
}

/** LoadOptions.split from --pid and --tid (--tid wins). */
export function splitOf(values: { pid?: boolean; tid?: boolean }): NonNullable<LoadOptions['split']> {
  return values.tid ? 'tid' : values.pid ? 'pid' : 'process';
}
