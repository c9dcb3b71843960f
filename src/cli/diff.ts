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
// `--ignore-root` compares ignoring the root names (renamed binaries): A's roots are renamed to
// the B roots core/views/diff.ts's pairRoots pairs them with, the rule the page uses.
//
// Groups (`diff A1 A2 … vs B1 B2 …`, issue 31 item 3): each side is the sum of its runs, as
// `collapse A1 A2 …` prints it; `--table` prints the change table instead, per function its
// share of each side and the spread of that share over the side's runs, a change within the
// spread marked noise (core/views/group-deltas.ts, the page's change table).
//
// Exit codes: 0 done, 1 an input cannot be read or is not a recording, 2 usage error.

import { compareUtf8, foldedStacks, formatWeight, sumFolded, transformedViewTree, type FoldedOptions, type FoldedStacks } from '../core/export/folded';
import type { Profile } from '../core/model/profile';
import { mergeRecordings } from '../core/parallel/recordings';
import { pairRoots, type DiffSide, type RootEntry } from '../core/views/diff';
import { groupDeltas, shareTable } from '../core/views/group-deltas';
import { loadRecording, writeChunks } from './cli-common';
import { CommandLine, perfDataOf, SPLIT_OPTIONS, splitOf, SYMFS_HELP, SYMFS_OPTIONS, TRANSFORM_HELP, TRANSFORM_OPTIONS, UNIT_HELP, UNIT_OPTIONS, VIEW_OPTIONS } from './command-args';
import type { CliIo } from './main';

export const DIFF_USAGE = `usage: flameview diff [options] A B
       flameview diff [options] A1 A2 ... vs B1 B2 ...
  prints "stack weightA weightB" lines (A = baseline, B = comparison), sorted bytewise,
  for flamegraph.pl or inferno-flamegraph; a stack missing from one input gets 0 there.
  Groups: each side is the sum of its recordings (runs, hosts); write ./vs for a file named vs.
  --table                  the change table instead: per function its self share of A and B
                           (% of each side's total), the change, the spread of the share over
                           each side's runs (max - min) and "noise" when the change is within it
  --view inline|functions  inline (default): every frame, inlined ones marked _[i];
                           functions: inlined frames merged into their caller
  --samples                weight by sample count instead of the summed period
  --pid, --tid             root frame comm-PID or comm-PID/TID instead of the process name
  --event NAME             perf script: keep samples of this event (default: the CPU samples);
                           off-cpu or wall: the time off CPU, or on and off CPU, from
                           sched:sched_switch (ns)
${UNIT_HELP}${SYMFS_HELP}  --full-names             keep argument lists and full names (only ';' becomes ':')
  --normalize, -n          scale A's weights to B's total, as difffolded.pl -n
  --ignore-root            compare ignoring the root (process or thread) names: A's roots take
                           the names of the B roots they pair with (same name first, then
                           heaviest with heaviest), so a renamed binary compares
${TRANSFORM_HELP}                           (applied to A and B alike)
  A or B may be - for stdin (not both).
`;

export async function runDiff(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'diff', DIFF_USAGE);
  if (args.includes('--open')) {
    return command.usageError('--open is not part of this command: `flameview A B` opens the comparison in the browser');
  }
  const parsed = command.parse(args, { ...VIEW_OPTIONS, ...UNIT_OPTIONS, ...SPLIT_OPTIONS, normalize: { type: 'boolean', short: 'n' }, 'ignore-root': { type: 'boolean' }, table: { type: 'boolean' }, ...SYMFS_OPTIONS, ...TRANSFORM_OPTIONS });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const tree = command.foldedTree(values);
  if (typeof tree === 'number') return tree;
  const { view, transforms, unit: inputUnit } = tree;
  const sides = splitSides(positionals);
  if (typeof sides === 'string') return command.usageError(sides);
  if ([...sides.a, ...sides.b].filter((f) => f === '-').length > 1) return command.usageError('only one of A and B can be - (stdin)');

  const split = splitOf(values);
  const perfData = await perfDataOf(values, io, 'diff');
  if (typeof perfData === 'number') return perfData;
  const load = (file: string) => loadRecording(file, io, { event: values.event, split, unit: inputUnit }, false, perfData.symfs);
  const [runsA, runsB] = await Promise.all([Promise.all(sides.a.map(load)), Promise.all(sides.b.map(load))]);
  if (runsA.some((p) => !p) || runsB.some((p) => !p)) return 1;
  const a = runsA as Profile[];
  const b = runsB as Profile[];
  const eventA = a[0].meta.event;
  const eventB = b[0].meta.event;
  if (eventA !== null && eventB !== null && eventA !== eventB && !values.samples) {
    io.stderr.write(
      `flameview: warning: A's event is ${eventA} but B's is ${eventB}; their weights may not be comparable (--samples compares sample counts)\n`,
    );
  }

  const options: FoldedOptions = {
    view,
    weight: values.samples ? 'samples' : 'period',
    annotateInline: true,
    fullNames: Boolean(values['full-names']),
    transforms,
  };
  if (values.table) return writeChunks(io.stdout, [groupTable(a, b, options)]);
  const sideStacks = (runs: Profile[]) => (runs.length === 1 ? foldedStacks(runs[0], options) : sumFolded(runs.map((p) => foldedStacks(p, options))));
  const stacksB = sideStacks(b);
  const stacksA = values['ignore-root'] ? renameRoots(sideStacks(a), stacksB) : sideStacks(a);
  const lines = diffFoldedChunks(stacksA, stacksB, { normalize: Boolean(values.normalize) });
  return writeChunks(io.stdout, lines);
}

/** `A B` or `A1 A2 … vs B1 B2 …`; a message for anything else. */
export function splitSides(positionals: readonly string[]): { a: string[]; b: string[] } | string {
  const at = positionals.indexOf('vs');
  if (at < 0) return positionals.length === 2 ? { a: [positionals[0]], b: [positionals[1]] } : `expected two recordings A and B (or groups: A1 A2 ... vs B1 B2 ...), got ${positionals.length}`;
  if (positionals.indexOf('vs', at + 1) >= 0) return 'vs given twice (write ./vs for a file named vs)';
  const a = positionals.slice(0, at);
  const b = positionals.slice(at + 1);
  if (a.length === 0 || b.length === 0) return `a group is empty: ${a.length} recording(s) before vs, ${b.length} after`;
  return { a, b };
}

/**
 * The change table of the two groups as TSV, heaviest |change| first: functions with self
 * weight on either side. Figures in percent of each side's total, two decimals.
 */
function groupTable(a: Profile[], b: Profile[], options: FoldedOptions): string {
  const side = (p: Profile): DiffSide => ({ tree: transformedViewTree(p, options.view ?? 'inline', options.transforms), frames: p.frames });
  const samples = options.weight === 'samples';
  const rows = groupDeltas(shareTable(a.map(side), samples), shareTable(b.map(side), samples), side(mergeRecordings(a)), side(mergeRecordings(b)), { weight: options.weight });
  const pct = (x: number) => x.toFixed(2);
  let out = 'selfA%\tselfB%\tchange\tspreadA\tspreadB\tverdict\tname\n';
  for (const r of rows) {
    if (r.self.a === 0 && r.self.b === 0) continue;
    const change = (r.self.delta >= 0 ? '+' : '') + pct(r.self.delta);
    // Names are untrusted: a tab or newline in one would break the table's columns.
    const name = r.name.replace(/[\r\n\t]/g, ' ');
    out += `${pct(r.self.a)}\t${pct(r.self.b)}\t${change}\t${pct(r.selfSpread.a)}\t${pct(r.selfSpread.b)}\t${r.selfSpread.noise ? 'noise' : 'CHANGE'}\t${name}\n`;
  }
  return out;
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

/** The first frame (the root) of a folded stack. */
const rootOf = (stack: string) => {
  const cut = stack.indexOf(';');
  return cut < 0 ? stack : stack.slice(0, cut);
};

/** Each root of the stacks, with its summed weight, in order of first appearance. */
function foldedRoots(f: FoldedStacks): RootEntry[] {
  const at = new Map<string, number>();
  const roots: RootEntry[] = [];
  f.stacks.forEach((stack, i) => {
    const name = rootOf(stack);
    let k = at.get(name);
    if (k === undefined) at.set(name, (k = roots.push({ name, weight: 0 }) - 1));
    roots[k].weight += f.weights[i];
  });
  return roots;
}

/**
 * A's stacks with each root renamed to the B root it pairs with (pairRoots, the rule of the
 * page's comparison), sorted again. Pairing is one-to-one, so no two stacks become equal.
 */
export function renameRoots(a: FoldedStacks, b: FoldedStacks): FoldedStacks {
  const rootsA = foldedRoots(a);
  const rootsB = foldedRoots(b);
  const pairs = pairRoots(rootsA, rootsB);
  const rename = new Map(rootsA.map((r, i) => [r.name, pairs[i] >= 0 ? rootsB[pairs[i]].name : r.name]));
  const renamed = a.stacks.map((stack) => {
    const root = rootOf(stack);
    return rename.get(root)! + stack.slice(root.length);
  });
  const order = renamed.map((_, i) => i).sort((x, y) => compareUtf8(renamed[x], renamed[y]));
  return { stacks: order.map((i) => renamed[i]), weights: Float64Array.from(order, (i) => a.weights[i]) };
}

function sum(w: Float64Array): number {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w[i];
  return s;
}
