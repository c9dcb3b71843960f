// `flameview top`: rows against sums computed from the folded oracle, sorting, limits, JSON, and
// the one-line errors and exit codes shared with collapse.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { functionSumsFromFolded } from '../core/testing/folded-oracle';
import { runInMemory } from './run-in-memory';
import { runTop, type TopRow } from './top';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fx = (p: string) => join(root, 'fixtures', p);

const run = (args: string[], stdin = '') => runInMemory(runTop, args, stdin);

const oracle = (path: string) => functionSumsFromFolded(readFileSync(path, 'utf8').split('\n'));

describe('flameview top', () => {
  it('prints a TSV table of every function with the oracle’s self and total, heaviest self first', async () => {
    const { code, stdout, stderr } = await run(['-n', '0', '--raw', fx('rust-toyc.folded')]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('self\tself%\ttotal\ttotal%\tname');
    const want = oracle(fx('rust-toyc.folded'));
    expect(lines.length - 1).toBe(want.size);
    const rootTotal = readFileSync(fx('rust-toyc.folded'), 'utf8').split('\n').filter(Boolean).reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    let prevSelf = Infinity;
    for (const line of lines.slice(1)) {
      const [self, selfPct, total, totalPct, name] = line.split('\t');
      expect(want.get(name)).toEqual([Number(self), Number(total)]);
      expect(selfPct).toBe(`${((100 * Number(self)) / rootTotal).toFixed(2)}%`);
      expect(totalPct).toBe(`${((100 * Number(total)) / rootTotal).toFixed(2)}%`);
      expect(Number(self)).toBeLessThanOrEqual(prevSelf);
      prevSelf = Number(self);
    }
  });

  it('--by total -n 5 --json: the five heaviest totals as objects', async () => {
    const { code, stdout } = await run(['--by', 'total', '-n', '5', '--json', fx('rust-toyc.folded')]);
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as TopRow[];
    expect(rows).toHaveLength(5);
    const totals = [...oracle(fx('rust-toyc.folded')).values()].map((r) => r[1]).sort((a, b) => b - a);
    expect(rows.map((r) => r.total)).toEqual(totals.slice(0, 5));
    expect(rows[0].totalPercent).toBeGreaterThan(90); // several root frames (threads)
    expect(rows[0].totalPercent).toBeLessThanOrEqual(100);
    expect(Object.keys(rows[0]).sort()).toEqual(['inlined', 'name', 'self', 'selfPercent', 'total', 'totalPercent']);
  });

  it('defaults to 20 rows of the viewer’s view (functions); names are tidied as collapse prints them; --view inline has inlined rows', async () => {
    const inline = await run([fx('rust-toyc.perf-script.txt'), '--json']);
    const rows = JSON.parse(inline.stdout) as TopRow[];
    expect(rows).toHaveLength(20);
    expect(rows.some((r) => r.inlined)).toBe(false);
    const all = JSON.parse((await run(['--view', 'inline', '-n', '0', '--json', fx('rust-toyc.perf-script.txt')])).stdout) as TopRow[];
    expect(all.some((r) => r.inlined)).toBe(true);
    expect(all.every((r) => !r.name.includes('(') || r.name.includes('(anonymous namespace)') || /<[^>]*\(/.test(r.name))).toBe(true);
    const fns = JSON.parse((await run(['--view', 'functions', '-n', '0', '--json', fx('rust-toyc.perf-script.txt')])).stdout) as TopRow[];
    expect(fns.some((r) => r.inlined)).toBe(false);
    expect(fns.length).toBeLessThan(all.length);
  });

  it('--samples weighs by sample count', async () => {
    const rows = JSON.parse((await run(['--samples', '-n', '1', '--by', 'total', '--json', fx('rust-toyc.perf-script.txt')])).stdout) as TopRow[];
    const period = JSON.parse((await run(['-n', '1', '--by', 'total', '--json', fx('rust-toyc.perf-script.txt')])).stdout) as TopRow[];
    expect(rows[0].total).toBeLessThan(period[0].total);
    expect(Number.isInteger(rows[0].total)).toBe(true);
  });

  it('weights carry their unit as the viewer shows them; --raw prints the numbers', async () => {
    // perf script of a cpu-clock recording: the period is in nanoseconds.
    const timed = (await run(['-n', '2', fx('rust-toyc.perf-script.txt')])).stdout.split('\n');
    expect(timed[1]).toMatch(/^\d+(\.\d)? (ns|µs|ms)\t\d+\.\d\d%\t\d+(\.\d+)? (ns|µs|ms|s)\t\d+\.\d\d%\t\S/);
    const samples = (await run(['-n', '1', '--samples', fx('rust-toyc.perf-script.txt')])).stdout.split('\n');
    expect(samples[1]).toMatch(/^[\d,]+ samples\t[\d.]+%\t[\d,]+ samples\t/);
    expect((await run(['-'], 'main;a 1234\nmain 1\n')).stdout).toBe('self\tself%\ttotal\ttotal%\tname\n1,234 samples\t99.92%\t1,234 samples\t99.92%\ta\n1 sample\t0.08%\t1,235 samples\t100.00%\tmain\n');
    expect((await run(['--raw', '-'], 'main;a 1234\nmain 1\n')).stdout).toBe('self\tself%\ttotal\ttotal%\tname\n1234\t99.92%\t1234\t99.92%\ta\n1\t0.08%\t1235\t100.00%\tmain\n');
  });

  it('reads stdin and keeps hostile names as text', async () => {
    const { code, stdout } = await run(['-', '--json'], 'main;<img src=x onerror=alert(1)> 3\nmain 1\n');
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as TopRow[])[0]).toMatchObject({ name: '<img src=x onerror=alert(1)>', self: 3, selfPercent: 75 });
  });

  it('usage errors exit 2 with one line and the usage', async () => {
    for (const [args, message] of [
      [['--by', 'name', 'x'], "--by must be self or total, not 'name'"],
      [['-n', 'ten', 'x'], "-n must be a whole number (0 = all), not 'ten'"],
      [['--view', 'flat', 'x'], "--view must be inline or functions, not 'flat'"],
      [[], 'missing FILE'],
      [['--bogus', 'x'], "unknown option '--bogus'"],
    ] as const) {
      const { code, stderr } = await run([...args]);
      expect(code).toBe(2);
      expect(stderr).toContain(message);
      expect(stderr).toContain('usage: flameview top');
    }
  });

  it('unreadable input exits 1 with one line', async () => {
    const missing = await run([fx('no-such-file.txt')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no-such-file\.txt: cannot read: no such file\n$/);
    const dir = await run([fx('sources')]);
    expect(dir.code).toBe(1);
    expect(dir.stderr).toMatch(/is a directory/);
    const junk = await run(['-'], '\u0000\u0001binary junk\n');
    expect(junk.code).toBe(1);
    expect(junk.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('bin/flameview top runs through the dispatcher', async () => {
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(join(root, 'bin/flameview'), ['top', '-n', '3', fx('rust-toyc.folded')], { cwd: root });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(4);
  }, 60000);
});
