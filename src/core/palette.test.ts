import { describe, expect, it } from 'vitest';
import { FrameFlags } from './model/types';
import { FrameColours, LIGHT, MATCH_COLOUR, SHADES, frameRgb, hashName } from './palette';

describe('palette', () => {
  it('is deterministic by name and independent of the frame index', () => {
    expect(frameRgb('std::vec::Vec::push', 0)).toEqual(frameRgb('std::vec::Vec::push', 0));
    const a = new FrameColours(() => 'main', new Uint8Array([0, 0]), LIGHT);
    const b = new FrameColours((f) => (f === 1 ? 'main' : 'x'), new Uint8Array([0, 0]), LIGHT);
    expect(a.get(0)).toBe(b.get(1));
    expect(hashName('a')).not.toBe(hashName('b'));
  });

  it('maps frames to colour ids by family and shade, dimmed ids after them', () => {
    const flags = new Uint8Array([0, FrameFlags.INLINED, 0]);
    const names = ['main', 'main', 'other'];
    const c = new FrameColours((f) => names[f], flags, LIGHT);
    expect(c.id(0)).not.toBe(c.id(1));
    expect(c.cssOf(c.id(0))).toBe(c.get(0));
    expect(c.dimId(0)).toBeGreaterThanOrEqual(4 * SHADES);
    expect(c.dimId(0)).toBeLessThan(MATCH_COLOUR);
    expect(c.cssOf(c.dimId(0))).not.toBe(c.get(0));
  });

  it('keeps ordinary frames warm (red dominant, little blue)', () => {
    for (const name of ['main', 'parse', 'lex', 'memcpy', 'x', '<img src=x onerror=alert(1)>']) {
      const [r, g, b] = frameRgb(name, 0);
      expect(r).toBeGreaterThanOrEqual(205);
      expect(g).toBeLessThanOrEqual(230);
      expect(b).toBeLessThanOrEqual(55);
    }
  });

  it('tints inlined frames aqua and gives kernel and JIT frames their own hues', () => {
    const [r, g, b] = frameRgb('main', FrameFlags.INLINED);
    expect(b).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(r);
    const k = frameRgb('schedule', FrameFlags.KERNEL);
    expect(k[0]).toBeGreaterThan(k[1]);
    expect(k[2]).toBeLessThanOrEqual(20);
    const j = frameRgb('Interpreter', FrameFlags.JIT);
    expect(j[1]).toBeGreaterThan(j[0]);
    expect(j[1]).toBeGreaterThan(j[2]);
  });
});
