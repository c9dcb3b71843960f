// `flameview collapse`: golden outputs against inferno's expected results, exit codes and the
// one-line messages. Most cases run runCollapse in-process; a few spawn the real bin/flameview to
// check what a shell user sees (exit status, stderr without stack traces, stdin, a closed pipe).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runCollapse } from './collapse';
import { runInMemory } from './run-in-memory';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fx = (p: string) => join(root, 'fixtures', p);
const inferno = (p: string) => fx(`third_party/inferno/tests/data/collapse-perf/${p}`);
const yamakaky = fx('third_party/FlameGraph/test/perf-rust-Yamakaky-dcpu.txt');
const tmp = mkdtempSync(join(tmpdir(), 'flameview-collapse-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const run = (args: string[], stdin = '') => runInMemory(runCollapse, args, stdin);

function spawnCli(args: string[], input?: Buffer | string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'bin/flameview'), args, { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

describe('collapse: golden outputs (inferno 0.12 expected results)', () => {
  it.each([
    ['go-stacks-collapsed.txt', [inferno('go-stacks.txt')]],
    ['java-inline-collapsed.txt', [inferno('java-inline.txt')]],
    ['single-event-collapsed.txt', [inferno('single-event.txt')]],
    ['single-line-stacks-collapsed.txt', [inferno('single-line-stacks.txt')]],
    ['versioned-vmlinux-collapsed-kernel.txt', ['--kernel', inferno('versioned-vmlinux.txt')]],
    ['sourcepawn-jitdump-collapsed-jit.txt', ['--jit', inferno('sourcepawn-jitdump.txt')]],
    ['perf-rust-Yamakaky-dcpu-collapsed-all.txt', ['--all', yamakaky]],
    ['perf-rust-Yamakaky-dcpu-collapsed-pid.txt', ['--pid', yamakaky]],
    ['perf-rust-Yamakaky-dcpu-collapsed-tid.txt', ['--tid', yamakaky]],
    ['perf-rust-Yamakaky-dcpu-collapsed-kernel.txt', ['--kernel', yamakaky]],
    ['perf-rust-Yamakaky-dcpu-collapsed-jit.txt', ['--jit', yamakaky]],
    ['example-perf-stacks-collapsed.txt', [fx('third_party/FlameGraph/example-perf-stacks.txt.gz')]],
  ])('%s', async (expected, args) => {
    const r = await run(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(inferno(`results/${expected}`), 'utf8'));
  });

  it('cpp-stacks-std-function: identical except that perf (inlined) frames are marked _[i]', async () => {
    const r = await run([inferno('cpp-stacks-std-function.txt')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('new_do_write_[i];');
    expect(r.stdout.replaceAll('_[i]', '')).toBe(readFileSync(inferno('results/cpp-stacks-std-function-collapsed.txt'), 'utf8'));
  });

  it('a folded file collapses to itself; gzip is transparent', async () => {
    const text = readFileSync(fx('rust-toyc.folded'), 'utf8');
    const gz = join(tmp, 'rust-toyc.folded.gz');
    writeFileSync(gz, gzipSync(text));
    expect((await run(['--full-names', fx('rust-toyc.folded')])).stdout).toBe(text);
    expect((await run(['--full-names', gz])).stdout).toBe(text);
  });
});

describe('collapse: views and weights', () => {
  const sample = 'app;phys;inl_[i];sys_[k] 3\napp;phys 1\napp;foo(int) 2\napp;foo(long) 1\n';
  const file = join(tmp, 'views.folded');
  writeFileSync(file, sample);

  it('inline view by default, function view on request, names tidied', async () => {
    expect((await run([file])).stdout).toBe('app;foo 3\napp;phys 1\napp;phys;inl_[i];sys 3\n');
    expect((await run(['--view', 'functions', file])).stdout).toBe('app;foo 3\napp;phys 1\napp;phys;sys 3\n');
    expect((await run(['--view=functions', '--kernel', file])).stdout).toBe('app;foo 3\napp;phys 1\napp;phys;sys_[k] 3\n');
    expect((await run(['--full-names', file])).stdout).toBe('app;foo(int) 2\napp;foo(long) 1\napp;phys 1\napp;phys;inl_[i];sys 3\n');
  });

  it('--samples weighs by sample count, not period', async () => {
    const periods = (await run([fx('rust-toyc.perf-script.txt')])).stdout;
    const samples = (await run(['--samples', fx('rust-toyc.perf-script.txt')])).stdout;
    const total = (text: string) => text.trim().split('\n').reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    expect(total(samples)).toBe(532);
    expect(total(periods)).toBe(532 * 2_004_008);
  });

  it('the function view of a perf recording matches its --no-inline twin in total', async () => {
    const r = await run(['--view', 'functions', fx('sqlite.perf-script.txt')]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('_[i]');
    const total = r.stdout.trim().split('\n').reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    expect(total).toBe(1_160_160_159);
  });
});

describe('collapse: errors and notes', () => {
  it('a file that is not a recording: one line naming the line and what was found, exit 1', async () => {
    const f = join(tmp, 'prose.txt');
    writeFileSync(f, '\nhello world\nmore prose\n');
    const r = await run([f]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // The list of expected formats grows with the importers; the shape of the line does not.
    expect(r.stderr).toMatch(/^flameview: \S+prose\.txt: line 2: expected perf script text or .*folded stacks.*, found "hello world"\n$/);
    expect(r.stderr.startsWith(`flameview: ${f}: `)).toBe(true);
  });

  it('binary garbage: one line, exit 1', async () => {
    const f = join(tmp, 'garbage.bin');
    writeFileSync(f, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe, 10, 1, 2, 3, 0]));
    const r = await run([f]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^flameview: .*garbage\.bin: line 1: expected perf script text or .*folded stacks.*found binary data/);
  });

  it('missing file and directory: one line, exit 1', async () => {
    const missing = await run([join(tmp, 'nope.txt')]);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: `flameview: ${join(tmp, 'nope.txt')}: cannot read: no such file\n` });
    const dir = await run([tmp]);
    expect(dir).toEqual({ code: 1, stdout: '', stderr: `flameview: ${tmp}: is a directory\n` });
  });

  it('empty input and a recording without samples: empty output, a note, exit 0', async () => {
    const f = join(tmp, 'empty.txt');
    writeFileSync(f, '');
    const r = await run([f]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no samples/);
    const none = await run([inferno('no-events.txt')]);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/no samples/);
  });

  it('partly broken input: output of the good lines, skipped count and quoted lines on stderr', async () => {
    const f = join(tmp, 'partial.folded');
    writeFileSync(f, 'a;b 1\nnot a stack\na;c -4\n' + 'x;y zz\n'.repeat(10) + 'a;b 2\n');
    const r = await run([f]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('a;b 3\n');
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe(`flameview: ${f}: warning: skipped 12 unparseable lines`);
    expect(lines[1]).toBe(`flameview: ${f}: line 2: count "stack" is not a number; skipped "not a stack"`);
    expect(lines[2]).toBe(`flameview: ${f}: line 3: negative count "-4"; skipped "a;c -4"`);
    expect(lines).toHaveLength(6);
  });

  it('usage errors exit 2', async () => {
    for (const args of [['--bogus', 'x'], [], ['--view', 'flat', 'x'], ['-', '-'], ['--event']]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^flameview collapse: .*\nusage: flameview collapse/);
    }
    expect((await run(['--help'])).code).toBe(0);
  });

  it('perf-only options on folded input are ignored with a note', async () => {
    const r = await run(['--event', 'cycles', '--tid', '-'], 'a 1\n');
    expect(r).toEqual({ code: 0, stdout: 'a 1\n', stderr: 'flameview: <stdin>: note: --event, --tid ignored: the input is already folded\n' });
  });

  it('reads stdin for -', async () => {
    const r = await run(['-'], 'b;c 2\na 1\n');
    expect(r).toEqual({ code: 0, stdout: 'a 1\nb;c 2\n', stderr: '' });
  });
});

describe('collapse: the real binary', () => {
  it('prints folded stacks and exits 0; reads gzip from stdin', async () => {
    const text = readFileSync(fx('sqlite.fp.folded'));
    const r = await spawnCli(['collapse', '--full-names', '-'], gzipSync(text));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(text.toString('utf8'));
  });

  it('errors are one line on stderr with the right exit status, never a stack trace', async () => {
    const bad = await spawnCli(['collapse', fx('sources/sqlite-workload.sql')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^flameview: .*sqlite-workload\.sql: line \d+: expected perf script text or .*folded stacks.*, found ".*"\n$/);
    const usage = await spawnCli(['collapse', '--nope', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).not.toMatch(/\n\s+at /);
    const missing = await spawnCli(['collapse', 'no/such/file']);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'flameview: no/such/file: cannot read: no such file\n' });
  });

  it('a reader that closes the pipe early ends the output quietly', async () => {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', ['-c', `"${join(root, 'bin/flameview')}" collapse "${fx('rust-toyc.perf-script.txt')}" | head -c 10 >/dev/null; exit \${PIPESTATUS[0]}`], { cwd: root });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
