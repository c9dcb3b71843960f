// The differential graph under a search: frames that match keep their colour of change, the
// others fade toward the background as the main graph dims them, so the search and the change
// stay readable together. The renderer dims the labels of non-matching frames by itself (it gets
// the same matches); this supplies the rectangles' colours.
//
// Invariants: ids below css.length / 2 are the graph's own colours, the rest their faded twins;
// results are memoised by (colours, matches, theme) identity, so a redraw costs no allocation.

import type { CallTree } from '../core/model/call-tree';
import type { NodeColours } from './flame-source';
import { Memo } from '../core/util/memo';
import { css, DARK, DIM as FADE, fade, LIGHT, parseRgb } from '../core/palette';

const cssMemo = new Memo<readonly string[]>();

/** The colours followed by their faded twins for the theme. */
export function withFaded(colours: readonly string[], dark: boolean): readonly string[] {
  return cssMemo.get([colours, dark], () => {
    const bg = dark ? DARK.background : LIGHT.background;
    return [...colours, ...colours.map((c) => css(fade(parseRgb(c), bg, FADE[dark ? 'dark' : 'light'])))];
  });
}

const memo = new Memo<NodeColours>();

/**
 * `colours` with every node whose frame does not match faded; the root and matching frames keep
 * theirs. No search (matches null): `colours` itself.
 */
export function searchDimmed(colours: NodeColours, tree: CallTree, matches: Uint8Array | null, dark: boolean): NodeColours {
  if (!matches) return colours;
  return memo.get([colours, tree, matches, dark], () => {
    const shift = colours.css.length;
    const n = Math.min(colours.ids.length, tree.nodeCount);
    const ids = new Uint16Array(colours.ids.length);
    for (let node = 0; node < n; node++) {
      const f = tree.frame[node];
      ids[node] = f < 0 || matches[f] ? colours.ids[node] : colours.ids[node] + shift;
    }
    return { ids, css: withFaded(colours.css, dark), marked: colours.marked };
  });
}

/** The page's colour scheme, as the renderer picks its theme. */
export function prefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}
