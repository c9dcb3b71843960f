import { describe, expect, it } from 'vitest';
import { contrast, DARK, LIGHT, luminance, parseRgb, themedCss } from '../core/palette';
import { DIFF_CSS, STEPS, diffColourId } from './diff-palette';
import { withFaded } from './search-colours';

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

describe('differential colours in both themes', () => {
  for (const theme of [LIGHT, DARK]) {
    const name = theme.dark ? 'dark' : 'light';
    it(`the scale, plain and faded by a search, keeps its labels at 4.5:1 (${name})`, () => {
      const scale = themedCss(DIFF_CSS, theme.dark);
      for (const colour of scale) expect(contrast(parseRgb(colour), parseRgb(theme.frameText))).toBeGreaterThanOrEqual(4.5);
      const faded = withFaded(scale, theme.dark).slice(scale.length);
      for (const colour of faded) expect(contrast(parseRgb(colour), parseRgb(theme.dimText))).toBeGreaterThanOrEqual(4.5);
    });
  }

  it('unchanged frames are a dark grey in the dark theme, not a light slab', () => {
    expect(luminance(parseRgb(themedCss(DIFF_CSS, true)[STEPS]))).toBeLessThan(0.13);
    expect(themedCss(DIFF_CSS, false)[STEPS]).toBe(DIFF_CSS[STEPS]);
  });
});
