// Frame colours, deterministic by function name: the same name has the same colour in every
// profile, view and session (no dependence on the profile's contents or order). A warm palette
// like flamegraph.pl's "hot"; inlined frames a muted teal (calmer than flamegraph.pl's aqua, so
// the eye is not drawn to inlined helpers first), kernel frames blue-violet (`_[k]`: a hue no
// function frame has, so user/kernel boundaries show at a glance in either theme), JIT frames green
// (`_[j]`), and the leaves that end off-CPU time (`[off-CPU: sleeping]`…) a cool azure, one
// fixed shade per state and one for the waker frames above them, apart from every on-CPU hue. During a search, matches take a magenta highlight (flamegraph.pl's) and the rest fade
// towards the background.
//
// Legibility: every fill is made to keep its theme's label colour at WCAG AA contrast (4.5:1) or
// better: light-theme fills are lifted to a minimum luminance (black text), dark-theme fills are
// desaturated and held under a maximum luminance (light text). The per-theme transform is exact
// (it scales linear light), so the hue of a name is the same in both themes. palette.test.ts
// checks every colour id of both themes.

import { FrameFlags } from './model/types';
import { Memo } from './util/memo';
import { offCpuLeafIndex } from './model/off-cpu-leaves';
import type { FrameTable } from './model/frame-table';

export type Rgb = readonly [number, number, number];

/** FNV-1a over UTF-16 code units: stable, fast, and spread well enough for three channels. */
export function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // Final avalanche so short names that differ in one character still land far apart.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** Shades per hue family. Few enough to batch the canvas fills by colour, many enough to vary. */
export const SHADES = 128;

/** The shade (0..SHADES-1) of a name: its colour within its family. */
export function shadeOf(name: string): number {
  return hashName(name) % SHADES;
}

export function frameRgb(name: string, flags: number): Rgb {
  return shadeRgb(shadeOf(name), flags);
}

/** A shade's colour: three channel values spread by multiplicative hashing of the shade. */
export function shadeRgb(shade: number, flags: number): Rgb {
  const h = Math.imul(shade + 1, 0x9e3779b1) >>> 0;
  const v1 = (h & 0xff) / 255;
  const v2 = ((h >>> 8) & 0xff) / 255;
  const v3 = ((h >>> 16) & 0xff) / 255;
  if (flags & (FrameFlags.INLINED | FrameFlags.FOLDED)) {
    // muted teal: reads as "part of the physical frame below" without outshining it.
    return [Math.round(105 + 40 * v1), Math.round(165 + 25 * v2), Math.round(165 + 25 * v2)];
  }
  // blue-violet (hue 230–265°), light enough for black labels: far from the warm family and the teal.
  if (flags & FrameFlags.KERNEL) return [Math.round(145 + 30 * v1), Math.round(135 + 25 * v2), Math.round(235 + 20 * v3)];
  if (flags & FrameFlags.JIT) return [Math.round(50 + 60 * v1), Math.round(190 + 55 * v2), Math.round(50 + 60 * v3)];
  // hot: red to yellow (the reds no darker than black text allows).
  return [Math.round(222 + 33 * v3), Math.round(50 + 180 * v1), Math.round(55 * v2)];
}

/**
 * Off-CPU leaves per state (sleeping, I/O, preempted, other): azure to steel blue, blue above
 * green above red, unlike the teal (green ≈ blue), the kernel's lavender (red > green) and the
 * warm and green families. Light enough for black labels before the theme transform.
 */
const OFF_CPU_RGB: readonly Rgb[] = [
  [96, 170, 235],
  [70, 130, 215],
  [150, 205, 240],
  [150, 172, 200],
  // The waker frames above the leaves (model/off-cpu-leaves.ts WAKER_INDEX).
  [118, 190, 245],
];

/** The colour of an off-CPU state's leaf (0..3). */
export function offCpuRgb(state: number): Rgb {
  return OFF_CPU_RGB[state];
}

export const MATCH_RGB: Rgb = [230, 0, 230];

const toLinear = (c: number) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
};
const fromLinear = (v: number) => Math.round(255 * (v <= 0.0031308 ? v * 12.92 : 1.055 * Math.pow(v, 1 / 2.4) - 0.055));

/** WCAG relative luminance (0 black … 1 white). */
export function luminance(rgb: Rgb): number {
  return 0.2126 * toLinear(rgb[0]) + 0.7152 * toLinear(rgb[1]) + 0.0722 * toLinear(rgb[2]);
}

/** WCAG contrast ratio of two colours (1 … 21). */
export function contrast(a: Rgb, b: Rgb): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Light-theme fills: at least this luminance, so black labels reach 5:1. */
const LIGHT_MIN_LUMINANCE = 0.2;
/** Dark-theme fills: at most this luminance, so the light labels reach 5:1. */
const DARK_MAX_LUMINANCE = 0.12;

/**
 * A light-theme colour for the theme: unchanged in the light theme unless too dark for black
 * text (then mixed towards white in linear light); in the dark theme a quarter desaturated and
 * darkened (linear light scaled) under the luminance the light text needs.
 */
export function themeRgb(rgb: Rgb, dark: boolean): Rgb {
  const lin = rgb.map(toLinear);
  const l = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  if (!dark) {
    if (l >= LIGHT_MIN_LUMINANCE) return rgb;
    const t = (LIGHT_MIN_LUMINANCE - l) / (1 - l) + 0.002;
    return lin.map((v) => fromLinear(v + (1 - v) * t)) as unknown as Rgb;
  }
  const grey = lin.map((v) => v * 0.75 + l * 0.25);
  const k = Math.min(0.55, DARK_MAX_LUMINANCE / Math.max(l, 1e-6));
  return grey.map((v) => fromLinear(Math.min(1, v * k))) as unknown as Rgb;
}

const themedMemo = new Memo<readonly string[]>();

/** `rgb(r,g,b)` colours (e.g. the differential scale) mapped through themeRgb, memoised. */
export function themedCss(colours: readonly string[], dark: boolean): readonly string[] {
  return themedMemo.get([colours, dark], () => colours.map((c) => css(themeRgb(parseRgb(c), dark))));
}

/** The channels of an `rgb(r,g,b)`, `#rrggbb` or `#rgb` colour (grey when it is something else). */
export function parseRgb(colour: string): Rgb {
  const m = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(colour);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour)?.[1];
  if (!hex) return [128, 128, 128];
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as unknown as Rgb;
}

/** Mixes a colour towards the background (amount 0..1). */
export function fade(rgb: Rgb, background: Rgb, amount: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(rgb[i] + (background[i] - rgb[i]) * amount)) as unknown as Rgb;
}

export function css(rgb: Rgb): string {
  return `rgb(${rgb[0]},${rgb[1]},${rgb[2]})`;
}

export interface Theme {
  dark: boolean;
  background: Rgb;
  text: string;
  /** Text on frames (every themed fill keeps 4.5:1 against it). */
  frameText: string;
  /** Text on frames faded by a search, and on the zoomed-out ancestors. */
  dimText: string;
  selection: string;
  hover: string;
  /** The search highlight and the root's fill. */
  match: Rgb;
  root: Rgb;
}

export const LIGHT: Theme = {
  dark: false,
  background: [255, 255, 255],
  text: '#222',
  frameText: '#000',
  dimText: '#4a4a4a',
  selection: '#1565c0',
  hover: 'rgba(0,0,0,0.55)',
  match: MATCH_RGB,
  root: [216, 211, 202],
};
export const DARK: Theme = {
  dark: true,
  background: [24, 25, 28],
  text: '#ddd',
  frameText: '#f2f2f2',
  dimText: '#bdbdbd',
  selection: '#64b5f6',
  hover: 'rgba(255,255,255,0.8)',
  match: [168, 38, 168],
  root: [74, 72, 68],
};

/** How far a frame that does not match a search (or a zoomed-out ancestor) fades. */
export const DIM = { light: 0.7, dark: 0.6 };

/** The legend's stand-in flag for the off-CPU leaves, which are told apart by name. */
const OFF_CPU_LEGEND = -1;

/** The hue family of a frame by its flags: 0 ordinary, 1 inlined, 2 kernel, 3 JIT. */
function family(flags: number): number {
  // A folded frame (perf printed it plain) is inlined all the same.
  if (flags & (FrameFlags.INLINED | FrameFlags.FOLDED)) return 1;
  if (flags & FrameFlags.KERNEL) return 2;
  if (flags & FrameFlags.JIT) return 3;
  return 0;
}

/** Family 4: the off-CPU leaves, by name (shade = state); FAMILY_COUNT families in all. */
const OFF_CPU_FAMILY = 4;
const FAMILY_COUNT = 5;
const DIMMED = FAMILY_COUNT * SHADES;

/**
 * Colour ids for the renderer: one per (family, shade), dimmed variants after them, then the
 * search highlight and the root. The renderer groups rectangles by id and fills each group as
 * one path, so a frame costs a rect() call, not a fillStyle change and a fill.
 */
export const COLOUR_COUNT = DIMMED * 2 + 2;
export const MATCH_COLOUR = DIMMED * 2;
export const ROOT_COLOUR = MATCH_COLOUR + 1;

export class FrameColours {
  private readonly ids: Int16Array;
  private readonly css: string[] = [];

  constructor(
    private readonly names: (frame: number) => string,
    private readonly flags: Uint8Array,
    theme: Theme,
  ) {
    this.ids = new Int16Array(flags.length).fill(-1);
    for (let fam = 0; fam < FAMILY_COUNT; fam++) {
      const flag = [0, FrameFlags.INLINED, FrameFlags.KERNEL, FrameFlags.JIT][fam];
      for (let shade = 0; shade < SHADES; shade++) {
        const base = fam === OFF_CPU_FAMILY ? offCpuRgb(shade % OFF_CPU_RGB.length) : shadeRgb(shade, flag);
        const rgb = themeRgb(base, theme.dark);
        this.css[fam * SHADES + shade] = css(rgb);
        this.css[DIMMED + fam * SHADES + shade] = css(fade(rgb, theme.background, theme.dark ? DIM.dark : DIM.light));
      }
    }
    this.css[MATCH_COLOUR] = css(theme.match);
    this.css[ROOT_COLOUR] = css(theme.root);
    this.text = theme.frameText;
    this.dimText = theme.dimText;
  }

  private readonly text: string;
  private readonly dimText: string;

  /** The label colour on a colour id's fill: the theme's frame text, dimmed on faded fills. */
  textOf(id: number): string {
    return id >= DIMMED && id < MATCH_COLOUR ? this.dimText : this.text;
  }

  /** The colour id of a frame (computed once per frame). */
  id(frame: number): number {
    let id = this.ids[frame];
    if (id < 0) {
      const name = this.names(frame);
      const state = offCpuLeafIndex(name);
      id = this.ids[frame] = state >= 0 ? OFF_CPU_FAMILY * SHADES + state : family(this.flags[frame]) * SHADES + shadeOf(name);
    }
    return id;
  }

  /** The id of a frame that does not match a search. */
  dimId(frame: number): number {
    return DIMMED + this.id(frame);
  }

  cssOf(id: number): string {
    return this.css[id];
  }

  get(frame: number): string {
    return this.css[this.id(frame)];
  }
}

/** The frame families the legend explains, with a representative colour of each per theme. */
export const FAMILIES = [
  { key: 'function', label: 'function', flag: 0, title: 'Frames of functions (warm colours, by name)' },
  { key: 'inlined', label: 'inlined', flag: FrameFlags.INLINED, title: 'Inlined frames: code the compiler copied into its caller' },
  { key: 'kernel', label: 'kernel', flag: FrameFlags.KERNEL, title: 'Kernel frames' },
  { key: 'jit', label: 'JIT', flag: FrameFlags.JIT, title: 'Just-in-time compiled frames' },
  { key: 'offcpu', label: 'off-CPU', flag: OFF_CPU_LEGEND, title: 'Time off CPU: a leaf per state the thread was switched out in (sleeping, I/O, preempted, other), and above it who woke the thread' },
] as const;

export function familyCss(flag: number, dark: boolean): string {
  return css(themeRgb(flag === OFF_CPU_LEGEND ? offCpuRgb(0) : shadeRgb(SHADES >> 2, flag), dark));
}

/** A frame's colour in the graph (by name and FrameFlags), for the call tree's swatch. */
export function frameCss(name: string, flags: number, dark: boolean): string {
  const state = offCpuLeafIndex(name);
  return css(themeRgb(state >= 0 ? offCpuRgb(state) : frameRgb(name, flags), dark));
}

/** A function's colour in the graph (as its frames that are not inlined), for the table's swatch. */
export function functionCss(name: string, kernel: boolean, dark: boolean): string {
  return frameCss(name, kernel ? FrameFlags.KERNEL : 0, dark);
}

/** Which families occur in a frame table (bit i set for FAMILIES[i]; the off-CPU leaves by name). */
export function familiesPresent(frames: Pick<FrameTable, 'flags' | 'name' | 'strings'>): number {
  const flags = frames.flags;
  let bits = 0;
  for (let f = 0; f < flags.length; f++) {
    bits |= 1 << family(flags[f]);
    if (offCpuLeafIndex(frames.strings[frames.name[f]]) >= 0) bits |= 1 << OFF_CPU_FAMILY;
  }
  return bits;
}

/**
 * Calls `onTheme` now with the system's theme (DARK or LIGHT) and again whenever the colour
 * scheme changes; returns the unsubscribe. Without matchMedia (tests) it does nothing.
 */
export function watchTheme(onTheme: (theme: Theme) => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const media = matchMedia('(prefers-color-scheme: dark)');
  const changed = () => onTheme(media.matches ? DARK : LIGHT);
  changed();
  media.addEventListener('change', changed);
  return () => media.removeEventListener('change', changed);
}
