import { describe, expect, it } from 'vitest';
import { exactPattern } from './diff-sides';

describe('diff sides', () => {
  it('escapes a name into an exact-match pattern', () => {
    const name = 'core::ptr::drop_in_place<alloc::vec::Vec<u8>>::{{closure}}(x) [a.b]*+?|^$\\/';
    const re = new RegExp(exactPattern(name));
    expect(re.test(name)).toBe(true);
    expect(re.test(`${name}x`)).toBe(false);
  });
});
