// collapse, top and diff on the derived events of a perf script recording (issue 27): --event
// off-cpu and --event wall, on waits.c recorded system-wide (fixtures/offcpu/README.md).

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCollapse } from './collapse';
import { runDiff } from './diff';
import { runTop } from './top';
import { runInMemory } from './run-in-memory';

const root = fileURLToPath(new URL('../../', import.meta.url));
const waits = join(root, 'fixtures/offcpu/waits-a.perf-script.txt.gz');
const locks = join(root, 'fixtures/offcpu/locks-a.perf-script.txt.gz');
const sumOf = (lines: string[]) => lines.reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

describe('the CLI on off-CPU and wall-clock time', () => {
  it('collapse --event off-cpu: every stack ends in an off-CPU leaf; wall adds the CPU samples', async () => {
    const off = await runInMemory(runCollapse, ['--event', 'off-cpu', waits]);
    expect(off.code).toBe(0);
    const offLines = off.stdout.trimEnd().split('\n');
    // A wait that recorded its wakeup names its waker above the state leaf.
    for (const l of offLines) expect(l).toMatch(/;\[off-CPU: (sleeping|I\/O|preempted|other)\](;\[woken by: [^\]]+\])? \d+$/);
    expect(off.stderr).toMatch(/off-CPU intervals end at their thread's next sample/);
    const wall = await runInMemory(runCollapse, ['--event', 'wall', waits]);
    const cpu = await runInMemory(runCollapse, [waits]);
    const sum = (s: string) => sumOf(s.trimEnd().split('\n'));
    expect(sum(wall.stdout)).toBe(sum(off.stdout) + sum(cpu.stdout));
  });

  it('top --event wall shows the off-CPU leaves as times', async () => {
    const { code, stdout } = await runInMemory(runTop, ['--event', 'wall', '-n', '3', waits]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[1]).toMatch(/^[\d.]+ s\t[\d.]+%\t[\d.]+ s\t[\d.]+%\t\[off-CPU: sleeping\]$/);
  });

  it('--unit us reads folded off-CPU time in µs (as offcputime -f prints it) as the same times', async () => {
    const off = await runInMemory(runCollapse, ['--event', 'off-cpu', waits]);
    // The recording's waits as BPF prints them: whole microseconds.
    const inUs = off.stdout.trimEnd().split('\n').map((l) => `${l.slice(0, l.lastIndexOf(' '))} ${Math.round(Number(l.slice(l.lastIndexOf(' ') + 1)) / 1000)}`);
    const viaUnit = await runInMemory(runTop, ['--unit', 'us', '-n', '4', '--raw', '-'], inUs.join('\n') + '\n');
    const direct = await runInMemory(runTop, ['--event', 'off-cpu', '-n', '4', '--raw', waits]);
    expect(viaUnit.code).toBe(0);
    const rows = (s: string) => s.trimEnd().split('\n').slice(1).map((l) => l.split('\t'));
    const a = rows(viaUnit.stdout);
    const b = rows(direct.stdout);
    expect(a.map((r) => r[4])).toEqual(b.map((r) => r[4]));
    // Each line lost under half a microsecond to the rounding.
    a.forEach((r, i) => expect(Math.abs(Number(r[2]) - Number(b[i][2]))).toBeLessThan(500 * inUs.length));
    const shown = await runInMemory(runTop, ['--unit', 'us', '-n', '1', '-'], inUs.join('\n') + '\n');
    expect(shown.stdout.split('\n')[1]).toMatch(/^[\d.]+ (s|ms)\t/);
    const bad = await runInMemory(runTop, ['--unit', 'sec', '-'], '');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--unit must be one of ns, us, ms, samples, not 'sec'/);
  });

  it('diff --event off-cpu compares two recordings’ waits', async () => {
    const { code, stdout } = await runInMemory(runDiff, ['--event', 'off-cpu', locks, waits]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.some((l) => /^prog;.*;\[off-CPU: sleeping\](;\[woken by: [^\]]+\])? \d+ 0$/.test(l))).toBe(true);
    expect(lines.some((l) => /^waits;.*sleep_known;.*;\[off-CPU: sleeping\];\[woken by: timer\] 0 \d+$/.test(l))).toBe(true);
  });

  it('says how to record when the recording has no sched_switch', async () => {
    const noSwitch = join(root, 'fixtures/rust-toyc.perf-script.txt');
    const { code, stderr } = await runInMemory(runCollapse, ['--event', 'off-cpu', noSwitch]);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/expected samples of sched:sched_switch for the off-cpu event \(record with -e sched:sched_switch\), found cpu-clock/);
  });
});
