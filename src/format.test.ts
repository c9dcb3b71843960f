import { describe, expect, it } from 'vitest';
import { formatBytes, formatDelta, formatDeltaPct, formatValue, progressText } from './format';

describe('shell formatting', () => {
  it('formats byte counts', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatBytes(3.25 * 1024 ** 3)).toBe('3.3 GB');
  });
  it('describes progress with and without a known size', () => {
    expect(progressText(5 * 1024 * 1024, 10 * 1024 * 1024, 12345)).toBe('5.0 MB of 10 MB · 12,345 samples');
    expect(progressText(2048, null, 1)).toBe('2.0 KB read · 1 sample');
    // A server that compresses on the fly can deliver more than Content-Length said.
    expect(progressText(11, 10, 0)).toBe('10 B of 10 B · 0 samples');
  });
});

describe('compared figures', () => {
  it('formats shares, points and relative changes', () => {
    expect(formatValue(26.123, 'pct', true)).toBe('26.1 %');
    expect(formatValue(2_500_000, 'abs', true)).toBe('2.50 ms');
    expect(formatValue(1234, 'abs', false)).toBe('1,234');
    expect(formatDelta(19.25, 'pct', false)).toBe('+19.3 pp');
    expect(formatDelta(-2, 'pct', false)).toBe('−2.00 pp');
    expect(formatDeltaPct({ a: 0, b: 3, delta: 3, deltaPct: Infinity })).toBe('new');
    expect(formatDeltaPct({ a: 4, b: 0, delta: -4, deltaPct: -100 })).toBe('−100 %');
    expect(formatDeltaPct({ a: 4, b: 6, delta: 2, deltaPct: 50 })).toBe('+50.0 %');
  });
});
