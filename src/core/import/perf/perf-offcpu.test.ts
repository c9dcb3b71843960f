// Off-CPU and wall clock from sched:sched_switch samples (./perf-offcpu.ts), on small perf script
// texts written here: states, out-of-order CPUs, threads still off CPU, and switch-ins missing.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadProfileFromText, probeSplit } from '../load';
import { collapseLines } from '../../export/folded';
import { ImportError, type Profile } from '../../model/profile';
import { fixtureBytes } from '../../testing/fixtures';
import { expectSameProfile, loadSplitOrNull } from '../../testing/split-parts';

/** One sample: header and frames (leaf first). */
function sample(header: string, ...frames: string[]): string {
  return [header, ...frames.map((f, i) => `\t${(0x1000 + i).toString(16)} ${f}`)].join('\n') + '\n\n';
}
function switchOut(tid: number, cpu: number, time: string, state: string, next: number, ...frames: string[]): string {
  const header = `prog ${tid} [00${cpu}] ${time}:  sched:sched_switch: prev_comm=prog prev_pid=${tid} prev_prio=120 prev_state=${state} ==> next_comm=x next_pid=${next} next_prio=120`;
  return sample(header, '__schedule ([kernel.kallsyms])', ...frames);
}
function switchIn(tid: number, cpu: number, time: string): string {
  const header = `swapper 0 [00${cpu}] ${time}:  sched:sched_switch: prev_comm=swapper/${cpu} prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=prog next_pid=${tid} next_prio=120`;
  return sample(header, 'do_idle ([kernel.kallsyms])');
}
function cpuSample(tid: number, cpu: number, time: string, ...frames: string[]): string {
  return sample(`prog ${tid} [00${cpu}] ${time}:    1000000 cpu-clock:`, ...frames);
}

describe('off-CPU intervals', () => {
  it('weighs each wait in ns on its switch-out stack, with a leaf per state', async () => {
    const text =
      cpuSample(11, 0, '1.000000', 'work (/bin/prog)', 'main (/bin/prog)') +
      switchOut(11, 0, '1.000100', 'S', 0, 'nanosleep (/lib/libc.so)', 'main (/bin/prog)') +
      switchIn(11, 0, '1.250100') +
      switchOut(11, 0, '1.300000', 'D', 0, 'read (/lib/libc.so)', 'main (/bin/prog)') +
      switchIn(11, 1, '1.310000') +
      switchOut(11, 1, '1.320000', 'R+', 0, 'work (/bin/prog)', 'main (/bin/prog)') +
      switchIn(11, 1, '1.321000') +
      switchOut(11, 1, '1.330000', 'I', 0, 'work (/bin/prog)', 'main (/bin/prog)') +
      switchIn(11, 1, '1.330500') +
      switchOut(11, 1, '1.340000', 'X', 0, 'exit (/lib/libc.so)', 'main (/bin/prog)') +
      cpuSample(12, 0, '1.400000', 'other (/bin/prog)');
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    expect(off.meta.event).toBe('Off-CPU');
    expect(off.meta.weightUnit).toBe('nanoseconds');
    expect(collapseLines(off)).toEqual([
      'prog;main;nanosleep;__schedule;[off-CPU: sleeping] 250000000',
      'prog;main;read;__schedule;[off-CPU: I/O] 10000000',
      'prog;main;work;__schedule;[off-CPU: other] 500000',
      'prog;main;work;__schedule;[off-CPU: preempted] 1000000',
    ]);
    // A thread that exits waits for nothing; every switch-in was recorded: no warning.
    expect(off.meta.warnings).toEqual([]);
    const wall = await loadProfileFromText(text, { event: 'Wall clock' });
    expect(wall.meta.event).toBe('Wall clock');
    expect(collapseLines(wall)).toContain('prog;main;work 1000000');
    expect(collapseLines(wall)).toContain('prog;main;nanosleep;__schedule;[off-CPU: sleeping] 250000000');
    expect(wall.tree.totalWeight[0]).toBe(2000000 + 250000000 + 10000000 + 1000000 + 500000);
    // Each interval is in the time order too, at its switch-out.
    expect(wall.samples?.count).toBe(6);
    expect([...(wall.samples?.weight ?? [])]).toEqual([1000000, 250000000, 10000000, 1000000, 500000, 1000000]);
  });

  it('orders switches from several CPUs by time, whatever order perf script printed them in', async () => {
    // CPU 1's buffer printed first: the switch-in at 2.5 s comes before the switch-out at 2.0 s.
    const text =
      cpuSample(11, 0, '1.900000', 'main (/bin/prog)') +
      switchIn(11, 1, '2.500000') +
      switchOut(11, 0, '2.000000', 'S', 0, 'poll (/lib/libc.so)', 'main (/bin/prog)') +
      cpuSample(11, 1, '3.000000', 'main (/bin/prog)');
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    expect(collapseLines(off)).toEqual(['prog;main;poll;__schedule;[off-CPU: sleeping] 500000000']);
    expect(off.meta.warnings).toEqual([]);
  });

  it('counts a thread still off CPU up to the last timestamp, and says so', async () => {
    const text = cpuSample(11, 0, '1.000000', 'main (/bin/prog)') + switchOut(11, 0, '1.000000', 'S', 0, 'wait (/lib/libc.so)', 'main (/bin/prog)') + cpuSample(12, 1, '1.750000', 'other (/bin/prog)');
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    expect(collapseLines(off)).toEqual(['prog;main;wait;__schedule;[off-CPU: sleeping] 750000000']);
    expect(off.meta.warnings.map((w) => w.message)).toEqual(['1 thread was still off CPU at the end of the recording: its last wait counts up to the last timestamp (1.750000)']);
  });

  it('a wait that begins at the last timestamp has no end: not counted, and says so', async () => {
    // Recorded per process: the program's last sleep is the file's last event.
    const text = cpuSample(11, 0, '1.000000', 'main (/bin/prog)') + switchOut(11, 0, '1.500000', 'S', 0, 'nanosleep (/lib/libc.so)', 'main (/bin/prog)');
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    expect(off.tree.totalWeight[0]).toBe(0);
    expect(off.meta.warnings.map((w) => w.message)).toEqual([
      '1 off-CPU wait began at the end of the recording, with nothing of its thread after (no switch-in, no sample): not counted (record system-wide, -a, to see its end)',
    ]);
  });

  it('ends a wait at the thread’s next sample when its switch-in was not recorded (one process)', async () => {
    // The CPU sample stamped with the switch-out's own time was taken on the way out: no end.
    const text =
      switchOut(11, 0, '1.000000', 'S', 99, 'wait (/lib/libc.so)', 'main (/bin/prog)') +
      cpuSample(11, 0, '1.000000', 'wait (/lib/libc.so)', 'main (/bin/prog)') +
      cpuSample(11, 1, '1.100000', 'main (/bin/prog)');
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    expect(collapseLines(off)).toEqual(['prog;main;wait;__schedule;[off-CPU: sleeping] 100000000']);
    expect(off.meta.warnings[0].message).toMatch(/^1 of 1 off-CPU intervals end at their thread's next sample/);
  });

  it('lists the derived events only when sched_switch was recorded, and opens on the CPU samples', async () => {
    const wakeup = sample('prog 12 [000] 0.900000:  sched:sched_wakeup: comm=prog pid=11 prio=120 target_cpu=000', 'ttwu_do_activate ([kernel.kallsyms])');
    const both = wakeup + cpuSample(11, 0, '1.000000', 'main (/bin/prog)') + switchOut(11, 0, '1.100000', 'S', 0, 'main (/bin/prog)') + switchIn(11, 0, '1.200000');
    const mixed = await loadProfileFromText(both);
    expect(mixed.meta.event).toBe('cpu-clock');
    expect(collapseLines(mixed)).toEqual(['prog;main 1000000']);
    expect(mixed.meta.events.map((e) => `${e.name} ${e.samples}`)).toEqual(['sched:sched_wakeup 1', 'cpu-clock 1', 'sched:sched_switch 2', 'Off-CPU 2', 'Wall clock 3']);

    const onlySwitches = await loadProfileFromText(switchOut(11, 0, '1.100000', 'S', 0, 'main (/bin/prog)') + switchIn(11, 0, '1.200000'));
    expect(onlySwitches.meta.events.map((e) => e.name)).toEqual(['sched:sched_switch', 'Off-CPU']);

    const noSwitches = wakeup + cpuSample(11, 0, '1.000000', 'main (/bin/prog)');
    expect((await loadProfileFromText(noSwitches)).meta.events.map((e) => e.name)).toEqual(['sched:sched_wakeup', 'cpu-clock']);
    const asked = loadProfileFromText(noSwitches, { event: 'off-cpu' });
    await expect(asked).rejects.toThrow(ImportError);
    await expect(asked).rejects.toThrow('expected samples of sched:sched_switch for the off-cpu event (record with -e sched:sched_switch), found sched:sched_wakeup (1), cpu-clock (1)');
  });

  it('names the waker above the state leaf: the waking task, or a timer or interrupt it ran in', async () => {
    const wake = (comm: string, tid: number, time: string, wakee: number, event: string, ...frames: string[]) =>
      sample(`${comm} ${tid} [001] ${time}:  sched:${event}: comm=prog pid=${wakee} prio=120 target_cpu=000`, 'ttwu_do_activate ([kernel.kallsyms])', 'try_to_wake_up ([kernel.kallsyms])', ...frames);
    const text =
      cpuSample(11, 0, '1.000000', 'main (/bin/prog)') +
      // A lock: the holder's unlock wakes the thread (waking then wakeup: one waker).
      switchOut(11, 0, '1.100000', 'S', 0, 'lock (/lib/libc.so)', 'main (/bin/prog)') +
      wake('my prog', 12, '1.190000', 11, 'sched_waking', 'futex_wake ([kernel.kallsyms])', 'unlock (/lib/libc.so)') +
      wake('my prog', 12, '1.190001', 11, 'sched_wakeup', 'futex_wake ([kernel.kallsyms])', 'unlock (/lib/libc.so)') +
      switchIn(11, 0, '1.200000') +
      // A sleep: the timer interrupt runs the wakeup on whatever task it interrupted.
      switchOut(11, 0, '1.300000', 'S', 0, 'nanosleep (/lib/libc.so)', 'main (/bin/prog)') +
      wake('chrome', 40, '1.340000', 11, 'sched_wakeup', 'hrtimer_wakeup ([kernel.kallsyms])', '__hrtimer_run_queues ([kernel.kallsyms])', 'asm_sysvec_apic_timer_interrupt ([kernel.kallsyms])', 'render (/opt/chrome)') +
      switchIn(11, 0, '1.350000') +
      // A disk: the device's interrupt.
      switchOut(11, 0, '1.400000', 'D', 0, 'read (/lib/libc.so)', 'main (/bin/prog)') +
      wake('swapper/1', 0, '1.420000', 11, 'sched_wakeup', 'blk_mq_end_request ([kernel.kallsyms])', 'asm_common_interrupt ([kernel.kallsyms])', 'do_idle ([kernel.kallsyms])') +
      switchIn(11, 0, '1.430000') +
      // Preempted: nobody wakes a runnable thread; a wakeup before the wait is not its waker.
      wake('other', 13, '1.450000', 11, 'sched_wakeup') +
      switchOut(11, 0, '1.500000', 'R', 0, 'work (/bin/prog)', 'main (/bin/prog)') +
      switchIn(11, 0, '1.510000');
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    expect(collapseLines(off)).toEqual([
      'prog;main;lock;__schedule;[off-CPU: sleeping];[woken by: my prog 12] 100000000',
      'prog;main;nanosleep;__schedule;[off-CPU: sleeping];[woken by: timer] 50000000',
      'prog;main;read;__schedule;[off-CPU: I/O];[woken by: interrupt] 30000000',
      'prog;main;work;__schedule;[off-CPU: preempted] 10000000',
    ]);
    expect(off.meta.skippedLines).toBe(0);
  });

  it('skips and reports a sched_switch sample whose fields do not read', async () => {
    const bad = sample('prog 11 [000] 1.000000:  sched:sched_switch: prev_comm=prog prev_state=S', '__schedule ([kernel.kallsyms])');
    const off = await loadProfileFromText(bad + switchOut(11, 0, '1.100000', 'S', 0, 'main (/bin/prog)') + switchIn(11, 0, '1.200000'), { event: 'off-cpu' });
    expect(collapseLines(off)).toEqual(['prog;main;__schedule;[off-CPU: sleeping] 100000000']);
    expect(off.meta.skippedLines).toBe(1);
    expect(off.meta.warnings[0]).toEqual({ line: 1, message: expect.stringMatching(/^expected a sched_switch sample .* found "prog 11 \[000\] 1\.000000: {2}sched:sched_switch: prev_comm=prog …"; sample skipped$/) });
  });
});

describe('off-CPU and the parallel parse', () => {
  const text = gunzipSync(fixtureBytes('offcpu/waits-a.perf-script.txt.gz'));
  const cuts = [text.length / 4, text.length / 2, (3 * text.length) / 4].map(Math.floor);

  it('reads a derived event with one parser: an interval crosses any cut', async () => {
    expect(await loadSplitOrNull(text, cuts, { event: 'off-cpu' })).toBeNull();
    expect(probeSplit(text, true, { event: 'wall' })).toBeNull();
  });

  it('splits a mixed recording as one parser reads it, opening on the CPU samples', async () => {
    const split = await loadSplitOrNull(text, cuts);
    expect(split).not.toBeNull();
    const whole = await loadProfileFromText(text);
    expect(whole.meta.event).toBe('cpu-clock/freq=999/');
    expectSameProfile(split as Profile, whole);
  });

  it('does not split while the start shows only tracepoints: a CPU event may come later', () => {
    const head = sample('prog 12 [000] 0.900000:  sched:sched_wakeup: comm=prog pid=11 prio=120 target_cpu=000', 'ttwu_do_activate ([kernel.kallsyms])');
    expect(probeSplit(new TextEncoder().encode(head), false)).toBeNull();
    expect(probeSplit(new TextEncoder().encode(cpuSample(11, 0, '1.000000', 'main (/bin/prog)')), false)).not.toBeNull();
  });
});
