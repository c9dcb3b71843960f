import { describe, expect, it } from 'vitest';
import { packStrings, unpackStrings, withoutNul } from './wire';

describe('wire strings', () => {
  it('round-trips any list of names without NUL, the empty list and empty names included', () => {
    for (const list of [[], [''], ['', ''], ['a'], ['a', '', 'b;c', 'ü 名前', ' ']]) expect(unpackStrings(packStrings(list))).toEqual(list);
  });

  it('withoutNul makes a name packable', () => {
    const names = ['a\0b', '\0', 'plain'].map(withoutNul);
    expect(names).toEqual(['a\ufffdb', '\ufffd', 'plain']);
    expect(unpackStrings(packStrings(names))).toEqual(names);
  });

  it('packs a list it unpacked without joining it again (the page passes 5 million names on to two workers)', () => {
    const packed = packStrings(['a', '', 'b;c']);
    const list = unpackStrings(packed);
    Object.defineProperty(list, 'join', { value: () => { throw new Error('joined again'); } });
    expect(packStrings(list)).toBe(packed);
    // Any other list is joined: one with the same names too.
    expect(packStrings([...list])).toBe(packed);
    expect(packStrings(unpackStrings(''))).toBe('');
  });
});
