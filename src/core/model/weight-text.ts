// A weight as text with its unit, as the viewer shows it: times in ns/µs/ms/s, byte counts in
// B/KB/MB/GB, other counts with thousands separators and their unit's name (samples, or the perf
// event whose periods are summed, e.g. "cycles"). Pure; shared by the viewer and the CLI.

import { eventBaseName, type ProfileMeta } from './profile';
import { Memo } from '../util/memo';

/**
 * What the numbers of a folded input count (`--unit`, `unit=`): nanoseconds per unit for the
 * times, 0 for samples (the default). BPF `offcputime -f` prints microseconds.
 */
export const FOLDED_UNITS = { ns: 1, us: 1e3, ms: 1e6, samples: 0 } as const;
export type FoldedUnit = keyof typeof FOLDED_UNITS;

/** The FoldedUnit a word names (`us`, `µs`, `ms`…), or null. */
export function foldedUnit(word: string): FoldedUnit | null {
  const w = word === 'µs' ? 'us' : word;
  return Object.hasOwn(FOLDED_UNITS, w) ? (w as FoldedUnit) : null;
}

export type WeightUnit = { kind: 'time' } | { kind: 'bytes' } | { kind: 'count'; name: string };

/** Nanoseconds as "850 ns", "12.3 µs", "12.3 ms" or "1.23 s". */
export function formatNs(ns: number): string {
  if (ns < 1e3) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(1)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

// Made on first use: made as the module loaded, it took ~5 ms of the profile worker's start
// (Node's CPU profile of a cold open).
const formats = new Memo<Intl.NumberFormat>();

/**
 * The unit of a recording's weights: sample counts when `samples` is asked for or the format
 * counts samples; time when the importer scaled to nanoseconds; else what the event names
 * (pprof's `type/unit`, a perf event's periods).
 */
export function weightUnitOf(meta: ProfileMeta, samples: boolean): WeightUnit {
  if (samples) return { kind: 'count', name: 'samples' };
  if (meta.weightUnit === 'nanoseconds') return { kind: 'time' };
  const event = meta.event ?? '';
  if (meta.format === 'perf-script' && event) return { kind: 'count', name: eventBaseName(event) };
  const unit = meta.format === 'pprof' ? /\/([^/]+)$/.exec(event)?.[1] : undefined;
  if (unit === 'bytes') return { kind: 'bytes' };
  if (unit && unit !== 'count') return { kind: 'count', name: unit };
  return { kind: 'count', name: 'samples' };
}

/** "850 B", "1.5 KB", "12 MB" (powers of 1024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const names = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let i = 0;
  while (value >= 1024 && i < names.length - 1) {
    value /= 1024;
    i++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${names[i]}`;
}

export function formatWeightIn(w: number, unit: WeightUnit): string {
  if (unit.kind === 'time') return formatNs(w);
  if (unit.kind === 'bytes') return formatBytes(w);
  const name = w === 1 && unit.name === 'samples' ? 'sample' : unit.name;
  return `${formats.get(['en-US'], () => new Intl.NumberFormat('en-US')).format(Math.round(w))} ${name}`;
}
