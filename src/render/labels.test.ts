import { describe, expect, it } from 'vitest';
import { LabelFitter, breakableParts } from './labels';

/** A fake context where every character is 7 px wide and "…" is 5 px. */
const ctx = {
  font: '',
  measureText: (text: string) => ({ width: text === '…' ? 5 : 7 * text.length }),
} as unknown as CanvasRenderingContext2D;

/** The width (room for n characters and an ellipsis, with the 2 px margin). */
const room = (chars: number, ellipsis = true) => 7 * chars + (ellipsis ? 5 : 0) + 2;

describe('LabelFitter', () => {
  const fit = new LabelFitter(ctx, '12px sans-serif');
  it('keeps names that fit', () => {
    expect(fit.fit(1, 'main', room(4, false))).toBe('main');
  });

  it('cuts in the middle, keeping the last :: component', () => {
    const name = 'wl::expr::parser::parse_sum';
    // "wl::expr::" (10) + "…" + "::parse_sum" (11)
    expect(fit.fit(2, name, room(21))).toBe('wl::expr::…::parse_sum');
    // Less room: the head ends after a `::` when one is near.
    expect(fit.fit(2, name, room(17))).toBe('wl::…::parse_sum');
    // No room for any head: the last component alone after "…".
    expect(fit.fit(2, name, room(11))).toBe('…::parse_sum'.replace('::', ''));
    expect(fit.fit(2, name, room(9))).toBe('…parse_sum');
    // Not even that: the start of the last component.
    expect(fit.fit(2, name, room(4))).toBe('pars…');
    expect(fit.fit(2, name, 10)).toBe('');
  });

  it('shortens before cutting: template arguments and argument lists go first', () => {
    const name = 'std::_Function_handler<void (int), wl::Lambda>::_M_invoke(std::_Any_data const&, int&&)';
    const short = 'std::_Function_handler<…>::_M_invoke()';
    expect(fit.fit(3, name, room(short.length, false))).toBe(short);
    expect(fit.fit(3, name, room(30))).toBe('std::_Function_ha…::_M_invoke()');
    // The last component is found outside template arguments.
    expect(fit.fit(4, 'core::ptr::drop_in_place<toyc::Expr>', room(24))).toBe('core::…::drop_in_place<…>');
    expect(fit.fit(4, 'core::ptr::drop_in_place<toyc::Expr>', room(22))).toBe('core…::drop_in_place<…>');
  });

  it('names without :: are cut at the end', () => {
    expect(fit.fit(5, '__GI___libc_malloc', room(4))).toBe('__GI…');
  });

  it('never splits a surrogate pair', () => {
    // 'a' + U+1F525 (two code units) + 'bcd': cut after 2 code units would split the pair.
    const label = fit.fit(6, 'a\u{1F525}bcd', 7 * 2 + 2 + 5);
    expect(label).toBe('a…');
  });
});

describe('breakableParts', () => {
  it('breaks only after ::, commas and <', () => {
    expect(breakableParts('std::map<int, wl::Value>::find')).toEqual(['std::', 'map<', 'int,', ' wl::', 'Value>::', 'find']);
    expect(breakableParts('main')).toEqual(['main']);
    expect(breakableParts('a::').join('')).toBe('a::');
    expect(breakableParts('').join('')).toBe('');
  });
});
