import { describe, expect, it } from 'vitest';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { frameName } from '../model/frame-table';
import { counterpart, functionView } from './function-view';

describe('functionView', () => {
  it('merges inlined frames into the physical frame that contains them', () => {
    const p = profileFrom(`
      main;compile;optimize_[i];fold_[i];hash 5
      main;compile;optimize_[i] 2
      main;compile 1
    `);
    const fv = functionView(p);
    expect(dumpTree(fv.tree, p.frames)).toBe(['main 8/0', '  compile 8/3', '    hash 5/5'].join('\n'));
  });

  it('is the identity on a tree without inline frames, and preserves the total', () => {
    const p = profileFrom('a;b;c 3\na;d 1\ne 2');
    const fv = functionView(p);
    expect(dumpTree(fv.tree, p.frames)).toBe(dumpTree(p.tree, p.frames));
    expect(fv.tree.totalWeight[0]).toBe(p.tree.totalWeight[0]);
  });

  it('halves runs of frames that perf doubled, but keeps real recursion', () => {
    const p = profileFrom('main;step;step;leaf 1\nmain;rec;rec;rec 1', ['step']);
    expect(dumpTree(functionView(p).tree, p.frames)).toBe(
      ['main 2/0', '  rec 1/0', '    rec 1/0', '      rec 1/1', '  step 1/0', '    leaf 1/1'].join('\n'),
    );
  });

  it('maps frames across views so a toggle keeps the zoom', () => {
    const p = profileFrom('main;compile;optimize_[i];hash 5\nmain;compile 1');
    const fv = functionView(p);
    const optimize = [...Array(p.tree.nodeCount).keys()].find((n) => n > 0 && frameName(p.frames, p.tree.frame[n]) === 'optimize')!;
    const fnNode = counterpart(p, optimize, 'inline');
    expect(frameName(p.frames, fv.tree.frame[fnNode])).toBe('compile');
    const back = counterpart(p, fnNode, 'functions');
    expect(frameName(p.frames, p.tree.frame[back])).toBe('compile');
  });
});
