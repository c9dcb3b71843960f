import { describe, expect, it } from 'vitest';
import { FrameFlags } from './model/types';
import {
  COLOUR_COUNT,
  contrast,
  DARK,
  familiesPresent,
  FAMILIES,
  FrameColours,
  LIGHT,
  luminance,
  MATCH_COLOUR,
  SHADES,
  frameRgb,
  hashName,
  shadeRgb,
  parseRgb,
  themeRgb,
} from './palette';

describe('palette', () => {
  it('is deterministic by name and independent of the frame index', () => {
    // The same names in another order (another recording's frame table): each keeps its colour.
    const names = ['main', 'std::vec::Vec::push', 'parse', 'lex'];
    const shuffled = ['lex', 'parse', 'main', 'std::vec::Vec::push'];
    const first = new FrameColours((f) => names[f], new Uint8Array(4), LIGHT);
    const second = new FrameColours((f) => shuffled[f], new Uint8Array(4), LIGHT);
    for (let f = 0; f < 4; f++) expect(second.get(f)).toBe(first.get(names.indexOf(shuffled[f])));
    // And the name decides: 200 different names spread over most of the shades.
    const shades = new Set(Array.from({ length: 200 }, (_, i) => frameRgb(`fn_${i}`, 0).join()));
    expect(shades.size).toBeGreaterThan(SHADES / 2);
    const a = new FrameColours(() => 'main', new Uint8Array([0, 0]), LIGHT);
    const b = new FrameColours((f) => (f === 1 ? 'main' : 'x'), new Uint8Array([0, 0]), LIGHT);
    expect(a.get(0)).toBe(b.get(1));
    expect(hashName('a')).not.toBe(hashName('b'));
  });

  it('draws the off-CPU leaves in a colour per state that no on-CPU frame has, in both themes', () => {
    // The four state leaves and a waker frame above them.
    const leaves = ['[off-CPU: sleeping]', '[off-CPU: I/O]', '[off-CPU: preempted]', '[off-CPU: other]', '[woken by: timer]'];
    for (const theme of [LIGHT, DARK]) {
      const c = new FrameColours((f) => leaves[f], new Uint8Array(5), theme);
      const leafCss = new Set(leaves.map((_, f) => c.get(f)));
      expect(leafCss.size).toBe(5);
      // Every colour of every other family (all shades, all flags) is another colour.
      const others = new Set<string>();
      const names = Array.from({ length: 4000 }, (_, i) => `fn_${i}`);
      for (const flags of [0, FrameFlags.INLINED, FrameFlags.KERNEL, FrameFlags.JIT]) {
        const o = new FrameColours((f) => names[f], new Uint8Array(names.length).fill(flags), theme);
        for (let f = 0; f < names.length; f++) others.add(o.get(f));
      }
      for (const css of leafCss) expect(others.has(css)).toBe(false);
    }
    // The legend lists the family when a leaf is in the frame table, and only then.
    const table = (names: string[]) => ({ flags: new Uint8Array(names.length), name: Int32Array.from(names.keys()), strings: names });
    const bit = 1 << FAMILIES.findIndex((f) => f.key === 'offcpu');
    expect(familiesPresent(table(['main', '[off-CPU: I/O]'])) & bit).toBe(bit);
    expect(familiesPresent(table(['main', '[off-CPU: napping]'])) & bit).toBe(0);
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
    expect(k[2]).toBeGreaterThan(k[0]);
    expect(k[2]).toBeGreaterThan(k[1]);
    const j = frameRgb('Interpreter', FrameFlags.JIT);
    expect(j[1]).toBeGreaterThan(j[0]);
    expect(j[1]).toBeGreaterThan(j[2]);
  });
});

/** Hue in degrees (0 … 360) of a colour. */
function hue([r, g, b]: readonly number[]): number {
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

describe('kernel frames stand out (issue 33: orange kernel frames hid among the warm ones)', () => {
  for (const theme of [LIGHT, DARK]) {
    const name = theme.dark ? 'dark' : 'light';
    it(`every kernel shade is blue-violet, at least 30° from every function, inlined and JIT shade (${name})`, () => {
      const familyHues = (flags: number) => Array.from({ length: SHADES }, (_, s) => hue(themeRgb(shadeRgb(s, flags), theme.dark)));
      const kernel = familyHues(FrameFlags.KERNEL);
      const others = [...familyHues(0), ...familyHues(FrameFlags.INLINED), ...familyHues(FrameFlags.JIT)];
      for (const k of kernel) {
        expect(k).toBeGreaterThanOrEqual(220);
        expect(k).toBeLessThanOrEqual(270);
        for (const o of others) expect(Math.min(Math.abs(k - o), 360 - Math.abs(k - o))).toBeGreaterThanOrEqual(30);
      }
      // And far from the search highlight (magenta, 300°), so a kernel frame never reads as a match.
      for (const k of kernel) expect(Math.abs(hue(theme.match) - k)).toBeGreaterThanOrEqual(35);
    });
  }
});

const channels = parseRgb;

describe('label contrast (WCAG AA, 4.5:1) in both themes', () => {
  it('computes WCAG contrast like the reference values', () => {
    expect(contrast([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrast([255, 255, 255], [255, 255, 255])).toBe(1);
    // #767676 on white is the classic 4.54:1.
    expect(contrast([0x76, 0x76, 0x76], [255, 255, 255])).toBeCloseTo(4.54, 2);
  });

  for (const theme of [LIGHT, DARK]) {
    const name = theme.dark ? 'dark' : 'light';
    it(`every frame colour id keeps its label at 4.5:1 (${name})`, () => {
      const c = new FrameColours(() => 'x', new Uint8Array(1), theme);
      let worst = Infinity;
      for (let id = 0; id < COLOUR_COUNT; id++) worst = Math.min(worst, contrast(channels(c.cssOf(id)), channels(c.textOf(id))));
      expect(worst).toBeGreaterThanOrEqual(4.5);
    });
  }

  it('the dark theme draws frames darker than the page text and keeps each name’s hue family', () => {
    for (const flags of [0, FrameFlags.INLINED, FrameFlags.KERNEL, FrameFlags.JIT]) {
      for (let shade = 0; shade < SHADES; shade += 7) {
        const light = shadeRgb(shade, flags);
        const dark = themeRgb(light, true);
        expect(luminance(dark)).toBeLessThan(0.13);
        // The dominant channel stays dominant.
        const top = light.indexOf(Math.max(...light));
        expect(dark[top]).toBe(Math.max(...dark));
      }
    }
  });

  it('inlined frames are calmer than the functions around them: not the lightest colour', () => {
    let inlined = 0;
    let plain = 0;
    for (let shade = 0; shade < SHADES; shade++) {
      inlined += luminance(shadeRgb(shade, FrameFlags.INLINED)) / SHADES;
      plain += luminance(shadeRgb(shade, 0)) / SHADES;
    }
    expect(inlined).toBeLessThanOrEqual(plain + 0.05);
  });
});
