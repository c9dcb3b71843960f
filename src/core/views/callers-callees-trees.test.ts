import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../import/load';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { callersTree, calleesTree, canonicalFrame } from './callers-callees-trees';
import { functionTable } from './function-table';
import { nameIndex } from './transforms';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

const p = profileFrom(`
  a;b;c 3
  a;b 1
  d;b;c 2
  d;b;b;e 4
  x 5
`);
const b = nameIndex(p.frames, 'b');

describe('calleesTree', () => {
  it('merges every outermost subtree of F under one F root; nested F stays', () => {
    const { tree, toNew } = calleesTree(p.tree, p.frames, b);
    expect(dumpTree(tree, p.frames)).toBe(['b 10/1', '  b 4/0', '    e 4/4', '  c 5/5'].join('\n'));
    // every b node maps to the root b; nodes outside b are dropped
    expect(toNew[0]).toBe(-1);
    for (let n = 1; n < p.tree.nodeCount; n++) {
      const name = p.frames.strings[p.frames.name[p.tree.frame[n]]];
      if (name === 'a' || name === 'd' || name === 'x') expect(toNew[n]).toBe(-1);
    }
  });

  it('merges inlined and physical frames of F into one root', () => {
    const q = profileFrom(`
      m;f_[i];g 1
      n;f;h 2
    `);
    const { tree } = calleesTree(q.tree, q.frames, nameIndex(q.frames, 'f'));
    expect(dumpTree(tree, q.frames)).toBe(['f 3/0', '  g 1/1', '  h 2/2'].join('\n'));
    expect(canonicalFrame(q.frames, nameIndex(q.frames, 'f'))).toBe(tree.frame[1]);
    expect(q.frames.flags[tree.frame[1]]).toBe(0);
  });

  it('an unknown name gives an empty tree', () => {
    expect(calleesTree(p.tree, p.frames, -1).tree.nodeCount).toBe(1);
  });
});

describe('callersTree', () => {
  it('inverts the paths to F, recursion counted once', () => {
    const { tree } = callersTree(p.tree, p.frames, b);
    expect(dumpTree(tree, p.frames)).toBe(['b 10/0', '  a 4/4', '  d 6/6'].join('\n'));
  });

  it('deeper callers chain upward', () => {
    const q = profileFrom(`
      main;x;f 2
      main;y;f 3
      f 1
    `);
    const { tree } = callersTree(q.tree, q.frames, nameIndex(q.frames, 'f'));
    expect(dumpTree(tree, q.frames)).toBe(['f 6/1', '  x 2/0', '    main 2/2', '  y 3/0', '    main 3/3'].join('\n'));
  });

  it('on a real profile, both trees total F’s function-table total for many functions', async () => {
    const profile = await loadProfile(createReadStream(`${FIXTURES}rust-toyc.perf-script.txt`));
    const t = functionTable(profile.tree, profile.frames);
    for (let r = 0; r < t.count; r += 7) {
      const callees = calleesTree(profile.tree, profile.frames, t.name[r]).tree;
      const callers = callersTree(profile.tree, profile.frames, t.name[r]).tree;
      expect(callees.totalWeight[0]).toBe(t.totalWeight[r]);
      expect(callers.totalWeight[0]).toBe(t.totalWeight[r]);
      expect(callees.totalSamples[1]).toBe(t.totalSamples[r]);
      // self of F in the callees tree root is at least the self of outermost F nodes
      expect(callees.nodeCount).toBeGreaterThan(1);
    }
  });
});
