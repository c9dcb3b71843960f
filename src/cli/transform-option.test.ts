// --transform on collapse, top, svg and diff: the stacks `collapse --transform` prints equal the
// stack-level reference (core/testing/reference-transforms.ts) applied to the untransformed
// `collapse` output of the same recording; the other commands read the same transformed tree.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { foldedLines, refStacks, type RefStack, type RefTransform } from '../core/testing/reference-transforms';
import { runCollapse } from './collapse';
import { runDiff } from './diff';
import { runInMemory } from './run-in-memory';
import { runSvg } from './svg';
import { runTop } from './top';

const fx = (p: string) => join(fileURLToPath(new URL('../../fixtures/', import.meta.url)), p);
const TOYC = fx('rust-toyc.perf-script.txt');

/** `stack weight` lines into RefStacks. */
function parseFolded(text: string): RefStack[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const sp = l.lastIndexOf(' ');
      return { tokens: l.slice(0, sp).split(';'), weight: Number(l.slice(sp + 1)) };
    });
}

const sortedLines = (text: string) => text.split('\n').filter((l) => l !== '').sort();

describe('collapse --transform', () => {
  // --full-names: the patterns see the names as printed (tidying would change what the reference matches).
  const cases: [string, RefTransform][] = [
    ['focus-re:^toyc::', { kind: 'pattern', op: 'focus', pattern: '^toyc::', ignoreCase: false }],
    ['drop-re:alloc', { kind: 'pattern', op: 'drop', pattern: 'alloc', ignoreCase: false }],
    ['merge-re-i:^(STD|CORE|ALLOC)::', { kind: 'pattern', op: 'merge', pattern: '^(STD|CORE|ALLOC)::', ignoreCase: true }],
    ['collapse-re:^<?(core|alloc)::', { kind: 'pattern', op: 'collapse', pattern: '^<?(core|alloc)::', ignoreCase: false }],
  ];
  it.each(cases)('%s equals the reference rewrite of the plain output, in both views', async (spec, t) => {
    for (const view of ['inline', 'functions']) {
      const plain = await runInMemory(runCollapse, ['--full-names', '--view', view, TOYC]);
      const got = await runInMemory(runCollapse, ['--full-names', '--view', view, '--transform', spec, TOYC]);
      expect(got.code).toBe(0);
      const want = refStacks(parseFolded(plain.stdout), t).filter((s) => s.tokens.length > 0);
      expect(want.length).toBeGreaterThan(0);
      expect(sortedLines(got.stdout)).toEqual(foldedLines(want));
      expect(got.stdout).not.toBe(plain.stdout);
    }
  });

  it('applies several in order', async () => {
    const both = await runInMemory(runCollapse, ['--full-names', '--transform', 'merge-re:^std::', '--transform', 'focus-re:^toyc::', TOYC]);
    const plain = await runInMemory(runCollapse, ['--full-names', TOYC]);
    const merged = refStacks(parseFolded(plain.stdout), { kind: 'pattern', op: 'merge', pattern: '^std::', ignoreCase: false });
    const focused = refStacks(merged, { kind: 'pattern', op: 'focus', pattern: '^toyc::', ignoreCase: false }).filter((s) => s.tokens.length > 0);
    expect(sortedLines(both.stdout)).toEqual(foldedLines(focused));
  });

  it('a bad spec is a usage error naming it; nothing is read', async () => {
    const r = await runInMemory(runCollapse, ['--transform', 'merge-re:(a', TOYC]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      "flameview collapse: --transform 'merge-re:(a': found an invalid regular expression (Invalid regular expression: /(a/: Unterminated group) (the forms are below)",
    );
    const kind = await runInMemory(runCollapse, ['--transform', 'frobnicate:x', TOYC]);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain("--transform 'frobnicate:x': found the kind 'frobnicate'");
  });
});

describe('top, svg and diff --transform', () => {
  it('top: the rows of the transformed tree (drop-re takes the matching functions and their callers\u2019 share away)', async () => {
    const plain = JSON.parse((await runInMemory(runTop, ['--json', '-n', '0', '--full-names', TOYC])).stdout) as { name: string; total: number }[];
    const dropped = JSON.parse((await runInMemory(runTop, ['--json', '-n', '0', '--full-names', '--transform', 'drop-re:^toyc::Parser::', TOYC])).stdout) as {
      name: string;
      total: number;
      self: number;
    }[];
    expect(plain.some((r) => r.name.startsWith('toyc::Parser::'))).toBe(true);
    expect(dropped.some((r) => r.name.startsWith('toyc::Parser::'))).toBe(false);
    // the self weights sum to what collapse prints for the same transform
    const folded = parseFolded((await runInMemory(runCollapse, ['--view', 'functions', '--transform', 'drop-re:^toyc::Parser::', TOYC])).stdout);
    expect(dropped.reduce((a, r) => a + r.self, 0)).toBe(folded.reduce((a, s) => a + s.weight, 0));
  });

  it('svg: the transformed graph', async () => {
    const plain = await runInMemory(runSvg, [TOYC]);
    const merged = await runInMemory(runSvg, ['--transform', 'merge-re:^toyc::', TOYC]);
    expect(merged.code).toBe(0);
    expect(plain.stdout).toContain('toyc::interpret');
    expect(merged.stdout).not.toContain('toyc::interpret');
    expect((await runInMemory(runSvg, ['--transform', 'focus-re', TOYC])).code).toBe(2);
  });

  it('diff: both sides transformed alike', async () => {
    const A = fx('rust-toyc.run-a.perf-script.txt');
    const B = fx('rust-toyc.run-b.perf-script.txt');
    const r = await runInMemory(runDiff, ['--transform', 'focus-re:^toyc::interpret$', A, B]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l.startsWith('toyc::interpret')).toBe(true);
    // each side's column sums to that side's collapse with the same transform
    for (const [k, file] of [[1, A], [2, B]] as const) {
      const side = parseFolded((await runInMemory(runCollapse, ['--transform', 'focus-re:^toyc::interpret$', file])).stdout);
      expect(lines.reduce((a, l) => a + Number(l.split(' ').at(-3 + k)), 0)).toBe(side.reduce((a, s) => a + s.weight, 0));
    }
  });
});
