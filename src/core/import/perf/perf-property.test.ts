// Property tests of the perf script importer: generated recordings read back exactly, and
// arbitrary junk never throws.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseLines } from '../../export/folded';
import type { Profile } from '../../model/profile';
import { PerfScriptParser } from './perf-script';

function parseLines(lines: string[]): Profile {
  const parser = new PerfScriptParser({});
  lines.forEach((line, i) => parser.line(line, i + 1));
  return parser.finish();
}

const symbolChar = fc.constantFrom(...'abcXYZ_:<>()[]{}, =+&*.@0123456789'.split(''));
const symbol = fc
  .array(symbolChar, { minLength: 1, maxLength: 24 })
  .map((cs) => cs.join('').trim())
  .filter((s) => s.length > 0 && s !== '[unknown]' && !s.includes('->') && !s.startsWith('('));
const dso = fc.constantFrom('/usr/lib/libc.so.6', '/build/app', '[kernel.kallsyms]', '/tmp/perf-42.map');
const frame = fc.record({ symbol, dso, offset: fc.nat(0xffff) });
const sample = fc.record({
  comm: fc.stringMatching(/^[a-z][a-z .]{0,10}( [0-9])?$/).map((s) => s.trimEnd()),
  tid: fc.integer({ min: 1, max: 99999 }),
  period: fc.integer({ min: 1, max: 5_000_000 }),
  frames: fc.array(frame, { minLength: 1, maxLength: 12 }),
  blankAfter: fc.boolean(),
});

describe('perf script properties', () => {
  it('reads back generated recordings: every sample, period and frame, in order', () => {
    fc.assert(
      fc.property(fc.array(sample, { minLength: 1, maxLength: 20 }), (samples) => {
        const lines: string[] = [];
        const expected = new Map<string, number>();
        let address = 0x1000;
        for (const s of samples) {
          lines.push(`${s.comm} ${String(s.tid).padStart(5)}   12.345678: ${String(s.period).padStart(10)} cpu-clock:ppp: `);
          for (const f of s.frames) lines.push(`\t${(address++).toString(16).padStart(16)} ${f.symbol}+0x${f.offset.toString(16)} (${f.dso})`);
          lines.push(''); // perf always ends a sample with a blank line; blankAfter adds a second one
          if (s.blankAfter) lines.push('');
          const stack = [s.comm.replaceAll(' ', '_'), ...s.frames.map((f) => f.symbol).reverse()].join(';');
          expected.set(stack, (expected.get(stack) ?? 0) + s.period);
        }
        const p = parseLines(lines);
        expect(p.meta.samples).toBe(samples.length);
        expect(p.meta.skippedLines).toBe(0);
        expect(p.meta.hasInlineInfo).toBe(false);
        const got = collapseLines(p, { fullNames: true });
        const want = [...expected].map(([stack, w]) => `${stack} ${w}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(got).toEqual(want);
      }),
      { numRuns: 150 },
    );
  });

  it('reads back recordings whose samples share frames and tails (cached lines, reused tails)', () => {
    const pool = ['main', 'std::vector<int>::push_back(int const&)', 'run_loop', 'parse', 'a (b) c', 'hash_one'];
    const pooled = fc.record({
      comm: fc.constantFrom('app', 'app worker 1'),
      period: fc.integer({ min: 1, max: 1000 }),
      frames: fc.array(fc.nat(pool.length - 1), { minLength: 1, maxLength: 10 }),
      junk: fc.option(fc.nat(9), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(pooled, { minLength: 1, maxLength: 25 }), (samples) => {
        const lines: string[] = [];
        const expected = new Map<string, number>();
        let skipped = 0;
        for (const s of samples) {
          lines.push(`${s.comm} 7   1.5: ${s.period} cycles: `);
          s.frames.forEach((f, i) => {
            if (s.junk === i) {
              lines.push('\t   1234 '); // an address without symbol: skipped, the sample is kept
              skipped++;
            }
            lines.push(`\t${(0x400 + f).toString(16)} ${pool[f]}+0x${f} (/bin/app)`);
          });
          lines.push('');
          const stack = [s.comm.replaceAll(' ', '_'), ...s.frames.map((f) => pool[f]).reverse()].join(';');
          expected.set(stack, (expected.get(stack) ?? 0) + s.period);
        }
        const p = parseLines(lines);
        expect(p.meta.samples).toBe(samples.length);
        expect(p.meta.skippedLines).toBe(skipped);
        const want = [...expected].map(([stack, w]) => `${stack} ${w}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(collapseLines(p, { fullNames: true })).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on junk mixed into a recording, and keeps the valid samples', () => {
    const junk = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.constantFrom('\t', '   ', '#', '\t0', '\t zz (x)', 'a 1 1.5:', 'a 1 1.5: x:', 'a 1 1.5: -1 x:', '\tffff [unknown] ('),
    );
    fc.assert(
      fc.property(fc.array(junk, { maxLength: 30 }), fc.nat(30), (noise, at) => {
        const valid = ['ok 1 1.5: 7 cpu-clock: ', '\t1 f+0x1 (/x)', ''];
        const lines = [...valid, ...noise.flatMap((n) => n.split('\n')), ''];
        lines.splice(3 + Math.min(at, noise.length), 0, ...valid);
        const p = parseLines(lines);
        expect(p.meta.samples).toBeGreaterThanOrEqual(1);
        expect(p.meta.skippedLines).toBeLessThanOrEqual(lines.length);
        expect(p.meta.warnings.filter((w) => w.line > 0).length).toBeLessThanOrEqual(5);
        expect(Number.isFinite(p.tree.totalWeight[0])).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
