import { describe, expect, it } from 'vitest';
import { LabelFitter } from './labels';

/** A fake context where every character is 7 px wide and "…" is 5 px. */
const ctx = {
  font: '',
  measureText: (text: string) => ({ width: text === '…' ? 5 : 7 * text.length }),
} as unknown as CanvasRenderingContext2D;

describe('LabelFitter', () => {
  const fit = new LabelFitter(ctx, '12px sans-serif');
  it('keeps names that fit and truncates the rest with an ellipsis', () => {
    expect(fit.fit(1, 'main', 7 * 4 + 2)).toBe('main');
    // 40 px: room 38, minus 5 for "…" = 33 → 4 characters.
    expect(fit.fit(2, 'toyc::compile_module', 40)).toBe('toyc…');
    expect(fit.fit(2, 'toyc::compile_module', 10)).toBe('');
  });
  it('never splits a surrogate pair', () => {
    // 'a' + U+1F525 (two code units) + 'bcd': cut after 2 code units would split the pair.
    const label = fit.fit(3, 'a\u{1F525}bcd', 7 * 2 + 2 + 5);
    expect(label).toBe('a…');
  });
});
