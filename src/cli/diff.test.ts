import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main, type CliIo } from './main';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));
const RUN_A = fixture('rust-toyc.run-a.perf-script.txt');
const RUN_B = fixture('rust-toyc.run-b.perf-script.txt');

async function run(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const input = new PassThrough();
  input.end(stdin);
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const io: CliIo = { stdout, stderr, stdin: input };
  const code = await main(['diff', ...args], io);
  return { code, out, err };
}

const tempDir = mkdtempSync(join(tmpdir(), 'flameview-diff-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tempDir, 'case-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

interface Row {
  a: number;
  b: number;
  /** How many of the input lines were merged into this row. */
  lines: number;
}

/**
 * The perl oracle's names: stackcollapse-perf.pl cuts each name at the first '(' (unless it opens
 * "(anonymous namespace)", or the name is a Go method) and deletes quotes; flameview's `_[i]` is
 * removed. Lines that become equal are merged by summing.
 */
function perlView(text: string): Map<string, Row> {
  const rows = new Map<string, Row>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const m = /^(.*) (\d+) (\d+)$/.exec(line);
    if (!m) throw new Error(`not a diff line: ${line}`);
    const stack = m[1]
      .split(';')
      .map((f) => {
        let name = f.endsWith('_[i]') ? f.slice(0, -4) : f;
        if (!/\.\(.*\)\./.test(name)) name = name.replace(/\((?!anonymous namespace\)).*/, '');
        return name.replace(/["']/g, '');
      })
      .join(';');
    const row = rows.get(stack) ?? { a: 0, b: 0, lines: 0 };
    row.a += Number(m[2]);
    row.b += Number(m[3]);
    row.lines++;
    rows.set(stack, row);
  }
  return rows;
}

function lineSet(text: string): string[] {
  return text.split('\n').filter(Boolean).sort();
}

function expectSortedBytewise(text: string): void {
  const lines = text.split('\n').filter(Boolean).map((l) => Buffer.from(l.slice(0, l.lastIndexOf(' ', l.lastIndexOf(' ') - 1))));
  for (let i = 1; i < lines.length; i++) expect(Buffer.compare(lines[i - 1], lines[i])).toBe(-1);
}

describe('flameview diff against the perl oracle (rust-toyc run-a → run-b)', () => {
  it('equals difffolded.pl of the stackcollapse-perf.pl outputs, as a set of lines', async () => {
    const { code, out, err } = await run([RUN_A, RUN_B]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('_[i]');
    expectSortedBytewise(out);
    const ours = perlView(out);
    const oracle = perlView(readFileSync(fixture('rust-toyc.diff.folded'), 'utf8'));
    expect(ours.size).toBe(oracle.size);
    for (const [stack, row] of oracle) {
      const mine = ours.get(stack);
      expect(mine, stack).toBeDefined();
      expect([mine!.a, mine!.b], stack).toEqual([row.a, row.b]);
    }
  });

  it('--normalize equals difffolded.pl -n within rounding', async () => {
    const { code, out } = await run(['--normalize', RUN_A, RUN_B]);
    expect(code).toBe(0);
    const ours = perlView(out);
    const oracle = perlView(readFileSync(fixture('rust-toyc.diff-normalized.folded'), 'utf8'));
    expect(ours.size).toBe(oracle.size);
    let scaled = 0;
    for (const [stack, row] of oracle) {
      const mine = ours.get(stack)!;
      expect(mine, stack).toBeDefined();
      expect(mine.b, stack).toBe(row.b);
      // int() per line: merging k of our lines can differ from perl's one int() by up to k − 1,
      // and ±1 is allowed for rounding.
      expect(Math.abs(mine.a - row.a), stack).toBeLessThanOrEqual(mine.lines);
      if (row.a > 0) scaled++;
    }
    expect(scaled).toBeGreaterThan(100);
    // Scaled to B's total: the A column now sums to B's total, less the truncations.
    const sumA = [...ours.values()].reduce((s, r) => s + r.a, 0);
    const sumB = [...ours.values()].reduce((s, r) => s + r.b, 0);
    expect(sumB - sumA).toBeGreaterThanOrEqual(0);
    expect(sumB - sumA).toBeLessThan(ours.size);
  });

  it('reads folded inputs too: the perl folded pair gives exactly difffolded.pl\'s lines, -n included', async () => {
    const a = fixture('rust-toyc.run-a.folded');
    const b = fixture('rust-toyc.run-b.folded');
    const plain = await run([a, b]);
    expect(lineSet(plain.out)).toEqual(lineSet(readFileSync(fixture('rust-toyc.diff.folded'), 'utf8')));
    const normalized = await run(['-n', a, b]);
    expect(lineSet(normalized.out)).toEqual(lineSet(readFileSync(fixture('rust-toyc.diff-normalized.folded'), 'utf8')));
  });

  it('in the function view, has no inline frames and keeps both totals', async () => {
    const { code, out } = await run(['--view', 'functions', '--samples', RUN_A, RUN_B]);
    expect(code).toBe(0);
    expect(out).not.toContain('_[i]');
    expect(out).not.toContain('toyc::optimize_module');
    expect(out).toContain('toyc::compile_module');
    let a = 0;
    let b = 0;
    for (const line of out.split('\n').filter(Boolean)) {
      const parts = line.split(' ');
      a += Number(parts[parts.length - 2]);
      b += Number(parts[parts.length - 1]);
    }
    expect([a, b]).toEqual([482, 752]);
    expectSortedBytewise(out);
  });
});

describe('flameview diff on small inputs', () => {
  const A = tempFile('a.folded', 'main;b 3\nmain;c(int) 1\n');
  const B = tempFile('b.folded', 'main;b 1\nmain;d 2\n');

  it('prints every stack of either input once, 0 where one input lacks it, sorted bytewise', async () => {
    const { code, out } = await run([A, B]);
    expect(code).toBe(0);
    expect(out).toBe('main;b 3 1\nmain;c 1 0\nmain;d 0 2\n');
  });

  it('--normalize truncates A × totalB / totalA toward zero, as difffolded.pl -n', async () => {
    // totals 4 and 3: 3 × 3 / 4 = 2.25 → 2, 1 × 3 / 4 = 0.75 → 0.
    expect((await run(['-n', A, B])).out).toBe('main;b 2 1\nmain;c 0 0\nmain;d 0 2\n');
    // Equal totals: nothing is scaled.
    expect((await run(['-n', A, A])).out).toBe('main;b 3 3\nmain;c 1 1\n');
  });

  it('keeps argument lists with --full-names, and reads one input from stdin', async () => {
    const { code, out } = await run(['--full-names', A, '-'], 'main;c(int) 5\n');
    expect(code).toBe(0);
    expect(out).toBe('main;b 3 0\nmain;c(int) 1 5\n');
  });

  it('sorts by UTF-8 bytes, not UTF-16 code units', async () => {
    const a = tempFile('u.folded', 'main;\u{1F600} 1\nmain;\uFF21 1\n');
    const { out } = await run([a, a]);
    expect(out).toBe('main;\uFF21 1 1\nmain;\u{1F600} 1 1\n');
  });
});

describe('flameview diff on perf script inputs of different events', () => {
  const sample = (event: string, period: number, fn: string) =>
    `toyc 17559   678.130161: ${String(period).padStart(10)} ${event}: \n\t           22e4b ${fn}+0x1eb (/build/rust/toyc)\n\t           11111 main+0x10 (/build/rust/toyc)\n\n`;
  const A = tempFile('a.perf.txt', sample('cpu-clock:ppp', 2004008, 'work') + sample('cpu-clock:ppp', 2004008, 'work'));
  const B = tempFile('b.perf.txt', sample('cycles:u', 5000, 'work') + sample('cycles:u', 7000, 'other(int)'));

  it('warns that the weights may not compare, and --samples compares sample counts', async () => {
    const periods = await run([A, B]);
    expect(periods.code).toBe(0);
    expect(periods.err).toMatch(/warning: A's event is cpu-clock:ppp but B's is cycles:u/);
    expect(periods.out).toBe('toyc;main;other 0 7000\ntoyc;main;work 4008016 5000\n');
    const samples = await run(['--samples', A, B]);
    expect(samples.err).toBe('');
    expect(samples.out).toBe('toyc;main;other 0 1\ntoyc;main;work 2 1\n');
  });
});

describe('flameview diff errors', () => {
  it('usage errors exit 2 with the usage text', async () => {
    for (const args of [[], ['one'], ['a', 'b', 'c'], ['--view', 'flat', 'a', 'b'], ['--bogus', 'a', 'b'], ['-', '-']]) {
      const { code, err, out } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err).toMatch(/^flameview diff: .*\nusage: flameview diff/);
      expect(out).toBe('');
    }
  });

  it('--open points to `flameview A B`', async () => {
    const { code, err } = await run(['--open', RUN_A, RUN_B]);
    expect(code).toBe(2);
    expect(err).toContain('`flameview A B` opens the comparison in the browser');
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('--normalize');
  });

  it('an unreadable or unrecognised input is one line on stderr and exit 1, with no output', async () => {
    const missing = await run([RUN_A, '/nonexistent/b.txt']);
    expect(missing.code).toBe(1);
    expect(missing.err).toBe('flameview: /nonexistent/b.txt: cannot read: no such file\n');
    expect(missing.out).toBe('');
    const junk = tempFile('junk.bin', '\u0000\u0001\u0002 binary junk <img src=x onerror=alert(1)>\n');
    const bad = await run([junk, RUN_B]);
    expect(bad.code).toBe(1);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/expected .*found/);
    expect(bad.out).toBe('');
  });
});

describe('flameview diff --ignore-root (issue 33: renamed binaries)', () => {
  const a = () => tempFile('a.folded', 'shapes;main;draw;circle 5\nshapes;main;draw;square 3\nshapes;main;load 2\n');
  const b = () => tempFile('b.folded', 'shapes_b;main;draw;circle 7\nshapes_b;main;draw;triangle 1\nshapes_b;main;load 2\n');

  it('without it, the two roots share no stack', async () => {
    const r = await run([a(), b()]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n').filter((l) => / 0 [1-9]|[1-9] 0$/.test(l)).length).toBe(6);
  });

  it("with it, A's root takes B's name and the stacks under it compare", async () => {
    const r = await run(['--ignore-root', a(), b()]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      ['shapes_b;main;draw;circle 5 7', 'shapes_b;main;draw;square 3 0', 'shapes_b;main;draw;triangle 0 1', 'shapes_b;main;load 2 2', ''].join('\n'),
    );
  });

  it('pairs several processes as the page does: same name first, then by weight', async () => {
    const many = tempFile('m.folded', 'sh;x 1\nbig;f 9\nsmall;g 1\n');
    const other = tempFile('o.folded', 'sh;x 2\nbig2;f 4\nsmall2;g 3\n');
    const r = await run(['--ignore-root', many, other]);
    // sh ↔ sh by name; then big (9) ↔ big2 (4) and small (1) ↔ small2 (3), heaviest with heaviest.
    expect(r.out).toBe(['big2;f 9 4', 'sh;x 1 2', 'small2;g 1 3', ''].join('\n'));
  });
});
