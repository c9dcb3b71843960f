// Golden tests of the perf script importer through the folded exporter (`collapse --view inline`)
// against the two reference collapsers:
// - fixtures/NAME.folded, made by stackcollapse-perf.pl. Perl shortens names crudely (cut at the
//   first '(' even inside <…>, quotes deleted), so that shortening is applied to both sides;
//   `_[i]` is removed from ours (perl does not mark perf's inline frames).
// - inferno's expected results (third_party/inferno/.../results): exact after `_[i]` removal.
//   X-collapsed-OPT.txt is input X with --OPT.
// perf-rust-Yamakaky-dcpu: inferno finishes the demangling of half-demangled Rust names, and so
// do we (perf-rust-names.ts), so it is compared with inferno's results, not FlameGraph's.

import { createReadStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collapseLines, type FoldedOptions } from '../../export/folded';
import type { Profile } from '../../model/profile';
import type { ImportOptions } from '../importer';
import { loadProfile } from '../load';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));
const INFERNO = FIXTURES + 'third_party/inferno/tests/data/collapse-perf/';
const FLAMEGRAPH = FIXTURES + 'third_party/FlameGraph/';

async function load(path: string, options: ImportOptions = {}): Promise<Profile> {
  return loadProfile(createReadStream(path), options);
}

/** Folded lines merged by stack after a per-stack rewrite, sorted: `stack weight`. */
function normalise(lines: string[], rewrite: (stack: string) => string): string[] {
  const merged = new Map<string, number>();
  for (const line of lines) {
    if (line === '') continue;
    const space = line.lastIndexOf(' ');
    const stack = rewrite(line.slice(0, space));
    merged.set(stack, (merged.get(stack) ?? 0) + Number(line.slice(space + 1)));
  }
  return [...merged].map(([stack, weight]) => `${stack} ${weight}`).sort();
}

const withoutInline = (stack: string) => stack.replaceAll('_[i]', '');

/** stackcollapse-perf.pl's tidying of one frame (its $tidy_generic). */
function perlTidy(frame: string): string {
  let f = frame;
  if (!/\.\(.*\)\./.test(f)) f = f.replace(/\((?!anonymous namespace\)).*/, '');
  return f.replace(/["']/g, '');
}

const perlStack = (stack: string) => withoutInline(stack).split(';').map(perlTidy).join(';');

function readLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n');
}

describe('perf script vs the stackcollapse-perf.pl oracles (NAME.folded)', () => {
  const names = [
    'rust-toyc',
    'rust-toyc.no-inline',
    'rust-toyc.fp',
    'rust-toyc.run-a',
    'rust-toyc.run-b',
    'sqlite',
    'sqlite.no-inline',
    'sqlite.fp',
  ];
  for (const name of names) {
    it(name, async () => {
      const profile = await load(`${FIXTURES}${name}.perf-script.txt`);
      const ours = normalise(collapseLines(profile, { view: 'inline' }), perlStack);
      const oracle = normalise(readLines(`${FIXTURES}${name}.folded`), perlStack);
      expect(ours.length).toBeGreaterThan(100);
      expect(ours).toEqual(oracle);
    });
  }

  // perl splits `toyc worker 1 13266` at the first number: comm `toyc worker`, TID `1`. We read
  // the header from the right (comm `toyc worker 1`), so our roots are mapped back to perl's.
  it('rust-toyc.comm-trailing-digit: the same stacks, with perl merging the two workers', async () => {
    const profile = await load(`${FIXTURES}rust-toyc.comm-trailing-digit.perf-script.txt`);
    const lines = collapseLines(profile);
    expect(lines.some((l) => l.startsWith('toyc_worker_0;'))).toBe(true);
    expect(lines.some((l) => l.startsWith('toyc_worker_1;'))).toBe(true);
    const toPerl = (stack: string) => perlStack(stack.replace(/^toyc_worker_\d;/, 'toyc_worker;'));
    expect(normalise(lines, toPerl)).toEqual(normalise(readLines(`${FIXTURES}rust-toyc.comm-trailing-digit.folded`), perlStack));
  });

  it('rust-toyc.comm-trailing-digit --tid: perl gives toyc_worker-?/DIGIT, we give toyc_worker_DIGIT-?/TID', async () => {
    const profile = await load(`${FIXTURES}rust-toyc.comm-trailing-digit.perf-script.txt`, { split: 'tid' });
    const lines = collapseLines(profile);
    expect(lines.some((l) => /^toyc_worker_1-\?\/\d{3,};/.test(l))).toBe(true);
    const toPerl = (stack: string) => perlStack(stack.replace(/^toyc_worker_(\d)-\?\/\d+;/, 'toyc_worker-?/$1;'));
    expect(normalise(lines, toPerl)).toEqual(normalise(readLines(`${FIXTURES}rust-toyc.comm-trailing-digit.tid.folded`), perlStack));
  });

  it('sqlite.no-callchain: perl prints nothing; we keep every single-line sample', async () => {
    expect(readFileSync(`${FIXTURES}sqlite.no-callchain.folded`, 'utf8')).toBe('');
    const text = readFileSync(`${FIXTURES}sqlite.no-callchain.perf-script.txt`, 'utf8');
    const profile = await load(`${FIXTURES}sqlite.no-callchain.perf-script.txt`);
    const headers = text.split('\n').filter((l) => l.trim() !== '');
    expect(profile.meta.samples).toBe(headers.length);
    expect(profile.meta.skippedLines).toBe(0);
    const periods = headers.reduce((sum, l) => sum + Number(/:\s+(\d+) cpu-clock/.exec(l)![1]), 0);
    expect(profile.tree.totalWeight[0]).toBe(periods);
    const lines = collapseLines(profile);
    expect(lines.length).toBeGreaterThan(50);
    for (const line of lines) expect(line).toMatch(/^sqlite3;[^;]+ \d+$/);
    // The first sample's frame, offset stripped.
    expect(lines.some((l) => l.startsWith('sqlite3;copy_mc_enhanced_fast_string '))).toBe(true);
  });
});

describe("perf script vs inferno's expected results", () => {
  const cases: [input: string, result: string, options?: { import?: ImportOptions; fold?: FoldedOptions }][] = [
    [INFERNO + 'cpp-stacks-std-function.txt', 'cpp-stacks-std-function-collapsed.txt'],
    [INFERNO + 'go-stacks.txt', 'go-stacks-collapsed.txt'],
    [INFERNO + 'java-inline.txt', 'java-inline-collapsed.txt'],
    [INFERNO + 'single-event.txt', 'single-event-collapsed.txt'],
    [INFERNO + 'single-line-stacks.txt', 'single-line-stacks-collapsed.txt'],
    [FLAMEGRAPH + 'example-perf-stacks.txt.gz', 'example-perf-stacks-collapsed.txt'],
    [INFERNO + 'sourcepawn-jitdump.txt', 'sourcepawn-jitdump-collapsed-jit.txt', { fold: { annotateJit: true } }],
    [INFERNO + 'versioned-vmlinux.txt', 'versioned-vmlinux-collapsed-kernel.txt', { fold: { annotateKernel: true } }],
    [FLAMEGRAPH + 'test/perf-rust-Yamakaky-dcpu.txt', 'perf-rust-Yamakaky-dcpu-collapsed-pid.txt', { import: { split: 'pid' } }],
    [FLAMEGRAPH + 'test/perf-rust-Yamakaky-dcpu.txt', 'perf-rust-Yamakaky-dcpu-collapsed-tid.txt', { import: { split: 'tid' } }],
    [FLAMEGRAPH + 'test/perf-rust-Yamakaky-dcpu.txt', 'perf-rust-Yamakaky-dcpu-collapsed-kernel.txt', { fold: { annotateKernel: true } }],
    [FLAMEGRAPH + 'test/perf-rust-Yamakaky-dcpu.txt', 'perf-rust-Yamakaky-dcpu-collapsed-jit.txt', { fold: { annotateJit: true } }],
    [
      FLAMEGRAPH + 'test/perf-rust-Yamakaky-dcpu.txt',
      'perf-rust-Yamakaky-dcpu-collapsed-all.txt',
      { fold: { annotateKernel: true, annotateJit: true } },
    ],
  ];
  for (const [input, result, options] of cases) {
    it(`${input.split('/').pop()} → ${result}`, async () => {
      const profile = await load(input, options?.import);
      const ours = normalise(collapseLines(profile, { view: 'inline', ...options?.fold }), withoutInline);
      const expected = normalise(readLines(INFERNO + 'results/' + result), withoutInline);
      expect(ours.length).toBeGreaterThan(0);
      expect(ours).toEqual(expected);
    });
  }

  it('no-events.txt (empty) → no stacks', async () => {
    const profile = await load(INFERNO + 'no-events.txt');
    expect(collapseLines(profile)).toEqual([]);
    expect(readFileSync(INFERNO + 'results/no-events-collapsed.txt', 'utf8')).toBe('');
  });

  it('java-inline keeps the perf-map-agent chains as INLINED frames', async () => {
    const lines = collapseLines(await load(INFERNO + 'java-inline.txt'));
    const expected = readLines(INFERNO + 'results/java-inline-collapsed.txt').filter(Boolean);
    expect(lines).toEqual(expected);
  });
});
