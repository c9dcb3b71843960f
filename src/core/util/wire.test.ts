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
});
