// The differential graph under a search: frames that match keep their colour of change, the
// others fade toward the background as the main graph dims them, so the search and the change
// stay readable together. The renderer dims the labels of non-matching frames by itself (it gets
// the same matches); this supplies the rectangles' colours.
//
// Invariants: ids below css.length / 2 are the graph's own colours, the rest their faded twins;
// results are memoised by (colours, matches, theme) identity, so a redraw costs no allocation.

import type { CallTree } from '../core/model/call-tree';
import type { NodeColours } from './flame-source';
import { css, DARK, fade, LIGHT, type Rgb } from '../core/palette';

const FADE = { light: 0.7, dark: 0.75 };

function rgbOf(colour: string): Rgb {
  const m = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(colour);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [128, 128, 128];
}

const cssMemo = new WeakMap<readonly string[], { light?: readonly string[]; dark?: readonly string[] }>();

/** The colours followed by their faded twins for the theme. */
export function withFaded(colours: readonly string[], dark: boolean): readonly string[] {
  let entry = cssMemo.get(colours);
  if (!entry) cssMemo.set(colours, (entry = {}));
  const key = dark ? 'dark' : 'light';
  const bg = dark ? DARK.background : LIGHT.background;
  return (entry[key] ??= [...colours, ...colours.map((c) => css(fade(rgbOf(c), bg, FADE[key])))]);
}

const memo = new WeakMap<NodeColours, WeakMap<Uint8Array, { light?: NodeColours; dark?: NodeColours }>>();

/**
 * `colours` with every node whose frame does not match faded; the root and matching frames keep
 * theirs. No search (matches null): `colours` itself.
 */
export function searchDimmed(colours: NodeColours, tree: CallTree, matches: Uint8Array | null, dark: boolean): NodeColours {
  if (!matches) return colours;
  let inner = memo.get(colours);
  if (!inner) memo.set(colours, (inner = new WeakMap()));
  let entry = inner.get(matches);
  if (!entry) inner.set(matches, (entry = {}));
  const key = dark ? 'dark' : 'light';
  const cached = entry[key];
  if (cached) return cached;
  const shift = colours.css.length;
  const n = Math.min(colours.ids.length, tree.nodeCount);
  const ids = new Uint16Array(colours.ids.length);
  for (let node = 0; node < n; node++) {
    const f = tree.frame[node];
    ids[node] = f < 0 || matches[f] ? colours.ids[node] : colours.ids[node] + shift;
  }
  return (entry[key] = { ids, css: withFaded(colours.css, dark), marked: colours.marked });
}

/** The page's colour scheme, as the renderer picks its theme. */
export function prefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}
