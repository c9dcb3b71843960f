import { describe, expect, it } from 'vitest';
import { markMutable } from './mutable-fields';

describe('markMutable', () => {
  it('keeps every value (a typed array by an equal copy, a number as it was)', () => {
    const owner = { buffer: new Int32Array([1, 2, 3]), bytes: new Uint8Array([7]), mask: 4095 };
    const before = owner.buffer;
    markMutable(owner, ['buffer', 'bytes', 'mask']);
    expect(owner.buffer).not.toBe(before);
    expect([...owner.buffer]).toEqual([1, 2, 3]);
    expect([...owner.bytes]).toEqual([7]);
    expect(owner.mask).toBe(4095);
  });

  it('throws on a name that is not a typed-array or number field (a rename must not pass silently)', () => {
    expect(() => markMutable({ buffer: new Int32Array(1) }, ['bufer'])).toThrow(/bufer/);
    expect(() => markMutable({ name: 'x' }, ['name'])).toThrow(/name/);
  });
});
