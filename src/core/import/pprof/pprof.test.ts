// pprof importer: golden test against `go tool pprof -traces` on a real Go CPU profile (made by
// fixtures/interchange/make/pprofdemo, see fixtures/interchange/PROVENANCE.md), inline chains,
// sample-type choice, and bad input.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import { collapseLines } from '../../export/folded';
import { frameName } from '../../model/frame-table';
import { FrameFlags } from '../../model/types';
import { ImportError, type Profile } from '../../model/profile';
import { dumpTree } from '../../testing/tree-dsl';
import { functionView } from '../../views/function-view';
import type { ImportOptions } from '../importer';
import { loadProfileFromText } from '../load';
import { pprofImporter } from './pprof';

const DIR = fileURLToPath(new URL('../../../../fixtures/interchange/', import.meta.url));
const GO = readFileSync(DIR + 'go-cpu.pb.gz');

function load(bytes: Uint8Array, options: ImportOptions = {}): Promise<Profile> {
  return loadProfileFromText(bytes, options);
}

/** `go tool pprof -traces` output → folded lines (root first, `_[i]` on `(inline)` frames). */
function tracesToFolded(text: string, unitNs: number): string[] {
  const merged = new Map<string, number>();
  for (const block of text.split(/^-+\+-+$/m).slice(1)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0) continue;
    const m = /^\s*(\d+(?:\.\d+)?)(ms|s|us|ns)\s+(.*)$/.exec(lines[0]);
    if (!m) throw new Error(`bad trace line ${lines[0]}`);
    const scale = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }[m[2] as 'ns']!;
    const frames = [m[3], ...lines.slice(1)].map((l) => {
      const name = l.trim();
      return name.endsWith(' (inline)') ? name.slice(0, -' (inline)'.length) + '_[i]' : name;
    });
    const stack = frames.reverse().join(';');
    merged.set(stack, (merged.get(stack) ?? 0) + (Number(m[1]) * scale) / unitNs);
  }
  return [...merged].map(([s, w]) => `${s} ${Math.round(w)}`).sort();
}

function sortedFolded(profile: Profile, view: 'inline' | 'functions' = 'inline'): string[] {
  return collapseLines(profile, { view, fullNames: true }).sort();
}

describe('pprof: a Go CPU profile (runtime/pprof, go1.19)', () => {
  it('gives exactly the stacks and weights of `go tool pprof -traces`, inline frames included', async () => {
    const profile = await load(GO);
    expect(profile.meta.format).toBe('pprof');
    const oracle = tracesToFolded(readFileSync(DIR + 'go-cpu.traces.txt', 'utf8'), 1);
    expect(oracle.length).toBeGreaterThan(20);
    expect(oracle.some((l) => l.includes('main.mix_[i]'))).toBe(true);
    expect(sortedFolded(profile)).toEqual(oracle);
  });

  it('reads the sample types: cpu/nanoseconds by default, samples/count as the sample count', async () => {
    const profile = await load(GO);
    expect(profile.meta.events.map((e) => e.name)).toEqual(['samples/count', 'cpu/nanoseconds']);
    expect(profile.meta.event).toBe('cpu/nanoseconds');
    expect(profile.meta.weightUnit).toBe('nanoseconds');
    expect(profile.meta.events.map((e) => e.samples)).toEqual([profile.meta.samples, profile.meta.samples]);
    const { tree } = profile;
    expect(tree.totalWeight[0]).toBe(tree.totalSamples[0] * 10_000_000);
    expect(profile.meta.samples).toBe(tree.totalSamples[0]);
    const bySamples = await load(GO, { event: 'samples' });
    expect(bySamples.meta.event).toBe('samples/count');
    expect(bySamples.meta.weightUnit).toBeNull();
    expect(bySamples.tree.totalWeight[0]).toBe(tree.totalSamples[0]);
    await expect(load(GO, { event: 'alloc_space' })).rejects.toThrow(/samples of type "alloc_space".*samples\/count/);
  });

  it('marks all but the last line of a location INLINED, and the function view merges them', async () => {
    const profile = await load(GO);
    expect(profile.meta.hasInlineInfo).toBe(true);
    const { frames } = profile;
    const flagsOf = (name: string) => {
      const out: number[] = [];
      for (let f = 0; f < frames.count; f++) if (frameName(frames, f) === name) out.push(frames.flags[f]);
      return out;
    };
    expect(flagsOf('main.mix')).toEqual([FrameFlags.INLINED]);
    expect(flagsOf('main.histogram')).toEqual([0]);
    const inline = sortedFolded(profile, 'inline');
    const functions = sortedFolded(profile, 'functions');
    expect(functions.some((l) => l.includes('main.mix'))).toBe(false);
    expect(functions.some((l) => l.includes('sort.Ints'))).toBe(false);
    const fv = functionView(profile);
    expect(fv.tree.totalWeight[0]).toBe(profile.tree.totalWeight[0]);
    // Every function-view stack is an inline-view stack with the inlined frames removed.
    const stripped = new Map<string, number>();
    for (const line of inline) {
      const sp = line.lastIndexOf(' ');
      const stack = line.slice(0, sp).split(';').filter((f) => !f.endsWith('_[i]')).join(';');
      stripped.set(stack, (stripped.get(stack) ?? 0) + Number(line.slice(sp + 1)));
    }
    expect(functions).toEqual([...stripped].map(([s, w]) => `${s} ${w}`).sort());
  });

  it('sets the module from the mapping (the Go binary)', async () => {
    const profile = await load(GO);
    const { frames } = profile;
    const main = [...Array(frames.count).keys()].find((f) => frameName(frames, f) === 'main.main')!;
    expect(frames.strings[frames.module[main]]).toMatch(/pprofdemo$/);
  });
});

// ---- hand-made profiles, written with the library's BinaryWriter ----------------------------

interface Spec {
  types?: Array<[string, string]>;
  samples: Array<{ locs: number[]; values: number[] }>;
  /** id → [mapping id, function ids innermost first] */
  locations: Record<number, [number, number[]]>;
  functions: Record<number, string>;
  mappings?: Record<number, string>;
  /** Location id → its address (default 0x1000 + id). */
  addresses?: Record<number, bigint>;
  defaultType?: string;
}

function encode(spec: Spec): Uint8Array {
  const strings = [''];
  const s = (x: string) => {
    let i = strings.indexOf(x);
    if (i < 0) i = strings.push(x) - 1;
    return i;
  };
  const w = new BinaryWriter();
  for (const [t, u] of spec.types ?? [['samples', 'count'], ['cpu', 'nanoseconds']]) {
    w.tag(1, 2).fork().tag(1, 0).int64(s(t)).tag(2, 0).int64(s(u)).join();
  }
  for (const sample of spec.samples) {
    w.tag(2, 2).fork();
    w.tag(1, 2).fork();
    for (const l of sample.locs) w.uint64(l);
    w.join();
    w.tag(2, 2).fork();
    for (const v of sample.values) w.int64(v);
    w.join();
    w.join();
  }
  for (const [id, name] of Object.entries(spec.mappings ?? {})) {
    w.tag(3, 2).fork().tag(1, 0).uint64(Number(id)).tag(5, 0).int64(s(name)).join();
  }
  for (const [id, [mapping, fns]] of Object.entries(spec.locations)) {
    w.tag(4, 2).fork().tag(1, 0).uint64(Number(id)).tag(2, 0).uint64(mapping).tag(3, 0).uint64(spec.addresses?.[Number(id)] ?? 0x1000 + Number(id));
    for (const fn of fns) w.tag(4, 2).fork().tag(1, 0).uint64(fn).tag(2, 0).int64(10).join();
    w.join();
  }
  for (const [id, name] of Object.entries(spec.functions)) {
    w.tag(5, 2).fork().tag(1, 0).uint64(Number(id)).tag(2, 0).int64(s(name)).join();
  }
  const dt = spec.defaultType ? s(spec.defaultType) : 0;
  for (const str of strings) w.tag(6, 2).string(str);
  if (dt) w.tag(14, 0).int64(dt);
  return w.finish();
}

const SMALL: Spec = {
  samples: [
    { locs: [1, 2], values: [1, 10] },
    { locs: [3, 2], values: [2, 20] },
    { locs: [4], values: [1, 0] },
  ],
  // location 1: c inlined into b; location 2: main; location 3: kernel frame; 4: no lines.
  locations: { 1: [1, [3, 2]], 2: [1, [1]], 3: [2, [4]], 4: [1, []] },
  functions: { 1: 'main', 2: 'b', 3: 'c', 4: 'do_syscall' },
  mappings: { 1: '/bin/app', 2: '[kernel.kallsyms]' },
};

describe('pprof: hand-made profiles', () => {
  it('builds root-first stacks with inline chains, kernel flags and zero-value records left out', async () => {
    const profile = await load(encode(SMALL));
    expect(dumpTree(profile.tree, profile.frames)).toBe(['main 30/0', '  b 10/0', '    c_[i] 10/10', '  do_syscall 20/20'].join('\n'));
    const k = [...Array(profile.frames.count).keys()].find((f) => frameName(profile.frames, f) === 'do_syscall')!;
    expect(profile.frames.flags[k]).toBe(FrameFlags.KERNEL);
    expect(profile.meta.samples).toBe(3);
    expect(profile.meta.events).toEqual([
      { name: 'samples/count', samples: 4 },
      { name: 'cpu/nanoseconds', samples: 3 },
    ]);
    const bySamples = await load(encode(SMALL), { event: 'samples/count' });
    expect(collapseLines(bySamples).sort()).toEqual(['0x1004 1', 'main;b;c_[i] 1', 'main;do_syscall 2']);
  });

  it("keeps each sample's leaf location address under its physical function, with the mappings", async () => {
    const profile = await load(encode(SMALL));
    const a = profile.leafAddresses!;
    const rows = [...Array(a.count).keys()].map((i) => [frameName(profile.frames, a.frame[i]), a.offset[i], a.weight[i], a.samples[i]]);
    // Location 1 is c inlined into b: the instruction is b's (the symbol in the binary), never c's.
    expect(rows).toEqual([
      ['b', 0x1001, 10, 1],
      ['do_syscall', 0x1003, 20, 2],
    ]);
    expect(a.process!.mappings.map((m) => m.file)).toEqual(['/bin/app', '[kernel.kallsyms]']);
  });

  it('keeps no address it cannot hold exactly (a kernel address past 2^53), none of a location without a mapping, none of 0', async () => {
    const spec: Spec = {
      ...SMALL,
      samples: [...SMALL.samples, { locs: [5, 2], values: [1, 5] }, { locs: [6, 2], values: [1, 7] }],
      locations: { ...SMALL.locations, 5: [0, [2]], 6: [1, [1]] },
      addresses: { 3: 0xffffffff81000010n, 6: 0n },
    };
    const profile = await load(encode(spec));
    const a = profile.leafAddresses!;
    // Only b's instruction at 0x1001 is left: do_syscall's is past 2^53, location 5 has no mapping, 6 no address.
    expect([...Array(a.count).keys()].map((i) => [frameName(profile.frames, a.frame[i]), a.offset[i]])).toEqual([['b', 0x1001]]);
    expect(collapseLines(profile).sort()).toContain('main;b 5');
  });

  it("keeps a Go CPU profile's sampled addresses at the flat times go tool pprof -disasm gives them", async () => {
    const dir = fileURLToPath(new URL('../../../../fixtures/asm-pprof/', import.meta.url));
    const profile = await load(readFileSync(dir + 'loops-go.pb.gz'));
    const a = profile.leafAddresses!;
    for (const fn of ['divide', 'gather', 'branchy']) {
      const want = new Map<number, number>();
      for (const m of readFileSync(`${dir}loops-go.disasm.${fn}.txt`, 'utf8').matchAll(/^\s+(\d+)ms\s+(?:\.|\d+ms)\s+([0-9a-f]+):/gm)) want.set(parseInt(m[2], 16), Number(m[1]) * 1e6);
      const got = new Map<number, number>();
      for (let i = 0; i < a.count; i++) if (frameName(profile.frames, a.frame[i]) === `main.${fn}`) got.set(a.offset[i], a.weight[i]);
      expect(got, fn).toEqual(want);
    }
    expect(a.process!.mappings[0]).toMatchObject({ start: 0x400000, offset: 0, buildId: '584ee30782a94ec510237180526f82db5ca45e3e', file: expect.stringMatching(/\/loops-go$/) });
  });

  it('reads ids past 28 bits and 2^32 exactly, and values of several bytes', async () => {
    const big = 2 ** 40 + 3;
    const spec: Spec = {
      samples: [{ locs: [big, 2 ** 31 + 1], values: [1, 1e12] }],
      locations: { [big]: [1, [3]], [2 ** 31 + 1]: [1, [2 ** 35]] },
      functions: { 3: 'leaf', [2 ** 35]: 'root' },
      mappings: { 1: '/bin/app' },
    };
    const profile = await load(encode(spec));
    expect(collapseLines(profile)).toEqual(['root;leaf 1000000000000']);
  });

  it('honours default_sample_type', async () => {
    const profile = await load(encode({ ...SMALL, defaultType: 'samples' }));
    expect(profile.meta.event).toBe('samples/count');
  });

  it('is also read without gzip and with gzip, chosen by content', async () => {
    const raw = encode(SMALL);
    const a = await load(raw, { source: 'x.txt' });
    const b = await load(gzipSync(raw), { source: 'x.folded' });
    expect(dumpTree(a.tree, a.frames)).toBe(dumpTree(b.tree, b.frames));
  });

  it('keeps the weight of samples that refer to missing locations or functions, with a warning', async () => {
    const profile = await load(encode({ ...SMALL, samples: [{ locs: [9, 2], values: [1, 5] }, { locs: [5], values: [1, 5] }], locations: { ...SMALL.locations, 5: [1, [77]] } }));
    expect(collapseLines(profile).sort()).toEqual(['[unknown function 77] 5', 'main;[unknown location 9] 5']);
    expect(profile.meta.warnings.map((w) => w.message)).toEqual([
      'a sample refers to a missing location',
      'a location line refers to a missing function',
    ]);
  });
});

describe('pprof: bad input', () => {
  it('truncated gzip is an ImportError about the gzip stream', async () => {
    await expect(load(GO.subarray(0, GO.length >> 1))).rejects.toThrow(/gzip stream/);
  });

  it('a truncated protobuf is an ImportError naming pprof and the byte offset', async () => {
    const raw = encode(SMALL);
    const err = await load(raw.subarray(0, raw.length - 3)).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/expected a pprof profile.*invalid protobuf in the field at byte \d+/);
  });

  it('protobuf garbage that is not a profile is not claimed by the pprof importer', () => {
    const garbage = new Uint8Array(4096);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 2654435761) >>> 24;
    expect(pprofImporter.detectBytes(garbage, true)).toBe('no');
    // A valid protobuf of another message (field 1 as a string, field 7 as a string) neither.
    const other = new BinaryWriter().tag(1, 2).string('hello').tag(7, 2).string('x').finish();
    expect(pprofImporter.detectBytes(other, true)).toBe('no');
  });

  it('a folded text that happens to read as protobuf is not claimed (found by fast-check)', async () => {
    // `zA` is field 15 with 65 bytes, then a `\n` field 1 (sample_type) with a body that parses.
    const text = Buffer.from(
      '7a41efbfbf615f5b6b5d3bee80806161ee808061615f5b6a5d203130303030300d0a625f5b695d3b6d61696e3b6161616161613b3b61616161c3a95f5b695d2037313232300d0a5f5b6b5d3b3b616161613b61f09f988020302e32350d0a6161615f5b695d3b61efbfbfe4b8ad2033312e37350d0a',
      'hex',
    );
    expect(pprofImporter.detectBytes(text, true)).toBe('no');
    const profile = await load(text);
    expect(profile.meta.format).toBe('folded');
    expect(collapseLines(profile)).toHaveLength(4);
  });

  it('a profile without sample types is an ImportError', async () => {
    const w = new BinaryWriter().tag(6, 2).string('').tag(6, 2).string('x').finish();
    expect(() => pprofImporter.parseBytes(w, {})).toThrow(/without sample types/);
  });

  it('string indices out of range give a warning, not an exception', async () => {
    const w = new BinaryWriter();
    w.tag(1, 2).fork().tag(1, 0).int64(1).tag(2, 0).int64(2).join();
    w.tag(2, 2).fork().tag(1, 0).uint64(1).tag(2, 0).int64(3).join();
    w.tag(4, 2).fork().tag(1, 0).uint64(1).tag(4, 2).fork().tag(1, 0).uint64(1).join().join();
    w.tag(5, 2).fork().tag(1, 0).uint64(1).tag(2, 0).int64(999).join();
    for (const s of ['', 'samples', 'count']) w.tag(6, 2).string(s);
    const profile = pprofImporter.parseBytes(w.finish(), {});
    expect(collapseLines(profile)).toEqual(['[unknown] 3']);
    expect(profile.meta.warnings[0].message).toMatch(/string 999, past the end/);
  });
});
