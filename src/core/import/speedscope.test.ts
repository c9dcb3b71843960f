// speedscope importer: a file exported by the speedscope app itself (1.25.0, driven by
// fixtures/interchange/make/speedscope-export.mjs from node.cpuprofile) checked per function
// against an independent Python replay (make/speedscope-oracle.py); hand-written sampled and
// evented files following the published schema; bad input.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { frameName } from '../model/frame-table';
import { ImportError, type Profile } from '../model/profile';
import { dumpTree } from '../testing/tree-dsl';
import type { ImportOptions } from './importer';
import { loadProfileFromText } from './load';
import { functionTotals } from './chrome/chrome-function-totals';
import { speedscopeImporter } from './speedscope';

const DIR = fileURLToPath(new URL('../../../fixtures/interchange/', import.meta.url));
const read = (name: string) => readFileSync(DIR + name);

function load(input: string | Uint8Array, options: ImportOptions = {}): Promise<Profile> {
  return loadProfileFromText(input, options);
}

const file = (profiles: unknown[], frames: unknown[] = [{ name: 'a' }, { name: 'b' }]) =>
  JSON.stringify({ $schema: 'https://www.speedscope.app/file-format-schema.json', shared: { frames }, profiles });

describe('speedscope: a file exported by speedscope 1.25.0', () => {
  it('matches the Python replay of its events, per function', async () => {
    const profile = await load(read('node.speedscope.json'));
    expect(profile.meta.format).toBe('speedscope');
    expect(profile.meta.warnings).toEqual([]);
    expect(profile.meta.event).toBe('node.cpuprofile');
    expect(profile.meta.weightUnit).toBe('nanoseconds');
    const oracle = readFileSync(DIR + 'node.speedscope.totals.txt', 'utf8').trim().split('\n');
    expect(oracle.length).toBeGreaterThan(50);
    const ours = [...functionTotals(profile)].map(([name, [, w]]) => `${Math.round(w / 1000)}\t${name}`);
    expect(ours.sort()).toEqual(oracle.sort());
  });
});

describe('speedscope: hand-written files', () => {
  it('sampled: root-first stacks with weights, the active profile by default', async () => {
    const profile = await load(read('speedscope-sampled.json'));
    expect(dumpTree(profile.tree, profile.frames)).toBe(
      [
        '<img src=x onerror=alert(1)> 4000000/4000000',
        'main 10000000/0',
        '  emit 4000000/4000000',
        '  parse 6000000/3000000',
        '    lex 3000000/3000000',
      ].join('\n'),
    );
    expect(profile.meta.samples).toBe(5);
    expect(profile.meta.events).toEqual([
      { name: 'cpu', samples: 5 },
      { name: 'allocations', samples: 2 },
    ]);
    const lex = [...Array(profile.frames.count).keys()].find((f) => frameName(profile.frames, f) === 'lex')!;
    expect(profile.frames.strings[profile.frames.module[lex]]).toBe('/src/lex.c');
  });

  it('options.event picks a profile by name; bytes keep their values', async () => {
    const profile = await load(read('speedscope-sampled.json'), { event: 'allocations' });
    expect(profile.meta.event).toBe('allocations');
    expect(profile.meta.weightUnit).toBeNull();
    expect(dumpTree(profile.tree, profile.frames)).toBe(['main 96/0', '  emit 64/64', '  parse 32/0', '    lex 32/32'].join('\n'));
    await expect(load(read('speedscope-sampled.json'), { event: 'wall' })).rejects.toThrow(/a profile named "wall".*"cpu", "allocations"/);
  });

  it('evented: self time between events, recursion kept as nesting', async () => {
    const profile = await load(read('speedscope-evented.json'));
    expect(dumpTree(profile.tree, profile.frames)).toBe(
      ['main 100000/30000', '  visit 20000/20000', '  walk 50000/15000', '    walk 35000/15000', '      visit 20000/20000'].join('\n'),
    );
    expect(profile.meta.warnings).toEqual([]);
  });
});

describe('speedscope: bad input', () => {
  it('unbalanced, backwards and unknown events give warnings, not exceptions', async () => {
    const events = [
      { type: 'O', frame: 0, at: 0 },
      { type: 'O', frame: 1, at: 5 },
      { type: 'C', frame: 0, at: 10 }, // closes b too
      { type: 'C', frame: 1, at: 11 }, // not open
      { type: 'O', frame: 7, at: 12 }, // unknown frame
      { type: 'X', at: 13 },
      { type: 'O', frame: 0, at: 9 }, // back in time
    ];
    const profile = await load(file([{ type: 'evented', name: 'e', unit: 'none', startValue: 0, endValue: 20, events }]));
    expect(dumpTree(profile.tree, profile.frames)).toBe(['[unknown frame 7] 8/0', '  a 8/8', 'a 10/5', '  b 5/5'].join('\n'));
    const messages = profile.meta.warnings.map((w) => w.message).join('\n');
    for (const m of [/not on top/, /not open/, /not in "shared.frames"/, /without "type" O or C/, /back in time/, /still open at the end/]) {
      expect(messages).toMatch(m);
    }
  });

  it('sampled with bad weights and stacks: skipped with warnings', async () => {
    const profiles = [{ type: 'sampled', name: 's', unit: 'none', startValue: 0, endValue: 1, samples: [[0], 'x', [0, 1], [1]], weights: [1, 1, -1, 2] }];
    const profile = await load(file(profiles));
    expect(dumpTree(profile.tree, profile.frames)).toBe(['a 1/1', 'b 2/2'].join('\n'));
    expect(profile.meta.warnings).toHaveLength(2);
  });

  it('weights and intervals past 2^53 are skipped with warnings, never summed to Infinity (found by the fuzz pass)', async () => {
    const sampled = [{ type: 'sampled', name: 's', unit: 'milliseconds', startValue: 0, endValue: 1, samples: [[0], [0, 1], [1]], weights: [1e308, 1e308, 2] }];
    const p = await load(file(sampled));
    expect(p.tree.totalWeight[0]).toBe(2e6);
    expect(p.meta.warnings.map((w) => w.message)).toEqual(['a weight past 2^53; the sample was skipped (2 times)']);
    const events = [{ type: 'O', frame: 0, at: 0 }, { type: 'O', frame: 1, at: 1 }, { type: 'C', frame: 1, at: 1e300 }, { type: 'C', frame: 0, at: 1e300 }];
    const e = await load(file([{ type: 'evented', name: 'e', unit: 'milliseconds', startValue: 0, endValue: 1e300, events }]));
    expect(Number.isFinite(e.tree.totalWeight[0])).toBe(true);
    expect(e.meta.warnings.map((w) => w.message)).toContain('an interval between events past 2^53; it counts as zero');
  });

  it('a file that is not a speedscope profile is an ImportError', async () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    const parse = (s: string) => () => speedscopeImporter.parseBytes(bytes(s), {});
    expect(parse('[]')).toThrow(/JSON array, not an object/);
    expect(parse('{"profiles": []}')).toThrow(/no "shared"/);
    expect(parse('{"shared": {"frames": []}, "profiles": []}')).toThrow(/no "profiles"/);
    expect(parse(file([{ type: 'weird' }]))).toThrow(/of type "weird"/);
    const cut = read('node.speedscope.json').subarray(0, 3000);
    const err = await load(cut).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/expected a speedscope JSON file.*invalid JSON/);
  });

  it('is detected by content', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(speedscopeImporter.detectBytes(read('speedscope-evented.json'), true)).toBe('yes');
    expect(speedscopeImporter.detectBytes(enc('{"shared": {"frames": []}, "profiles": []}'), true)).toBe('yes');
    expect(speedscopeImporter.detectBytes(read('node.cpuprofile'), true)).toBe('no');
    expect(speedscopeImporter.detectBytes(enc('speedscope.app/file-format-schema.json;x 1\n'), true)).toBe('no');
  });
});
