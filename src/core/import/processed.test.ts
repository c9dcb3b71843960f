// The processed recording (./processed.ts, ../export/processed.ts): every view of the processed
// form equals the view of the original, for every fixture and random profiles; a corrupted file
// is an ImportError or a consistent recording, never another exception, with its allocation
// bounded by its size.

import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseLines } from '../export/folded';
import { toProcessed } from '../export/processed';
import { ImportError, type Profile } from '../model/profile';
import { profileFrom } from '../testing/tree-dsl';
import { fixtureBytes, RECORDING_FIXTURES } from '../testing/fixtures';
import { makeSnapshot } from '../views/snapshot';
import { functionTable } from '../views/function-table';
import { loadProfileFromText } from './load';
import { decodeProcessed, FORMAT_VERSION, PROCESSED_MAGIC, shuffle, unshuffle } from './processed';

const fixture = fixtureBytes;

/** Everything a view is made of: both views' folded stacks by period and samples, the function table, the samples, the meta. */
function everyView(p: Profile) {
  const snap = makeSnapshot(p);
  const folded = (view: 'inline' | 'functions', weight: 'period' | 'samples') => collapseLines(p, { view, weight, fullNames: true, annotateKernel: true, annotateJit: true });
  const table = functionTable(snap.functions ?? snap.inline, snap.frames);
  return {
    inline: folded('inline', 'period'),
    inlineSamples: folded('inline', 'samples'),
    functions: folded('functions', 'period'),
    functionsSamples: folded('functions', 'samples'),
    table: [Array.from(table.selfWeight), Array.from(table.totalWeight)],
    samples: p.samples ? { leaf: Array.from(p.samples.leaf), time: Array.from(p.samples.time), weight: Array.from(p.samples.weight), thread: p.samples.thread ? Array.from(p.samples.thread) : null, duration: p.samples.duration ? Array.from(p.samples.duration) : null } : null,
    tree: p.tree,
    meta: p.meta,
  };
}


describe('processed recording', () => {
  it.each(RECORDING_FIXTURES)('%s: every view of the processed form (gzipped) equals the original', async (name) => {
    const original = await loadProfileFromText(fixture(name));
    const bytes = gzipSync(toProcessed(original));
    const back = await loadProfileFromText(bytes);
    expect(everyView(back)).toEqual(everyView(original));
  });

  it('keeps a derived event (Wall clock) as its kept event: tree, time order, unit, event list', async () => {
    const text = gunzipSync(fixtureBytes('offcpu/waits-a.perf-script.txt.gz'));
    const original = await loadProfileFromText(text, { event: 'wall' });
    const back = await loadProfileFromText(gzipSync(toProcessed(original)));
    expect(everyView(back)).toEqual(everyView(original));
    expect(back.meta.event).toBe('Wall clock');
    expect(back.meta.weightUnit).toBe('nanoseconds');
    expect(back.meta.events.map((e) => e.name)).toContain('Off-CPU');
    expect(back.samples?.count).toBe(original.samples?.count);
    // Version 3: the off-CPU intervals keep their spans in time order.
    expect(original.samples?.duration?.some((d) => d > 0)).toBe(true);
    expect(Array.from(back.samples!.duration!)).toEqual(Array.from(original.samples!.duration!));
    // The intervals are in the file as the tree's weights: opening it again asks for no other event.
    await expect(loadProfileFromText(gzipSync(toProcessed(original)), { event: 'Wall clock' })).resolves.toBeTruthy();
  });

  it('is a small part of the perf script it came from', async () => {
    const text = fixture('rust-toyc.perf-script.txt');
    const bytes = gzipSync(toProcessed(await loadProfileFromText(text)));
    // 532 samples with dwarf call chains: the text repeats every frame of every sample.
    expect(bytes.length / text.length).toBeLessThan(0.05);
  });

  it('unshuffle inverts shuffle for every element size (the word-at-a-time path for 4 and 8 bytes)', () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 4, 8), fc.uint8Array({ maxLength: 200 }), (size, raw) => {
        const bytes = raw.subarray(0, raw.length - (raw.length % size));
        expect(Array.from(unshuffle(shuffle(bytes, size), size))).toEqual(Array.from(bytes));
      }),
    );
    // A known layout, so that a shuffle and unshuffle wrong the same way cannot pass.
    expect(Array.from(unshuffle(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8), 4))).toEqual([1, 3, 5, 7, 2, 4, 6, 8]);
  });

  it('random profiles read back the same', () => {
    const name = fc.constantFrom('main', 'a', 'b', 'c', 'a_[i]', 'b_[i]', 'k_[k]', 'j_[j]', 'x y', 'é');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(name, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 1000 })), { minLength: 0, maxLength: 30 }), (entries) => {
        const original = profileFrom(entries.map(([s, w]) => `${s.join(';')} ${w}`).join('\n'));
        expect(everyView(decodeProcessed(toProcessed(original)))).toEqual(everyView(original));
      }),
      { numRuns: 200 },
    );
  });

  it('a newer version is refused with a clear message; the header and columns are checked', async () => {
    const good = toProcessed(await loadProfileFromText(fixture('rust-toyc.folded')));
    const newer = good.slice();
    new DataView(newer.buffer).setUint32(PROCESSED_MAGIC.length, FORMAT_VERSION + 1, true);
    expect(() => decodeProcessed(newer, 'x.flameview')).toThrow(/x\.flameview: expected a flameview processed recording \(\.flameview\), found format version 6, newer than this flameview reads \(5\): open it with a newer flameview/);
    expect(() => decodeProcessed(good.subarray(0, good.length - 100))).toThrow(/found column .* bytes with \d+ left \(a cut file\?\)/);
    expect(() => decodeProcessed(good.subarray(0, 24))).toThrow(/too short for its header/);
  });

  it('version 2 keeps the source lines; a version 1 file (no lines) still opens, one with line columns is refused', async () => {
    const { gunzipSync } = await import('node:zlib');
    const original = await loadProfileFromText(gunzipSync(fixture('srcline/hashack.srcline.perf-script.txt.gz')));
    const back = decodeProcessed(toProcessed(original));
    const lines = back.lines!;
    const want = original.lines!;
    expect([...lines.locations.file]).toEqual([...want.locations.file]);
    expect([...lines.locations.line]).toEqual([...want.locations.line]);
    expect([...lines.locatedFrame]).toEqual([...want.locatedFrame]);
    expect([...lines.node]).toEqual([...want.node]);
    for (const key of ['parent', 'frame', 'end', 'selfWeight', 'totalWeight', 'totalSamples'] as const) expect([...lines.tree[key]]).toEqual([...want.tree[key]]);
    // Version 1: written without lines, the version field set to 1.
    const plain = await loadProfileFromText(fixture('rust-toyc.folded'));
    const v1 = toProcessed(plain).slice();
    new DataView(v1.buffer).setUint32(PROCESSED_MAGIC.length, 1, true);
    expect(everyView(decodeProcessed(v1))).toEqual(everyView(plain));
    const v1lines = toProcessed(original).slice();
    new DataView(v1lines.buffer).setUint32(PROCESSED_MAGIC.length, 1, true);
    expect(() => decodeProcessed(v1lines)).toThrow(/in a version 1 file/);
    // A line tree that does not project onto the tree is refused.
    const bad = { ...original, lines: { ...want, node: want.node.map((n, i) => (i === 5 ? 1 : n)) } };
    expect(() => decodeProcessed(toProcessed(bad))).toThrow(/line node 5/);
  });

  it('version 3 adds the spans (sample.duration); a version 2 file without them reads as before, one with them is refused', async () => {
    const cpu = await loadProfileFromText(fixture('rust-toyc.perf-script.txt'));
    expect(cpu.samples?.duration).toBeUndefined();
    const v2 = toProcessed({ ...cpu, leafAddresses: null }).slice(); // written as version 2 wrote it: no addresses (version 4)
    new DataView(v2.buffer).setUint32(PROCESSED_MAGIC.length, 2, true);
    expect(everyView(decodeProcessed(v2))).toEqual(everyView(cpu));
    const offCpu = await loadProfileFromText(gunzipSync(fixtureBytes('offcpu/spans-a.perf-script.txt.gz')), { event: 'off-cpu' });
    const v2spans = toProcessed({ ...offCpu, leafAddresses: null }).slice();
    new DataView(v2spans.buffer).setUint32(PROCESSED_MAGIC.length, 2, true);
    expect(() => decodeProcessed(v2spans)).toThrow(/column sample\.duration in a version 2 file/);
    // A span that lasts a negative time is refused.
    const bad = { ...offCpu, samples: { ...offCpu.samples!, duration: offCpu.samples!.duration!.map((d, i) => (i === 3 ? -1 : d)) } };
    expect(() => decodeProcessed(toProcessed(bad))).toThrow(/sample 3 lasting -1 s/);
  });

  it('version 4 keeps the sampled instructions; a version 3 file (no addresses) still opens, one with address columns is refused', async () => {
    const original = await loadProfileFromText(gunzipSync(fixture('asm/loops.perf-script.txt.gz')));
    const want = original.leafAddresses!;
    expect(want.count).toBeGreaterThan(10);
    const back = decodeProcessed(gunzipSync(gzipSync(toProcessed(original))));
    const rows = (a: NonNullable<Profile['leafAddresses']>) => [Array.from(a.frame), Array.from(a.offset), Array.from(a.weight), Array.from(a.samples)];
    expect(rows(back.leafAddresses!)).toEqual(rows(want));
    expect(everyView(back)).toEqual(everyView(original));
    // Version 3: written without addresses (as version 3 wrote it), the version field set to 3.
    const v3 = toProcessed({ ...original, leafAddresses: null }).slice();
    new DataView(v3.buffer).setUint32(PROCESSED_MAGIC.length, 3, true);
    const old = decodeProcessed(v3);
    expect(old.leafAddresses).toBeUndefined();
    expect(everyView(old)).toEqual(everyView(original));
    const v3addresses = toProcessed(original).slice();
    new DataView(v3addresses.buffer).setUint32(PROCESSED_MAGIC.length, 3, true);
    expect(() => decodeProcessed(v3addresses)).toThrow(/column address\.frame in a version 3 file/);
    // Rows out of order or naming a frame that is not there are refused.
    const swapped = { ...want, offset: want.offset.map((o, i) => (i === 1 ? want.offset[0] : o)) };
    expect(() => decodeProcessed(toProcessed({ ...original, leafAddresses: swapped }))).toThrow(/address 1 out of order/);
    const stray = { ...want, frame: want.frame.map((f, i) => (i === want.count - 1 ? original.frames.count : f)) };
    expect(() => decodeProcessed(toProcessed({ ...original, leafAddresses: stray }))).toThrow(/address \d+ of frame \d+ of \d+/);
  });

  it('version 5 keeps each sample\'s line-tree node; a version 4 file without it opens, one with it is refused', async () => {
    const original = await loadProfileFromText(gunzipSync(fixture('srcline/hashack.srcline.perf-script.txt.gz')));
    const want = original.samples!.line!;
    expect(want.some((l) => l > 0)).toBe(true);
    const back = decodeProcessed(gunzipSync(gzipSync(toProcessed(original))));
    expect(Array.from(back.samples!.line!)).toEqual(Array.from(want));
    // Version 4: written without the column, the version field set to 4.
    const v4 = toProcessed({ ...original, samples: { ...original.samples!, line: undefined } }).slice();
    new DataView(v4.buffer).setUint32(PROCESSED_MAGIC.length, 4, true);
    expect(decodeProcessed(v4).samples!.line).toBeUndefined();
    const v4line = toProcessed(original).slice();
    new DataView(v4line.buffer).setUint32(PROCESSED_MAGIC.length, 4, true);
    expect(() => decodeProcessed(v4line)).toThrow(/column sample\.line in a version 4 file/);
    const stray = { ...original, samples: { ...original.samples!, line: want.map((l, i) => (i === 5 ? original.lines!.tree.nodeCount : l)) } };
    expect(() => decodeProcessed(toProcessed(stray))).toThrow(/sample 5 at line-tree node \d+ of \d+/);
  });

  it("version 5 keeps pprof's addresses in the process with their mappings; a version 4 file with mappings is refused", async () => {
    const original = await loadProfileFromText(fixture('asm-pprof/loops-go.pb.gz'));
    const want = original.leafAddresses!;
    expect(want.process!.mappings.length).toBeGreaterThan(0);
    const back = decodeProcessed(toProcessed(original));
    expect(Array.from(back.leafAddresses!.offset)).toEqual(Array.from(want.offset));
    expect(back.leafAddresses!.process).toEqual(want.process);
    // perf's offsets in their symbols stay that: no mappings.
    const perf = decodeProcessed(toProcessed(await loadProfileFromText(gunzipSync(fixture('asm/loops.perf-script.txt.gz')))));
    expect(perf.leafAddresses!.process).toBeUndefined();
    const v4 = toProcessed(original).slice();
    new DataView(v4.buffer).setUint32(PROCESSED_MAGIC.length, 4, true);
    expect(() => decodeProcessed(v4)).toThrow(/address mappings in a version 4 file/);
    const bad = { ...want, process: { mappings: [{ ...want.process!.mappings[0], start: -1 }] } };
    expect(() => decodeProcessed(toProcessed({ ...original, leafAddresses: bad }))).toThrow(/address mapping 0 of the wrong shape/);
  });

  it('fuzz: flipped bytes, cuts and lying lengths give an ImportError or a consistent recording, allocation bounded by the size', async () => {
    const originals = await Promise.all(['rust-toyc.perf-script.txt', 'cpp/recur.perf-script.txt', 'asm/loops.perf-script.txt.gz'].map(async (n) => toProcessed(await loadProfileFromText(fixture(n)))));
    const corrupt = fc.tuple(
      fc.constantFrom(...originals),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
      fc.option(fc.nat(), { nil: undefined }),
      fc.boolean(),
    );
    let decoded = 0;
    fc.assert(
      fc.property(corrupt, ([good, flips, cut, inHeader]) => {
        const bytes = good.slice(0, cut === undefined ? good.length : cut % (good.length + 1));
        // Half the flips land in the first 400 bytes: the version, lengths and header JSON.
        for (const [at, value] of flips) if (bytes.length > 0) bytes[inHeader ? at % Math.min(400, bytes.length) : at % bytes.length] = value;
        const heapBefore = process.memoryUsage().arrayBuffers;
        let p: Profile;
        try {
          p = decodeProcessed(bytes);
        } catch (e) {
          expect(e).toBeInstanceOf(ImportError);
          return;
        }
        decoded++;
        // Consistent: every node inside its parent's range, totals the sum of the selfs below.
        const t = p.tree;
        for (let n = 1; n < t.nodeCount; n++) {
          expect(n > t.parent[n] && t.end[n] <= t.end[t.parent[n]]).toBe(true);
          expect(t.frame[n] >= 0 && t.frame[n] < p.frames.count).toBe(true);
        }
        expect(t.totalWeight[0]).toBeCloseTo(t.selfWeight.reduce((a, b) => a + b, 0), 6);
        // What decoding kept is bounded by the input: columns, derived columns, strings.
        expect(process.memoryUsage().arrayBuffers - heapBefore).toBeLessThan(16 * bytes.length + (1 << 20));
      }),
      { numRuns: 400 },
    );
    // Flips in weights and padding still decode: the test sees both outcomes.
    expect(decoded).toBeGreaterThan(0);
  });

  it('keeps one event: asking for another one says to open the original', async () => {
    const original = await loadProfileFromText(fixture('rust-toyc.perf-script.txt'));
    const bytes = toProcessed(original);
    expect((await loadProfileFromText(bytes, { event: original.meta.event! })).meta.event).toBe(original.meta.event);
    // The page learns from the snapshot that another event or split needs the original.
    expect(original.processed).toBeUndefined();
    expect(makeSnapshot(decodeProcessed(bytes)).processed).toBe(true);
    await expect(loadProfileFromText(bytes, { event: 'cycles', source: 'r.flameview' })).rejects.toThrow(
      `r.flameview: expected the event kept in this processed recording (${original.meta.event}), found a request for "cycles": open the original recording for it`,
    );
  });

  it('a gzipped processed file is detected by content, whatever its name', async () => {
    const bytes = gzipSync(toProcessed(await loadProfileFromText(fixture('rust-toyc.folded'))));
    expect(gunzipSync(bytes).subarray(0, PROCESSED_MAGIC.length).toString()).toBe(PROCESSED_MAGIC);
    const back = await loadProfileFromText(bytes, { source: 'anything.txt' });
    expect(back.meta.format).toBe('folded');
  });
});
