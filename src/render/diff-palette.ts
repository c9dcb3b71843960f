// Colours of the differential flame graph: one colour per node by the change of its weight.
// Red grew, blue shrank, the saturation proportional to |Δ| / max |Δ| (linear, STEPS shades each
// way), neutral grey when unchanged. Ids: 0 … STEPS-1 blue (strongest first), STEPS neutral,
// STEPS+1 … 2·STEPS red (strongest last).
//
// In the dark theme the same scale goes through themeRgb (palette.ts): a dark grey for unchanged
// frames and darker reds and blues, so light labels stay legible.
//
// Invariants: nodeColoursOf is memoised by (delta column, match, theme); ids fit a Uint16Array.

import type { NodeColours } from './flame-source';
import { css, themedCss, type Rgb } from '../core/palette';
import { Memo } from '../core/util/memo';

export const STEPS = 20;
export const NEUTRAL: Rgb = [208, 206, 202];
export const GREW: Rgb = [222, 45, 38];
export const SHRANK: Rgb = [38, 98, 222];

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * t)) as unknown as Rgb;
}

/** The css colours by id (see the header). */
export const DIFF_CSS: readonly string[] = Array.from({ length: 2 * STEPS + 1 }, (_, id) =>
  css(id === STEPS ? NEUTRAL : id > STEPS ? mix(NEUTRAL, GREW, (id - STEPS) / STEPS) : mix(NEUTRAL, SHRANK, (STEPS - id) / STEPS)),
);

/** The colour id of a change `delta` on a scale whose extreme is maxAbs. */
export function diffColourId(delta: number, maxAbs: number): number {
  if (!(maxAbs > 0) || !Number.isFinite(delta)) return STEPS;
  const step = Math.round((delta / maxAbs) * STEPS);
  return STEPS + Math.max(-STEPS, Math.min(STEPS, step));
}

const cache = new Memo<NodeColours>();

/** Per-node colours for the renderer; nodes without a match in the other run are marked. */
export function nodeColoursOf(delta: Float64Array, maxAbs: number, match: Int32Array, dark = false): NodeColours {
  return cache.get([delta, match, dark], () => {
    const ids = new Uint16Array(delta.length);
    const marked = new Uint8Array(delta.length);
    for (let n = 0; n < delta.length; n++) {
      ids[n] = diffColourId(delta[n], maxAbs);
      marked[n] = match[n] < 0 ? 1 : 0;
    }
    return { ids, css: themedCss(DIFF_CSS, dark), marked };
  });
}
