import { describe, expect, it } from 'vitest';
import { formatOffset } from '../format';
import { rangeText } from './range-text';

describe('range words', () => {
  it('count from the first sample and say the samples', () => {
    const samples = { count: 4, leaf: new Int32Array(4), time: Float64Array.from([10, 10.1, 10.2, 12]), weight: new Float64Array(4).fill(1) };
    expect(rangeText({ from: 10.05, to: 10.25 }, samples, 10)).toBe('0.050 s – 0.250 s (200 ms, 2 samples)');
    expect(rangeText({ from: 11.5, to: 12.5 }, samples, 10)).toBe('1.500 s – 2.500 s (1.000 s, 1 sample)');
    expect(formatOffset(0.0000123, 0.000001)).toBe('0.000012300 s');
  });
});
