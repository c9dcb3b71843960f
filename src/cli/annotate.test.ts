// `flameview annotate` on the recordings of fixtures/asm/ (record.sh): the listing from objdump
// against perf annotate's own, the build id check (a rebuilt binary is reported), a stripped
// binary, a recording whose binaries are gone (offsets only), kernel code, usage errors, and a
// pprof profile's addresses placed through its mappings.

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInMemory } from './run-in-memory';
import { runAnnotate } from './annotate';
import { runCollapse } from './collapse';
import { runDiff } from './diff';
import { runLines } from './lines';
import { runSvg } from './svg';
import { runTop } from './top';
import { expectCleanInterrupt, runCli } from '../server/test-support';
import type { Disassembly } from '../node/disasm';

const asm = fileURLToPath(new URL('../../fixtures/asm/', import.meta.url));
const data = join(asm, 'loops.perf.data');
const scratch = mkdtempSync(join(tmpdir(), 'flameview-annotate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A HOME of the tests' own, whose perf build-id cache (~/.debug) holds `cached`: on the machine
 * the recording was made on, perf record left the recorded binary there, where perf script finds
 * it whatever became of the file; on another machine it is empty. The tests neither depend on nor
 * touch this machine's ~/.debug; afterEach puts HOME back.
 */
function inHome(name: string, cached: string[]): void {
  const home = join(scratch, name);
  mkdirSync(home, { recursive: true });
  for (const file of cached) execFileSync('perf', ['buildid-cache', '--add', file], { env: { ...process.env, HOME: home } });
  vi.stubEnv('HOME', home);
}
afterEach(() => {
  vi.unstubAllEnvs();
});
const asRecordingMachine = () => inHome('recording-machine', [join(asm, 'loops')]);

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
    // Another machine (nothing in ~/.debug, the binary not at its recorded path): --symfs names
    // the recorded functions for perf script too (a build-id cache of the run's own).
    inHome('another-machine', []);
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
    // Rebuilt on the machine it was recorded on: perf still names the recorded functions.
    asRecordingMachine();
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
    asRecordingMachine();
    const { d, stderr } = await annotate('--symfs', dir, 'chase', data);
    expect(stderr).toMatch(/has no symbol chase \(a stripped binary\?/);
    expect(d.listing).toEqual([]);
    expect(d.offsets.find((o) => o.offset === 0x16)!.share).toBeGreaterThan(95);
  });

  it('--symfs for one binary, ~/.debug for another: perf script names the functions of both', async () => {
    // A program and its shared library, recorded, then moved away: the program is in ~/.debug (as
    // perf record leaves it), the library only under --symfs. The run's own cache must hold both.
    const dir = join(scratch, 'two');
    mkdirSync(join(dir, 'bin'), { recursive: true });
    mkdirSync(join(dir, 'symfs'), { recursive: true });
    writeFileSync(join(dir, 'lib.c'), 'double spin_lib(long n) { double x = 0; for (long i = 0; i < n; i++) x += i * 0.5; return x; }\n');
    writeFileSync(join(dir, 'main.c'), 'double spin_lib(long);\ndouble spin_main(long n) { double x = 1; for (long i = 0; i < n; i++) x = x * 1.0000001 + 0.5; return x; }\nint main(void) { double s = 0; for (int k = 0; k < 300; k++) { s += spin_main(300000 + k); s += spin_lib(300000 + k); } return s > 0 ? 0 : 1; }\n');
    execFileSync('gcc', ['-O1', '-g', '-shared', '-fPIC', '-o', join(dir, 'bin', 'libtwo.so'), join(dir, 'lib.c')]);
    execFileSync('gcc', ['-O1', '-g', '-o', join(dir, 'bin', 'two'), join(dir, 'main.c'), `-L${join(dir, 'bin')}`, '-ltwo', `-Wl,-rpath,${join(dir, 'bin')}`]);
    const recorded = join(dir, 'two.perf.data');
    // -N: no build-id cache written by the recording (this machine's ~/.debug stays as it was).
    execFileSync('perf', ['record', '-q', '-N', '-F', '999', '-g', '-o', recorded, join(dir, 'bin', 'two')], { stdio: 'ignore' });
    inHome('two-home', [join(dir, 'bin', 'two')]);
    copyFileSync(join(dir, 'bin', 'libtwo.so'), join(dir, 'symfs', 'libtwo.so'));
    rmSync(join(dir, 'bin'), { recursive: true });
    // spin_main's argument varies: with a constant one gcc -O1 found the function const and called
    // it once, so the program spent ~2 % in it (perf report --sort dso: two 1.7 %, libtwo.so 98.3 %)
    // and a recording under two CIs' load (61 samples) had none there. What perf recorded and
    // what the home's cache holds are said when the test fails.
    const why = () => {
      const ids = spawnSync('perf', ['buildid-list', '-i', recorded], { encoding: 'utf8' });
      const home = spawnSync('find', [join(scratch, 'two-home', '.debug'), '-maxdepth', '3'], { encoding: 'utf8' });
      return `perf buildid-list: ${ids.stdout}${ids.stderr}; the home's cache: ${home.stdout}`;
    };
    for (const fn of ['spin_main', 'spin_lib']) {
      const { code, d, stderr } = await annotate('--symfs', join(dir, 'symfs'), fn, recorded);
      if (code !== 0) expect.fail(`${fn}: ${stderr}\n${why()}`);
      expect(d.offsets.length, fn).toBeGreaterThan(0);
    }
  });

  it('Ctrl+C while perf script runs: exit status 130, and the run\'s build-id cache is removed', async () => {
    // A perf whose `script` runs on (a large recording), noting its pid when it starts; the rest
    // is the real perf, which makes and fills the cache first.
    const bin = join(scratch, 'slow-perf');
    mkdirSync(bin, { recursive: true });
    const started = join(scratch, 'slow-perf.pid');
    const perf = execFileSync('sh', ['-c', 'command -v perf'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'perf'), `#!/bin/sh\ncase " $* " in *" script "*) echo $$ > '${started}'; exec sleep 60;; esac\nexec '${perf}' "$@"\n`);
    chmodSync(join(bin, 'perf'), 0o755);
    const tmp = join(scratch, 'ctrl-c-tmp');
    mkdirSync(tmp, { recursive: true });
    const home = join(scratch, 'ctrl-c-home');
    mkdirSync(home, { recursive: true });
    const s = runCli(['annotate', '--symfs', asm, 'chase', data], { env: { ...process.env, HOME: home, TMPDIR: tmp, PATH: `${bin}:${process.env.PATH}` } });
    // Once perf script runs, the cache is made and filled.
    await expectCleanInterrupt(s, tmp, started, () => readdirSync(tmp).filter((d) => d.startsWith('flameview-buildids-')).length === 1);
  });

  it('--symfs names the functions for every command that reads perf.data', async () => {
    // Another machine: nothing in ~/.debug, the binary not at its recorded path (only under asm/).
    inHome('another-machine-commands', []);
    const run = (command: typeof runTop, args: string[]) => runInMemory(command, [...args, data]);
    const unnamed = await run(runTop, ['-n', '0']);
    expect(unnamed.code, unnamed.stderr).toBe(0);
    expect(unnamed.stdout).toContain('[loops]');
    expect(unnamed.stdout).not.toContain('chase');
    for (const [command, args] of [
      [runTop, ['-n', '0']],
      [runCollapse, []],
      [runSvg, []],
      [runLines, ['chase']],
    ] as const) {
      const r = await run(command, ['--symfs', asm, ...args]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('chase');
    }
    const diff = await runInMemory(runDiff, ['--symfs', asm, data, data]);
    expect(diff.stdout).toMatch(/;chase (\d+) \1$/m);
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

// pprof (fixtures/asm-pprof/, record.sh): a Go program's own runtime/pprof CPU profile, whose
// samples are addresses in the process (Location.address) placed in the binary by its Mapping.
// pprof itself is the oracle: `go tool pprof -disasm` printed each instruction's flat time.
const goDir = fileURLToPath(new URL('../../fixtures/asm-pprof/', import.meta.url));
const goProfile = join(goDir, 'loops-go.pb.gz');
const BUILD_ID = '584ee30782a94ec510237180526f82db5ca45e3e';
const goSymfs = join(scratch, 'go-symfs');
const goRebuilt = join(scratch, 'go-rebuilt');

beforeAll(() => {
  const binary = gunzipSync(readFileSync(join(goDir, 'loops-go.gz')));
  for (const d of [goSymfs, goRebuilt]) mkdirSync(d);
  writeFileSync(join(goSymfs, 'loops-go'), binary, { mode: 0o755 });
  // The same code under another build id: what a rebuild looks like to the check.
  const other = Buffer.from(binary);
  const at = other.indexOf(Buffer.from(BUILD_ID, 'hex'));
  other[at] ^= 0xff;
  writeFileSync(join(goRebuilt, 'loops-go'), other, { mode: 0o755 });
});

/** go tool pprof -disasm: instruction address → flat milliseconds (every instruction listed). */
function pprofOracle(fn: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of readFileSync(join(goDir, `loops-go.disasm.${fn}.txt`), 'utf8').matchAll(/^\s+(\.|\d+ms)\s+(?:\.|\d+ms)\s+([0-9a-f]+):/gm)) {
    out.set(m[2], m[1] === '.' ? 0 : parseInt(m[1], 10));
  }
  return out;
}

describe('flameview annotate on a pprof profile', () => {
  it.each(['divide', 'gather', 'branchy'])("gives main.%s's instructions pprof -disasm's shares, the binary found by its mapping", async (fn) => {
    const { code, d, stderr } = await annotate('--symfs', goSymfs, `main.${fn}`, goProfile);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(d.absolute).toBe(true);
    expect(d.buildId).toEqual({ recorded: BUILD_ID, found: BUILD_ID, matches: true });
    const pprof = pprofOracle(fn);
    const total = [...pprof.values()].reduce((a, b) => a + b, 0);
    const insns = d.listing.filter((r) => r.kind === 'insn');
    // objdump and pprof list the same instructions (the ELF addresses, here those of the process),
    // but pprof's listing (Go 1.19) stops one instruction short of the symbol's end (a ret or the
    // padding after a call, never sampled).
    expect(insns.slice(0, -1).map((r) => r.address)).toEqual([...pprof.keys()]);
    expect(insns.at(-1)!.share).toBe(0);
    for (const r of insns.slice(0, -1)) expect(Math.abs(r.share - (100 * pprof.get(r.address)!) / total), r.address).toBeLessThanOrEqual(0.005);
    expect(d.self).toBeCloseTo(total * 1e6);
  });

  it('reports a binary whose build id differs from the mapping\'s', async () => {
    const { code, d, stderr } = await annotate('--symfs', goRebuilt, 'main.divide', goProfile);
    expect(code).toBe(0);
    expect(d.buildId).toMatchObject({ recorded: BUILD_ID, matches: false });
    expect(stderr).toMatch(/is not the binary that was recorded: its build id is [0-9a-f]+, the recording's 584ee307/);
  });

  it('shows the sampled addresses, as addresses, when the binary is gone', async () => {
    const r = await runInMemory(runAnnotate, ['--symfs', join(scratch, 'nothing'), 'main.divide', goProfile]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/loops-go is not under --symfs/);
    expect(r.stdout).toMatch(/^ +\d+\.\d\d : {3}0x4a8968$/m);
    expect(r.stdout).not.toMatch(/\+0x/);
  });
});
