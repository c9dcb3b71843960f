import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesEqual, ByteKeys } from './perf-byte-keys';

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.length);

describe('bytesEqual', () => {
  it('is byte equality, for any bytes at any offsets', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.nat(7), fc.nat(7), fc.nat(39), fc.integer({ min: -1, max: 255 }), (bytes, a, b, at, value) => {
        const x = new Uint8Array(a + bytes.length);
        x.set(bytes, a);
        const y = new Uint8Array(b + bytes.length);
        y.set(bytes, b);
        if (value >= 0 && at < bytes.length) y[b + at] = value;
        const equal = bytes.every((v, i) => v === y[b + i]);
        expect(bytesEqual(view(x), a, view(y), b, bytes.length)).toBe(equal);
      }),
      { numRuns: 5000 },
    );
  });

  it('compares NaN bit patterns as bytes (equal NaNs are equal, different ones are not)', () => {
    const nan = Uint8Array.from([1, 2, 3, 4, 5, 6, 0xf8, 0x7f]);
    const otherNan = Uint8Array.from([1, 2, 3, 4, 5, 7, 0xf8, 0x7f]);
    expect(bytesEqual(view(nan), 0, view(nan.slice()), 0, 8)).toBe(true);
    expect(bytesEqual(view(nan), 0, view(otherNan), 0, 8)).toBe(false);
  });

  it('tells +0 from -0 (all-zero bytes from a set sign bit)', () => {
    const zero = new Uint8Array(8);
    const negativeZero = new Uint8Array(8);
    negativeZero[7] = 0x80;
    expect(bytesEqual(view(zero), 0, view(negativeZero), 0, 8)).toBe(false);
    expect(bytesEqual(view(zero), 0, view(new Uint8Array(8)), 0, 8)).toBe(true);
  });
});

describe('ByteKeys', () => {
  it('finds every kept line by its bytes, and nothing else', () => {
    const keys = new ByteKeys();
    const enc = new TextEncoder();
    const lines = Array.from({ length: 5000 }, (_, i) => `\t           ${(i * 7919).toString(16).padStart(5, '0')} fn_${i % 97}+0x${(i % 13).toString(16)} (/lib/x.so)`);
    lines.forEach((line, i) => {
      const b = enc.encode(line);
      expect(keys.add(b, 0, b.length, i + 1)).toBeGreaterThanOrEqual(0);
    });
    lines.forEach((line, i) => {
      const b = enc.encode('xx' + line + '\n');
      expect(keys.find(b, view(b), 2, b.length - 1)).toBe(i + 1);
    });
    const other = enc.encode(lines[10].replace('fn_', 'fm_'));
    expect(keys.find(other, view(other), 0, other.length)).toBe(-1);
  });
});
