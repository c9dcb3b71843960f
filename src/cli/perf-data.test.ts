// perf.data given to collapse, top, svg and diff: each runs `perf script -i FILE` as the opener
// does (a stand-in perf on PATH prints a real recording's perf script text), with the opener's
// messages when perf is missing or fails. Spawned as real processes of bin/flameview.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, expectCleanInterrupt, killAll, runCli, tempDir } from '../server/test-support';

const work = tempDir('flameview-perfdata-');
const perfText = join(FIXTURES, 'rust-toyc.perf-script.txt');
const data = join(work, 'perf.data');
writeFileSync(data, Buffer.concat([Buffer.from('PERFILE2'), Buffer.alloc(1024)]));

function fakePerf(name: string, body: string): string {
  const bin = join(work, name);
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin);
  writeFileSync(join(bin, 'perf'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, 'perf'), 0o755);
  return bin;
}

const goodPerf = fakePerf('good', `[ "$1" = script ] && [ "$2" = -i ] || exit 9\nexec /bin/cat '${perfText}'`);

async function run(args: string[], PATH: string) {
  const s = runCli(args, { env: { ...process.env, PATH } });
  const { code } = await s.exit;
  return { code, stdout: s.stdout(), stderr: s.stderr() };
}

/** A hot function with two lines of work, and sleeps between its calls. */
const WAITS_C = `#include <unistd.h>
volatile unsigned long sink;
__attribute__((noinline)) unsigned long spin(unsigned long n) {
  unsigned long a = 0, b = 1;
  for (unsigned long i = 0; i < n; i++) {
    a += i * i;
    if (a & 4) b ^= a >> 3;
    sink = b;
  }
  return a + b;
}
int main(void) {
  unsigned long r = 0;
  for (int k = 0; k < 6; k++) {
    r += spin(30000000UL);
    usleep(20000);
  }
  return (int)(r & 1);
}
`;

afterEach(killAll);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('commands read perf.data through perf script', () => {
  it('collapse, top, svg and diff give what they give for the perf script text', async () => {
    for (const args of [['collapse'], ['top', '-n', '5'], ['svg', '--title', 'T'], ['diff']]) {
      const fromText = await run([...args, perfText, ...(args[0] === 'diff' ? [perfText] : [])], goodPerf);
      const fromData = await run([...args, data, ...(args[0] === 'diff' ? [data] : [])], goodPerf);
      expect(fromData.code, args[0]).toBe(0);
      expect(fromData.stdout, args[0]).toBe(fromText.stdout);
      expect(fromData.stderr, args[0]).toMatch(new RegExp(`^(flameview: perf script ${data}: \\d+ samples\\n)+$`));
    }
  });

  it('a SIGTERM to flameview alone while perf script prints stops perf too: exit status 143', async () => {
    const tmp = tempDir();
    const started = join(tempDir(), 'perf.pid');
    // perf prints part of a recording, then runs on (a long recording being printed).
    const bin = fakePerf('slow', `/bin/cat '${perfText}'\necho $$ > '${started}'\nexec sleep 60`);
    for (const command of ['collapse', 'top']) {
      rmSync(started, { force: true });
      const s = runCli([command, data], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, TMPDIR: tmp } });
      await expectCleanInterrupt(s, tmp, started, () => true, 'SIGTERM');
    }
  });

  it('perf missing, or failing, is the opener’s one line and exit status 1', async () => {
    const missing = await run(['collapse', data], join(work, 'nothing-here'));
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(
      `flameview: ${data} is a perf.data file and reading it needs perf, which is not installed (Debian/Ubuntu: apt install linux-perf); or run \`perf script -i ${data} | flameview -\` where perf is\n`,
    );
    const broken = await run(['top', data], fakePerf('broken', "echo 'incompatible file format' >&2; exit 1"));
    expect(broken).toEqual({ code: 1, stdout: '', stderr: `flameview: perf script failed on ${data}: incompatible file format\n` });
    // A message perf wraps over two lines, then its usage: the message, on one line.
    const wrapped = await run(['top', data], fakePerf('wrapped', "printf 'Display of source line number requested but sample IP is not\\nselected. Hence, no address to lookup the source line number.\\n\\n Usage: perf script [<options>]\\n\\n    -F, --fields <str>    comma separated output fields\\n' >&2; exit 1"));
    expect(wrapped.stderr).toBe(`flameview: perf script failed on ${data}: Display of source line number requested but sample IP is not selected. Hence, no address to lookup the source line number.\n`);
  });

  it('lines asks perf for the source lines (perf script -F +srcline) and gives what the text gives', async () => {
    const { gunzipSync } = await import('node:zlib');
    const srclineText = join(work, 'funcs.srcline.txt');
    writeFileSync(srclineText, gunzipSync(readFileSync(join(FIXTURES, 'srcline', 'funcs.srcline.perf-script.txt.gz'))));
    // Every sampled event type but tracepoints: perf refuses -F +srcline on a recording with
    // sched:sched_switch (the off-CPU recipe), whose samples have no instruction address.
    const want = `script -i ${data} -F hw:+srcline -F sw:+srcline -F raw:+srcline -F break:+srcline -F synth:+srcline --full-source-path`;
    const srclinePerf = fakePerf('srcline', `[ "$*" = '${want}' ] || exit 9\nexec /bin/cat '${srclineText}'`);
    const fromText = await run(['lines', 'main', srclineText], srclinePerf);
    const fromData = await run(['lines', 'main', data], srclinePerf);
    expect(fromData.code).toBe(0);
    expect(fromData.stdout).toBe(fromText.stdout);
    expect(fromData.stdout).toMatch(/\tfuncs\.cpp:\d+\n/);
  });

  it('lines of a real recording with sched:sched_switch beside its samples: what perf report --sort srcline gives', async (ctx) => {
    // Recorded here, as the off-CPU recipe says, of a program built here; skipped where gcc or perf
    // cannot (no permission to record).
    const dir = join(work, 'waits');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'waits.c'), WAITS_C);
    const gcc = spawnSync('gcc', ['-O1', '-g', '-fno-omit-frame-pointer', '-o', join(dir, 'waits'), join(dir, 'waits.c')]);
    const recorded = join(dir, 'perf.data');
    const rec = gcc.status === 0 ? spawnSync('perf', ['record', '-q', '-N', '-g', '-o', recorded, '-e', 'cpu-clock/freq=999/', '-e', 'sched:sched_switch', join(dir, 'waits')]) : gcc;
    if (rec.status !== 0) return ctx.skip();
    const report = spawnSync('perf', ['report', '-i', recorded, '--no-children', '--sort', 'sym,srcline', '--stdio', '-g', 'none'], { encoding: 'utf8' }).stdout;
    // perf's rows for spin in the section of the cpu-clock event: share of all its samples, by line.
    const section = report.split(/^# Samples: /m).find((s) => /of event 'cpu-clock/.test(s)) ?? '';
    const oracle = new Map([...section.matchAll(/^\s+([\d.]+)%\s+\[\.\] spin\s+\S*waits\.c:(\d+)\s*$/gm)].map((m) => [Number(m[2]), Number(m[1])]));
    expect(oracle.size).toBeGreaterThan(0);
    const r = await run(['lines', '--json', '--raw', '^spin', recorded], process.env.PATH ?? '');
    expect(r.stderr).not.toMatch(/failed/);
    expect(r.code).toBe(0);
    const [spin] = JSON.parse(r.stdout) as { self: number; selfPercent: number; lines: { file: string; line: number; self: number }[] }[];
    const got = new Map(spin.lines.filter((l) => l.self > 0).map((l) => [l.line, (l.self / spin.self) * spin.selfPercent]));
    expect([...got.keys()].sort()).toEqual([...oracle.keys()].sort());
    for (const [line, share] of oracle) expect(Math.abs(got.get(line)! - share), `waits.c:${line}`).toBeLessThanOrEqual(0.01);
    // The off-CPU event of the same file still has its waits.
    const off = await run(['collapse', '--event', 'off-cpu', recorded], process.env.PATH ?? '');
    expect(off.stdout).toMatch(/\[off-CPU: sleeping\] \d+/);
  });

  it('perf.data on stdin says to pass the file name', async () => {
    const s = runCli(['collapse', '-'], { env: { ...process.env, PATH: goodPerf } });
    s.child.stdin.end(readFileSync(data));
    expect((await s.exit).code).toBe(1);
    expect(s.stderr()).toBe('flameview: stdin is a perf.data file, which perf script reads only from a file: pass its name instead of -, or pipe `perf script` output\n');
  });
});
