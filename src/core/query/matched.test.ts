import { describe, expect, it } from 'vitest';
import { frameName } from '../model/frame-table';
import { profileFrom } from '../testing/tree-dsl';
import { formatMatched, matchedShare } from './matched';
import { matchNames } from '../model/match-names';

// all 20
//   main 16: parse 10 [parse 4 (nested match), lex 6], emit 6 [write 2]
//   other 4: parse 1
const profile = profileFrom(`
  main;parse;parse 4
  main;parse;lex 6
  main;emit 4
  main;emit;write 2
  other 3
  other;parse 1
`);
const { tree, frames } = profile;
const names = frames.strings;

function matching(re: RegExp) {
  return matchNames(names, frames.name, re);
}

function nodeOf(path: string) {
  let n = 0;
  for (const name of path.split(';')) {
    for (let c = n + 1; c < tree.end[n]; c = tree.end[c]) if (frameName(frames, tree.frame[c]) === name) n = c;
  }
  return n;
}

describe('Matched', () => {
  it('counts nested matches once', () => {
    // parse under main (10, including the nested parse 4) + parse under other (1) = 11 of 20.
    const share = matchedShare(tree, matching(/^parse$/), 0);
    expect(share.total).toBeCloseTo(11 / 20, 12);
    expect(formatMatched(share, false)).toBe('Matched: 55.0%');
  });

  it('reports the share of the zoom', () => {
    const m = matching(/parse|write/);
    expect(formatMatched(matchedShare(tree, m, nodeOf('main')), true)).toBe('Matched: 65.0% (75.0% of zoom)');
    // Zoomed inside a match: all of the zoom matches.
    expect(matchedShare(tree, m, nodeOf('main;parse;lex')).zoom).toBe(1);
    expect(matchedShare(tree, m, nodeOf('other')).zoom).toBeCloseTo(0.25, 12);
  });

  it('matches each frame by its name only', () => {
    const m = matching(/^(lex|emit)$/i);
    const hits = [...m].map((x, f) => (x ? frameName(frames, f) : null)).filter(Boolean);
    expect(hits.sort()).toEqual(['emit', 'lex']);
    expect(matchedShare(tree, matching(/nothing/), 0).total).toBe(0);
  });
});
