import { describe, expect, it } from 'vitest';
import { DIFF_CSS, STEPS, diffColourId } from './diff-palette';

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
