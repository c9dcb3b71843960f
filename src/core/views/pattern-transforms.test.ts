// The pattern transforms (focus-re, drop-re, merge-re, collapse-re) against the stack-level
// reference (testing/reference-transforms.ts, which shares no code with transforms.ts): examples,
// random profiles and patterns with fast-check, a real recording, and the link codec.

import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../import/load';
import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { foldedLines, pathTokens, refPaths, refStacks, stacksOfTree, type RefStack, type RefTransform } from '../testing/reference-transforms';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { makeSnapshot } from './snapshot';
import { applyTransform, applyTransforms, describeTransform, type PatternOp, type Transform } from './transforms';
import { decodeTransform, decodeTransforms, encodeTransforms } from './transforms-codec';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const OPS: PatternOp[] = ['focus', 'drop', 'merge', 'collapse'];
type PatternT = Extract<Transform, { kind: 'pattern' }>;
const P = (op: PatternOp, pattern: string, ignoreCase = false): PatternT => ({ kind: 'pattern', op, pattern, ignoreCase });

function setup(stacks: RefStack[]) {
  const p = profileFrom(stacks.map((s) => `${s.tokens.join(';')} ${s.weight}`).join('\n'));
  return { tree: p.tree, frames: p.frames };
}

/** The transform's stacks and root self equal the reference's; each input node lands where the reference puts its path. */
function check(tree: CallTree, frames: FrameTable, t: PatternT & RefTransform) {
  const r = applyTransform(tree, frames, t);
  const nodes = Array.from({ length: tree.nodeCount - 1 }, (_, k) => k + 1);
  const asStacks = nodes.map((i) => ({ tokens: pathTokens(tree, frames, i), weight: tree.selfWeight[i] })).filter((s) => s.weight !== 0);
  const want = refStacks(asStacks, t);
  expect(stacksOfTree(r.tree, frames)).toEqual(foldedLines(want.filter((s) => s.tokens.length > 0)));
  expect(r.tree.selfWeight[0]).toBe(want.filter((s) => s.tokens.length === 0).reduce((a, s) => a + s.weight, 0) + (t.op === 'focus' ? 0 : tree.selfWeight[0]));
  // totals are the sums of the subtrees
  for (let i = r.tree.nodeCount - 1; i >= 0; i--) {
    let w = r.tree.selfWeight[i];
    for (let c = i + 1; c < r.tree.end[i]; c = r.tree.end[c]) w += r.tree.totalWeight[c];
    expect(r.tree.totalWeight[i]).toBe(w);
  }
  const paths = refPaths(nodes.map((i) => ({ tokens: pathTokens(tree, frames, i), weight: tree.selfWeight[i] })), t);
  const misplaced = nodes.flatMap((i, k) => {
    const j = r.toNew[i];
    const want = paths[k];
    if (j < 0) return want !== null && tree.selfWeight[i] > 0 ? [`${pathTokens(tree, frames, i).join(';')} lost`] : [];
    const got = pathTokens(r.tree, frames, j).join(';');
    return want !== null && got === want.join(';') ? [] : [`${pathTokens(tree, frames, i).join(';')} → ${got}`];
  });
  expect(misplaced).toEqual([]);
}

const example = profileFrom(`
  main;std::sort;std::__introsort_[i];std::swap;cmp 3
  main;std::sort;std::less 2
  main;run;malloc;_int_malloc 4
  main;run;std::vector::push;std::alloc;malloc 5
  main;wl::parse;wl::lex;std::string::append 1
  main;wl::parse 2
`);

describe('pattern transforms', () => {
  it('focus-re re-roots each stack at its outermost match; stacks without one go', () => {
    const r = applyTransform(example.tree, example.frames, P('focus', '^wl::'));
    expect(dumpTree(r.tree, example.frames)).toBe(['wl::parse 3/2', '  wl::lex 1/0', '    std::string::append 1/1'].join('\n'));
    // the outermost std:: frame of each stack: std::sort, std::vector::push and std::string::append are roots
    const std = applyTransform(example.tree, example.frames, P('focus', '^std::'));
    expect(std.tree.totalWeight[0]).toBe(11);
    check(example.tree, example.frames, P('focus', '^std::'));
    check(example.tree, example.frames, P('focus', 'nothing-matches'));
  });

  it('drop-re removes every sample with a match', () => {
    const r = applyTransform(example.tree, example.frames, P('drop', 'malloc'));
    expect(r.tree.totalWeight[0]).toBe(17 - 9);
    check(example.tree, example.frames, P('drop', 'MALLOC', true));
    expect(applyTransform(example.tree, example.frames, P('drop', 'MALLOC')).tree).toBe(example.tree);
  });

  it('merge-re merges every matching frame into its caller; the total is kept', () => {
    const r = applyTransform(example.tree, example.frames, P('merge', '^std::'));
    expect(r.tree.totalWeight[0]).toBe(17);
    expect(dumpTree(r.tree, example.frames)).not.toContain('std::');
    check(example.tree, example.frames, P('merge', '^std::'));
    check(example.tree, example.frames, P('merge', 'malloc$'));
  });

  it('collapse-re merges each run of consecutive matches into its first frame', () => {
    const r = applyTransform(example.tree, example.frames, P('collapse', '^std::'));
    const out = dumpTree(r.tree, example.frames);
    // std::sort keeps the inlined __introsort and swap (a run) but not cmp; std::vector::push swallows std::alloc
    expect(out).toContain('  std::sort 5/2\n    cmp 3/3');
    expect(out).toContain('    std::vector::push 5/0\n      malloc 5/5');
    check(example.tree, example.frames, P('collapse', '^std::'));
    check(example.tree, example.frames, P('collapse', 'a', true));
  });

  it('property: random profiles and patterns, every pattern transform equals the reference', () => {
    const NAMES = ['a', 'ab', 'std::c', 'std::d', 'x::e', 'A'];
    const PATTERNS = ['^std::', 'a', '^a$', 'b|e', '::', '^$', '.', 'D'];
    const arb = fc.record({
      stacks: fc.array(fc.tuple(fc.array(fc.tuple(fc.nat({ max: NAMES.length - 1 }), fc.boolean()), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 50 })), {
        minLength: 1,
        maxLength: 12,
      }),
      pattern: fc.constantFrom(...PATTERNS),
      ignoreCase: fc.boolean(),
    });
    fc.assert(
      fc.property(arb, ({ stacks, pattern, ignoreCase }) => {
        const { tree, frames } = setup(stacks.map(([tokens, weight]) => ({ tokens: tokens.map(([k, inl]) => `${NAMES[k]}${inl ? '_[i]' : ''}`), weight })));
        for (const op of OPS) check(tree, frames, P(op, pattern, ignoreCase));
      }),
      { numRuns: 300 },
    );
  });

  it('compose in a list, and with the older transforms', () => {
    const list: Transform[] = [P('merge', '^std::'), { kind: 'drop', name: 'malloc' }, P('collapse', '^wl::')];
    const r = applyTransforms(example.tree, example.frames, list);
    // std::less's weight stays in main; wl::lex and std::string::append fold into wl::parse
    expect(dumpTree(r.tree, example.frames)).toBe(['main 8/2', '  cmp 3/3', '  wl::parse 3/3'].join('\n'));
  });
});

describe('on a real recording', () => {
  it('rust-toyc: each pattern transform equals the reference over its call paths', async () => {
    const profile = await loadProfile(createReadStream(`${FIXTURES}rust-toyc.perf-script.txt`));
    const snap = makeSnapshot(profile);
    for (const tree of [snap.inline, snap.functions!]) {
      for (const op of OPS) for (const pattern of ['^std::', '^(alloc|core)::', 'toyc::.*visit']) check(tree, snap.frames, P(op, pattern));
    }
  });
});

describe('the link form', () => {
  it('round-trips, with -i for ignore case and the pattern percent-encoded', () => {
    const list: Transform[] = [P('focus', '^wl::'), P('drop', 'a,b|c', true), P('merge', '%x'), P('collapse', '__gnu_cxx::')];
    const text = encodeTransforms(list);
    expect(text).toBe('focus-re:%5Ewl%3A%3A,drop-re-i:a%2Cb%7Cc,merge-re:%25x,collapse-re:__gnu_cxx%3A%3A');
    expect(decodeTransforms(text)).toEqual({ ok: true, transforms: list });
    expect(describeTransform(list[1])).toBe('Drop samples matching /a,b|c/i');
  });

  it('rejects an invalid or empty pattern with an error naming the item; old links still decode', () => {
    const bad = decodeTransforms('focus:main,merge-re:(a');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/item 2: .*found an invalid regular expression .* in 'merge-re:\(a'/);
    expect(decodeTransforms('drop-re:').ok).toBe(false);
    expect(decodeTransforms('constructor-re:x').ok).toBe(false);
    expect(decodeTransforms('focus:main,rec:f,hide:kernel')).toEqual({
      ok: true,
      transforms: [{ kind: 'focus', name: 'main' }, { kind: 'direct-rec', name: 'f' }, { kind: 'hide', what: 'kernel' }],
    });
  });

  it('the CLI form takes the argument as typed', () => {
    expect(decodeTransform('focus-re:^wl::', 1, false)).toEqual({ ok: true, transform: P('focus', '^wl::') });
    expect(decodeTransform('drop-re-i:100%|a{1,2}', 1, false)).toEqual({ ok: true, transform: P('drop', '100%|a{1,2}', true) });
    expect(decodeTransform('merge:std::vector<int>', 1, false)).toEqual({ ok: true, transform: { kind: 'merge', name: 'std::vector<int>' } });
  });
});
