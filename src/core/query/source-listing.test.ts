import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../import/load';
import { ProfileSession } from '../session/profile-session';
import { toTransfer } from '../views/snapshot';
import { checkTemplate, expandTemplate, listing, mapFolder, orderedLines, hottestFile } from './source-listing';
import { framesMatching, functionLines } from './source-lines';

const frame = (sym: string) => `\t            1000 ${sym}`;
// Two samples: leaf inlined at a.c:9 of main (its own line a.c:3), and main alone at a.c:9; one at b.c:2.
const TEXT = ['', frame('leaf'), '  a.c:3 (inlined)', frame('main'), '  a.c:9', '', '', frame('main'), '  a.c:9', '', '', frame('main'), '  b.c:2', ''].join('\n');

describe('mapFolder (longest common suffix)', () => {
  it('maps a recorded absolute path to the chosen file sharing the most trailing components', () => {
    const m = mapFolder(['/home/ci/build/proj/src/util/a.c', 'a.c', 'missing.c', 'C:\\w\\proj\\inc\\b.h'], ['proj/src/util/a.c', 'proj/test/a.c', 'proj/inc/b.h']);
    expect(m.get('/home/ci/build/proj/src/util/a.c')).toBe('proj/src/util/a.c');
    expect(m.get('C:\\w\\proj\\inc\\b.h')).toBe('proj/inc/b.h');
    // Two files match only by name: no guess.
    expect(m.get('a.c')).toBeNull();
    expect(m.has('missing.c')).toBe(false);
  });
});

describe('per-line weights for the panel', () => {
  it('an inlined function has its own lines and the call site in its caller', async () => {
    const p = await loadProfileFromText(TEXT);
    const leaf = functionLines(p, 'inline', framesMatching(p, 'inline', (n) => n === 'leaf'))!;
    expect(leaf.lines.map((l) => `${l.file}:${l.line} ${l.self}/${l.total}`)).toEqual(['a.c:3 1/1']);
    expect(leaf.callSites.map((l) => `${l.file}:${l.line} ${l.total}`)).toEqual(['a.c:9 1']);
    const main = functionLines(p, 'inline', framesMatching(p, 'inline', (n) => n === 'main'))!;
    expect(main.callSites).toEqual([]);
    expect(orderedLines(main.lines, 'hot').map((l) => l.line)).toEqual([9, 2]);
    expect(orderedLines(main.lines, 'file').map((l) => l.file)).toEqual(['a.c', 'b.c']);
    expect(hottestFile(main)).toBe('a.c');
  });

  it('the profile session answers them after an open, from its own copies of the frame columns', async () => {
    const session = new ProfileSession();
    const r = await session.openText(TEXT, { name: 't' });
    expect(r.ok).toBe(true);
    // The snapshot's columns are the ones transferred to the page: detach them as the worker does.
    if (r.ok) structuredClone(null, { transfer: toTransfer(r.snapshot).transfer });
    const fl = session.functionLines('functions', 'main')!;
    expect(fl.lines.map((l) => `${l.file}:${l.line} ${l.self}/${l.total}`)).toEqual(['a.c:9 2/2', 'b.c:2 1/1']);
    expect(session.functionLines('functions', 'nope')).toBeNull();
  });
});

describe('listing', () => {
  it('puts the weights beside the text, hottest row found, lines past the end counted', async () => {
    const p = await loadProfileFromText(TEXT);
    const fl = functionLines(p, 'functions', framesMatching(p, 'functions', (n) => n === 'main'))!;
    const text = Array.from({ length: 9 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const l = listing(fl, 'a.c', text);
    expect(l.rows).toHaveLength(9);
    expect(l.rows[8]).toEqual({ line: 9, text: 'line 9', self: 2, total: 2 });
    expect(l.hottest).toBe(8);
    expect(listing(fl, 'a.c', 'one line').beyondEnd).toBe(1);
    expect(listing(fl, 'a.c', null).rows).toEqual([{ line: 9, text: null, self: 2, total: 2 }]);
  });

  it('bounds the rows of a huge text', async () => {
    const p = await loadProfileFromText(TEXT);
    const fl = functionLines(p, 'functions', framesMatching(p, 'functions', (n) => n === 'main'))!;
    const l = listing(fl, 'a.c', '\n'.repeat(200_000));
    expect(l.rows).toHaveLength(50_000);
    expect(l.truncated).toBe(true);
  });
});

describe('source link templates', () => {
  it('expands {path} and {line}, encoding the path but its slashes', () => {
    expect(expandTemplate('https://github.com/o/r/blob/v1/{path}#L{line}', 'src/a b.c', 12)).toBe('https://github.com/o/r/blob/v1/src/a%20b.c#L12');
    expect(expandTemplate('vscode://file/{path}:{line}', '/home/u/a.c', 3)).toBe('vscode://file/home/u/a.c:3');
  });
  it('refuses what would not be a link of an allowed kind', () => {
    expect(checkTemplate('javascript:alert(1)//{path}')).toMatch(/allowed kind/);
    expect(checkTemplate('https://x/')).toMatch(/no \{path\}/);
    expect(expandTemplate('{path}', 'javascript:alert(1)', 1)).toBeNull();
  });
});
