// Formatting of compared figures: shares in percent of the run's total ('pct'), or weights as
// recorded ('abs', milliseconds when the weight unit is nanoseconds, else counts).

import type { Compared, DiffNorm } from './core/views/diff';

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
