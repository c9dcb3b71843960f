import { describe, expect, it } from 'vitest';
import { findChild } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { CallTree } from '../model/call-tree';
import { dumpTree, profileFrom } from '../testing/tree-dsl';
import { stackChart, treeForRange } from './time-order';
import { sortSamples, type SampleColumns } from '../model/sample-column';

const p = profileFrom(`
  main;a;b 2
  main;a 1
  main;c 1
`);

function nodeAt(tree: CallTree, frames: FrameTable, path: string): number {
  let node = 0;
  for (const name of path.split(';')) {
    let f = -1;
    for (let i = 0; i < frames.count; i++) if (frames.strings[frames.name[i]] === name) f = i;
    node = findChild(tree, node, f);
    if (node < 0) throw new Error(`no ${path}`);
  }
  return node;
}

/** Samples in time order: [path, time]; weight 1 each. */
function samplesOf(list: [string, number][]): SampleColumns {
  return {
    count: list.length,
    leaf: Int32Array.from(list, ([path]) => nodeAt(p.tree, p.frames, path)),
    time: Float64Array.from(list, ([, t]) => t),
    weight: new Float64Array(list.length).fill(1),
  };
}

const samples = samplesOf([
  ['main;a;b', 0],
  ['main;a;b', 1],
  ['main;a', 2],
  ['main;c', 3],
]);

/** As samplesOf, with [path, time, duration]: a duration > 0 is a span (an off-CPU interval). */
function spansOf(list: [string, number, number][]): SampleColumns {
  return { ...samplesOf(list.map(([path, t]) => [path, t])), duration: Float64Array.from(list, ([, , d]) => d) };
}

function boxesOf(chart: ReturnType<typeof stackChart>): string[] {
  const name = (n: number) => p.frames.strings[p.frames.name[p.tree.frame[n]]];
  return Array.from({ length: chart.count }, (_, i) => `${'  '.repeat(chart.depth[i] - 1)}${name(chart.node[i])} ${chart.start[i]}-${chart.end[i]}`);
}

describe('stackChart', () => {
  it('draws a span from its start for its duration, its shared frames open through it when the next sample comes soon', () => {
    // Instants every 1 s in main;a;b, a 5 s wait in main;c from 3 to 8, instants again from 8.5.
    const chart = stackChart(p.tree, spansOf([
      ['main;a;b', 0, 0],
      ['main;a;b', 1, 0],
      ['main;a;b', 2, 0],
      ['main;c', 3, 5],
      ['main;a', 8.5, 0],
      ['main;a', 9.5, 0],
    ]));
    expect(boxesOf(chart)).toEqual(['main 0-10.5', '  a 0-3', '    b 0-3', '  c 3-8', '  a 8.5-10.5']);
    expect(chart.to).toBe(10.5);
  });

  it('Off-CPU alone (spans only): each span is its own boxes, a gap between waits closes them all', () => {
    const chart = stackChart(p.tree, spansOf([
      ['main;c', 0, 2],
      ['main;c', 3, 1],
      ['main;a', 4, 0.5],
    ]));
    expect(boxesOf(chart)).toEqual(['main 0-2', '  c 0-2', 'main 3-4.5', '  c 3-4', '  a 4-4.5']);
  });

  it('cuts a span at the next sample of its lane, so boxes of a row never overlap', () => {
    const chart = stackChart(p.tree, spansOf([
      ['main;c', 0, 5],
      ['main;a', 2, 0],
      ['main;a', 3, 0],
    ]));
    expect(boxesOf(chart)).toEqual(['main 0-4', '  c 0-2', '  a 2-4']);
  });

  it('merges consecutive samples that share a prefix into one box per node', () => {
    const chart = stackChart(p.tree, samples);
    const name = (n: number) => p.frames.strings[p.frames.name[p.tree.frame[n]]];
    const boxes = Array.from({ length: chart.count }, (_, i) => `${'  '.repeat(chart.depth[i] - 1)}${name(chart.node[i])} ${chart.start[i]}-${chart.end[i]}`);
    expect(boxes).toEqual(['main 0-4', '  a 0-3', '    b 0-2', '  c 3-4']);
    expect(chart.from).toBe(0);
    expect(chart.to).toBe(4); // last sample lasts the median interval
  });

  it('ends boxes at a gap of more than MAX_GAP intervals (the thread was not running)', () => {
    const gap = samplesOf([
      ['main;a;b', 0],
      ['main;a;b', 1],
      ['main;a;b', 2],
      ['main;a;b', 20],
    ]);
    const chart = stackChart(p.tree, gap);
    const name = (n: number) => p.frames.strings[p.frames.name[p.tree.frame[n]]];
    const boxes = Array.from({ length: chart.count }, (_, i) => `${'  '.repeat(chart.depth[i] - 1)}${name(chart.node[i])} ${chart.start[i]}-${chart.end[i]}`);
    expect(boxes).toEqual(['main 0-3', '  a 0-3', '    b 0-3', 'main 20-21', '  a 20-21', '    b 20-21']);
  });

  it('handles no samples', () => {
    expect(stackChart(p.tree, samplesOf([])).count).toBe(0);
  });
});

describe('treeForRange', () => {
  it('clips a span to the range: the share of its duration inside it', () => {
    const spans = spansOf([
      ['main;a;b', 0, 0],
      ['main;c', 1, 4],
      ['main;a', 6, 0],
    ]);
    const weighted = { ...spans, weight: Float64Array.from([10, 400, 10]) };
    // [2, 4): half of the 4 s wait from 1 to 5, no instant.
    expect(dumpTree(treeForRange(p.tree, p.frames, weighted, 2, 4), p.frames)).toBe(dumpTree(profileFrom('main;c 200').tree, profileFrom('main;c 200').frames));
    // [0, 3): the instant at 0 and the wait's first half; [5, 7): nothing of the wait, the instant at 6.
    expect(treeForRange(p.tree, p.frames, weighted, 0, 3).totalWeight[0]).toBe(210);
    expect(treeForRange(p.tree, p.frames, weighted, 5, 7).totalWeight[0]).toBe(10);
  });

  it('the full range gives the tree back; a sub-range only its samples', () => {
    expect(dumpTree(treeForRange(p.tree, p.frames, samples, 0, 10), p.frames)).toBe(dumpTree(p.tree, p.frames));
    expect(dumpTree(treeForRange(p.tree, p.frames, samples, 1, 3), p.frames)).toBe(['main 2/0', '  a 2/1', '    b 1/1'].join('\n'));
    expect(treeForRange(p.tree, p.frames, samples, 5, 6).nodeCount).toBe(1);
  });
});

describe('sortSamples', () => {
  it('orders by time, stable, and returns sorted input as is', () => {
    expect(sortSamples(samples)).toBe(samples);
    const shuffled = samplesOf([
      ['main;c', 3],
      ['main;a;b', 0],
      ['main;a', 2],
      ['main;a;b', 1],
    ]);
    const s = sortSamples(shuffled);
    expect([...s.time]).toEqual([0, 1, 2, 3]);
    expect([...s.leaf]).toEqual([...samples.leaf]);
  });
});
