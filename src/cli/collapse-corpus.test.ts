// `flameview collapse` against FlameGraph's own regression corpus (fixtures/third_party/FlameGraph/
// test: 13 perf script recordings from perf 3.x to 4.x and stackcollapse-perf.pl's output for
// each option), plus parser checks the corpus exercises: headers without a timestamp
// (`java  3244 cpu-clock: `) and frames printed without indentation.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../core/import/load';
import { runCollapse } from './collapse';
import { runInMemory } from './run-in-memory';

const root = fileURLToPath(new URL('../../', import.meta.url));
const corpus = join(root, 'fixtures/third_party/FlameGraph/test');
const infernoResults = join(root, 'fixtures/third_party/inferno/tests/data/collapse-perf/results');
const recordings = readdirSync(corpus).filter((f) => f.endsWith('.txt')).sort().map((f) => f.slice(0, -4));
const tmp = mkdtempSync(join(tmpdir(), 'flameview-corpus-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The options FlameGraph recorded results for, except --addrs (flameview has no such option). */
const OPTIONS = ['pid', 'tid', 'kernel', 'jit', 'all'] as const;

/**
 * stackcollapse-perf.pl ends a sample at a blank line only, so it drops a last sample that has no
 * trailing blank line (5 of the 13 recordings); flameview keeps it. The perl results are compared
 * with flameview's collapse of the recording cut after its last blank line, and the kept sample
 * is checked on its own below.
 */
function asPerlReadsIt(text: string): { text: string; dropped: boolean } {
  if (/\n[ \t]*\n\s*$/.test(text)) return { text, dropped: false };
  return { text: text.slice(0, text.trimEnd().lastIndexOf('\n\n') + 2), dropped: true };
}

/**
 * Where flameview names frames unlike perl, by design or not yet settled (the totals still agree):
 * - the Java `L` prefix: perl tidies Java names only while the root is exactly `java`, so not
 *   under --pid/--tid (`java-?`); flameview tidies them whatever the root;
 * - perl removes quotes from names (`RegExp:[&<>\"\']` → `RegExp:[&<>\\]`); flameview keeps them;
 * - perf-vertx-stacks-01: perl's result has a stack with an empty frame name where flameview has
 *   `Java_sun_nio_ch_FileDispatcherImpl_write0` (line 7437) and its `[libc-2.15.so]` leaf: not
 *   investigated yet;
 * - the Rust recording: perl keeps Rust's legacy mangling hashes, flameview demangles as inferno
 *   does (compared with inferno's own results below).
 */
const NAMED_DIFFERENTLY: Record<string, readonly string[]> = {
  'perf-java-faults-01': ['pid', 'tid'],
  'perf-java-stacks-01': ['pid', 'tid'],
  'perf-java-stacks-02': ['pid', 'tid'],
  'perf-js-stacks-01': OPTIONS,
  'perf-vertx-stacks-01': OPTIONS,
  'perf-rust-Yamakaky-dcpu': OPTIONS,
};

const total = (folded: string) => folded.trim().split('\n').reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
const stacks = (folded: string) => folded.trim().split('\n').length;

async function collapse(option: string, text: string, name: string) {
  const file = join(tmp, `${name}.txt`);
  writeFileSync(file, text);
  const r = await runInMemory(runCollapse, [`--${option}`, file]);
  expect(r.code).toBe(0);
  return r.stdout;
}

describe('FlameGraph test corpus', () => {
  it('has the 13 recordings and 6 results each', () => {
    expect(recordings).toHaveLength(13);
    expect(readdirSync(join(corpus, 'results'))).toHaveLength(13 * 6);
  });

  it.each(recordings)('%s loads: samples, no skipped lines', async (name) => {
    const text = readFileSync(join(corpus, `${name}.txt`), 'utf8');
    const profile = await loadProfileFromText(text);
    expect(profile.meta.format).toBe('perf-script');
    expect(profile.meta.samples).toBeGreaterThan(0);
    expect(profile.meta.skippedLines).toBe(0);
  });

  const cases = recordings.flatMap((name) => OPTIONS.map((option) => [name, option] as const));
  it.each(cases)('%s --%s equals stackcollapse-perf.pl', async (name, option) => {
    const { text } = asPerlReadsIt(readFileSync(join(corpus, `${name}.txt`), 'utf8'));
    const perl = readFileSync(join(corpus, `results/${name}-collapsed-${option}.txt`), 'utf8');
    const ours = await collapse(option, text, name);
    if (NAMED_DIFFERENTLY[name]?.includes(option)) {
      // Same samples and weights, under some different frame names (see NAMED_DIFFERENTLY).
      expect(total(ours)).toBe(total(perl));
      expect(ours).not.toBe(perl);
    } else expect(ours).toBe(perl);
  });

  it.each(recordings)('%s: a last sample without a trailing blank line is kept, one sample more than perl', async (name) => {
    const full = readFileSync(join(corpus, `${name}.txt`), 'utf8');
    const { text, dropped } = asPerlReadsIt(full);
    const whole = await loadProfileFromText(full);
    const cut = await loadProfileFromText(text);
    expect(whole.meta.samples - cut.meta.samples).toBe(dropped ? 1 : 0);
  });

  it.each(OPTIONS)('perf-rust-Yamakaky-dcpu --%s equals inferno\'s own result', async (option) => {
    const text = readFileSync(join(corpus, 'perf-rust-Yamakaky-dcpu.txt'), 'utf8');
    const inferno = readFileSync(join(infernoResults, `perf-rust-Yamakaky-dcpu-collapsed-${option}.txt`), 'utf8');
    expect(await collapse(option, text, 'rust')).toBe(inferno);
  });

  it('headers without a timestamp: root names as perl gives them, no time order', async () => {
    const vertx = await loadProfileFromText(readFileSync(join(corpus, 'perf-vertx-stacks-01.txt'), 'utf8'));
    expect(vertx.samples ?? null).toBeNull();
    const pid = await collapse('pid', readFileSync(join(corpus, 'perf-funcab-pid-01.txt'), 'utf8'), 'funcab');
    expect(pid.split('\n')[0]).toMatch(/^func_ab-\?;/);
    expect(stacks(pid)).toBeGreaterThan(1);
  });
});
