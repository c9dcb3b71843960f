import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../import/load';
import { childrenOf, type CallTree } from '../model/call-tree';
import { FrameTableBuilder } from '../model/frame-table';
import { TreeBuilder } from '../model/tree-builder';
import { refReversed } from '../testing/reference-transforms';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { functionTable } from './function-table';
import { ReversedTooLargeError, reversedTree } from './reversed';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

describe('reversedTree', () => {
  it('puts the leaves at the root, weighted by self', () => {
    const p = profileFrom(`
      a;b;c 3
      a;c 2
      a 1
    `);
    const r = reversedTree(p.tree, p.frames);
    expect(dumpTree(r, p.frames)).toBe(['a 1/1', 'c 5/0', '  a 2/2', '  b 3/0', '    a 3/3'].join('\n'));
    expect(r.totalWeight[0]).toBe(6);
    expect(reversedTree(p.tree, p.frames)).toBe(r);
  });

  it('stops with a clear error instead of allocating past the node limit', () => {
    const p = profileFrom(`
      a;b;c 3
      a;c 2
      a 1
    `);
    // The reversed tree has 6 nodes (root, a, c, c;a, c;b, c;b;a).
    expect(() => reversedTree(p.tree, p.frames, 4)).toThrow(ReversedTooLargeError);
    expect(() => reversedTree(p.tree, p.frames, 4)).toThrow(/more than 4 frames; focus on a function or hide frames first/);
    expect(reversedTree(p.tree, p.frames, 5).nodeCount).toBe(6);
  });

  it('on a real profile: depth-1 totals are the functions’ self weights over all frames of that identity', async () => {
    const profile = await loadProfile(createReadStream(`${FIXTURES}sqlite.perf-script.txt`));
    const r = reversedTree(profile.tree, profile.frames);
    expect(r.totalWeight[0]).toBe(profile.tree.totalWeight[0]);
    expect(r.totalSamples[0]).toBe(profile.tree.totalSamples[0]);
    const bySelf = new Map<string, number>();
    for (const c of childrenOf(r, 0)) {
      const name = profile.frames.strings[profile.frames.name[r.frame[c]]];
      bySelf.set(name, (bySelf.get(name) ?? 0) + r.totalWeight[c]);
    }
    const t = functionTable(profile.tree, profile.frames);
    let checked = 0;
    for (let row = 0; row < t.count; row++) {
      if (t.selfWeight[row] === 0) continue;
      expect(bySelf.get(profile.frames.strings[t.name[row]])).toBe(t.selfWeight[row]);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('property: the grouped construction equals the TreeBuilder one, column for column', () => {
    const columns = (t: CallTree) => ({
      n: t.nodeCount,
      maxDepth: t.maxDepth,
      ...Object.fromEntries(
        (['parent', 'frame', 'depth', 'end', 'selfWeight', 'totalWeight', 'selfSamples', 'totalSamples'] as const).map((c) => [c, Array.from(t[c])]),
      ),
    });
    const arbStack = fc.tuple(fc.array(fc.nat({ max: 7 }), { maxLength: 8 }), fc.nat({ max: 50 }), fc.nat({ max: 2 }));
    fc.assert(
      fc.property(fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7], { minLength: 8 }), fc.array(arbStack, { maxLength: 90, size: 'max' }), (order, stacks) => {
        const fb = new FrameTableBuilder();
        for (const k of order) fb.intern(`f${k % 4}`, k >> 2);
        const frames = fb.finish();
        const b = new TreeBuilder();
        // Weight 0 with samples 0 leaves a path with no self: not a stack of the reversed tree.
        for (const [stack, w, s] of stacks) b.addStack(stack, stack.length, w / 4, w === 0 ? 0 : s);
        const tree = b.finish(frames).tree;
        expect(columns(reversedTree(tree, frames))).toEqual(columns(refReversed(tree, frames)));
      }),
      { numRuns: 400 },
    );
  });
});
