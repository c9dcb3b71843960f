// Every number the page shows to people: sizes, counts, shares, weights, durations and the
// compared figures of two runs. One module, so the same number reads the same everywhere.

import { formatBytes } from './core/model/weight-text';
import type { Compared, DiffNorm } from './core/views/diff';

// Sizes and times are the core's (core/model/weight-text.ts), which the CLI prints too.
export { formatBytes, formatNs } from './core/model/weight-text';

const integer = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return integer.format(Math.round(n));
}

/** "12 MB of 40 MB · 1,234 samples", or without "of …" when the size is unknown. */
export function progressText(bytesRead: number, totalBytes: number | null, samples: number): string {
  const read = totalBytes !== null ? `${formatBytes(Math.min(bytesRead, totalBytes))} of ${formatBytes(totalBytes)}` : `${formatBytes(bytesRead)} read`;
  return `${read} · ${formatCount(samples)} ${samples === 1 ? 'sample' : 'samples'}`;
}

export function formatPercent(share: number): string {
  return `${(share * 100).toFixed(share < 0.001 && share > 0 ? 3 : 1)}%`;
}

/** "1,234 samples (12.3 ms)". */
export function formatWeight(samples: number, time: string | null): string {
  return `${formatCount(samples)} ${samples === 1 ? 'sample' : 'samples'}${time ? ` (${time})` : ''}`;
}

/** A tick label in the unit its step calls for: `250 ms`, `1.5 s`, `40 µs`. */
export function formatTick(t: number, step: number): string {
  const [unit, factor] = step >= 0.1 ? ['s', 1] : step >= 1e-4 ? ['ms', 1e3] : step >= 1e-7 ? ['µs', 1e6] : ['ns', 1e9];
  const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step * factor) + 1e-9)));
  return `${(t * factor).toFixed(decimals)} ${unit}`;
}

/** A duration for people: `416 ms`, `2.131 s`, `35.2 µs`. */
export function formatDuration(seconds: number): string {
  const a = Math.abs(seconds);
  if (a >= 1) return `${seconds.toFixed(3)} s`;
  if (a >= 1e-3) return `${trim((seconds * 1e3).toPrecision(3))} ms`;
  if (a >= 1e-6) return `${trim((seconds * 1e6).toPrecision(3))} µs`;
  if (a === 0) return '0 s';
  return `${trim((seconds * 1e9).toPrecision(3))} ns`;
}

function trim(text: string): string {
  return text.includes('.') && !text.includes('e') ? text.replace(/\.?0+$/, '') : text;
}

/** Seconds from the first sample, with enough decimals for the range's length. */
export function formatOffset(seconds: number, span: number): string {
  const decimals = span >= 0.01 ? 3 : span >= 1e-5 ? 6 : 9;
  return `${seconds.toFixed(decimals)} s`;
}

// Compared figures: shares in percent of the run's total ('pct'), or weights as recorded ('abs',
// milliseconds when the weight unit is nanoseconds, else counts).

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatValue(v: number, norm: DiffNorm, nanoseconds: boolean): string {
  if (!Number.isFinite(v)) return '–';
  if (norm === 'pct') return `${v.toFixed(Math.abs(v) < 10 ? 2 : 1)} %`;
  if (nanoseconds) return `${(v / 1e6).toFixed(Math.abs(v) < 1e7 ? 2 : 1)} ms`;
  return count.format(v);
}

export function formatDelta(d: number, norm: DiffNorm, nanoseconds: boolean): string {
  if (d === 0) return '0';
  const sign = d > 0 ? '+' : '−';
  const abs = Math.abs(d);
  if (norm === 'pct') return `${sign}${abs.toFixed(abs < 10 ? 2 : 1)} pp`;
  return `${sign}${formatValue(abs, 'abs', nanoseconds)}`;
}

export function formatDeltaPct(c: Compared): string {
  if (c.deltaPct === Infinity) return 'new';
  if (c.deltaPct === -Infinity) return 'gone';
  if (c.b === 0 && c.a !== 0) return '−100 %';
  const sign = c.deltaPct > 0 ? '+' : c.deltaPct < 0 ? '−' : '';
  return `${sign}${Math.abs(c.deltaPct).toFixed(1)} %`;
}
