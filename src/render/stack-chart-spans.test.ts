// The time-order chart of a Wall clock / Off-CPU recording (issue 27, item 3): each off-CPU
// interval is a box from its switch-out to its switch-in in its thread's lane, beside the thread's
// CPU samples, and the range figures (status bar, header) weigh a span by its share inside the
// range. Oracle: the fixture's own sched_switch lines (core/testing/offcpu-oracle.ts).

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBytes } from '../core/testing/fixtures';
import { loadProfileFromText } from '../core/import/load';
import { makeSnapshot } from '../core/views/snapshot';
import { clippedNs, cpuPeriodIn, offCpuWaits, sampleHeaders } from '../core/testing/offcpu-oracle';
import { boxSamples, samplesInRange, stackChartModel, type StackChartModel } from './stack-chart-model';

const text = gunzipSync(fixtureBytes('offcpu/spans-a.perf-script.txt.gz')).toString('utf8');
const headers = sampleHeaders(text);
const waits = offCpuWaits(headers, 'spans');

/** The boxes of off-CPU leaves ([off-CPU: …]) as [start, end] pairs, rounded to the microsecond perf prints. */
function offCpuBoxes(m: StackChartModel, names: readonly string[], frameName: Int32Array): string[] {
  const out: string[] = [];
  for (let b = 0; b < m.chart.count; b++) {
    const f = m.tree.frame[m.chart.node[b]];
    if (f >= 0 && names[frameName[f]].startsWith('[off-CPU: ')) out.push(`${m.chart.start[b].toFixed(6)}-${m.chart.end[b].toFixed(6)}`);
  }
  return out;
}

describe('off-CPU spans in the time-order chart (spans.c)', () => {
  it.each(['Off-CPU', 'Wall clock'])('%s: every wait of spans is a box from its switch-out to its switch-in', async (event) => {
    const snapshot = makeSnapshot(await loadProfileFromText(text, { event }));
    const m = stackChartModel(snapshot, 'inline')!;
    const boxes = new Set(offCpuBoxes(m, snapshot.frames.strings, snapshot.frames.name));
    const missing = waits.filter((w) => !boxes.has(`${w.start.toFixed(6)}-${w.end.toFixed(6)}`));
    expect(waits.length).toBeGreaterThan(30);
    expect(missing).toEqual([]);
    // The tooltip's count: a wait's box covers its one interval (not the other threads' samples).
    for (let b = 0; b < m.chart.count; b++) {
      const f = m.tree.frame[m.chart.node[b]];
      if (snapshot.frames.strings[snapshot.frames.name[f]].startsWith('[off-CPU: ')) expect(boxSamples(m, b)).toBe(1);
    }
    // Boxes of a row never overlap (the chart's hit-testing and drawing rely on it).
    for (let d = 1; d <= m.maxDepth; d++) {
      for (let k = m.rowStart[d] + 1; k < m.rowStart[d + 1]; k++) expect(m.chart.start[m.rowBoxes[k]]).toBeGreaterThanOrEqual(m.chart.end[m.rowBoxes[k - 1]] - 1e-12);
    }
  });

  it('Wall clock: the worker’s lane holds its CPU samples and its naps, side by side in one row', async () => {
    const snapshot = makeSnapshot(await loadProfileFromText(text, { event: 'Wall clock' }));
    const m = stackChartModel(snapshot, 'inline')!;
    const { strings, name } = snapshot.frames;
    const named = (b: number) => strings[name[m.tree.frame[m.chart.node[b]]]];
    const underWorker = (b: number) => strings[name[m.tree.frame[m.tree.parent[m.chart.node[b]]]]] === 'worker';
    const rowOf = (re: RegExp) => new Set(Array.from({ length: m.chart.count }, (_, b) => b).filter((b) => re.test(named(b)) && underWorker(b)).map((b) => m.chart.depth[b]));
    // The worker's CPU samples are in compute_phase (its spin), its waits in nap_phase (its
    // naps): both called by worker, so both in the row under it.
    expect(rowOf(/^nap_phase$/).size).toBe(1);
    expect([...rowOf(/^compute_phase$/)]).toEqual([...rowOf(/^nap_phase$/)]);
  });

  it('samplesInRange weighs a span by its share inside the range', async () => {
    const wall = makeSnapshot(await loadProfileFromText(text, { event: 'Wall clock' }));
    const s = wall.samples!;
    const t0 = s.time[0];
    const t1 = Math.max(...headers.map((h) => h.time));
    for (const [a, b] of [[0.25, 0.5], [0.61, 0.62], [0, 1]]) {
      const from = t0 + a * (t1 - t0);
      const to = t0 + b * (t1 - t0);
      // The other tasks' switch-outs to spans (their waits under their own roots) are in the column
      // too: compare the spans threads' share, the column restricted to them.
      const tids = new Set(waits.map((w) => w.tid));
      const only = { ...s, weight: s.weight.map((w, i) => (tids.has(s.thread![i]) ? w : 0)) };
      const want = clippedNs(waits, from, to) + cpuPeriodIn(headers, 'spans', from, to);
      expect(Math.abs(samplesInRange(only, from, to).weight - want)).toBeLessThan(waits.length);
    }
  });
});
