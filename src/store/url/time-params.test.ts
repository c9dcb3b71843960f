import { describe, expect, it } from 'vitest';
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
