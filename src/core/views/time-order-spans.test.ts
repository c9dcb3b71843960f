// Off-CPU spans in time order (issue 27, item 3) on a real recording (fixtures/offcpu/
// record-spans.sh: spans.c recorded system-wide with perf 6.1). The oracle reads the fixture's
// sched_switch lines itself (core/testing/offcpu-oracle.ts), pairs each switch-out of a `spans`
// thread with its next switch-in and clips the intervals to a range: the Off-CPU tree of that range must weigh the clipped sum, and
// the Wall clock tree that plus the CPU samples of the range. Nothing of the importer is used.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBytes } from '../testing/fixtures';
import { loadProfileFromText } from '../import/load';
import type { Profile } from '../model/profile';
import type { CallTree } from '../model/call-tree';
import { deriveInputTree } from './derive';
import { makeSnapshot } from './snapshot';
import { clippedNs, cpuPeriodIn, offCpuWaits, sampleHeaders } from '../testing/offcpu-oracle';

const text = gunzipSync(fixtureBytes('offcpu/spans-a.perf-script.txt.gz')).toString('utf8');
const COMM = 'spans';
const headers = sampleHeaders(text);
const lastTime = Math.max(...headers.map((h) => h.time));
const waits = offCpuWaits(headers, COMM);
const clippedOffCpu = (from: number, to: number) => clippedNs(waits, from, to);
const cpuIn = (from: number, to: number) => cpuPeriodIn(headers, COMM, from, to);

/** The weight under the root's `spans` child of a tree. */
function spansWeight(tree: CallTree, profile: Profile): number {
  for (let n = 1; n < tree.nodeCount; n++) {
    if (tree.depth[n] === 1 && profile.frames.strings[profile.frames.name[tree.frame[n]]] === COMM) return tree.totalWeight[n];
  }
  return 0;
}

function rangeTree(profile: Profile, from: number, to: number): CallTree {
  const s = makeSnapshot(profile);
  return deriveInputTree({ frames: s.frames, inline: s.inline, functions: s.functions, toFunction: s.toFunction, samples: s.samples }, { view: 'inline', range: { from, to } }).tree;
}

const t0 = Math.min(...headers.map((h) => h.time));
const at = (f: number) => t0 + f * (lastTime - t0);
const RANGES: [number, number][] = [
  [0, 1.01],
  [0.2, 0.5],
  [0.33, 0.71],
  [0.05, 0.13],
  [0.6, 0.61],
];

describe('off-CPU spans in time order: a time range clips them (spans.c, against its sched_switch lines)', () => {
  it('the recording has the waits the program makes: three threads, each with ten or more of over 15 ms', () => {
    const byThread = new Map<number, number>();
    for (const w of waits) if (w.end - w.start > 0.015) byThread.set(w.tid, (byThread.get(w.tid) ?? 0) + 1);
    // The worker naps 25 ms 12 times, the reader waits ~40 ms for each of 10 bytes, main sleeps
    // 40 ms 10 times (a loaded machine adds a few long preemptions).
    expect(byThread.size).toBe(3);
    for (const n of byThread.values()) expect(n).toBeGreaterThanOrEqual(10);
  });

  it('a derived event counts its intervals as its samples (the status bar’s count), not the switch samples', async () => {
    const all = offCpuWaits(headers, null);
    const cpu = headers.filter((h) => h.event.startsWith('cpu-clock')).length;
    for (const [event, want] of [['off-cpu', all.length], ['wall', all.length + cpu]] as const) {
      const p = await loadProfileFromText(text, { event });
      expect(p.meta.samples).toBe(want);
      expect(p.tree.totalSamples[0]).toBe(want);
    }
  });

  it('Off-CPU of a range is the sum of the intervals clipped to it', async () => {
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    expect(off.samples?.duration).toBeDefined();
    for (const [a, b] of RANGES) {
      const want = clippedOffCpu(at(a), at(b));
      expect(want).toBeGreaterThan(0);
      // perf prints microseconds: an interval's ns are rounded once by the importer.
      expect(Math.abs(spansWeight(rangeTree(off, at(a), at(b)), off) - want)).toBeLessThan(waits.length);
    }
  });

  it('an interval half inside the range adds half its duration', async () => {
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    const longest = waits.reduce((a, w) => (w.end - w.start > a.end - a.start ? w : a));
    const mid = (longest.start + longest.end) / 2;
    // From the middle of the longest wait to the middle of a tiny window just after: only what
    // lies in [mid, mid + δ) of every interval counts.
    const from = mid;
    const to = longest.end;
    const tree = rangeTree(off, from, to);
    const want = clippedOffCpu(from, to);
    expect(want).toBeGreaterThanOrEqual(((longest.end - longest.start) / 2) * 1e9 - 1);
    expect(Math.abs(spansWeight(tree, off) - want)).toBeLessThan(waits.length);
  });

  it('the whole Wall clock tree of a range: every task’s CPU samples in it and every task’s waits clipped to it', async () => {
    const wall = await loadProfileFromText(text, { event: 'wall' });
    const all = offCpuWaits(headers, null);
    for (const [a, b] of RANGES) {
      const want = clippedNs(all, at(a), at(b)) + cpuPeriodIn(headers, null, at(a), at(b));
      expect(Math.abs(rangeTree(wall, at(a), at(b)).totalWeight[0] - want)).toBeLessThan(all.length);
    }
  });

  it('Wall clock of a range is the CPU samples in it plus the clipped intervals', async () => {
    const wall = await loadProfileFromText(text, { event: 'wall' });
    for (const [a, b] of RANGES) {
      const want = clippedOffCpu(at(a), at(b)) + cpuIn(at(a), at(b));
      expect(Math.abs(spansWeight(rangeTree(wall, at(a), at(b)), wall) - want)).toBeLessThan(waits.length);
    }
  });
});
