import { describe, expect, it } from 'vitest';
import { rangeText, formatOffset } from '../../render/range-text';
import { parseRange, writeRange } from './time-params';

describe('range= link parameter', () => {
  it('reads FROM-TO in seconds and writes it back the same', () => {
    expect(parseRange('678.412-678.828')).toEqual({ ok: true, value: { from: 678.412, to: 678.828 } });
    expect(writeRange({ from: 678.412, to: 678.828 })).toBe('678.412-678.828');
    expect(writeRange({ from: 100, to: 100.000000001 })).toBe('100-100.000000001');
    const r = { from: 7628263.042515, to: 7628264.5 };
    expect(parseRange(writeRange(r))).toEqual({ ok: true, value: r });
  });

  it('gives a notice for anything else', () => {
    for (const bad of ['', '5', '2-1', '1-1', 'a-b', '-1-2', '1e3-2e3', '1-2-3', '<img src=x>-2']) {
      const r = parseRange(bad);
      expect(r.ok).toBe(false);
    }
  });
});

describe('range words', () => {
  it('count from the first sample and say the samples', () => {
    const samples = { count: 4, leaf: new Int32Array(4), time: Float64Array.from([10, 10.1, 10.2, 12]), weight: new Float64Array(4).fill(1) };
    expect(rangeText({ from: 10.05, to: 10.25 }, samples, 10)).toBe('0.050 s – 0.250 s (200 ms, 2 samples)');
    expect(rangeText({ from: 11.5, to: 12.5 }, samples, 10)).toBe('1.500 s – 2.500 s (1.000 s, 1 sample)');
    expect(formatOffset(0.0000123, 0.000001)).toBe('0.000012300 s');
  });
});
