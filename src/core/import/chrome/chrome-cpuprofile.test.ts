// Chrome/Node .cpuprofile importer: golden test on a profile written by `node --cpu-prof`
// against an independent Python oracle (fixtures/interchange/make/cpuprofile-oracle.py), shape
// checks, and bad input (cycles, missing ids, huge children arrays, JSON that is not a profile).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collapseLines } from '../../export/folded';
import { frameName } from '../../model/frame-table';
import { ImportError, type Profile } from '../../model/profile';
import { dumpTree } from '../../testing/tree-dsl';
import { cpuprofileImporter } from './chrome-cpuprofile';
import { functionTotals } from './chrome-function-totals';
import type { ImportOptions } from '../importer';
import { loadProfileFromText } from '../load';

const DIR = fileURLToPath(new URL('../../../../fixtures/interchange/', import.meta.url));
const NODE = readFileSync(DIR + 'node.cpuprofile');

function load(input: string | Uint8Array, options: ImportOptions = {}): Promise<Profile> {
  return loadProfileFromText(input, options);
}

describe('cpuprofile: a profile written by node --cpu-prof', () => {
  it('matches the independent oracle: samples and time per function', async () => {
    const profile = await load(NODE);
    expect(profile.meta.format).toBe('cpuprofile');
    expect(profile.meta.weightUnit).toBe('nanoseconds');
    const oracle = readFileSync(DIR + 'node.cpuprofile.totals.txt', 'utf8').trim().split('\n');
    expect(oracle.length).toBeGreaterThan(50);
    const ours = functionTotals(profile);
    const rows = [...ours].map(([name, [s, w]]) => `${s}\t${Math.round(w / 1000)}\t${name}`).sort();
    expect(rows).toEqual(oracle.sort());
    for (const name of ['fib', 'sortNumbers', 'countWords', 'tokens', '(anonymous node-workload.js:51)']) {
      expect(ours.has(name)).toBe(true);
    }
  });

  it('weights sum to the profile span after the first sample; one sample per entry of "samples"', async () => {
    const json = JSON.parse(NODE.toString('utf8'));
    const profile = await load(NODE);
    expect(profile.meta.samples).toBe(json.samples.length);
    expect(profile.tree.totalSamples[0]).toBe(json.samples.length);
    expect(profile.tree.totalWeight[0]).toBe((json.endTime - json.startTime - json.timeDeltas[0]) * 1000);
  });

  it('keeps (program), (idle) and (garbage collector) at depth 1, the url as the module, no (root) frame', async () => {
    const profile = await load(NODE);
    const { tree, frames } = profile;
    const top = new Set<string>();
    for (let n = 1; n < tree.nodeCount; n++) if (tree.depth[n] === 1) top.add(frameName(frames, tree.frame[n]));
    expect(top.has('(program)')).toBe(true);
    expect(top.has('(root)')).toBe(false);
    const fib = [...Array(frames.count).keys()].find((f) => frameName(frames, f) === 'fib')!;
    expect(frames.strings[frames.module[fib]]).toMatch(/^file:\/\/.*node-workload\.js$/);
  });
});

const tiny = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2] },
      { id: 2, callFrame: { functionName: 'main', url: 'file:///a.js', lineNumber: 0 }, children: [3, 4] },
      { id: 3, callFrame: { functionName: '', url: 'file:///x/b.js', lineNumber: 9 } },
      { id: 4, callFrame: { functionName: '<img src=x onerror=alert(1)>', url: '' } },
    ],
    startTime: 1000,
    endTime: 1100,
    samples: [3, 3, 4, 2],
    timeDeltas: [10, 20, 30, 10],
    ...over,
  });

describe('cpuprofile: shapes', () => {
  it('builds the tree from children links, time to the next sample, the last until endTime', async () => {
    const profile = await load(tiny());
    expect(dumpTree(profile.tree, profile.frames)).toBe(
      ['main 90000/30000', '  (anonymous b.js:10) 50000/50000', '  <img src=x onerror=alert(1)> 10000/10000'].join('\n'),
    );
  });

  it('accepts parent links instead of children (the trace-event form)', async () => {
    const nodes = [
      { id: 1, callFrame: { functionName: '(root)' } },
      { id: 2, callFrame: { functionName: 'main' }, parent: 1 },
      { id: 3, callFrame: { functionName: 'leaf' }, parent: 2 },
    ];
    const profile = await load(tiny({ nodes, samples: [3, 2, 3, 3], timeDeltas: [1, 1, 1, 1] }));
    expect(collapseLines(profile, { weight: 'samples' })).toEqual(['main 1', 'main;leaf 3']);
  });

  it('sorts samples by time when timeDeltas are negative', async () => {
    const profile = await load(tiny({ timeDeltas: [10, 50, -30, 10] }));
    // times 1010 (3), 1060 (3), 1030 (4), 1040 (2): durations 20, 40, 10, 20.
    expect(collapseLines(profile, { fullNames: true }).sort()).toEqual(['main 20000', 'main;(anonymous b.js:10) 60000', 'main;<img src=x onerror=alert(1)> 10000']);
    expect(profile.meta.warnings.map((w) => w.message)).toContain('samples are out of time order (negative timeDeltas); they were sorted by time');
  });

  it('an endTime or timeDeltas past 2^53 ns give sample counts, not Infinity (found by the fuzz pass)', async () => {
    for (const over of [{ endTime: 1e308 }, { timeDeltas: [10, 20, 1e300, 10] }]) {
      const p = await load(tiny(over));
      expect(p.meta.weightUnit).toBeNull();
      expect(p.tree.totalWeight[0]).toBe(4);
      expect(p.meta.warnings.map((w) => w.message)).toContain('"timeDeltas" or "endTime" span more than 2^53 ns: weights are sample counts');
    }
  });

  it('positionTicks past 2^53 are ignored and huge ones do not make the line tree Infinity (found by the long fuzz run)', async () => {
    const withTicks = (ticks: unknown[]) => {
      const nodes = JSON.parse(tiny()).nodes;
      nodes[2].positionTicks = ticks;
      return tiny({ nodes });
    };
    for (const ticks of [
      [{ line: 10, ticks: 1e308 }, { line: 11, ticks: 1 }],
      [{ line: 10, ticks: 2 ** 53 - 1 }, { line: 11, ticks: 2 ** 53 - 1 }],
    ]) {
      const p = await load(withTicks(ticks));
      const lines = p.lines!;
      expect(Number.isFinite(lines.tree.totalWeight[0])).toBe(true);
      expect(lines.tree.totalWeight[0]).toBeCloseTo(p.tree.totalWeight[0], 6);
    }
  });

  it('falls back to sample counts without timeDeltas, and to hitCount without samples', async () => {
    const a = await load(tiny({ timeDeltas: undefined }));
    expect(a.meta.weightUnit).toBeNull();
    expect(a.tree.totalWeight[0]).toBe(4);
    const nodes = JSON.parse(tiny()).nodes.map((n: object, i: number) => ({ ...n, hitCount: i }));
    const b = await load(JSON.stringify({ nodes }));
    expect(collapseLines(b, { fullNames: true }).sort()).toEqual(['main 1', 'main;(anonymous b.js:10) 2', 'main;<img src=x onerror=alert(1)> 3']);
  });
});

describe('cpuprofile: the legacy form (nested "head", seconds, timestamps)', () => {
  it('gives the same stacks and times as the current form it was converted from', async () => {
    const modern = JSON.parse(NODE.toString('utf8'));
    const byId = new Map<number, any>(modern.nodes.map((n: any) => [n.id, n]));
    // Nest iteratively, as the old DevTools wrote it; 1-based line numbers.
    const legacyOf = new Map<number, any>();
    for (const n of modern.nodes) {
      legacyOf.set(n.id, { id: n.id, functionName: n.callFrame.functionName, url: n.callFrame.url, lineNumber: n.callFrame.lineNumber + 1, hitCount: n.hitCount, children: [] });
    }
    for (const n of modern.nodes) for (const c of n.children ?? []) legacyOf.get(n.id).children.push(legacyOf.get(c));
    const timestamps: number[] = [];
    let t = modern.startTime;
    for (const d of modern.timeDeltas) timestamps.push((t += d));
    const legacy = { head: legacyOf.get(modern.nodes[0].id), startTime: modern.startTime / 1e6, endTime: modern.endTime / 1e6, samples: modern.samples, timestamps };
    expect(byId.get(modern.nodes[0].id).callFrame.functionName).toBe('(root)');
    const text = JSON.stringify(legacy);
    expect(cpuprofileImporter.detectBytes(new TextEncoder().encode(text), true)).toBe('yes');
    const a = await load(NODE);
    const b = await load(text);
    expect(b.meta.format).toBe('cpuprofile');
    const round = (lines: string[]) => lines.map((l) => l.replace(/ (\d+)$/, (_, w) => ` ${Math.round(Number(w) / 1000)}`));
    expect(round(collapseLines(b, { fullNames: true }))).toEqual(round(collapseLines(a, { fullNames: true })));
  });
});

describe('cpuprofile: bad input', () => {
  it('a cycle in the parent links is cut with a warning, not a hang', async () => {
    const nodes = [
      { id: 1, callFrame: { functionName: 'a' }, children: [2] },
      { id: 2, callFrame: { functionName: 'b' }, children: [3] },
      { id: 3, callFrame: { functionName: 'c' }, children: [1] },
    ];
    const profile = await load(JSON.stringify({ nodes, samples: [3, 1], timeDeltas: [1, 1], startTime: 0, endTime: 3 }));
    expect(profile.tree.totalSamples[0]).toBe(2);
    expect(profile.meta.warnings.map((w) => w.message).join('\n')).toMatch(/form a cycle/);
  });

  it('missing child and sample ids, duplicate parents: warnings, weight kept', async () => {
    const nodes = [
      { id: 1, callFrame: { functionName: 'a' }, children: [2, 99] },
      { id: 2, callFrame: { functionName: 'b' } },
      { id: 3, callFrame: { functionName: 'c' }, children: [2] },
    ];
    const profile = await load(JSON.stringify({ nodes, samples: [2, 42], timeDeltas: [1, 1], startTime: 0, endTime: 3 }));
    expect(collapseLines(profile, { weight: 'samples' }).sort()).toEqual(['[unknown node 42] 1', 'a;b 1']);
    const messages = profile.meta.warnings.map((w) => w.message).join('\n');
    expect(messages).toMatch(/child id that is not in "nodes"/);
    expect(messages).toMatch(/child of two nodes/);
    expect(messages).toMatch(/sample refers to a node id that is not in "nodes"/);
  });

  it('a huge flat children array and a 30,000-deep chain load (no recursion)', async () => {
    const wide = [{ id: 0, callFrame: { functionName: '(root)' }, children: [] as number[] }];
    for (let i = 1; i <= 50_000; i++) {
      wide[0].children.push(i);
      wide.push({ id: i, callFrame: { functionName: `f${i % 1000}` }, children: [] });
    }
    const samples = Array.from({ length: 50_000 }, (_, i) => i + 1);
    const a = await load(JSON.stringify({ nodes: wide, samples, timeDeltas: samples.map(() => 1), startTime: 0, endTime: 50_001 }));
    expect(a.tree.nodeCount).toBe(1001);
    expect(a.tree.totalWeight[0]).toBe(50_000_000);
    const deep = Array.from({ length: 30_000 }, (_, i) => ({ id: i, callFrame: { functionName: `d${i}` }, children: i + 1 < 30_000 ? [i + 1] : [] }));
    const b = await load(JSON.stringify({ nodes: deep, samples: [29_999], timeDeltas: [1], startTime: 0, endTime: 2 }));
    expect(b.tree.maxDepth).toBe(30_000);
  });

  it('JSON that is not a profile, or is truncated, is an ImportError', async () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(() => cpuprofileImporter.parseBytes(bytes('{"nodes": 5}'), {})).toThrow(/without a "nodes" array/);
    expect(() => cpuprofileImporter.parseBytes(bytes('[1]'), {})).toThrow(/JSON array, not an object/);
    await expect(load('{"nodes": 5, "callFrame": 1}')).rejects.toThrow(/JSON that is none of them/);
    await expect(load('{"nodes": [{"id": "x", "callFrame": {}}]}')).rejects.toThrow(/nodes\[0\] without a numeric "id"/);
    await expect(load('{"hello": "world"}')).rejects.toThrow(/JSON that is none of them/);
    const cut = NODE.subarray(0, 5000);
    const err = await load(cut).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/expected a Chrome\/Node CPU profile.*invalid JSON/);
    await expect(load(tiny({ samples: 'nope' }))).rejects.toThrow(/"samples" that is not an array of numbers/);
  });

  it('is detected by content: not by name, and never for perf or folded text', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(cpuprofileImporter.detectBytes(enc(tiny()), true)).toBe('yes');
    expect(cpuprofileImporter.detectBytes(enc('{"startTime":1,"nodes":[{"id":1,"callFrame":{}}]}'), true)).toBe('yes');
    expect(cpuprofileImporter.detectBytes(enc('{"traceEvents":[{"nodes":[{"callFrame":{}}]}]}'), true)).toBe('no');
    expect(cpuprofileImporter.detectBytes(enc('main;nodes 1\n'), true)).toBe('no');
  });
});
