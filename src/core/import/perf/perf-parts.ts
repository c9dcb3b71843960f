// The meta of a perf script profile from its parser's statistics: events, the kept event, the
// warnings, the time-order column's fate and the doubled frames. One parser over the whole input
// and a merge of parts (../parallel/) both finish here, so the two cannot drift apart.
//
// Invariants: statistics of parts are combined in input order; quoted warnings are the first
// MAX_QUOTED problems met in input order (each part keeps its first MAX_QUOTED, which is enough),
// then sorted by line; the time-order column is dropped for the whole recording when the first
// sample without a time, or the sample past the cap, is met, as one SampleColumnBuilder would;
// samples kept aside by the parts are placed by ./perf-late.ts, which also says why the column
// was dropped then.

import { eventBaseName, ImportError, notQuotedWarning, type EventSummary, type ImportWarning, type Profile } from '../../model/profile';
import { shiftWarnings, type ImportOptions, type MergedParts } from '../importer';
import { sortSamples } from '../../model/sample-column';
import type { PerfLateData, PerfLateMerge } from './perf-late';
import { functionFrames, type FunctionNamesData } from './perf-function-names';
import { LeafAddressesBuilder, type LeafAddresses } from '../../model/leaf-addresses';
import { OFF_CPU_EVENT, SWITCH_EVENT, WALL_EVENT, type DerivedEvent, type OffCpuSummary } from './perf-offcpu';

export const MAX_QUOTED = 5;
/** The events whose period is a time in nanoseconds. */
export const TIME_EVENTS = new Set(['cpu-clock', 'task-clock']);

/** What one perf script parser learnt, as plain data (it crosses from a worker). */
export interface PerfPartMeta {
  /** The event requested (options.event), or null. */
  wanted: string | null;
  /** Base name of the first event seen (the kept one when none was requested), or null. */
  chosenBase: string | null;
  samples: number;
  /** Every printed event name with its samples, in order of first appearance. */
  events: EventSummary[];
  /** Printed names of the kept events, in order of first appearance. */
  keptNames: string[];
  otherEventSamples: number;
  samplesWithoutPeriod: number;
  badSamples: number;
  skippedLines: number;
  /** The first MAX_QUOTED problems, in the order they were met; `quotedCount` counts them all. */
  quoted: ImportWarning[];
  quotedCount: number;
  hasInlined: boolean;
  /** The time-order column: samples recorded, and why it was dropped (null: kept). */
  column: { count: number; dropped: 'no-time' | 'cap' | null; cap: number };
  /** A part's samples kept aside and its run statistics, for the merge (./perf-late.ts). */
  late?: PerfLateData;
  /** The physical symbols of its groups, for one name per function (./perf-function-names.ts). */
  names: FunctionNamesData;
  /** Its samples' sampled instructions, by the part's frames (../../model/leaf-addresses.ts). */
  leaves: LeafAddresses;
  /** The derived event read (never in parts), and what its intervals came to. */
  derived?: DerivedEvent | null;
  offCpu?: OffCpuSummary | null;
}

/** The profile of the whole input; `merged` from ../parallel/merge.ts, or one parser's own tables. */
export function perfProfile(merged: MergedParts, metas: readonly PerfPartMeta[], options: ImportOptions): Profile {
  const first = metas[0];
  const wanted = first.wanted;
  let samples = 0;
  let otherEventSamples = 0;
  let samplesWithoutPeriod = 0;
  let badSamples = 0;
  let skippedLines = 0;
  let quotedCount = 0;
  let hasInlined = false;
  const events: EventSummary[] = [];
  const byName = new Map<string, EventSummary>();
  const kept = new Set<string>();
  const quoted: ImportWarning[] = [];
  let chosenBase: string | null = null;
  metas.forEach((m, part) => {
    samples += m.samples;
    otherEventSamples += m.otherEventSamples;
    samplesWithoutPeriod += m.samplesWithoutPeriod;
    badSamples += m.badSamples;
    skippedLines += m.skippedLines;
    quotedCount += m.quotedCount;
    hasInlined ||= m.hasInlined;
    chosenBase ??= m.chosenBase;
    for (const e of m.events) {
      const seen = byName.get(e.name);
      if (seen) seen.samples += e.samples;
      else {
        const copy = { ...e };
        byName.set(e.name, copy);
        events.push(copy);
      }
    }
    for (const name of m.keptNames) kept.add(name);
    if (quoted.length < MAX_QUOTED) quoted.push(...shiftWarnings(m.quoted, merged.lineOffsets[part]).slice(0, MAX_QUOTED - quoted.length));
  });

  const switches = events.filter((e) => eventBaseName(e.name) === SWITCH_EVENT).reduce((n, e) => n + e.samples, 0);
  const cpuTime = events.filter((e) => TIME_EVENTS.has(eventBaseName(e.name))).reduce((n, e) => n + e.samples, 0);
  const derived = first.derived ?? null;
  if (derived !== null && switches === 0) {
    const seen = events.length ? events.map((e) => `${e.name} (${e.samples})`).join(', ') : 'no samples';
    throw new ImportError(`samples of ${SWITCH_EVENT} for the ${wanted} event (record with -e ${SWITCH_EVENT})`, 0, seen, options.source);
  }
  if (wanted !== null && samples === 0 && events.length > 0) {
    const seen = events.map((e) => `${e.name} (${e.samples})`).join(', ');
    throw new ImportError(`samples of event "${wanted}"`, 0, `only ${seen}`, options.source);
  }
  const derivedName = derived === 'off-cpu' ? OFF_CPU_EVENT : derived === 'wall' ? WALL_EVENT : null;
  const eventName = derivedName ?? (kept.size === 1 ? [...kept][0] : kept.size > 1 ? (wanted ?? chosenBase) : null);

  // Bad frame lines are found when their sample ends, so quoted lines are put back in order.
  const warnings = quoted.sort((a, b) => a.line - b.line);
  if (quotedCount > MAX_QUOTED) {
    warnings.push(notQuotedWarning(quotedCount - MAX_QUOTED));
  }
  const late = merged.late as PerfLateMerge | undefined;
  if (late?.hasInlined) hasInlined = true;
  const dropped = late ? late.dropped : droppedColumn(metas);
  if (dropped === 'cap') {
    warnings.push({ line: 0, message: `more than ${first.column.cap} samples: time order is off for this recording` });
  }
  if (badSamples > 0) {
    warnings.push({ line: 0, message: `${badSamples} sample${badSamples === 1 ? '' : 's'} skipped for a bad period` });
  }
  const offCpu = first.offCpu;
  if (offCpu && offCpu.inferred > 0) {
    warnings.push({
      line: 0,
      message: `${offCpu.inferred} of ${offCpu.intervals} off-CPU intervals end at their thread's next sample, as their switch-in was not recorded (record system-wide, -a, for exact ends): each is longer by the time its thread ran before that sample`,
    });
  }
  if (offCpu && offCpu.unfinished > 0) {
    const n = offCpu.unfinished;
    warnings.push({ line: 0, message: `${n} thread${n === 1 ? ' was' : 's were'} still off CPU at the end of the recording: ${n === 1 ? 'its' : 'their'} last wait counts up to the last timestamp (${offCpu.lastTime.toFixed(6)})` });
  }
  if (offCpu && offCpu.unended > 0) {
    const n = offCpu.unended;
    // Recorded per process, the last switch-out can be the file's last event: its wait has no end.
    warnings.push({
      line: 0,
      message: `${n} off-CPU wait${n === 1 ? '' : 's'} began at the end of the recording, with nothing of ${n === 1 ? 'its thread' : 'their threads'} after (no switch-in, no sample): not counted (record system-wide, -a, to see ${n === 1 ? 'its end' : 'their ends'})`,
    });
  }
  if (otherEventSamples > 0 && derived === null) {
    const keptName = eventName ?? wanted ?? '?';
    const others = events.filter((e) => !kept.has(e.name)).map((e) => `${e.name} (${e.samples})`);
    warnings.push({
      line: 0,
      message: `showing event ${keptName}; ${otherEventSamples} samples of other events were left out: ${others.join(', ')}`,
    });
  }

  let weightUnit: 'nanoseconds' | null = samples > 0 && samplesWithoutPeriod === 0 ? 'nanoseconds' : null;
  for (const name of kept) if (!TIME_EVENTS.has(eventBaseName(name)) && eventBaseName(name) !== SWITCH_EVENT) weightUnit = null;
  // The derived events, listed whenever their sources are there, so the picker offers them.
  if (switches > 0) events.push({ name: OFF_CPU_EVENT, samples: switches });
  if (switches > 0 && cpuTime > 0) events.push({ name: WALL_EVENT, samples: switches + cpuTime });
  // A derived event's samples are its intervals (and, for Wall clock, the CPU samples), as its
  // tree counts them: a switch sample whose thread exits, or that no switch-in ends, is none, so
  // the status bar does not read "163 of 166" as if a transform had dropped some.
  if (derived !== null && offCpu) {
    samples += offCpu.intervals - switches;
    const own = events.find((e) => e.name === derivedName);
    if (own) own.samples = samples;
  }
  const leaves = new LeafAddressesBuilder();
  metas.forEach((m, part) => leaves.addAll(m.leaves, merged.frameMaps[part] ?? null));

  return {
    frames: merged.frames,
    tree: merged.tree,
    functionFrames: functionFrames(merged.frames, metas.map((m) => m.names), merged.frameMaps),
    samples: dropped === null && merged.samples ? sortSamples(merged.samples) : null,
    leafAddresses: leaves.size > 0 ? leaves.finish() : null,
    meta: {
      format: 'perf-script',
      events,
      event: eventName,
      weightUnit,
      samples,
      hasInlineInfo: hasInlined,
      skippedLines,
      warnings,
    },
  };
}

/** Why one column builder fed every part's samples in order would have dropped the column. */
function droppedColumn(metas: readonly PerfPartMeta[]): 'no-time' | 'cap' | null {
  const cap = metas[0].column.cap;
  let before = 0;
  for (const { column } of metas) {
    // The part's first sample the column refused is its (count + 1)th: without a time, or past
    // the part's own cap. In the whole recording the cap refuses the (cap + 1)th sample first.
    if (column.dropped !== null && before + column.count <= cap) return column.dropped;
    if (column.dropped !== null || before + column.count > cap) return 'cap';
    before += column.count;
  }
  return null;
}
