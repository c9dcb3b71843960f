import { describe, expect, it } from 'vitest';
import { compareParamsFromHash } from './compare-hash';
import { DIFF_CSS, STEPS, diffColourId } from '../../render/diff-palette';
import { exactPattern } from '../../core/query/diff-sides';
import { formatDelta, formatDeltaPct, formatValue } from '../../format-diff';

describe('compare hash parameters', () => {
  it('reads compare, mode and norm and ignores unknown values', () => {
    expect(compareParamsFromHash('#profile=a.txt&compare=b%20c.txt&mode=diff&norm=abs')).toEqual({ compare: 'b c.txt', mode: 'diff', norm: 'abs' });
    expect(compareParamsFromHash('#profile=a.txt&mode=weird&norm=')).toEqual({ compare: null, mode: null, norm: null });
  });
});

describe('differential palette', () => {
  it('is neutral at zero, red for growth and blue for shrinkage, saturating at the extreme', () => {
    expect(diffColourId(0, 10)).toBe(STEPS);
    expect(diffColourId(10, 10)).toBe(2 * STEPS);
    expect(diffColourId(-10, 10)).toBe(0);
    expect(diffColourId(5, 10)).toBe(STEPS + STEPS / 2);
    expect(diffColourId(3, 0)).toBe(STEPS);
    expect(diffColourId(NaN, 1)).toBe(STEPS);
    expect(DIFF_CSS).toHaveLength(2 * STEPS + 1);
    const [r, , b] = DIFF_CSS[2 * STEPS].match(/\d+/g)!.map(Number);
    expect(r).toBeGreaterThan(b);
    const [r2, , b2] = DIFF_CSS[0].match(/\d+/g)!.map(Number);
    expect(b2).toBeGreaterThan(r2);
  });
});

describe('helpers', () => {
  it('escapes a name into an exact-match pattern', () => {
    const name = 'core::ptr::drop_in_place<alloc::vec::Vec<u8>>::{{closure}}(x) [a.b]*+?|^$\\/';
    const re = new RegExp(exactPattern(name));
    expect(re.test(name)).toBe(true);
    expect(re.test(`${name}x`)).toBe(false);
  });

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
