// The benchmark generator: same seed → same bytes, and its output is a valid recording that the
// engine loads without skipping anything (once the importers exist).

import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writeInput, type BenchFormat, type GenerateStats } from './generate';

async function generate(format: BenchFormat, bytes: number, seed: number): Promise<{ text: string; stats: GenerateStats }> {
  const chunks: string[] = [];
  const stats = await writeInput((c) => void chunks.push(c), { format, bytes, seed });
  return { text: chunks.join(''), stats };
}

const importersExist =
  existsSync(new URL('../src/core/import/perf/perf-script.ts', import.meta.url)) &&
  existsSync(new URL('../src/core/import/folded.ts', import.meta.url));

describe('bench generator', () => {
  for (const format of ['perf', 'folded', 'perf-sched'] as const) {
    it(`${format}: is deterministic for a seed and differs across seeds`, async () => {
      const a = await generate(format, 300_000, 7);
      const b = await generate(format, 300_000, 7);
      const c = await generate(format, 300_000, 8);
      expect(a.text.length).toBeGreaterThanOrEqual(300_000);
      expect(a.stats.bytes).toBe(Buffer.byteLength(a.text));
      expect(b.text).toBe(a.text);
      expect(c.text).not.toBe(a.text);
    });
  }

  it('perf-sched: the perf samples with switches and wakeups that read as every wait, exactly', async () => {
    const { loadProfileFromText } = await import('../src/core/import/load');
    const { text } = await generate('perf-sched', 1_000_000, 3);
    const wall = await loadProfileFromText(text, { event: 'wall' });
    expect(wall.meta.skippedLines).toBe(0);
    // Every switch-out has its switch-in: no wait ends at a next sample or at the end.
    expect(wall.meta.warnings).toEqual([]);
    const cpu = await loadProfileFromText(text);
    expect(cpu.meta.event).toBe('cpu-clock:ppp');
    const off = await loadProfileFromText(text, { event: 'off-cpu' });
    expect(wall.tree.totalWeight[0]).toBe(cpu.tree.totalWeight[0] + off.tree.totalWeight[0]);
    const waits = [...text.matchAll(/prev_state=S ==>/g)].length;
    expect(waits).toBeGreaterThan(30);
    expect(off.tree.totalSamples[0]).toBe(waits);
  });

  it('perf: mimics perf script text (header variants, inline groups, kernel frames, no repeated samples)', async () => {
    const { text, stats } = await generate('perf', 1_000_000, 3);
    expect(text.startsWith('# ========\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(true);
    // TID, [CPU] and PID/TID headers; comms with spaces and a trailing number.
    expect(text).toMatch(/^toyc cgu\.\d \d+ +\d+\.\d{6}: +2004008 cpu-clock:ppp: $/m);
    expect(text).toMatch(/^sqlite3 \d+ \[\d{3}\] +\d+\.\d{6}: +1001001 cpu-clock:ppp: $/m);
    expect(text).toMatch(/^toyc worker 1 \d+\/\d+ +\d+\.\d{6}: /m);
    // An inline group: (inlined) lines then the physical line, all at one address and offset.
    expect(text).toMatch(/^\t +([0-9a-f]+) \S.*\+0x([0-9a-f]+) \(inlined\)\n\t +\1 .*\+0x\2 \(\/build\/rust\/toyc\)$/m);
    expect(text).toMatch(/^\tffffffff[0-9a-f]{8} \S+\+0x[0-9a-f]+ \(\[kernel\.kallsyms\]\)$/m);
    // Samples are not copies of each other: far more distinct sample bodies than 1 in 2.
    const bodies = text.split('\n\n').map((s) => s.slice(s.indexOf('\n')));
    expect(new Set(bodies).size).toBeGreaterThan(bodies.length * 0.9);
    expect(stats.maxGroups).toBeGreaterThanOrEqual(300);
  });

  it('folded: sorted unique stacks (as a collapser prints them), _[i]/_[k] markers, some fractional counts', async () => {
    const { text, stats } = await generate('folded', 1_000_000, 3);
    const lines = text.trimEnd().split('\n');
    expect(lines.length).toBe(stats.lines);
    const stacks = lines.map((l) => l.slice(0, l.lastIndexOf(' ')));
    expect(new Set(stacks).size).toBe(stacks.length);
    expect([...stacks].sort()).toEqual(stacks);
    expect(text).toMatch(/^toyc_cgu\.\d;clone3;start_thread;/m);
    expect(text).toMatch(/_\[i\];/);
    expect(text).toMatch(/;entry_SYSCALL_64_after_hwframe_\[k\];/);
    expect(lines.some((l) => /\d\.\d+$/.test(l))).toBe(true);
  });

  it.skipIf(!importersExist).each(['perf', 'folded'] as const)('%s: loads with loadProfile, nothing skipped, totals match', async (format) => {
    const { loadProfileFromText } = await import('../src/core/import/load');
    const { makeSnapshot } = await import('../src/core/views/snapshot');
    const { text, stats } = await generate(format, 1_000_000, 3);
    const profile = await loadProfileFromText(text, { source: 'generated' });
    expect(profile.meta.format).toBe(format === 'perf' ? 'perf-script' : 'folded');
    expect(profile.meta.skippedLines).toBe(0);
    expect(profile.tree.totalWeight[0]).toBeCloseTo(stats.weight, 0);
    expect(profile.tree.maxDepth).toBeGreaterThanOrEqual(300);
    if (format === 'perf') expect(profile.meta.samples).toBe(stats.samples);
    const snapshot = makeSnapshot(profile);
    expect(snapshot.functions).not.toBeNull();
    expect(snapshot.functions!.totalWeight[0]).toBeCloseTo(stats.weight, 0);
    expect(snapshot.functions!.nodeCount).toBeLessThan(snapshot.inline.nodeCount);
  });
});
