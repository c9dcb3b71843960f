import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeSnapshot, toTransfer } from '../views/snapshot';
import type { Profile } from './profile';
import { loadProfileFromText } from '../import/load';
import { parseTime } from '../import/perf/perf-line';
import { PerfScriptParser } from '../import/perf/perf-script';
import { profileFrom } from '../testing/tree-dsl';
import { treeForRange } from '../views/time-order';
import { SampleColumnBuilder, sortSamples } from './sample-column';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

function parse(text: string, cap?: number): Profile {
  const parser = new PerfScriptParser({}, undefined, cap);
  text.split('\n').forEach((line, i) => parser.line(line, i + 1));
  return parser.finish();
}

const H = (time: string, period = 10, comm = 'app') => `${comm} 100 ${time}:   ${period} cpu-clock:ppp: `;
const F = (addr: string, sym: string) => `\t${addr.padStart(16)} ${sym} (/bin/app)`;

describe('parseTime', () => {
  it('reads secs.usecs and secs.nsecs like parseFloat, and rejects what is not a number', () => {
    for (const t of ['678.130161', '7628263.042515', '12.000000001', '5', '0.5']) expect(parseTime(t, 0, t.length)).toBe(parseFloat(t));
    for (const t of ['1.2.3', '.5', '5.', '', '1a', '1.a', '-1.5']) expect(parseTime(t, 0, t.length)).toBe(-1);
    expect(parseTime('x 3.25: y', 2, 6)).toBe(3.25);
  });
});

describe('the perf script sample column', () => {
  for (const name of ['rust-toyc', 'sqlite', 'sqlite.no-callchain', 'rust-toyc.fp']) {
    it(`${name}: one entry per sample, weights sum to the root total, times sorted`, async () => {
      const p = await loadProfileFromText(readFileSync(`${FIXTURES}${name}.perf-script.txt`));
      const s = p.samples!;
      expect(s.count).toBe(p.meta.samples);
      let weight = 0;
      const self = new Float64Array(p.tree.nodeCount);
      for (let i = 0; i < s.count; i++) {
        weight += s.weight[i];
        self[s.leaf[i]] += s.weight[i];
        if (i > 0) expect(s.time[i]).toBeGreaterThanOrEqual(s.time[i - 1]);
      }
      expect(weight).toBe(p.tree.totalWeight[0]);
      // Each leaf is a node of the frozen tree: per node, the column adds up to its self weight.
      expect(Array.from(self)).toEqual(Array.from(p.tree.selfWeight));
      expect(sortSamples(s)).toBe(s);
      // The whole range gives back the tree's totals.
      const all = treeForRange(p.tree, p.frames, s, s.time[0], s.time[s.count - 1] + 1);
      expect(all.totalWeight[0]).toBe(p.tree.totalWeight[0]);
      expect(all.totalSamples[0]).toBe(p.meta.samples);
    });
  }

  it('keeps time and weight per sample, maps leaves to the frozen tree, sorts by time', () => {
    const p = parse([H('2.5', 7), F('1', 'leafB'), F('2', 'main'), '', H('1.25', 3), F('3', 'leafA'), F('2', 'main'), ''].join('\n'));
    const s = p.samples!;
    expect(Array.from(s.time)).toEqual([1.25, 2.5]);
    expect(Array.from(s.weight)).toEqual([3, 7]);
    const name = (node: number) => p.frames.strings[p.frames.name[p.tree.frame[node]]];
    expect(Array.from(s.leaf, name)).toEqual(['leafA', 'leafB']);
    expect(Array.from(s.thread!)).toEqual([100, 100]);
    const pidTid = parse(['app 17570/17572 1.0:   10 cpu-clock: ', F('1', 'main'), ''].join('\n'));
    expect(Array.from(pidTid.samples!.thread!)).toEqual([17572]);
  });

  it('is null when a header has no readable time, or for other formats', () => {
    expect(parse([H('1.2.3'), F('1', 'main'), ''].join('\n')).samples).toBeNull();
    expect(parse([H('1.5'), F('1', 'main'), '', H('1.2.3'), F('1', 'main'), ''].join('\n')).samples).toBeNull();
    expect(profileFrom('a;b 1').samples ?? null).toBeNull();
    expect(makeSnapshot(profileFrom('a;b 1')).samples).toBeNull();
  });

  it('leaves out samples of other events', () => {
    const other = 'app 100 3.0:   10 page-faults: ';
    const p = parse([H('1.0'), F('1', 'main'), '', other, F('1', 'main'), '', H('2.0'), F('1', 'main'), ''].join('\n'));
    expect(Array.from(p.samples!.time)).toEqual([1, 2]);
  });

  it('drops the column with a warning past the cap', () => {
    const lines: string[] = [];
    for (let i = 0; i < 5; i++) lines.push(H(`${i}.0`), F('1', 'main'), '');
    const p = parse(lines.join('\n'), 4);
    expect(p.samples).toBeNull();
    expect(p.meta.samples).toBe(5);
    expect(p.meta.warnings.map((w) => w.message)).toContain('more than 4 samples: time order is off for this recording');
    expect(parse(lines.join('\n'), 5).samples!.count).toBe(5);
  });

  it('grows past its first allocation', () => {
    const b = new SampleColumnBuilder();
    for (let i = 0; i < 150_000; i++) {
      b.nextTime[0] = i / 1000;
      b.push(i % 3, i, 7);
    }
    const s = b.finish(Int32Array.from([0, 2, 1]))!;
    expect(s.count).toBe(150_000);
    expect(s.leaf[4999]).toBe(2); // 4999 % 3 = 1 → order[1] = 2
    expect(s.leaf[149_999]).toBe(1); // 149999 % 3 = 2 → order[2] = 1
    expect(s.time[70_000]).toBe(70);
    expect(s.weight[149_999]).toBe(149_999);
  });

  it('travels with the snapshot: its buffers are transferred', () => {
    const p = parse([H('1.0'), F('1', 'main'), ''].join('\n'));
    const snap = makeSnapshot(p);
    const { transfer } = toTransfer(snap);
    expect(transfer).toContain(snap.samples!.time.buffer);
    expect(transfer).toContain(snap.samples!.leaf.buffer);
    expect(transfer).toContain(snap.samples!.weight.buffer);
    expect(transfer).toContain(snap.samples!.thread!.buffer);
  });
});
