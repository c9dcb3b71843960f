// Self weight per instruction against perf itself: for the five heaviest functions of C and C++
// recordings (fixtures/asm/, record.sh), each instruction's share of its function agrees with
// `perf annotate --stdio --percent-type local-period` of the same perf.data within 0.5 points;
// and a split input gives the same table as one parser.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBytes } from '../testing/fixtures';
import { loadProfileFromText } from '../import/load';
import { loadSplitAt } from '../testing/split-parts';
import { framesMatching } from './source-lines';
import { functionOffsets, hottestOffsets } from './leaf-addresses';

interface Annotated {
  start: number;
  /** Instruction address → percent. */
  shares: Map<number, number>;
}

/** perf annotate --stdio: the symbol's start (`0000…13e0 <chase>:`) and every instruction's percent. */
function parseAnnotate(text: string): Annotated {
  const head = /^\s*:\s*\d*\s+([0-9a-f]+) <.*>:$/m.exec(text);
  if (!head) throw new Error('no symbol line in perf annotate output');
  const shares = new Map<number, number>();
  for (const m of text.matchAll(/^\s*(\d+\.\d+) :\s+([0-9a-f]+):/gm)) shares.set(parseInt(m[2], 16), Number(m[1]));
  return { start: parseInt(head[1], 16), shares };
}

const PROGRAMS = ['loops', 'loops-cpp'] as const;

describe.each(PROGRAMS)('per-instruction shares of %s against perf annotate', (program) => {
  it('agree within 0.5 points for the five heaviest functions', async () => {
    const text = gunzipSync(fixtureBytes(`asm/${program}.perf-script.txt.gz`)).toString('utf8');
    const profile = await loadProfileFromText(text);
    const top = fixtureBytes(`asm/${program}.top5.txt`).toString('utf8').trim().split('\n');
    expect(top).toHaveLength(5);
    top.forEach((name, i) => {
      const oracle = parseAnnotate(fixtureBytes(`asm/${program}.annotate.${i + 1}.txt`).toString('utf8'));
      const blocks = functionOffsets(profile, framesMatching(profile, 'functions', (n) => n === name));
      expect(blocks, name).not.toBeNull();
      expect(blocks!.length, name).toBeGreaterThan(0);
      const ours = new Map(blocks![0].rows.map((r) => [oracle.start + r.offset, r.share]));
      let worst = 0;
      for (const [address, percent] of oracle.shares) worst = Math.max(worst, Math.abs((ours.get(address) ?? 0) - percent));
      // Every sampled offset is an instruction perf listed.
      for (const address of ours.keys()) expect(oracle.shares.has(address), `${name} +0x${(address - oracle.start).toString(16)}`).toBe(true);
      expect(worst, name).toBeLessThanOrEqual(0.5);
    });
  });
});

describe('functionOffsets', () => {
  it('is the same for a split input as for one parser', async () => {
    const bytes = gunzipSync(fixtureBytes('asm/loops.perf-script.txt.gz'));
    const whole = await loadProfileFromText(bytes.toString('utf8'));
    const split = await loadSplitAt(bytes, [Math.floor(bytes.length / 3), Math.floor((2 * bytes.length) / 3)]);
    expect(split).not.toBeNull();
    for (const name of ['chase', 'divide', 'branchy']) {
      const a = functionOffsets(whole, framesMatching(whole, 'functions', (n) => n === name))!;
      const b = functionOffsets(split!, framesMatching(split!, 'functions', (n) => n === name))!;
      expect(b).toEqual(a);
    }
  });

  it('puts the pointer chase on the instruction after its load, and lists the hottest first', async () => {
    const profile = await loadProfileFromText(gunzipSync(fixtureBytes('asm/loops.perf-script.txt.gz')).toString('utf8'));
    const [chase] = functionOffsets(profile, framesMatching(profile, 'functions', (n) => n === 'chase'))!;
    expect(chase.dso).toMatch(/\/loops$/);
    const [hot] = hottestOffsets(chase, 1);
    // 13f3: mov (%rdi,%rax,4),%eax misses; the sample lands on the next instruction, 13f6 (+0x16).
    expect(hot.offset).toBe(0x16);
    expect(hot.share).toBeGreaterThan(95);
  });

  it('is null for a recording without offsets', async () => {
    const profile = await loadProfileFromText('a;b 3\na;c 1\n');
    expect(functionOffsets(profile, new Uint8Array(profile.frames.count).fill(1))).toBeNull();
  });
});
