// `flameview top`: the function table in the terminal, as `pprof -top` prints it: one line per
// function, tab-separated `self  self%  total  total%  name`, heaviest first.
//
// Decisions: a header line (`self	self%	total	total%	name`) comes first, so the output is a
// TSV table; weights carry their unit as the viewer shows them (`12.3 ms`, `1,234 samples`,
// `5.2 MB`, `1,234,567 cycles`), --raw prints the bare numbers; the view is the viewer's
// (functions when the recording has inline frames); -n defaults to 20 (0 = every function), as a terminal shows a screenful; names are
// printed as `collapse` prints them (inferno tidying unless --full-names), and functions whose
// names become equal after tidying (overloads) are one row, with recursion still counted once.
// Exit codes as collapse: 0 done, 1 unreadable input or not a recording, 2 usage error.

import { formatWeight, transformedViewTree } from '../core/export/folded';
import { defaultView } from '../core/export/svg';
import { formatWeightIn, weightUnitOf, type WeightUnit } from '../core/model/weight-text';
import { rawName, readableTidyName } from '../core/export/tidy-name';
import type { Profile } from '../core/model/profile';
import { functionTable, renameFrames, shareOf, sortRows, FunctionFlags, type WeightKind } from '../core/views/function-table';
import type { Transform } from '../core/views/transforms';
import { loadRecording, writeChunks } from './cli-common';
import { CommandLine, perfDataOf, SYMFS_HELP, SYMFS_OPTIONS, TRANSFORM_HELP, TRANSFORM_OPTIONS, UNIT_HELP, UNIT_OPTIONS, VIEW_OPTIONS } from './command-args';
import type { CliIo } from './main';

export const TOP_USAGE = `usage: flameview top [options] FILE|-
  --view functions|inline  functions: inlined frames merged into their caller; inline: every
                           frame (default: functions when the recording has inline frames, as the viewer)
  --by self|total          sort by self (default) or total weight (recursion counted once)
  -n N                     print the N heaviest functions (default 20; 0 = all)
  --samples                weight by sample count instead of the summed period
  --event NAME             perf script: samples of this event (default: the CPU samples);
                           off-cpu or wall: the time off CPU, or on and off CPU, from
                           sched:sched_switch (ns)
${UNIT_HELP}${SYMFS_HELP}  --full-names             keep argument lists and full names
  --raw                    bare numbers instead of weights with their unit (12.3 ms, 1,234 samples)
  --json                   a JSON array of {name, self, selfPercent, total, totalPercent, inlined}
${TRANSFORM_HELP}`;

export interface TopRow {
  name: string;
  self: number;
  selfPercent: number;
  total: number;
  totalPercent: number;
  /** Whether the function is inlined at some call site. */
  inlined: boolean;
}

export interface TopOptions {
  view?: 'inline' | 'functions';
  by?: 'self' | 'total';
  /** 0 = all. */
  limit?: number;
  weight?: WeightKind;
  fullNames?: boolean;
  /** Applied to the view's tree first, in order (--transform). */
  transforms?: readonly Transform[];
}

/** The rows `top` prints, heaviest first (pure; used by the CLI and its tests). */
export function topRows(profile: Profile, options: TopOptions = {}): TopRow[] {
  const tree = transformedViewTree(profile, options.view ?? defaultView(profile.meta), options.transforms);
  const tidy = options.fullNames ? rawName : readableTidyName;
  const frames = renameFrames(profile.frames, (name) => tidy(name).replace(/[\r\n\t]/g, ' '));
  const table = functionTable(tree, frames);
  const weight = options.weight ?? 'period';
  const order = sortRows(table, frames, { by: options.by ?? 'self', weight });
  const limit = options.limit && options.limit > 0 ? Math.min(options.limit, order.length) : order.length;
  const self = weight === 'samples' ? table.selfSamples : table.selfWeight;
  const total = weight === 'samples' ? table.totalSamples : table.totalWeight;
  const rows: TopRow[] = [];
  for (let k = 0; k < limit; k++) {
    const r = order[k];
    rows.push({
      name: frames.strings[table.name[r]],
      self: self[r],
      selfPercent: 100 * shareOf(table, self[r], weight),
      total: total[r],
      totalPercent: 100 * shareOf(table, total[r], weight),
      inlined: (table.flags[r] & FunctionFlags.INLINED) !== 0,
    });
  }
  return rows;
}

/** The TSV table; `unit` null prints the raw numbers (--raw). */
export function formatTop(rows: TopRow[], unit: WeightUnit | null = null): string {
  const text = (w: number) => (unit ? formatWeightIn(w, unit) : formatWeight(w));
  const lines = ['self\tself%\ttotal\ttotal%\tname'];
  for (const r of rows) {
    lines.push(`${text(r.self)}\t${r.selfPercent.toFixed(2)}%\t${text(r.total)}\t${r.totalPercent.toFixed(2)}%\t${r.name}`);
  }
  return lines.join('\n') + '\n';
}

export async function runTop(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'top', TOP_USAGE);
  const parsed = command.parse(args, {
    ...VIEW_OPTIONS,
    ...UNIT_OPTIONS,
    by: { type: 'string' },
    n: { type: 'string', short: 'n' },
    json: { type: 'boolean' },
    raw: { type: 'boolean' },
    ...SYMFS_OPTIONS,
    ...TRANSFORM_OPTIONS,
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const view = command.view(values.view, undefined, ['inline', 'functions']);
  if (typeof view === 'number') return view;
  const transforms = command.transforms(values.transform);
  if (typeof transforms === 'number') return transforms;
  const inputUnit = command.unit(values.unit);
  if (typeof inputUnit === 'number') return inputUnit;
  const by = values.by ?? 'self';
  if (by !== 'self' && by !== 'total') return command.usageError(`--by must be self or total, not '${by}'`);
  const nText = values.n ?? '20';
  if (!/^\d{1,9}$/.test(nText)) return command.usageError(`-n must be a whole number (0 = all), not '${nText}'`);
  if (positionals.length !== 1) {
    return command.usageError(positionals.length === 0 ? 'missing FILE (use - for stdin)' : `expected one FILE, got ${positionals.length}`);
  }
  const file = positionals[0];
  const source = file === '-' ? '<stdin>' : file;
  const perfData = await perfDataOf(values, io, 'top');
  if (typeof perfData === 'number') return perfData;
  const profile = await loadRecording(file, io, { event: values.event, unit: inputUnit }, false, perfData.symfs);
  if (!profile) return 1;

  const rows = topRows(profile, {
    view,
    by,
    limit: Number(nText),
    weight: values.samples ? 'samples' : 'period',
    fullNames: Boolean(values['full-names']),
    transforms,
  });
  if (rows.length === 0 && !values.json) io.stderr.write(`flameview: ${source}: note: no samples; nothing to print\n`);
  const unit = values.raw ? null : weightUnitOf(profile.meta, Boolean(values.samples));
  const text = values.json ? JSON.stringify(rows) + '\n' : rows.length === 0 ? '' : formatTop(rows, unit);
  await writeChunks(io.stdout, [text]);
  return 0;
}
