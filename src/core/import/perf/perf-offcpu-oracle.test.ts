// Off-CPU and wall clock on a real recording (fixtures/offcpu/record-waits.sh: waits.c recorded
// system-wide with perf 6.1), against two oracles of its own: the program's clock (the time its
// sleep calls took, each thread's lifetime) and `perf sched timehist` of the same perf.data.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBytes } from '../../testing/fixtures';
import { loadProfileFromText } from '../load';
import { collapseLines } from '../../export/folded';
import type { Profile } from '../../model/profile';

const text = gunzipSync(fixtureBytes('offcpu/waits-a.perf-script.txt.gz')).toString('utf8');
const lifetimes = fixtureBytes('offcpu/waits-a.lifetimes.txt').toString('utf8');
const timehist = fixtureBytes('offcpu/waits-a.timehist.txt').toString('utf8');

/** `role tid=N lifetime_ns=N` lines: each thread's lifetime (ns) by TID. */
const lifetimeOf = new Map([...lifetimes.matchAll(/^\w+ tid=(\d+) lifetime_ns=(\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])]));
const sleptNs = Number(/^sleeper slept_ns=(\d+)$/m.exec(lifetimes)?.[1]);

/**
 * Per thread of waits, timehist's wait times (ms, switch-out to switch-in) summed, and the time of
 * its last line. timehist prints a thread's last switch-out, as it exits, under `:-1[-1/PID]` (the
 * task has no name any more) with a wait of that pseudo-task: that last wait is in no named line.
 */
function timehistWaits(): Map<number, { waitMs: number; last: number }> {
  const out = new Map<number, { waitMs: number; last: number }>();
  for (const m of timehist.matchAll(/^\s+([\d.]+) \[\d+\]\s+waits\[(\d+)(?:\/\d+)?\]\s+([\d.]+)\s+[\d.]+\s+[\d.]+/gm)) {
    const tid = Number(m[2]);
    const entry = out.get(tid) ?? { waitMs: 0, last: 0 };
    entry.waitMs += Number(m[3]);
    entry.last = Number(m[1]);
    out.set(tid, entry);
  }
  return out;
}

/** Sum of the time-order column's weights per thread, of entries starting before `before`. */
function perThread(profile: Profile, before = (_tid: number) => Infinity): Map<number, number> {
  const s = profile.samples;
  if (!s?.thread) throw new Error('no time order');
  const sums = new Map<number, number>();
  for (let i = 0; i < s.count; i++) {
    const tid = s.thread[i];
    if (s.time[i] < before(tid) - 5e-7) sums.set(tid, (sums.get(tid) ?? 0) + s.weight[i]);
  }
  return sums;
}

describe('off-CPU and wall clock of waits.c, against its own clock and perf sched timehist', () => {
  it('puts the slept time under the sleep call, within 2 %', async () => {
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    const underSleep = collapseLines(off)
      .filter((l) => l.includes(';sleep_known;'))
      .reduce((n, l) => n + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    expect(sleptNs).toBeGreaterThan(400e6);
    expect(Math.abs(underSleep / sleptNs - 1)).toBeLessThan(0.02);
  });

  it('sums each thread’s waits as perf sched timehist does, within 1 %', async () => {
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    const waits = timehistWaits();
    expect([...waits.keys()].length).toBe(5);
    const ours = perThread(off, (tid) => waits.get(tid)?.last ?? Infinity);
    for (const [tid, { waitMs }] of waits) {
      expect(waitMs).toBeGreaterThan(300);
      expect(Math.abs((ours.get(tid) ?? 0) / 1e6 / waitMs - 1), `thread ${tid}`).toBeLessThan(0.01);
    }
  });

  it('names who ended each wait: the sleeper’s timer, the pipe’s writer, the other locker', async () => {
    const off = await loadProfileFromText(text, { event: 'off-cpu', split: 'tid' });
    const lines = collapseLines(off);
    const wakersOf = (tid: number) => {
      const sums = new Map<string, number>();
      for (const l of lines.filter((x) => x.startsWith(`waits-?/${tid};`))) {
        const waker = /;\[woken by: ([^\]]+)\] \d+$/.exec(l)?.[1];
        if (waker) sums.set(waker, (sums.get(waker) ?? 0) + Number(l.slice(l.lastIndexOf(' ') + 1)));
      }
      return sums;
    };
    const tidOf = (role: string) => Number(new RegExp(`^${role} tid=(\\d+)`, 'm').exec(lifetimes)?.[1]);
    // The sleeper's 40 ms sleeps all end by their timer.
    const sleeper = wakersOf(tidOf('sleeper'));
    expect([...sleeper.keys()]).toEqual(['timer']);
    expect(Math.abs((sleeper.get('timer') ?? 0) / sleptNs - 1)).toBeLessThan(0.02);
    // The reader is woken by the main thread, which writes the pipe (its root is the process's).
    const reader = [...wakersOf(tidOf('reader')).keys()];
    expect(reader).toHaveLength(1);
    const writer = Number(reader[0].split(' ')[1]);
    expect(lines.some((l) => l.startsWith(`waits-?/${writer};`) && l.includes(';main;'))).toBe(true);
    // Each locker is woken by the other one's unlock.
    const lockers = [...lifetimes.matchAll(/^locker tid=(\d+)/gm)].map((m) => Number(m[1]));
    expect(lockers).toHaveLength(2);
    expect([...wakersOf(lockers[0]).keys()]).toEqual([`waits ${lockers[1]}`]);
    expect([...wakersOf(lockers[1]).keys()]).toEqual([`waits ${lockers[0]}`]);
  });

  it('gives each thread a wall clock equal to its lifetime, within 2 %', async () => {
    const wall = await loadProfileFromText(text, { event: 'wall' });
    expect(wall.meta.event).toBe('Wall clock');
    const ours = perThread(wall);
    expect(lifetimeOf.size).toBe(4);
    for (const [tid, lifetime] of lifetimeOf) expect(Math.abs((ours.get(tid) ?? 0) / lifetime - 1), `thread ${tid}`).toBeLessThan(0.02);
  });
});
