// `flameview collapse A B C` (issue 31, item 2): several recordings, any mix of formats, summed.
// Oracle: `collapse` of the concatenation of each one's folded text (the folded importer sums
// equal stacks), and each stack's weight is the sum of its weights in the single outputs.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCollapse } from './collapse';
import { runInMemory } from './run-in-memory';

const fx = (p: string) => join(fileURLToPath(new URL('../../fixtures/', import.meta.url)), p);
const RUNS = ['rust-toyc.run-a.perf-script.txt', 'rust-toyc.run-b.perf-script.txt', 'rust-toyc.fp.perf-script.txt', 'sqlite.folded'].map(fx);
const collapse = (args: string[], stdin = '') => runInMemory(runCollapse, args, stdin);

describe('collapse of several recordings', () => {
  it('equals collapse of their concatenated folded text, for perf script and folded inputs mixed', async () => {
    const singles = await Promise.all(RUNS.map((f) => collapse([f])));
    const summed = await collapse(RUNS);
    expect(summed.code).toBe(0);
    const concatenated = await collapse(['-'], singles.map((r) => r.stdout).join(''));
    expect(summed.stdout).toBe(concatenated.stdout);
    // and every stack's weight is the sum of its weights in the single outputs
    const sums = new Map<string, number>();
    for (const r of singles) {
      for (const line of r.stdout.split('\n').filter(Boolean)) {
        const sp = line.lastIndexOf(' ');
        sums.set(line.slice(0, sp), (sums.get(line.slice(0, sp)) ?? 0) + Number(line.slice(sp + 1)));
      }
    }
    const lines = summed.stdout.split('\n').filter(Boolean);
    expect(lines.length).toBe(sums.size);
    for (const line of lines) {
      const sp = line.lastIndexOf(' ');
      expect(Number(line.slice(sp + 1))).toBe(sums.get(line.slice(0, sp)));
    }
  });

  it('the same recording twice doubles every weight; options apply to each', async () => {
    const one = await collapse(['--view', 'functions', '--transform', 'merge-re:^std::', RUNS[0]]);
    const two = await collapse(['--view', 'functions', '--transform', 'merge-re:^std::', RUNS[0], RUNS[0]]);
    const doubled = one.stdout.replace(/ (\d+)$/gm, (_, w: string) => ` ${2 * Number(w)}`);
    expect(two.stdout).toBe(doubled);
  });

  it('a bad input fails naming it; two stdins are a usage error; an empty one is a note', async () => {
    const bad = await collapse([RUNS[0], fx('does-not-exist.txt')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('does-not-exist.txt');
    const stdin = await collapse(['-', '-']);
    expect(stdin.code).toBe(2);
    expect(stdin.stderr.split('\n')[0]).toBe('flameview collapse: only one FILE can be - (stdin)');
    const empty = await collapse([RUNS[0], '-'], '');
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe((await collapse([RUNS[0]])).stdout);
  });
});
