import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../import/load';
import { childrenOf } from '../model/call-tree';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { functionTable } from './function-table';
import { reversedTree } from './reversed';

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
});
