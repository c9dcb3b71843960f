import { describe, expect, it } from 'vitest';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { frameName } from '../model/frame-table';
import fc from 'fast-check';
import { TreeBuilder } from '../model/tree-builder';
import { FrameFlags } from '../model/types';
import type { Profile } from '../model/profile';
import { counterpart, deriveFunctionView, functionView, type FunctionView } from './function-view';

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

  it('merges folded frames (one frame perf printed twice) into their parent, but keeps real recursion', () => {
    const p = profileFrom('main;step;step_[f];leaf 1\nmain;rec;rec;rec 1');
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

// The TreeBuilder derivation the function view used before it became a derived tree
// (mergeIntoParents): kept here as the reference the fast path must equal column for column.
function referenceFunctionView(profile: Profile): FunctionView {
  const { tree, frames } = profile;
  const n = tree.nodeCount;
  const builder = new TreeBuilder(n);
  const mapped = new Int32Array(n);
  const merged = new Uint8Array(n);
  for (let i = 1; i < n; i++) {
    const p = tree.parent[i];
    const f = tree.frame[i];
    merged[i] = frames.flags[f] & (FrameFlags.INLINED | FrameFlags.FOLDED) && mapped[p] !== 0 ? 1 : 0;
    mapped[i] = merged[i] ? mapped[p] : builder.child(mapped[p], f);
    builder.addSelf(mapped[i], tree.selfWeight[i], tree.selfSamples[i]);
  }
  const { tree: fnTree, order } = builder.finish(frames);
  const toFunction = new Int32Array(n);
  const toInline = new Int32Array(fnTree.nodeCount).fill(-1);
  const best = new Float64Array(fnTree.nodeCount).fill(-1);
  toInline[0] = 0;
  for (let i = 1; i < n; i++) {
    const target = order[mapped[i]];
    toFunction[i] = target;
    const physical = !merged[i] && tree.frame[i] === fnTree.frame[target];
    if (physical && tree.totalWeight[i] > best[target]) {
      best[target] = tree.totalWeight[i];
      toInline[target] = i;
    }
  }
  return { tree: fnTree, toFunction, toInline };
}

describe('both function view paths equal the TreeBuilder derivation', () => {
  const names = ['a', 'b', 'c', 'a_[i]', 'b_[i]', 'd_[i]', 'k_[k]', 'step', 'step_[f]'];
  const stack = fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 9 });
  const weight = fc.constantFrom(1, 2, 0.1, 0.2, 3.5, 1e-9, 7e15);
  const lines = fc.array(fc.tuple(stack, weight), { minLength: 1, maxLength: 40 });

  it('on random folded profiles with inlined frames, inlined roots and folded runs', () => {
    fc.assert(
      fc.property(lines, (ls) => {
        const p = profileFrom(ls.map(([s, w]) => `${s.join(';')} ${w}`).join('\n'));
        const want = referenceFunctionView(p);
        for (const path of ['derived', 'builder'] as const) {
          const got = deriveFunctionView(p, path);
          for (const col of ['parent', 'frame', 'depth', 'end', 'selfWeight', 'totalWeight', 'selfSamples', 'totalSamples'] as const) {
            expect(Array.from(got.tree[col])).toEqual(Array.from(want.tree[col]));
          }
          expect(got.tree.nodeCount).toBe(want.tree.nodeCount);
          expect(got.tree.maxDepth).toBe(want.tree.maxDepth);
          expect(Array.from(got.toFunction)).toEqual(Array.from(want.toFunction));
          expect(Array.from(got.toInline)).toEqual(Array.from(want.toInline));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a weight on the root itself (a sample without frames): the total is preserved by both paths', () => {
    const p = profileFrom('main;f_[i] 2');
    const builder = new TreeBuilder();
    builder.addStack([], 0, 3, 3);
    builder.addStack([p.tree.frame[1], p.tree.frame[2]], 2, 2, 2);
    const { tree } = builder.finish(p.frames);
    const q = { ...p, tree };
    for (const path of ['derived', 'builder'] as const) {
      const fv = deriveFunctionView(q, path);
      expect(fv.tree.selfWeight[0]).toBe(3);
      expect(fv.tree.totalWeight[0]).toBe(5);
      expect(fv.tree.nodeCount).toBe(2);
    }
  });
});
