import { describe, expect, it } from 'vitest';
import { grown } from './grown';

describe('grown', () => {
  it('keeps the elements and the element type, zero after them', () => {
    const i = grown(Int32Array.of(-1, 2, 3), 5);
    expect(i).toBeInstanceOf(Int32Array);
    expect([...i]).toEqual([-1, 2, 3, 0, 0]);
    const f = grown(Float64Array.of(0.5, -2), 3);
    expect(f).toBeInstanceOf(Float64Array);
    expect([...f]).toEqual([0.5, -2, 0]);
    const u = grown(Uint8Array.of(255), 2);
    expect([...u]).toEqual([255, 0]);
  });

  it('gives a plain Uint8Array for a subclass such as Node Buffer', () => {
    const u = grown(Buffer.from([1, 2]), 4);
    expect(u.constructor).toBe(Uint8Array);
    expect([...u]).toEqual([1, 2, 0, 0]);
  });
});
