import { describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { DIFF_CSS } from './diff-palette';
import { searchDimmed, withFaded } from './search-colours';

describe('searchDimmed', () => {
  const snap = makeSnapshot(profileFrom('main;parse 2\nmain;emit 1'));
  const tree = snap.inline;
  const colours = { ids: new Uint16Array(tree.nodeCount).fill(25), css: DIFF_CSS, marked: null };

  it('is the colours themselves without a search', () => {
    expect(searchDimmed(colours, tree, null, false)).toBe(colours);
  });

  it('moves the nodes of non-matching frames to the faded twins, keeps the root and matches', () => {
    const matches = new Uint8Array(snap.frames.count);
    for (let f = 0; f < snap.frames.count; f++) if (snap.frames.strings[snap.frames.name[f]] === 'parse') matches[f] = 1;
    const out = searchDimmed(colours, tree, matches, false);
    const names = Array.from({ length: tree.nodeCount }, (_, n) => (tree.frame[n] < 0 ? 'all' : snap.frames.strings[snap.frames.name[tree.frame[n]]]));
    const shifted = names.map((_, n) => out.ids[n] >= DIFF_CSS.length);
    expect(Object.fromEntries(names.map((name, n) => [name, shifted[n]]))).toEqual({ all: false, main: true, parse: false, emit: true });
    expect(out.css).toBe(withFaded(DIFF_CSS, false));
    expect(searchDimmed(colours, tree, matches, false)).toBe(out);
    expect(searchDimmed(colours, tree, matches, true).css).toBe(withFaded(DIFF_CSS, true));
  });

  it('fades toward the theme background', () => {
    const light = withFaded(['rgb(0,0,0)'], false);
    const dark = withFaded(['rgb(255,255,255)'], true);
    expect(light).toEqual(['rgb(0,0,0)', 'rgb(179,179,179)']);
    // As far as the main graph's search fade (palette DIM): 60 % of the way in the dark theme.
    expect(dark[1]).toBe('rgb(116,117,119)');
  });
});
