// `flameview lines` on perf script -F +srcline recordings (fixtures/srcline/): per-line self and
// total of the inline view against sums read straight off the text, the function view's lines
// adding up, and `collapse` of the srcline printing byte-identical to the plain printing.

import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCollapse } from './collapse';
import { runInMemory } from './run-in-memory';
import { runLines, type FunctionLinesRow } from './lines';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fx = (p: string) => join(root, 'fixtures', 'srcline', p);

/**
 * The oracle: per srcline of the frames named `name` (offset stripped), the period of the samples
 * whose leaf frame it is (self) and of the samples with such a frame at that line (total, once
 * per sample and line). Read from the text with regular expressions, no flameview code.
 */
function oracle(file: string, name: string): Map<string, { self: number; total: number }> {
  const text = gunzipSync(readFileSync(fx(file))).toString('utf8');
  const out = new Map<string, { self: number; total: number }>();
  const row = (k: string) => out.get(k) ?? (out.set(k, { self: 0, total: 0 }), out.get(k)!);
  for (const sample of text.split(/\n\n+/)) {
    const lines = sample.split('\n');
    const header = /\s(\d+)\s+\S+:\s*$/.exec(lines[0]);
    if (!header) continue;
    const period = Number(header[1]);
    const seen = new Set<string>();
    let leaf = true;
    for (let i = 1; i < lines.length; i++) {
      const frame = /^\t\s*[0-9a-f]+ (.*?)(\+0x[0-9a-f]+)?( \(.*\))?$/.exec(lines[i]);
      if (!frame) continue;
      const src = /^ {2}(.*?)( \(inlined\))?$/.exec(lines[i + 1] ?? '');
      const m = src ? /^(.+):(\d+)$/.exec(src[1]) : null;
      const where = m && m[1] !== '??' ? `${m[1]}:${m[2]}` : '?';
      if (frame[1] === name) {
        if (leaf) row(where).self += period;
        if (!seen.has(where)) row(where).total += period;
        seen.add(where);
      }
      leaf = false;
    }
  }
  return out;
}

describe('flameview lines', () => {
  const cases: [string, string][] = [
    ['funcs.srcline.perf-script.txt.gz', 'main'],
    ['funcs.srcline.perf-script.txt.gz', 'sort_items'],
    ['hashack.srcline.perf-script.txt.gz', 'put'],
    ['hashack.srcline.perf-script.txt.gz', 'ack'],
    ['mixed-clang.srcline.perf-script.txt.gz', 'main'],
  ];
  for (const [file, name] of cases) {
    it(`${file} ${name} --view inline: self and total per line as summed from the text`, async () => {
      const r = await runInMemory(runLines, ['--view', 'inline', '--raw', '--json', name, fx(file)], '');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const rows = JSON.parse(r.stdout) as FunctionLinesRow[];
      expect(rows.map((x) => x.name)).toEqual([name]);
      const want = oracle(file, name);
      const got = new Map(rows[0].lines.map((l) => [l.file === null ? '?' : `${l.file}:${l.line}`, { self: l.self, total: l.total }]));
      expect(Object.fromEntries([...got].sort())).toEqual(Object.fromEntries([...want].sort()));
    });
  }

  it('the function view: lines add up to the function’s self, totals within its total; text and --by self', async () => {
    const r = await runInMemory(runLines, ['--raw', '--json', 'main', fx('funcs.srcline.perf-script.txt.gz')], '');
    const [main] = JSON.parse(r.stdout) as FunctionLinesRow[];
    expect(main.lines.reduce((s, l) => s + l.self, 0)).toBe(main.self);
    for (const l of main.lines) expect(l.total).toBeLessThanOrEqual(main.total);
    const text = await runInMemory(runLines, ['--by', 'self', 'main', fx('funcs.srcline.perf-script.txt.gz')], '');
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ROUTINE =+ main: self .* total /);
    expect(lines[1]).toBe('self\tself%\ttotal\ttotal%\tline');
    expect(lines[2]).toMatch(/\tfuncs\.cpp:\d+$/);
  });

  it('samples without call chain: the header line’s frame and the srcline line under it', async () => {
    const r = await runInMemory(runLines, ['--raw', '--json', 'main', fx('loop.no-callchain.srcline.perf-script.txt.gz')], '');
    expect(r.stderr).toBe('');
    const [main] = JSON.parse(r.stdout) as FunctionLinesRow[];
    expect(main.lines.map((l) => `${l.file}:${l.line}`)).toEqual(['t.c:2', 't.c:3']);
    expect(main.lines.reduce((s, l) => s + l.self, 0)).toBe(main.self);
  });

  it('-F ip,sym,srcline (no headers): each sample weighs 1', async () => {
    const r = await runInMemory(runLines, ['--view', 'inline', '--raw', '--json', 'put', fx('hashack.ip-sym-srcline.perf-script.txt.gz')], '');
    const [put] = JSON.parse(r.stdout) as FunctionLinesRow[];
    const want = await runInMemory(runLines, ['--view', 'inline', '--raw', '--json', '--samples', 'put', fx('hashack.srcline.perf-script.txt.gz')], '');
    expect(put).toEqual((JSON.parse(want.stdout) as FunctionLinesRow[])[0]);
  });

  it('a regular expression lists every match; no match, no lines and usage errors exit 1 and 2', async () => {
    const many = JSON.parse((await runInMemory(runLines, ['--json', '--view', 'inline', '^ack|^put$', fx('hashack.srcline.perf-script.txt.gz')], '')).stdout) as FunctionLinesRow[];
    expect(many.map((x) => x.name).sort()).toEqual(['ack', 'put']);
    const none = await runInMemory(runLines, ['no_such_function', fx('hashack.srcline.perf-script.txt.gz')], '');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no function matches 'no_such_function' in the functions view/);
    // A recording without inline frames has one view: none is named.
    const oneView = await runInMemory(runLines, ['no_such_function', join(root, 'fixtures', 'interchange', 'node.cpuprofile')], '');
    expect(oneView.code).toBe(1);
    expect(oneView.stderr).toMatch(/no function matches 'no_such_function' \(flameview top/);
    const plain = await runInMemory(runLines, ['main', fx('funcs.perf-script.txt.gz')], '');
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/no source lines.*-F \+srcline/);
    expect((await runInMemory(runLines, [fx('funcs.perf-script.txt.gz')], '')).code).toBe(2);
    expect((await runInMemory(runLines, ['--by', 'x', 'main', fx('funcs.perf-script.txt.gz')], '')).code).toBe(2);
  });
});

describe('collapse of perf script -F +srcline', () => {
  // -F ip,sym,srcline against -F ip,sym: no header lines at all, each sample a blank line and its frames.
  const pairs = [...['funcs', 'hashack', 'mixed-clang', 'toyc'].map((n) => [n, `${n}.perf-script.txt.gz`, `${n}.srcline.perf-script.txt.gz`]), ['hashack -F ip,sym', 'hashack.ip-sym.perf-script.txt.gz', 'hashack.ip-sym-srcline.perf-script.txt.gz'], ['loop, no call chains (perf record without -g)', 'loop.no-callchain.perf-script.txt.gz', 'loop.no-callchain.srcline.perf-script.txt.gz']];
  for (const [name, plainFile, linesFile] of pairs) {
    it(`${name}: byte-identical to the plain printing of the same perf.data, in both views, nothing skipped`, async () => {
      for (const view of ['inline', 'functions']) {
        const plain = await runInMemory(runCollapse, ['--view', view, fx(plainFile)], '');
        const lines = await runInMemory(runCollapse, ['--view', view, fx(linesFile)], '');
        expect(lines.code).toBe(0);
        expect(lines.stderr).toBe('');
        expect(plain.stderr).toBe('');
        expect(lines.stdout.length).toBeGreaterThan(50);
        expect(lines.stdout === plain.stdout).toBe(true);
      }
    });
  }
});

describe('the processed recording keeps the lines', () => {
  it('convert to .flameview, then lines gives what the original gives, in both views', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { runConvert } = await import('./convert');
    const dir = mkdtempSync(join(tmpdir(), 'flameview-lines-'));
    try {
      const out = join(dir, 'funcs.flameview');
      const c = await runInMemory(runConvert, [fx('funcs.srcline.perf-script.txt.gz'), '-o', out], '');
      expect(c.code).toBe(0);
      for (const view of ['inline', 'functions']) {
        const want = await runInMemory(runLines, ['--view', view, '--json', 'main|sort_items', fx('funcs.srcline.perf-script.txt.gz')], '');
        const got = await runInMemory(runLines, ['--view', view, '--json', 'main|sort_items', out], '');
        expect(got.stderr).toBe('');
        expect(JSON.parse(got.stdout)).toEqual(JSON.parse(want.stdout));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('flameview lines against go tool pprof -list', () => {
  // CI installs Go (.ci/run); elsewhere the check is skipped when `go` is missing.
  const hasGo = (() => {
    try {
      return execFileSync('go', ['version']).length > 0;
    } catch {
      return false;
    }
  })();
  it.skipIf(!hasGo && !process.env.CI)('the Go CPU profile: flat and cum per line are self and total of the inline view', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'flameview-pprof-list-'));
    const file = join(root, 'fixtures', 'interchange', 'go-cpu.pb.gz');
    const ns = (t: string) => (t === '.' ? 0 : Math.round(Number(t.replace(/(ms|us|s)$/, '')) * { ms: 1e6, us: 1e3, s: 1e9 }[/(ms|us|s)$/.exec(t)![1] as 'ms']));
    try {
      for (const fn of ['main.sortWork', 'main.hashLoop', 'main.histogram', 'main.main']) {
        const out = execFileSync('go', ['tool', 'pprof', '-list', `^${fn.replace('.', '\\.')}$`, file], { encoding: 'utf8', env: { ...process.env, HOME: dir, GOCACHE: join(dir, 'go-cache'), PPROF_TMPDIR: dir } });
        const want = new Map<number, { self: number; total: number }>();
        for (const m of out.matchAll(/^\s+(\S+)\s+(\S+)\s+(\d+):/gm)) if (m[1] !== '.' || m[2] !== '.') want.set(Number(m[3]), { self: ns(m[1]), total: ns(m[2]) });
        expect(want.size, fn).toBeGreaterThan(1);
        const r = await runInMemory(runLines, ['--view', 'inline', '--raw', '--json', fn, file], '');
        const [row] = JSON.parse(r.stdout) as FunctionLinesRow[];
        const got = new Map(row.lines.map((l) => [l.line, { self: Math.round(l.self), total: Math.round(l.total) }]));
        expect(Object.fromEntries(got), fn).toEqual(Object.fromEntries(want));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
