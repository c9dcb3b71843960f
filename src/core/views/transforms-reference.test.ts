// The transforms added with frame-groups.ts (subtree, focus/collapse library and namespace,
// drop samples, collapse function, any recursion) against stack-level references
// (testing/reference-transforms.ts): examples, then random profiles with fast-check.

import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../import/load';
import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import { makeSnapshot } from './snapshot';
import { foldedLines, pathTokens, refPaths, refStacks, stacksOfTree, type RefStack, type RefTransform } from '../testing/reference-transforms';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { groupNamesOf, libraryName, namespaceOf, withGroupFrames } from './frame-groups';
import { functionTable, rowOf } from './function-table';
import { applyTransform, applyTransforms, type DerivedTree, type Transform } from './transforms';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

function setup(stacks: RefStack[]) {
  const p = profileFrom(stacks.map((s) => `${s.tokens.join(';')} ${s.weight}`).join('\n'));
  return { tree: p.tree, frames: withGroupFrames(p.frames) };
}

/** The transform's result equals the reference's stacks, and its columns are a valid tree. */
function check(stacks: RefStack[], t: RefTransform) {
  const { tree, frames } = setup(stacks);
  const r = applyTransform(tree, frames, t as Transform);
  const want = refStacks(stacks, t);
  expect(stacksOfTree(r.tree, frames)).toEqual(foldedLines(want.filter((s) => s.tokens.length > 0)).concat().sort());
  expect(r.tree.selfWeight[0]).toBe(want.filter((s) => s.tokens.length === 0).reduce((a, s) => a + s.weight, 0));
  expectValid(r.tree);
  expectPlaced(tree, frames, r, t);
}

/**
 * toNew puts each input node where the reference puts its call path: a kept node's image has the
 * path the reference rewrites the node's path to (the root for an empty one); a node whose path
 * the reference removes maps to -1; a node with self weight is kept unless its path is removed
 * (its weight must land somewhere). A node left with no weight of its own may go (-1).
 */
function expectPlaced(tree: CallTree, frames: FrameTable, r: DerivedTree, t: RefTransform) {
  const nodes = Array.from({ length: tree.nodeCount - 1 }, (_, k) => k + 1);
  const want = refPaths(nodes.map((i) => ({ tokens: pathTokens(tree, frames, i, true), weight: tree.selfWeight[i] })), t);
  const placed = nodes.map((i, k) => {
    const j = r.toNew[i];
    const path = pathTokens(tree, frames, i).join(';');
    if (j >= r.tree.nodeCount) return `${path} → ${j}: out of range`;
    if (j < 0) return want[k] !== null && tree.selfWeight[i] > 0 ? `${path} → -1, its weight lost` : 'ok';
    const got = pathTokens(r.tree, frames, j).join(';');
    return want[k] !== null && got === want[k]!.join(';') ? 'ok' : `${path} → ${got}, not ${want[k]?.join(';') ?? 'removed'}`;
  });
  expect(placed.filter((p) => p !== 'ok')).toEqual([]);
}

function expectValid(t: CallTree) {
  for (let i = t.nodeCount - 1; i >= 0; i--) {
    let w = t.selfWeight[i];
    for (let c = i + 1; c < t.end[i]; c = t.end[c]) w += t.totalWeight[c];
    expect(t.totalWeight[i]).toBe(w);
    if (i > 0) expect(t.totalWeight[i]).toBeGreaterThan(0);
  }
}

const S = (text: string): RefStack[] =>
  text
    .trim()
    .split('\n')
    .map((l) => {
      const sp = l.trim().lastIndexOf(' ');
      return { tokens: l.trim().slice(0, sp).split(';'), weight: Number(l.trim().slice(sp + 1)) };
    });

const lib = (n: string) => `⟨/usr/lib/${n}⟩`;
const example = S(`
  main${lib('app')};std::sort${lib('libstdc++.so.6')};std::swap_[i];cmp${lib('app')} 3
  main${lib('app')};std::sort${lib('libstdc++.so.6')};std::less${lib('libstdc++.so.6')} 2
  main${lib('app')};run${lib('app')};malloc${lib('libc.so.6')};_int_malloc${lib('libc.so.6')} 4
  main${lib('app')};run${lib('app')};visit${lib('app')};walk${lib('app')};visit${lib('app')};leaf${lib('app')} 5
  main${lib('app')};run${lib('app')};visit${lib('app')};walk${lib('app')} 1
  main${lib('app')};visit${lib('app')};malloc${lib('libc.so.6')} 2
`);

describe('frame groups', () => {
  it('names libraries by file name or npm package, namespaces by their first component', () => {
    expect(libraryName('/usr/lib/x86_64-linux-gnu/libc.so.6')).toBe('libc.so.6');
    expect(libraryName('[kernel.kallsyms]')).toBe('[kernel.kallsyms]');
    expect(libraryName('file:///app/node_modules/@scope/pkg/lib/x.js')).toBe('@scope/pkg');
    expect(libraryName('https://x.org/a/b.js?v=1')).toBe('b.js');
    expect(namespaceOf('std::vector<int>::push_back')).toBe('std::');
    expect(namespaceOf('<toyc::Cse as toyc::Visitor>::visit')).toBe('toyc::');
    expect(namespaceOf('main')).toBeNull();
    expect(namespaceOf('operator<<(std::ostream&)')).toBeNull();
  });

  it('appends one GROUP frame per library and namespace, once', () => {
    const p = profileFrom(example.map((s) => `${s.tokens.join(';')} ${s.weight}`).join('\n'));
    const g = withGroupFrames(p.frames);
    const added = Array.from({ length: g.count - p.frames.count }, (_, k) => g.strings[g.name[p.frames.count + k]]).sort();
    expect(added).toEqual(['app', 'libc.so.6', 'libstdc++.so.6', 'std::']);
    expect(withGroupFrames(g)).toBe(g);
    expect(withGroupFrames(p.frames)).toBe(g);
    // an inlined frame's library is its container's
    const swap = [...Array(p.tree.nodeCount).keys()].find((n) => g.strings[g.name[p.tree.frame[n]]] === 'std::swap')!;
    expect(groupNamesOf(p.tree, g, swap)).toEqual({ lib: 'libstdc++.so.6', ns: 'std::' });
  });
});

describe('new transforms against stack references', () => {
  it('collapse library: each run of a DSO becomes one frame named after it', () => {
    check(example, { kind: 'collapse-group', group: 'lib', name: 'libstdc++.so.6' });
    const { tree, frames } = setup(example);
    const out = dumpTree(applyTransform(tree, frames, { kind: 'collapse-group', group: 'lib', name: 'libc.so.6' }).tree, frames);
    expect(out).toContain('    libc.so.6 4/4');
    expect(out).toContain('    libc.so.6 2/2');
    check(example, { kind: 'collapse-group', group: 'ns', name: 'std::' });
    check(example, { kind: 'collapse-group', group: 'lib', name: 'app' });
  });

  it('focus on library / namespace keeps only its frames', () => {
    check(example, { kind: 'focus-group', group: 'lib', name: 'libc.so.6' });
    check(example, { kind: 'focus-group', group: 'ns', name: 'std::' });
    check(example, { kind: 'focus-group', group: 'lib', name: 'nope' });
  });

  it('drop samples removes every stack through the function; totals shrink', () => {
    check(example, { kind: 'drop', name: 'malloc' });
    const { tree, frames } = setup(example);
    const r = applyTransform(tree, frames, { kind: 'drop', name: 'visit' }).tree;
    expect(r.totalWeight[0]).toBe(17 - 8);
    expect(dumpTree(r, frames)).not.toContain('walk');
    expect(applyTransform(tree, frames, { kind: 'drop', name: 'zzz' }).tree).toBe(tree);
  });

  it('collapse function folds its callees into it', () => {
    check(example, { kind: 'collapse', name: 'run' });
    check(example, { kind: 'collapse', name: 'visit' });
  });

  it('collapse recursion (any) and direct recursion differ on indirect recursion', () => {
    check(example, { kind: 'rec', name: 'visit' });
    const { tree, frames } = setup(example);
    const anyRec = dumpTree(applyTransform(tree, frames, { kind: 'rec', name: 'visit' }).tree, frames);
    expect(anyRec).toContain('    visit 6/0\n      leaf 5/5\n      walk 1/1');
    // visit → walk → visit is not direct recursion: untouched
    expect(applyTransform(tree, frames, { kind: 'direct-rec', name: 'visit' }).tree).toBe(tree);
  });

  it('focus on subtree keeps one call path, not every call of the function', () => {
    const path = [
      { name: 'main', inlined: false },
      { name: 'run', inlined: false },
      { name: 'visit', inlined: false },
    ];
    check(example, { kind: 'subtree', path });
    const { tree, frames } = setup(example);
    const r = applyTransform(tree, frames, { kind: 'subtree', path }).tree;
    expect(r.totalWeight[0]).toBe(6); // not the 8 of every visit
    // a path with an inlined frame from the inline view, applied where it does not resolve exactly
    check(example, { kind: 'subtree', path: [{ name: 'main', inlined: false }, { name: 'std::sort', inlined: false }, { name: 'std::swap', inlined: true }] });
    check(example, { kind: 'subtree', path: [{ name: 'main', inlined: false }, { name: 'x', inlined: true }, { name: 'std::sort', inlined: false }] });
    check(example, { kind: 'subtree', path: [{ name: 'nope', inlined: false }] });
  });

  it('property: random profiles, every new transform equals its reference', () => {
    const NAMES = ['a', 'b', 'std::c', 'std::d', 'x::e'];
    const MODULES = [null, '/usr/lib/libx.so', '/opt/liby.so'];
    const token = fc.tuple(fc.nat({ max: NAMES.length - 1 }), fc.boolean());
    const arb = fc.record({
      modules: fc.array(fc.constantFrom(...MODULES), { minLength: NAMES.length, maxLength: NAMES.length }),
      stacks: fc.array(fc.tuple(fc.array(token, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 50 })), { minLength: 1, maxLength: 12 }),
      pick: fc.nat({ max: NAMES.length - 1 }),
      path: fc.array(token, { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(arb, ({ modules, stacks, pick, path }) => {
        const stackList: RefStack[] = stacks.map(([tokens, weight]) => ({
          tokens: tokens.map(([k, inl]) => (inl ? `${NAMES[k]}_[i]` : `${NAMES[k]}${modules[k] ? `⟨${modules[k]}⟩` : ''}`)),
          weight,
        }));
        const name = NAMES[pick];
        const libs = ['libx.so', 'liby.so'];
        const cases: RefTransform[] = [
          { kind: 'drop', name },
          { kind: 'collapse', name },
          { kind: 'rec', name },
          { kind: 'subtree', path: path.map(([k, inl]) => ({ name: NAMES[k], inlined: inl })) },
          { kind: 'subtree', path: stackList[0].tokens.slice(0, 2).map((t) => ({ name: t.replace(/_\[i\]$|⟨.*⟩$/, ''), inlined: t.endsWith('_[i]') })) },
          { kind: 'focus-group', group: 'ns', name: 'std::' },
          { kind: 'collapse-group', group: 'ns', name: 'std::' },
          ...libs.flatMap((l): RefTransform[] => [
            { kind: 'focus-group', group: 'lib', name: l },
            { kind: 'collapse-group', group: 'lib', name: l },
          ]),
        ];
        for (const t of cases) check(stackList, t);
      }),
      { numRuns: 300 },
    );
  });

  it('compose with the older transforms and keep the input total where they should', () => {
    const { tree, frames } = setup(example);
    const list: Transform[] = [
      { kind: 'collapse-group', group: 'lib', name: 'libc.so.6' },
      { kind: 'rec', name: 'visit' },
      { kind: 'direct-rec', name: null },
    ];
    const r = applyTransforms(tree, frames, list);
    expect(r.tree.totalWeight[0]).toBe(tree.totalWeight[0]);
    for (let i = 0; i < tree.nodeCount; i++) expect(r.toNew[i]).toBeGreaterThanOrEqual(0);
  });
});

describe('on real recordings', () => {
  it('sqlite: dropping a function takes exactly its weight off the total; collapsing libc keeps it', async () => {
    const profile = await loadProfile(createReadStream(`${FIXTURES}sqlite.perf-script.txt`));
    const snap = makeSnapshot(profile);
    const { inline: tree, frames } = snap;
    const table = functionTable(tree, frames);
    const name = 'sqlite3VdbeExec';
    const fnTotal = table.totalWeight[rowOf(table, frames, name)];
    const dropped = applyTransform(tree, frames, { kind: 'drop', name }).tree;
    expect(dropped.totalWeight[0]).toBe(tree.totalWeight[0] - fnTotal);
    const collapsed = applyTransform(tree, frames, { kind: 'collapse-group', group: 'lib', name: 'libc.so.6' }).tree;
    expect(collapsed.totalWeight[0]).toBe(tree.totalWeight[0]);
    const after = functionTable(collapsed, frames);
    expect(after.totalWeight[rowOf(after, frames, 'libc.so.6')]).toBeGreaterThan(0);
  });
});
