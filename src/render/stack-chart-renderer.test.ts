import { describe, expect, it } from 'vitest';
import type { SampleColumns } from '../core/model/sample-column';
import { findChild } from '../core/model/call-tree';
import { profileFrom } from '../core/testing/tree-dsl';
import { makeSnapshot } from '../core/views/snapshot';
import { buildModel, samplesInRange, stackChartModel } from './stack-chart-model';
import { AXIS_HEIGHT, ROW_HEIGHT, axisTicks, hitBox } from './stack-chart-renderer';
import { formatDuration, formatTick } from '../format';

// Two threads sampled alternately: each gets its own lane, so neither is cut into slivers.
const p = profileFrom(`
  t1;main;work 3
  t2;loop;spin 3
`);
const frames = p.frames;
function node(path: string): number {
  let n = 0;
  for (const part of path.split(';')) {
    const f = Array.from({ length: frames.count }, (_, i) => i).find((i) => frames.strings[frames.name[i]] === part)!;
    n = findChild(p.tree, n, f);
  }
  return n;
}
const samples: SampleColumns = {
  count: 6,
  leaf: Int32Array.from(['t1;main;work', 't2;loop;spin', 't1;main;work', 't2;loop;spin', 't1;main;work', 't2;loop;spin'].map(node)),
  time: Float64Array.from([10, 10.5, 11, 11.5, 12, 12.5]),
  weight: new Float64Array(6).fill(1),
};
const model = buildModel(p.tree, samples);
const nameOf = (box: number) => frames.strings[frames.name[p.tree.frame[model.chart.node[box]]]];
const window = { from: 10, to: 14 };
const geometry = { width: 400, height: 200, scrollTop: 0 };
const rowY = (row: number) => AXIS_HEIGHT + (row - 1) * ROW_HEIGHT + ROW_HEIGHT / 2;

describe('the stack chart model', () => {
  it('puts each root child in its own lane, one box per node for its run of samples', () => {
    expect(model.maxDepth).toBe(6);
    expect(Array.from(model.laneRow)).toEqual([1, 4]);
    const boxes = Array.from({ length: model.chart.count }, (_, i) => `${model.chart.depth[i]} ${nameOf(i)} ${model.chart.start[i]}-${model.chart.end[i]}`);
    expect(boxes).toEqual(['1 t1 10-13', '2 main 10-13', '3 work 10-13', '4 t2 10.5-13.5', '5 loop 10.5-13.5', '6 spin 10.5-13.5']);
    expect(model.t0).toBe(10);
    expect(model.t1).toBe(13.5);
  });

  it('gives each thread of one process its own lane', () => {
    const q = profileFrom(`
      app;main;work 2
      app;main;idle 2
    `);
    const at = (path: string) => {
      let n = 0;
      for (const part of path.split(';')) n = findChild(q.tree, n, q.frames.strings.indexOf(part) >= 0 ? Array.from({ length: q.frames.count }, (_, i) => i).find((i) => q.frames.strings[q.frames.name[i]] === part)! : -1);
      return n;
    };
    const m = buildModel(q.tree, {
      count: 4,
      leaf: Int32Array.from(['app;main;work', 'app;main;idle', 'app;main;work', 'app;main;idle'].map(at)),
      time: Float64Array.from([1, 1.5, 2, 2.5]),
      weight: Float64Array.from([1, 2, 1, 2]),
      thread: Int32Array.from([7, 9, 7, 9]),
    });
    const name = (box: number) => q.frames.strings[q.frames.name[q.tree.frame[m.chart.node[box]]]];
    // Thread 9 is heavier: its lane comes first.
    expect(Array.from({ length: m.chart.count }, (_, i) => `${m.chart.depth[i]} ${name(i)} ${m.chart.start[i]}-${m.chart.end[i]}`)).toEqual([
      '1 app 1.5-3.5',
      '2 main 1.5-3.5',
      '3 idle 1.5-3.5',
      '4 app 1-3',
      '5 main 1-3',
      '6 work 1-3',
    ]);
  });

  it('is memoised per snapshot and view, and null without samples', () => {
    const snap = { ...makeSnapshot(p), samples };
    expect(stackChartModel(snap, 'functions')).toBe(stackChartModel(snap, 'functions'));
    expect(stackChartModel(makeSnapshot(p), 'functions')).toBeNull();
  });

  it('counts the samples of a range by binary search', () => {
    expect(samplesInRange(samples, 10.5, 12)).toEqual({ count: 3, weight: 3 });
    expect(samplesInRange(samples, 0, 100).count).toBe(6);
    expect(samplesInRange(samples, 13, 14).count).toBe(0);
  });
});

describe('hitBox', () => {
  it('finds the box under a point by row and time', () => {
    // x = (t - 10) / 4 * 400: t = 11 at x = 100.
    expect(nameOf(hitBox(model, window, geometry, 100, rowY(1)))).toBe('t1');
    expect(nameOf(hitBox(model, window, geometry, 100, rowY(3)))).toBe('work');
    expect(nameOf(hitBox(model, window, geometry, 100, rowY(6)))).toBe('spin');
    // Before the second lane's first sample, and after the first lane's last box.
    expect(hitBox(model, window, geometry, 20, rowY(5))).toBe(-1);
    expect(hitBox(model, window, geometry, 320, rowY(2))).toBe(-1);
    expect(nameOf(hitBox(model, window, geometry, 320, rowY(5)))).toBe('loop');
  });

  it('misses on the axis, below the rows, and outside the canvas', () => {
    expect(hitBox(model, window, geometry, 100, AXIS_HEIGHT / 2)).toBe(-1);
    expect(hitBox(model, window, geometry, 100, rowY(7))).toBe(-1);
    expect(hitBox(model, window, geometry, -1, rowY(1))).toBe(-1);
    expect(hitBox(model, window, geometry, 400, rowY(1))).toBe(-1);
  });

  it('follows the row scroll and the time window', () => {
    expect(nameOf(hitBox(model, window, { ...geometry, scrollTop: 3 * ROW_HEIGHT }, 100, rowY(1)))).toBe('t2');
    expect(nameOf(hitBox(model, { from: 12, to: 13 }, geometry, 399, rowY(3)))).toBe('work');
    expect(hitBox(model, { from: 13, to: 14 }, geometry, 10, rowY(3))).toBe(-1);
  });
});

describe('axis and durations', () => {
  it('labels ticks from the first sample in the unit of their step', () => {
    const ticks = axisTicks(model, window, 400);
    expect(ticks[0]).toEqual({ x: 0, label: '0 s' });
    expect(ticks.map((t) => t.label)).toContain('2 s');
    expect(axisTicks(model, { from: 10, to: 10.2 }, 400).map((t) => t.label)).toContain('100 ms');
    expect(formatTick(0.25, 0.05)).toBe('250 ms');
    expect(formatTick(0.0125, 0.0005)).toBe('12.5 ms');
    expect(formatTick(2e-5, 1e-5)).toBe('20 µs');
    expect(formatTick(3, 1)).toBe('3 s');
  });

  it('formats durations for people', () => {
    expect(formatDuration(0.416)).toBe('416 ms');
    expect(formatDuration(2.1314)).toBe('2.131 s');
    expect(formatDuration(3.52e-5)).toBe('35.2 µs');
    expect(formatDuration(0.001)).toBe('1 ms');
    expect(formatDuration(0)).toBe('0 s');
  });
});
