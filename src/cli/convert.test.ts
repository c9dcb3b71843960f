// `flameview convert IN -o OUT.pb.gz`: the pprof written is read back by flameview with the same
// views, and Go's own pprof (`go tool pprof`, Debian's golang-go, installed by .ci/run) reads it
// with the same figures as `flameview top`: per function self and total, in both views, summed
// here from `go tool pprof -raw` (its decoding of every sample and location, not ours), and the
// total `go tool pprof -top` reports.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCollapse } from './collapse';
import { runConvert } from './convert';
import { runInMemory } from './run-in-memory';
import { runTop, type TopRow } from './top';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fx = (p: string) => join(root, 'fixtures', p);
const dir = mkdtempSync(join(tmpdir(), 'flameview-convert-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A C++ program for perf to record here: its hot lines are in the standard library's headers (sort's inlined partition) and its own template. */
const CPP_PROGRAM = `#include <algorithm>
#include <functional>
#include <memory>
#include <vector>
template <typename T> T acc(const std::vector<T>& v) { T s = 0; for (auto x : v) s += x * x; return s; }
static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main() {
  auto p = std::make_unique<std::vector<double>>(200000, 1.5);
  std::function<double()> f = [&] { return acc(*p); };
  double t = 0;
  long r = 0;
  for (int i = 0; i < 400; i++) { t += f(); std::sort(p->begin(), p->end(), [](double a, double b) { return a > b; }); }
  for (int i = 0; i < 3; i++) r += fib(27);
  return (t + r) > 0 ? 0 : 1;
}
`;

// CI installs Go (.ci/run); elsewhere the check is skipped when `go` is missing.
const hasGo = spawnSync('go', ['version']).status === 0;
/** `go tool pprof` with a private HOME and cache, so it writes nothing outside the test's folder. */
const pprof = (args: string[]) => execFileSync('go', ['tool', 'pprof', ...args], { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, HOME: dir, GOCACHE: join(dir, 'go-cache'), PPROF_TMPDIR: dir } });

/** Per function [self, total] by `samples/count` and by the weight, from pprof's -raw dump. */
function sumsFromRaw(raw: string, view: 'inline' | 'functions'): Map<string, number[]> {
  const lines = raw.split('\n');
  const locations = new Map<number, string[]>(); // id → function names, innermost first
  let at = lines.indexOf('Locations');
  let current: string[] | null = null;
  for (at++; at < lines.length && lines[at] !== 'Mappings'; at++) {
    const m = /^\s*(?:(\d+): 0x[0-9a-f]+ (?:M=\d+ )?)?(.*) :\d+ s=\d+(?:\((.*)\))?$/.exec(lines[at]);
    if (!m) continue;
    // pprof shows a shortened name, and the full one in parentheses when they differ.
    const name = m[3] ?? m[2];
    if (m[1] !== undefined) locations.set(Number(m[1]), (current = []));
    current!.push(name);
  }
  const sums = new Map<string, number[]>();
  const sampleAt = lines.findIndex((l) => l.startsWith('samples/count'));
  for (let i = sampleAt + 1; i < lines.length && /^\s+\d/.test(lines[i]); i++) {
    const [values, ids] = lines[i].split(':');
    const [count, weight] = values.trim().split(/\s+/).map(Number);
    // Outermost last on the line; a location's lines innermost first.
    const stack = ids.trim().split(/\s+/).map(Number).map((id) => locations.get(id)!);
    const names = view === 'inline' ? stack.flat() : stack.map((l) => l[l.length - 1]);
    const add = (name: string, k: number, v: number) => {
      const row = sums.get(name) ?? [0, 0, 0, 0];
      row[k] += v;
      sums.set(name, row);
    };
    add(names[0], 0, count);
    add(names[0], 1, weight);
    for (const name of new Set(names)) {
      add(name, 2, count);
      add(name, 3, weight);
    }
  }
  return sums;
}

async function convert(input: string, out: string, options: string[] = []) {
  const r = await runInMemory(runConvert, [...options, input, '-o', out]);
  // A perf.data input: perf script's sample count, and nothing else.
  expect(r.stderr.replace(/^flameview: perf script .*: \d+ samples\n$/, '')).toBe('');
  expect(r.code).toBe(0);
}

const collapse = async (args: string[]) => (await runInMemory(runCollapse, args)).stdout;

describe('flameview convert', () => {
  // cpp/funcs has a function perf printed as inlined into itself (FOLDED lines): pprof holds it as
  // an inline chain, so its inline view reads back with those lines marked `_[i]` (see
  // src/core/export/pprof.test.ts); its function view is exact.
  it.each([
    ['rust-toyc.perf-script.txt', ['inline', 'functions']],
    ['interchange/go-cpu.pb.gz', ['inline', 'functions']],
    ['cpp/funcs.perf-script.txt', ['functions']],
  ])('%s → .pb.gz: collapse reads back the same in %s', async (name, views) => {
    const out = join(dir, `${name.replace(/\W/g, '_')}.pb.gz`);
    await convert(fx(name), out);
    expect(readFileSync(out).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    for (const view of views) {
      for (const samples of [[], ['--samples']]) expect(await collapse(['--view', view, ...samples, out])).toBe(await collapse(['--view', view, ...samples, fx(name)]));
    }
  });

  it.skipIf(!hasGo && !process.env.CI)('go tool pprof reads it with the figures flameview top gives: self and total per function in both views', async () => {
    for (const name of ['rust-toyc.perf-script.txt', 'cpp/funcs.perf-script.txt', 'sqlite.perf-script.txt']) {
      const out = join(dir, `${name.replace(/\W/g, '_')}-go.pb.gz`);
      await convert(fx(name), out);
      const raw = pprof(['-raw', out]);
      for (const view of ['inline', 'functions'] as const) {
        const go = sumsFromRaw(raw, view);
        // The function view against the original recording; the inline view against flameview's
        // reading of the file (pprof names a physical frame as its function: src/core/export/pprof.ts).
        const of = view === 'functions' ? fx(name) : out;
        const rows = async (samples: boolean) => JSON.parse((await runInMemory(runTop, ['--view', view, '--full-names', '-n', '0', '--json', ...(samples ? ['--samples'] : []), of])).stdout) as TopRow[];
        const bySamples = await rows(true);
        const byWeight = new Map((await rows(false)).map((r) => [r.name, r]));
        expect(bySamples.length, `${name} ${view}: functions`).toBe(go.size);
        for (const r of bySamples) {
          const w = byWeight.get(r.name)!;
          expect([r.self, w.self, r.total, w.total], `${name} ${view}: ${r.name}`).toEqual(go.get(r.name));
        }
      }
      // And pprof's own -top total is the recording's.
      const total = /of ([\d.]+)(ms|s) total/.exec(pprof(['-top', '-nodecount=1', out]))!;
      const topTotal = Number(total[1]) * (total[2] === 's' ? 1e9 : 1e6);
      const all = JSON.parse((await runInMemory(runTop, ['--by', 'total', '-n', '1', '--json', '--view', 'functions', '--full-names', fx(name)])).stdout) as TopRow[];
      expect(Math.abs(topTotal - (100 * all[0].total) / all[0].totalPercent)).toBeLessThan(topTotal * 1e-3);
    }
  });

  /**
   * `perf report --sort srcline`'s rows (`report`, its --stdio text) against `go tool pprof -top
   * -lines` on the pprof `flameview convert` wrote of `recording`: every line of 0.5 % or more.
   */
  async function expectSrclineAgreement(label: string, recording: string, report: string, options: string[] = []): Promise<void> {
    const out = join(dir, `${label}-lines.pb.gz`);
    await convert(recording, out, options);
    const perf = new Map<string, number>();
    for (const m of report.matchAll(/^\s+([\d.]+)%\s+(\S+:\d+)$/gm)) perf.set(m[2], Number(m[1]));
    // pprof's rows are per function and line (an inlined header line under each function it is
    // in): summed per file:line, as perf's srcline sort does.
    const go = new Map<string, number>();
    // pprof prints a known file without a line (perf's `FILE:0`) as the file alone.
    for (const m of pprof(['-top', '-lines', '-nodecount=100000', '-nodefraction=0', out]).matchAll(/^\s*\S+\s+([\d.]+)%.*?\s(\S+?)(:\d+)?(?: \((?:partial-)?inline\))?$/gm)) {
      const at = `${m[2].slice(m[2].lastIndexOf('/') + 1)}${m[3] ?? ':0'}`;
      go.set(at, (go.get(at) ?? 0) + Number(m[1]));
    }
    // perf's `??:0` is the unknown line, which pprof prints without a file.
    const heavy = [...perf].filter(([at, pct]) => pct >= 0.5 && !at.startsWith('??:'));
    expect(heavy.length, label).toBeGreaterThan(3);
    // Both print two decimals: a sum of pprof's rounded rows may be off by a few hundredths.
    for (const [at, pct] of heavy) expect(Math.abs((go.get(at) ?? 0) - pct), `${label} ${at}: perf ${pct}%, pprof ${go.get(at)}%`).toBeLessThanOrEqual(0.03);
  }

  it.skipIf(!hasGo && !process.env.CI)("go tool pprof -lines gives perf report --sort srcline's figures: the pprof keeps each sample's line", async () => {
    // perf's own report of each recording, made when it was recorded (fixtures/srcline/README.md).
    for (const name of ['hashack', 'funcs', 'mixed-clang']) {
      await expectSrclineAgreement(name, fx(`srcline/${name}.srcline.perf-script.txt.gz`), readFileSync(fx(`srcline/${name}.srcline-report.txt`), 'utf8'));
    }
  });

  it.skipIf(!hasGo && !process.env.CI)('the same on a C++ program recorded here (templates, std::function, lambdas, unique_ptr, recursion at -O2, DWARF inline frames)', async (ctx) => {
    const work = mkdtempSync(join(dir, 'cpp-'));
    writeFileSync(join(work, 't.cpp'), CPP_PROGRAM);
    const built = spawnSync('g++', ['-O2', '-g', '-o', join(work, 't'), join(work, 't.cpp')]);
    const data = join(work, 'perf.data');
    // -N: the binary stays where it was recorded, so no build-id cache is needed (nor written).
    const rec = built.status === 0 ? spawnSync('perf', ['record', '-q', '-N', '-F', '999', '--call-graph', 'dwarf', '-o', data, join(work, 't')]) : built;
    if (rec.status !== 0) return ctx.skip(); // no compiler, no perf, or no permission to record
    const text = join(work, 't.perf-script.txt');
    writeFileSync(text, execFileSync('perf', ['script', '-i', data, '-F', '+srcline'], { maxBuffer: 256 << 20 }));
    const report = execFileSync('perf', ['report', '-i', data, '--no-children', '--sort', 'srcline', '--stdio'], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
    await expectSrclineAgreement('cpp-here', text, report);
    // The perf.data itself: --lines prints it with them.
    await expectSrclineAgreement('cpp-here-data', data, report, ['--lines']);
  });

  it('to the processed recording and back to pprof: every command reads both, with the same output', async () => {
    const processed = join(dir, 'toyc.flameview');
    await convert(fx('rust-toyc.perf-script.txt'), processed);
    const pb = join(dir, 'toyc-from-processed.pb.gz');
    await convert(processed, pb);
    for (const view of ['inline', 'functions']) {
      const want = await collapse(['--view', view, fx('rust-toyc.perf-script.txt')]);
      expect(await collapse(['--view', view, processed])).toBe(want);
      expect(await collapse(['--view', view, pb])).toBe(want);
    }
    const top = async (file: string) => (await runInMemory(runTop, ['-n', '0', file])).stdout;
    expect(await top(processed)).toBe(await top(fx('rust-toyc.perf-script.txt')));
  });

  it('usage errors: no -o, an unknown --to', async () => {
    expect((await runInMemory(runConvert, [fx('rust-toyc.folded')])).stderr).toMatch(/^flameview convert: missing -o OUT/);
    const unknown = await runInMemory(runConvert, [fx('rust-toyc.folded'), '--to', 'svg', '-o', '-']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^flameview convert: --to must be flameview or pprof, not 'svg'/);
    const noSymfs = await runInMemory(runConvert, ['--symfs', join(dir, 'no-such-symfs'), fx('rust-toyc.folded'), '-o', '-']);
    expect(noSymfs).toMatchObject({ code: 1, stdout: '' });
    expect(noSymfs.stderr).toBe(`flameview convert: --symfs ${join(dir, 'no-such-symfs')} is not a directory\n`);
  });

  it('an unreadable input or output is one line, exit 1, and leaves no partial file', async () => {
    const missing = await runInMemory(runConvert, [join(dir, 'nope.txt'), '-o', join(dir, 'nope.pb.gz')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^flameview: .*nope\.txt: cannot read: no such file\n$/);
    const noDir = await runInMemory(runConvert, [fx('rust-toyc.folded'), '-o', join(dir, 'no-such-dir', 'out.pb.gz')]);
    expect(noDir.code).toBe(1);
    expect(noDir.stderr).toMatch(/^flameview: .*out\.pb\.gz: cannot write: no such file/);
    expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
  });
});
