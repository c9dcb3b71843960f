import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AddressTable } from './perf-addresses';

describe('AddressTable', () => {
  it('gives equal ids exactly to equal hex values, dense in order of first sight', () => {
    const hex = fc.stringMatching(/^[0-9a-fA-F]{1,20}$/);
    fc.assert(
      fc.property(fc.array(hex, { maxLength: 300 }), (addresses) => {
        const table = new AddressTable();
        const byValue = new Map<string, number>();
        for (const a of addresses) {
          const value = BigInt('0x' + a).toString(16);
          const line = `\t${a} sym (dso)`;
          const id = table.id(line, 1, 1 + a.length);
          const expected = byValue.get(value) ?? byValue.size;
          byValue.set(value, expected);
          expect(id).toBe(expected);
        }
        expect(table.size).toBe(byValue.size);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps 64-bit kernel addresses apart that share their low 32 bits', () => {
    const table = new AddressTable();
    const a = table.id('ffffffff81000010', 0, 16);
    const b = table.id('ffffffff01000010', 0, 16);
    const c = table.id('81000010', 0, 8);
    expect(new Set([a, b, c]).size).toBe(3);
    expect(table.id('ffffffff81000010', 0, 16)).toBe(a);
  });

  it('stays correct through many regrowths', () => {
    const table = new AddressTable();
    for (let i = 0; i < 50_000; i++) expect(table.id((i * 7919).toString(16), 0, (i * 7919).toString(16).length)).toBe(i);
    for (let i = 0; i < 50_000; i += 97) expect(table.id((i * 7919).toString(16), 0, (i * 7919).toString(16).length)).toBe(i);
  });
});
