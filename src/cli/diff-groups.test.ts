// `flameview diff A1 … vs B1 …` (issue 31, item 3): each side is the sum of its runs, so the
// differential folded text equals `diff` of the two sides' `collapse A1 A2 …` outputs; `--table`
// is the change table with each side's spread, on the 5 + 5 runs of fixtures/groups.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCollapse } from './collapse';
import { runDiff } from './diff';
import { runInMemory } from './run-in-memory';

const fx = (p: string) => join(fileURLToPath(new URL('../../fixtures/', import.meta.url)), p);
const A = [1, 2, 3, 4, 5].map((i) => fx(`groups/a${i}.folded`));
const B = [1, 2, 3, 4, 5].map((i) => fx(`groups/b${i}.folded`));
const diff = (args: string[]) => runInMemory(runDiff, args);
const dir = mkdtempSync(join(tmpdir(), 'flameview-diff-groups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('diff of groups', () => {
  it('equals diff of the sides summed by collapse, with mixed formats', async () => {
    const a = [A[0], A[1], fx('rust-toyc.run-a.perf-script.txt')];
    const b = [B[0], fx('rust-toyc.run-b.perf-script.txt')];
    const sumA = join(dir, 'a.folded');
    const sumB = join(dir, 'b.folded');
    writeFileSync(sumA, (await runInMemory(runCollapse, a)).stdout);
    writeFileSync(sumB, (await runInMemory(runCollapse, b)).stdout);
    const grouped = await diff([...a, 'vs', ...b]);
    expect(grouped.code).toBe(0);
    expect(grouped.stdout).toBe((await diff([sumA, sumB])).stdout);
    expect(grouped.stdout.split('\n').length).toBeGreaterThan(100);
  });

  it('--table: the real change of the recorded runs is a CHANGE, the unchanged kernels noise', async () => {
    const r = await diff(['--table', ...A, 'vs', ...B]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('selfA%\tselfB%\tchange\tspreadA\tspreadB\tverdict\tname');
    const rows = lines.slice(1).map((l) => l.split('\t'));
    expect(rows[0][5]).toBe('CHANGE');
    expect(rows[0][6]).toBe('scan_table');
    expect(Number(rows[0][2])).toBeGreaterThan(2);
    const others = rows.slice(1);
    expect(others.filter((x) => x[5] === 'noise').length / others.length).toBeGreaterThanOrEqual(0.9);
    // one run per side: no spread, so no change is called noise
    const single = await diff(['--table', A[0], B[0]]);
    expect(single.stdout.split('\n').filter((l) => l.endsWith('\tscan_table'))[0]).toMatch(/\t0\.00\t0\.00\tCHANGE\t/);
  });

  it('usage errors name the problem', async () => {
    for (const [args, message] of [
      [[A[0], 'vs'], 'flameview diff: a group is empty: 1 recording(s) before vs, 0 after'],
      [[A[0], 'vs', B[0], 'vs', B[1]], 'flameview diff: vs given twice (write ./vs for a file named vs)'],
      [[A[0], B[0], B[1]], 'flameview diff: expected two recordings A and B (or groups: A1 A2 ... vs B1 B2 ...), got 3'],
      [['-', 'vs', '-'], 'flameview diff: only one of A and B can be - (stdin)'],
    ] as const) {
      const r = await diff([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(message);
    }
    const missing = await diff([A[0], 'vs', fx('groups/nope.folded')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.folded');
  });
});
