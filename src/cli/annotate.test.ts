// `flameview annotate` on the recordings of fixtures/asm/ (record.sh): the listing from objdump
// against perf annotate's own, the build id check (a rebuilt binary is reported), a stripped
// binary, a recording whose binaries are gone (offsets only), kernel code, and usage errors.

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runInMemory } from './run-in-memory';
import { runAnnotate } from './annotate';
import type { Disassembly } from '../node/disasm';

const asm = fileURLToPath(new URL('../../fixtures/asm/', import.meta.url));
const data = join(asm, 'loops.perf.data');
const scratch = mkdtempSync(join(tmpdir(), 'flameview-annotate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function annotate(...args: string[]): Promise<{ code: number; d: Disassembly; stderr: string }> {
  const r = await runInMemory(runAnnotate, ['--json', ...args]);
  return { code: r.code, d: r.code === 0 ? (JSON.parse(r.stdout) as Disassembly) : (null as unknown as Disassembly), stderr: r.stderr };
}

/** perf annotate --stdio: instruction address → percent. */
function oracle(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of readFileSync(join(asm, file), 'utf8').matchAll(/^\s*(\d+\.\d+) :\s+([0-9a-f]+):/gm)) out.set(m[2], Number(m[1]));
  return out;
}

describe('flameview annotate', () => {
  it("lists the function's instructions with perf annotate's shares, source labels and jump targets", async () => {
    const { code, d, stderr } = await annotate('--symfs', asm, 'chase', data);
    expect(code).toBe(0);
    expect(stderr).not.toContain('not the binary');
    expect(d.buildId).toEqual({ recorded: '00939201467613db73e2ec97833b04b07b340883', found: '00939201467613db73e2ec97833b04b07b340883', matches: true });
    expect(d.problems).toEqual([]);
    const insns = d.listing.filter((r) => r.kind === 'insn');
    const perf = oracle('loops.annotate.1.txt');
    // Every instruction perf lists, at perf's share (within 0.5 points), and no other.
    expect(insns.map((r) => r.address)).toEqual([...perf.keys()]);
    for (const r of insns) expect(Math.abs(r.share - perf.get(r.address)!), r.address).toBeLessThanOrEqual(0.5);
    const hot = insns.reduce((a, b) => (b.share > a.share ? b : a));
    expect(hot).toMatchObject({ address: '13f6', offset: 0x16 });
    expect(d.listing).toContainEqual({ kind: 'source', file: expect.stringMatching(/loops\.c$/), line: 17 });
    expect(insns.find((r) => r.address === '13f8')).toMatchObject({ text: expect.stringContaining('jne'), target: 0x10 });
  });

  it('prints the listing as perf annotate --stdio does', async () => {
    const r = await runInMemory(runAnnotate, ['--symfs', asm, 'divide', data]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ Percent \|\tDisassembly of .*loops for divide \(\d+ samples, percent: local period\)\n/);
    expect(r.stdout).toMatch(/^ +\d+\.\d\d : {3}[0-9a-f]+: {3}div/m);
  });

  it('reports a rebuilt binary whose build id differs, never annotating silently', async () => {
    const dir = join(scratch, 'rebuilt');
    execFileSync('mkdir', ['-p', dir]);
    execFileSync('gcc', ['-O1', '-g', '-o', join(dir, 'loops'), join(asm, 'loops.c')]);
    const { code, d, stderr } = await annotate('--symfs', dir, 'chase', data);
    expect(code).toBe(0);
    expect(d.buildId?.matches).toBe(false);
    expect(d.buildId?.recorded).toBe('00939201467613db73e2ec97833b04b07b340883');
    expect(stderr).toMatch(/loops is not the binary that was recorded: its build id is [0-9a-f]+, the recording's 00939201/);
  });

  it('reports a stripped binary and keeps the offsets', async () => {
    const dir = join(scratch, 'stripped');
    execFileSync('mkdir', ['-p', dir]);
    copyFileSync(join(asm, 'loops'), join(dir, 'loops'));
    execFileSync('strip', [join(dir, 'loops')]);
    const { d, stderr } = await annotate('--symfs', dir, 'chase', data);
    expect(stderr).toMatch(/has no symbol chase \(a stripped binary\?/);
    expect(d.listing).toEqual([]);
    expect(d.offsets.find((o) => o.offset === 0x16)!.share).toBeGreaterThan(95);
  });

  it('shows the sampled offsets of a recording whose binaries are gone, and says what to pass', async () => {
    const r = await runInMemory(runAnnotate, ['--symfs', join(scratch, 'nothing-here'), 'chase', join(asm, 'loops.perf-script.txt.gz')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/loops is not under --symfs .*nothing-here.*: only the sampled offsets are shown/);
    expect(r.stdout).toMatch(/^ +9\d\.\d\d : {3}\+0x16$/m);
  });

  it('says why kernel code has no listing', async () => {
    const { code, d } = await annotate('exc_page_fault', join(asm, 'loops.perf-script.txt.gz'));
    expect(code).toBe(0);
    expect(d.problems).toEqual([expect.stringMatching(/^\[kernel\.kallsyms\] is not a file: kernel code needs a readable vmlinux/)]);
    expect(d.offsets.length).toBeGreaterThan(0);
  });

  it('fails with one line for an unknown function, and with usage for a missing FILE', async () => {
    const r = await runInMemory(runAnnotate, ['no_such_function_anywhere', join(asm, 'loops.perf-script.txt.gz')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no function named or matching 'no_such_function_anywhere' was sampled/);
    expect((await runInMemory(runAnnotate, ['chase'])).code).toBe(2);
  });
});

describe('flameview annotate on hostile input', () => {
  it('prints names and paths from the recording without control characters', async () => {
    const dir = mkdtempSync(join(scratch, 'hostile-'));
    const file = join(dir, 'evil.perf-script.txt');
    const name = 'evil\u001b[2J<script>x</script>';
    const sample = (off: string) => `prog 1 1.000000: 1000 cpu-clock:\n\t401016 ${name}+0x${off} (/no/such\u001b]0;title\u0007/prog)\n\t401100 main+0x10 (/no/such/prog)\n\n`;
    writeFileSync(file, sample('16') + sample('16') + sample('1a'));
    const r = await runInMemory(runAnnotate, [name, file]);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(r.stdout).toContain('evil?[2J<script>x</script>');
    expect(r.stdout).toMatch(/^ +66\.67 : {3}\+0x16$/m);
    const json = JSON.parse((await runInMemory(runAnnotate, ['--json', name, file])).stdout) as Disassembly;
    expect(json.function).toBe(name);
  });
});
