// Frame colours, deterministic by function name: the same name has the same colour in every
// profile, view and session (no dependence on the profile's contents or order). A warm palette
// like flamegraph.pl's "hot"; inlined frames aqua-tinted as flamegraph.pl draws `_[i]`, kernel
// frames orange (`_[k]`), JIT frames green (`_[j]`). During a search, matches take a magenta
// highlight (flamegraph.pl's) and the rest fade towards the background.

import { FrameFlags } from './model/types';

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
    // aqua, lighter: reads as "part of the physical frame below".
    return [Math.round(90 + 60 * v1), Math.round(200 + 40 * v2), Math.round(205 + 40 * v2)];
  }
  if (flags & FrameFlags.KERNEL) return [Math.round(200 + 55 * v1), Math.round(110 + 60 * v2), Math.round(20 * v3)];
  if (flags & FrameFlags.JIT) return [Math.round(50 + 60 * v1), Math.round(190 + 55 * v2), Math.round(50 + 60 * v3)];
  // hot: red to yellow.
  return [Math.round(205 + 50 * v3), Math.round(230 * v1), Math.round(55 * v2)];
}

export const MATCH_RGB: Rgb = [230, 0, 230];

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
  /** Text on frames (frames keep their colours in both themes). */
  frameText: string;
  /** Text on frames dimmed by a search. */
  dimText: string;
  selection: string;
  hover: string;
}

export const LIGHT: Theme = { dark: false, background: [255, 255, 255], text: '#222', frameText: '#000', dimText: '#555', selection: '#1565c0', hover: 'rgba(0,0,0,0.55)' };
export const DARK: Theme = { dark: true, background: [24, 25, 28], text: '#ddd', frameText: '#000', dimText: '#c8c8c8', selection: '#64b5f6', hover: 'rgba(255,255,255,0.8)' };

/** The hue family of a frame: 0 ordinary, 1 inlined, 2 kernel, 3 JIT. */
function family(flags: number): number {
  // A folded frame (perf printed it plain) is inlined all the same.
  if (flags & (FrameFlags.INLINED | FrameFlags.FOLDED)) return 1;
  if (flags & FrameFlags.KERNEL) return 2;
  if (flags & FrameFlags.JIT) return 3;
  return 0;
}

/**
 * Colour ids for the renderer: one per (family, shade), dimmed variants after them, then the
 * search highlight and the root. The renderer groups rectangles by id and fills each group as
 * one path, so a frame costs a rect() call, not a fillStyle change and a fill.
 */
export const COLOUR_COUNT = 4 * SHADES * 2 + 2;
export const MATCH_COLOUR = 4 * SHADES * 2;
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
    for (let fam = 0; fam < 4; fam++) {
      const flag = [0, FrameFlags.INLINED, FrameFlags.KERNEL, FrameFlags.JIT][fam];
      for (let shade = 0; shade < SHADES; shade++) {
        const rgb = shadeRgb(shade, flag);
        this.css[fam * SHADES + shade] = css(rgb);
        this.css[4 * SHADES + fam * SHADES + shade] = css(fade(rgb, theme.background, theme.dark ? 0.75 : 0.7));
      }
    }
    this.css[MATCH_COLOUR] = css(MATCH_RGB);
    this.css[ROOT_COLOUR] = theme.dark ? '#b9b4ab' : '#d8d3ca';
  }

  /** The colour id of a frame (computed once per frame). */
  id(frame: number): number {
    let id = this.ids[frame];
    if (id < 0) id = this.ids[frame] = family(this.flags[frame]) * SHADES + shadeOf(this.names(frame));
    return id;
  }

  /** The id of a frame that does not match a search. */
  dimId(frame: number): number {
    return 4 * SHADES + this.id(frame);
  }

  cssOf(id: number): string {
    return this.css[id];
  }

  get(frame: number): string {
    return this.css[this.id(frame)];
  }
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
