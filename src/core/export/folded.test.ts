import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { foldedImporter } from '../import/folded';
import type { Profile } from '../model/profile';
import { profileFrom } from '../testing/tree-dsl';
import { collapseLines, compareUtf8, foldedChunks, formatWeight, writeFolded } from './folded';

function parseFolded(text: string): Profile {
  const parser = foldedImporter.create({});
  text.split('\n').forEach((line, i) => parser.line(line, i + 1));
  return parser.finish();
}

const read = (path: string) => readFileSync(new URL(`../../../fixtures/${path}`, import.meta.url), 'utf8');
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('folded export', () => {
  it('prints one sorted line per stack with self weight', () => {
    const p = profileFrom(`
      main;parse;lex 3
      main;parse 1
      main;emit 2
      other 0.5
    `);
    expect(collapseLines(p)).toEqual(['main;emit 2', 'main;parse 1', 'main;parse;lex 3', 'other 0.5']);
  });

  it('annotates inlined frames by default, kernel and JIT frames on request', () => {
    const p = profileFrom('app;phys;inl_[i];sys_[k] 2\napp;jit_[j] 1\n');
    expect(collapseLines(p)).toEqual(['app;jit 1', 'app;phys;inl_[i];sys 2']);
    expect(collapseLines(p, { annotateInline: false })).toEqual(['app;jit 1', 'app;phys;inl;sys 2']);
    expect(collapseLines(p, { annotateKernel: true, annotateJit: true })).toEqual(['app;jit_[j] 1', 'app;phys;inl_[i];sys_[k] 2']);
  });

  it('merges stacks that become equal once annotations are dropped', () => {
    const p = profileFrom('a;b 1\na;b_[i] 2\n');
    expect(collapseLines(p)).toEqual(['a;b 1', 'a;b_[i] 2']);
    expect(collapseLines(p, { annotateInline: false })).toEqual(['a;b 3']);
  });

  it('exports the function view: inlined frames merge into their physical frame', () => {
    const p = profileFrom('main;work;helper_[i];inner_[i] 4\nmain;work 1\nmain;work;helper_[i];leaf 2\n');
    expect(collapseLines(p, { view: 'functions' })).toEqual(['main;work 5', 'main;work;leaf 2']);
    expect(collapseLines(p)).toEqual(['main;work 1', 'main;work;helper_[i];inner_[i] 4', 'main;work;helper_[i];leaf 2']);
  });

  it('keeps an inlined frame that has no physical caller in the function view', () => {
    const p = profileFrom('lonely_[i];leaf 2\nmain;x_[i] 1\n');
    expect(collapseLines(p, { view: 'functions' })).toEqual(['lonely;leaf 2', 'main 1']);
  });

  it('chooses the period or the sample weight', () => {
    const p = parseFolded('a;b 10\n');
    const tree = p.tree as { selfSamples: Float64Array };
    tree.selfSamples[2] = 1;
    expect(collapseLines(p)).toEqual(['a;b 10']);
    expect(collapseLines(p, { weight: 'samples' })).toEqual(['a;b 1']);
  });

  it('tidies names and merges the overloads it makes equal, unless fullNames', () => {
    const p = profileFrom('main;foo(int) 1\nmain;foo(long) 2\nmain;std::function<int (int)>::operator() 1\n');
    expect(collapseLines(p)).toEqual(['main;foo 3', 'main;std::function<int (int)>::operator 1']);
    expect(collapseLines(p, { fullNames: true })).toEqual(['main;foo(int) 1', 'main;foo(long) 2', 'main;std::function<int (int)>::operator() 1']);
  });

  it('sorts in UTF-8 byte order, astral characters included', () => {
    const names = ['z', 'é', '\ue000', '😀', 'Z', 'a;b', 'a b', 'a', '\uffff', '𐀀'];
    const p = profileFrom(names.map((n) => `${n.replace(';', '')} 1`).join('\n'));
    const lines = collapseLines(p).map((l) => l.slice(0, l.lastIndexOf(' ')));
    const expected = [...lines].sort(byteOrder);
    expect(lines).toEqual(expected);
    expect(lines.indexOf('\uffff')).toBeLessThan(lines.indexOf('😀'));
    expect(compareUtf8('\ue000', '😀')).toBeLessThan(0);
    expect(compareUtf8('😀', '\ue000')).toBeGreaterThan(0);
    expect(compareUtf8('abc', 'abc')).toBe(0);
    expect(compareUtf8('ab', 'abc')).toBeLessThan(0);
  });

  it('formats weights without exponents', () => {
    expect(formatWeight(12)).toBe('12');
    expect(formatWeight(1.5)).toBe('1.5');
    expect(formatWeight(1e21)).toBe('1000000000000000000000');
    expect(formatWeight(1e-7)).toBe('0.0000001');
    expect(Number(formatWeight(1.2345e-9))).toBe(1.2345e-9);
    expect(formatWeight(0.1 + 0.2)).toBe('0.30000000000000004');
  });

  it('streams the same text in chunks of whole lines', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `root;frame_${i};leaf_${i % 7} ${i + 1}`);
    const p = parseFolded(lines.join('\n'));
    const chunks = [...foldedChunks(p, { fullNames: true })];
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.endsWith('\n')).toBe(true);
    let written = '';
    writeFolded(p, { fullNames: true }, (c) => (written += c));
    expect(written).toBe(chunks.join(''));
    expect(written).toBe([...lines].sort(byteOrder).join('\n') + '\n');
  });

  it('never lets a name break the line format', () => {
    const p = profileFrom('a 1');
    (p.frames.strings as string[])[0] = 'x;y\nz';
    expect(collapseLines(p, { fullNames: true })).toEqual(['x:y z 1']);
  });
});

describe('folded export: golden files', () => {
  // inferno's expected outputs are already tidy and sorted: folded → tree → folded is the identity.
  const inferno = 'third_party/inferno/tests/data/collapse-perf/results/';
  it.each([
    ['cpp-stacks-std-function-collapsed.txt', {}],
    ['go-stacks-collapsed.txt', {}],
    ['java-inline-collapsed.txt', {}],
    ['example-perf-stacks-collapsed.txt', {}],
    ['perf-rust-Yamakaky-dcpu-collapsed-all.txt', { annotateKernel: true, annotateJit: true }],
    ['perf-rust-Yamakaky-dcpu-collapsed-tid.txt', {}],
    ['versioned-vmlinux-collapsed-kernel.txt', { annotateKernel: true }],
    ['sourcepawn-jitdump-collapsed-jit.txt', { annotateJit: true }],
  ])('%s', (file, options) => {
    const text = read(inferno + file);
    expect(collapseLines(parseFolded(text), options).join('\n') + '\n').toBe(text);
  });

  it.each(['rust-toyc.folded', 'sqlite.fp.folded', 'rust-toyc.no-inline.folded'])('%s (perl oracle)', (file) => {
    const text = read(file);
    expect(collapseLines(parseFolded(text), { fullNames: true }).join('\n') + '\n').toBe(text);
  });
});
