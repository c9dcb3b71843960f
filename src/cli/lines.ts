// `flameview lines FUNCTION FILE`: the per-line weights of a function, as `pprof -list` prints
// them, from a recording that carries source lines (perf script -F +srcline, pprof, .cpuprofile,
// speedscope): for each line the function was at, self (samples whose leaf it was, at that line)
// and total (samples with the function at that line in their stack, once per sample).
//
// Decisions: FUNCTION is a name as `top` prints it (tidied unless --full-names) or as recorded;
// when no function has that exact name it is a regular expression, as pprof's -list takes, and
// every function it matches is listed, heaviest total first. The view is the viewer's (functions
// when the recording has inline frames): in the function view a function's line is the line of
// its physical frame, so the time of the code inlined there is on the call site's line; in the
// inline view every inlined frame has its own lines (src/core/query/source-lines.ts). Lines are
// in file order by default (--by self|total sorts them); each function is a block that opens with
// a `ROUTINE` line, then a TSV table `self self% total total% line`, shares of the whole
// recording. Exit codes as top: 0 done, 1 unreadable input, no such function or no lines, 2 usage.

import { formatWeight } from '../core/export/folded';
import { defaultView } from '../core/export/svg';
import { formatWeightIn, weightUnitOf, type WeightUnit } from '../core/model/weight-text';
import { rawName, readableTidyName } from '../core/export/tidy-name';
import type { Profile } from '../core/model/profile';
import { functionLines, type LinesView } from '../core/query/source-lines';
import { viewTree } from '../core/views/function-view';
import { loadRecording, writeChunks } from './cli-common';
import { CommandLine, perfDataOf, SYMFS_HELP, SYMFS_OPTIONS, VIEW_OPTIONS } from './command-args';
import type { CliIo } from './main';

export const LINES_USAGE = `usage: flameview lines [options] FUNCTION FILE|-
  FUNCTION                 a function's name as top prints it, or a regular expression (every
                           function it matches is listed)
  --view functions|inline  functions: a function's line is its physical frame's (the call site
                           of the code inlined there); inline: every inlined frame has its own
                           lines (default: functions when the recording has inline frames)
  --by line|self|total     order of the lines: file order (default), or heaviest first
  --samples                weight by sample count instead of the summed period
  --event NAME             perf script: samples of this event (default: the first seen)
  --full-names             match and print full names (argument lists kept)
  --raw                    bare numbers instead of weights with their unit
${SYMFS_HELP}  --json                   a JSON array of {name, self, selfPercent, total, totalPercent, lines:
                           [{file, line, self, selfPercent, total, totalPercent}]}
The recording must carry source lines: perf script -F +srcline, pprof, Chrome .cpuprofile or
speedscope with file and line; a perf.data file is printed so (perf script -F +srcline).
`;

export interface LineRow {
  /** null: the unknown line. */
  file: string | null;
  line: number;
  self: number;
  selfPercent: number;
  total: number;
  totalPercent: number;
}

export interface FunctionLinesRow {
  name: string;
  self: number;
  selfPercent: number;
  total: number;
  totalPercent: number;
  lines: LineRow[];
}

export interface LinesOptions {
  view?: LinesView;
  by?: 'line' | 'self' | 'total';
  samples?: boolean;
  fullNames?: boolean;
}

/**
 * The functions FUNCTION names in the view, each with its lines (pure; used by the CLI and its
 * tests). Null when the recording has no lines; a RegExp error when FUNCTION is no exact name and
 * no valid expression.
 */
export function linesOf(profile: Profile, pattern: string, options: LinesOptions = {}): FunctionLinesRow[] | null {
  if (!profile.lines) return null;
  const view = options.view ?? defaultView(profile.meta);
  const tidy = options.fullNames ? rawName : readableTidyName;
  const { frames } = profile;
  // The frames the view shows, by the name printed for them.
  const tree = viewTree(profile, view);
  const shown = new Uint8Array(frames.count);
  for (let n = 1; n < tree.nodeCount; n++) shown[tree.frame[n]] = 1;
  const byName = new Map<string, number[]>();
  const exact = new Set<string>();
  for (let f = 0; f < frames.count; f++) {
    if (!shown[f]) continue;
    const raw = frames.strings[frames.name[f]];
    const name = tidy(raw).replace(/[\r\n\t]/g, ' ');
    let list = byName.get(name);
    if (!list) byName.set(name, (list = []));
    list.push(f);
    if (raw === pattern || name === pattern) exact.add(name);
  }
  let names = [...exact];
  if (names.length === 0) {
    const re = new RegExp(pattern);
    names = [...byName.keys()].filter((n) => re.test(n));
  }
  const weight = options.samples ? 'samples' : 'period';
  const all = weight === 'samples' ? tree.totalSamples[0] : tree.totalWeight[0];
  const share = (w: number) => (all > 0 ? (100 * w) / all : 0);
  const rows: FunctionLinesRow[] = [];
  for (const name of names) {
    const match = new Uint8Array(frames.count);
    for (const f of byName.get(name)!) match[f] = 1;
    const fl = functionLines(profile, view, match)!;
    const self = weight === 'samples' ? fl.selfSamples : fl.self;
    const total = weight === 'samples' ? fl.totalSamples : fl.total;
    const lines = fl.lines.map((l) => {
      const s = weight === 'samples' ? l.selfSamples : l.self;
      const t = weight === 'samples' ? l.totalSamples : l.total;
      return { file: l.file, line: l.line, self: s, selfPercent: share(s), total: t, totalPercent: share(t) };
    });
    if (options.by === 'self') lines.sort((a, b) => b.self - a.self || b.total - a.total);
    else if (options.by === 'total') lines.sort((a, b) => b.total - a.total || b.self - a.self);
    rows.push({ name, self, selfPercent: share(self), total, totalPercent: share(total), lines });
  }
  rows.sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return rows;
}

/** The text blocks; `unit` null prints the raw numbers (--raw). */
export function formatLines(rows: FunctionLinesRow[], unit: WeightUnit | null = null): string {
  const text = (w: number) => (unit ? formatWeightIn(w, unit) : formatWeight(w));
  const out: string[] = [];
  for (const r of rows) {
    out.push(`ROUTINE ======================== ${r.name}: self ${text(r.self)} (${r.selfPercent.toFixed(2)}%), total ${text(r.total)} (${r.totalPercent.toFixed(2)}%)`);
    out.push('self\tself%\ttotal\ttotal%\tline');
    for (const l of r.lines) {
      const where = l.file === null ? '?' : `${l.file}:${l.line}`;
      out.push(`${text(l.self)}\t${l.selfPercent.toFixed(2)}%\t${text(l.total)}\t${l.totalPercent.toFixed(2)}%\t${where}`);
    }
  }
  return out.length === 0 ? '' : out.join('\n') + '\n';
}

export async function runLines(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'lines', LINES_USAGE);
  const parsed = command.parse(args, {
    ...VIEW_OPTIONS,
    by: { type: 'string' },
    json: { type: 'boolean' },
    raw: { type: 'boolean' },
    ...SYMFS_OPTIONS,
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const view = command.view(values.view, undefined, ['inline', 'functions']);
  if (typeof view === 'number') return view;
  const by = values.by ?? 'line';
  if (by !== 'line' && by !== 'self' && by !== 'total') return command.usageError(`--by must be line, self or total, not '${by}'`);
  if (positionals.length !== 2) {
    return command.usageError(positionals.length < 2 ? 'expected FUNCTION and FILE (use - for stdin)' : `expected FUNCTION and one FILE, got ${positionals.length} arguments`);
  }
  const [pattern, file] = positionals;
  const source = file === '-' ? '<stdin>' : file;
  // A perf.data file is printed with its lines (perf script -F +srcline).
  const perfData = await perfDataOf(values, io, 'lines');
  if (typeof perfData === 'number') return perfData;
  const profile = await loadRecording(file, io, { event: values.event }, true, perfData.symfs);
  if (!profile) return 1;
  let rows: FunctionLinesRow[] | null;
  try {
    rows = linesOf(profile, pattern, { view, by, samples: Boolean(values.samples), fullNames: Boolean(values['full-names']) });
  } catch (e) {
    return command.usageError(`FUNCTION is no function's name and no regular expression: ${(e as Error).message}`);
  }
  if (rows === null) {
    io.stderr.write(`flameview: ${source}: the recording has no source lines (print it with perf script -F +srcline, or use a pprof, .cpuprofile or speedscope profile with lines)\n`);
    return 1;
  }
  if (rows.length === 0) {
    // The view is named only where the recording has two (a recording without inline frames has one).
    const inView = view || profile.meta.hasInlineInfo ? ` in the ${view ?? defaultView(profile.meta)} view` : '';
    io.stderr.write(`flameview: ${source}: no function matches '${pattern}'${inView} (flameview top -n 0 lists them)\n`);
    return 1;
  }
  const unit = values.raw ? null : weightUnitOf(profile.meta, Boolean(values.samples));
  await writeChunks(io.stdout, [values.json ? JSON.stringify(rows) + '\n' : formatLines(rows, unit)]);
  return 0;
}
