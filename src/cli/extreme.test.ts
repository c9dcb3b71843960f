// Extreme but valid recordings through the CLI (issue 32, item 2): each loads whole, with exact
// figures, in a bounded time, without a stack overflow or a lost sample. The page's side of the
// same inputs is e2e/extreme.spec.ts.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCollapse } from './collapse';
import { runTop } from './top';
import { runInMemory } from './run-in-memory';

const tmp = mkdtempSync(join(tmpdir(), 'flameview-extreme-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
}

const collapse = (args: string[]) => runInMemory(runCollapse, args);
const top = (args: string[]) => runInMemory(runTop, args);

describe('extreme but valid inputs in the CLI', () => {
  it('a 1 MB frame name survives collapse whole and is one row of top', async () => {
    const long = `f${'x'.repeat(1_000_000)}`;
    const path = file('long.folded', `main;${long};leaf 5\nmain;other 3\n`);
    const r = await collapse([path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`main;${long};leaf 5\nmain;other 3\n`);
    const t = await top(['--raw', '-n', '0', '--by', 'total', path]);
    expect(t.code).toBe(0);
    expect(t.stdout.split('\n').filter((l) => l.endsWith(long))).toHaveLength(1);
  });

  it('a 100,000-deep stack: no stack overflow, the same stack out, top counts each frame once', async () => {
    const deep = Array.from({ length: 100_000 }, (_, i) => `f${i}`).join(';');
    const path = file('deep.folded', `${deep} 7\nmain 1\n`);
    const r = await collapse([path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${deep} 7\nmain 1\n`);
    const t = await top(['--raw', '--json', '-n', '0', path]);
    const rows = JSON.parse(t.stdout) as { name: string; self: number; total: number }[];
    expect(rows).toHaveLength(100_001);
    expect(rows.find((x) => x.name === 'f99999')).toMatchObject({ self: 7, total: 7 });
    expect(rows.find((x) => x.name === 'f0')).toMatchObject({ self: 0, total: 7 });
  });

  it('a million distinct frames (5 million with FLAMEVIEW_EXTREME=1) load with every sample', async () => {
    const n = process.env.FLAMEVIEW_EXTREME === '1' ? 5_000_000 : 1_000_000;
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(`main;g${i} 1\n`);
    const path = file('distinct.folded', parts.join(''));
    const t = await top(['--raw', '--json', '-n', '3', '--by', 'total', path]);
    expect(t.code).toBe(0);
    const rows = JSON.parse(t.stdout) as { name: string; total: number }[];
    expect(rows[0]).toMatchObject({ name: 'main', total: n });
  }, 120_000);

  it('weights near 2^53 stay exact; one past it is skipped with its line named', async () => {
    const path = file('big.folded', `main;a ${2 ** 53 - 2}\nmain;b 1\nmain;c ${2 ** 53 + 2}\n`);
    const r = await collapse([path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`main;a ${2 ** 53 - 2}\nmain;b 1\n`);
    expect(r.stderr).toMatch(/line 3: count "9007199254740994" is past 2\^53/);
    const t = await top(['--raw', '--json', '-n', '0', '--by', 'total', path]);
    expect((JSON.parse(t.stdout) as { name: string; total: number }[])[0]).toMatchObject({ name: 'main', total: 2 ** 53 - 1 });
  });

  it('zero and negative weights in folded text: zero lines add nothing, negative ones are skipped and counted', async () => {
    const path = file('signs.folded', 'main;a 0\nmain;b 4\nmain;c -3\nmain;d -0\n');
    const r = await collapse([path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('main;b 4\n');
    expect(r.stderr).toMatch(/negative count "-3"/);
  });

  it('10,000 threads: --tid gives one root per thread, each with its sample', async () => {
    const lines: string[] = [];
    for (let t = 0; t < 10_000; t++) {
      lines.push(`prog 1000/${10_000 + t} [000] ${(1 + t * 0.001).toFixed(6)}: 1000000 cpu-clock:ppp:\n\t401000 work+0x10 (/bin/prog)\n\t402000 main+0x20 (/bin/prog)\n`);
    }
    const path = file('threads.perf-script.txt', lines.join('\n'));
    const r = await collapse(['--tid', path]);
    expect(r.code).toBe(0);
    const out = r.stdout.trimEnd().split('\n');
    expect(out).toHaveLength(10_000);
    expect(new Set(out.map((l) => l.split(';')[0])).size).toBe(10_000);
    expect(out.every((l) => l.endsWith(';main;work 1000000'))).toBe(true);
  });

  it('a recording of one sample', async () => {
    const path = file('one.perf-script.txt', 'prog 1000/1000 [000] 1.000000: 1000000 cpu-clock:ppp:\n\t401000 work+0x10 (/bin/prog)\n');
    const r = await collapse([path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('prog;work 1000000\n');
  });
});
