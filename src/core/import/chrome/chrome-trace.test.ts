// Chrome trace-event importer: a trace recorded by Chromium through Playwright with the V8 CPU
// profiler on (fixtures/interchange/make/chrome-trace.mjs), checked per function against the
// independent Python oracle (make/cpuprofile-oracle.py); profile choice; bad input.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collapseLines } from '../../export/folded';
import type { Profile } from '../../model/profile';
import { chromeTraceImporter } from './chrome-trace';
import { functionTotals } from './chrome-function-totals';
import type { ImportOptions } from '../importer';
import { loadProfileFromText } from '../load';

const DIR = fileURLToPath(new URL('../../../../fixtures/interchange/', import.meta.url));
const TRACE = readFileSync(DIR + 'chrome-trace.json');

function load(input: string | Uint8Array, options: ImportOptions = {}): Promise<Profile> {
  return loadProfileFromText(input, options);
}

const chunk = (pid: number, id: string, nodes: unknown[], samples: number[], timeDeltas: number[]) => ({
  name: 'ProfileChunk',
  ph: 'P',
  pid,
  tid: 99,
  id,
  args: { data: { cpuProfile: { nodes, samples }, timeDeltas } },
});
const profileEvent = (pid: number, tid: number, id: string, startTime: number) => ({ name: 'Profile', ph: 'P', pid, tid, id, args: { data: { startTime } } });
const node = (id: number, functionName: string, parent?: number) => ({ id, callFrame: { functionName, url: '' }, ...(parent ? { parent } : {}) });

describe('chrome trace: recorded by Chromium (Playwright tracing, v8.cpu_profiler)', () => {
  it('matches the independent oracle per function, chunks joined', async () => {
    const profile = await load(TRACE);
    expect(profile.meta.format).toBe('chrome-trace');
    expect(profile.meta.event).toMatch(/^CrRendererMain \(pid \d+, profile 0x1\)$/);
    const oracle = readFileSync(DIR + 'chrome-trace.totals.txt', 'utf8').trim().split('\n');
    const rows = [...functionTotals(profile)].map(([name, [s, w]]) => `${s}\t${Math.round(w / 1000)}\t${name}`).sort();
    expect(rows).toEqual(oracle.sort());
    expect(rows.some((r) => r.endsWith('\tlayoutWords'))).toBe(true);
    expect(profile.meta.samples).toBeGreaterThan(1000);
  });
});

describe('chrome trace: shapes and bad input', () => {
  const events = [
    { name: 'thread_name', ph: 'M', pid: 1, tid: 5, args: { name: 'Main' } },
    profileEvent(1, 5, '0x1', 1000),
    chunk(1, '0x1', [node(1, '(root)'), node(2, 'main', 1)], [2], [10]),
    chunk(1, '0x1', [node(3, 'work', 2)], [3, 3], [5, 5]),
    profileEvent(2, 6, '0x1', 0),
    chunk(2, '0x1', [node(1, '(root)'), node(2, 'other', 1)], [2], [1]),
  ];

  it('joins chunks of one (pid, id); picks the profile with the most samples; options.event picks by name', async () => {
    const a = await load(JSON.stringify({ traceEvents: events }));
    expect(a.meta.events).toEqual([
      { name: 'Main (pid 1, profile 0x1)', samples: 3 },
      { name: 'thread 6 (pid 2, profile 0x1)', samples: 1 },
    ]);
    expect(collapseLines(a, { weight: 'samples' })).toEqual(['main 1', 'main;work 2']);
    expect(collapseLines(a)).toEqual(['main 5000', 'main;work 5000']);
    const b = await load(JSON.stringify(events), { event: 'thread 6 (pid 2, profile 0x1)' });
    expect(collapseLines(b, { weight: 'samples' })).toEqual(['other 1']);
    await expect(load(JSON.stringify(events), { event: 'nope' })).rejects.toThrow(/a CPU profile named "nope"/);
  });

  it('a trace without a CPU profile, or JSON that is not a trace, is an ImportError', async () => {
    await expect(load(JSON.stringify({ traceEvents: [{ name: 'x', ph: 'X', pid: 1, tid: 1, args: {} }] }))).rejects.toThrow(
      /1 trace events but no CPU profile.*disabled-by-default-v8.cpu_profiler/,
    );
    expect(() => chromeTraceImporter.parseBytes(new TextEncoder().encode('{"traceEvents": 3}'), {})).toThrow(/without a "traceEvents" array/);
    await expect(load(TRACE.subarray(0, 4000))).rejects.toThrow(/expected a Chrome trace.*invalid JSON/);
  });

  it('a cycle across chunks is cut with a warning', async () => {
    const cyc = [profileEvent(1, 1, '0x2', 0), chunk(1, '0x2', [node(1, 'a', 2), node(2, 'b', 1)], [1, 2], [1, 1])];
    const p = await load(JSON.stringify(cyc));
    expect(p.tree.totalSamples[0]).toBe(2);
    expect(p.meta.warnings.map((w) => w.message).join('\n')).toMatch(/cycle/);
  });

  it('is detected by content, never a .cpuprofile or speedscope file', () => {
    expect(chromeTraceImporter.detectBytes(TRACE.subarray(0, 65536), false)).toBe('yes');
    expect(chromeTraceImporter.detectBytes(new TextEncoder().encode(JSON.stringify(events)), true)).toBe('yes');
    expect(chromeTraceImporter.detectBytes(readFileSync(DIR + 'node.cpuprofile'), true)).toBe('no');
    expect(chromeTraceImporter.detectBytes(readFileSync(DIR + 'speedscope-sampled.json'), true)).toBe('no');
  });
});
