// pprof export (./pprof.ts) read back by flameview's own pprof importer: every view the same as
// the recording's, for every fixture (Go's own CPU profile included). `go tool pprof` reading the same bytes is checked in src/cli/convert.test.ts.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseLines } from './folded';
import { toPprof } from './pprof';
import { loadProfileFromText } from '../import/load';
import type { Profile } from '../model/profile';
import { profileFrom } from '../testing/tree-dsl';
import { fixtureBytes, RECORDING_FIXTURES } from '../testing/fixtures';
import { FrameFlags } from '../model/types';

const fixture = fixtureBytes;

async function readBack(profile: Profile): Promise<Profile> {
  const back = await loadProfileFromText(toPprof(profile));
  expect(back.meta.format).toBe('pprof');
  return back;
}

/**
 * Both views' folded stacks, by period and by sample count. A recording with FOLDED frames (a
 * function perf printed as inlined into itself) reads back with those lines as inlined ones: the
 * same names and weights, so the inline view is compared without its `_[i]` marks there.
 */
function views(p: Profile, markInlined = true): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const view of ['inline', 'functions'] as const) {
    for (const weight of ['period', 'samples'] as const) {
      out[`${view}/${weight}`] = collapseLines(p, { view, weight, fullNames: true, annotateKernel: true, annotateJit: true, annotateInline: markInlined });
    }
  }
  return out;
}

const hasFolded = (p: Profile) => p.frames.flags.some((f) => (f & FrameFlags.FOLDED) !== 0);

/**
 * What pprof holds of a recording whose importer named functions (Profile.functionFrames): each
 * physical frame under its function view name, in the inline view too.
 */
function physicalNamed(p: Profile): Profile {
  const rename = p.functionFrames;
  if (!rename) return p;
  const frame = p.tree.frame.map((f, n) => (n > 0 && !(p.frames.flags[f] & (FrameFlags.INLINED | FrameFlags.FOLDED)) ? rename[f] : f));
  // Renaming can make two siblings one frame: rebuild through the folded text.
  return { ...p, tree: { ...p.tree, frame }, functionFrames: null };
}


describe('pprof export', () => {
  it.each(RECORDING_FIXTURES)('%s: read back, both views equal the recording by period and by samples', async (name) => {
    const original = await loadProfileFromText(fixture(name));
    const back = await readBack(original);
    const marks = !hasFolded(original);
    const want = views(original, marks);
    const got = views(back, marks);
    expect({ functions: got['functions/period'], functionsSamples: got['functions/samples'] }).toEqual({ functions: want['functions/period'], functionsSamples: want['functions/samples'] });
    // The inline view: as printed, but for physical frames named as their function (merged by
    // collapseLines where two siblings become one name).
    const named = views(physicalNamed(original), marks);
    expect({ inline: got['inline/period'], inlineSamples: got['inline/samples'] }).toEqual({ inline: named['inline/period'], inlineSamples: named['inline/samples'] });
    expect(back.meta.samples).toBe(original.meta.samples);
    expect(back.meta.weightUnit).toBe(original.meta.weightUnit);
    expect(back.meta.hasInlineInfo).toBe(original.meta.hasInlineInfo);
  });

  it('a self-inlined function (FOLDED lines) reads back as an inline chain: its lines marked inlined', async () => {
    const original = await loadProfileFromText(fixture('cpp/maps.perf-script.txt'));
    expect(hasFolded(original)).toBe(true);
    const folded = collapseLines(original, { fullNames: true }).filter((l) => l.includes('call_init;call_init;'));
    expect(folded.length).toBeGreaterThan(0);
    const back = collapseLines(await readBack(original), { fullNames: true });
    for (const line of folded) expect(back).toContain(line.replace('call_init;call_init;', 'call_init;call_init_[i];'));
  });

  it('keeps the event name and its unit, and pprof picks the weight by default', async () => {
    const original = await loadProfileFromText(fixture('rust-toyc.perf-script.txt'));
    const back = await readBack(original);
    expect(back.meta.events.map((e) => e.name)).toEqual(['samples/count', `${original.meta.event}/nanoseconds`]);
    expect(back.meta.event).toBe(`${original.meta.event}/nanoseconds`);
  });

  it('random trees: both views survive, inline chains as one location each', async () => {
    const name = fc.constantFrom('main', 'a', 'b', 'c', 'a_[i]', 'b_[i]', 'k_[k]', 'j_[j]');
    const stack = fc.array(name, { minLength: 1, maxLength: 6 }).filter((s) => !s[0].endsWith('_[i]'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(stack, fc.integer({ min: 1, max: 1000 })), { minLength: 1, maxLength: 30 }), async (entries) => {
        const original = profileFrom(entries.map(([s, w]) => `${s.join(';')} ${w}`).join('\n'));
        expect(views(await readBack(original))).toEqual(views(original));
      }),
      { numRuns: 200 },
    );
  });
});
