// Parallel parsing is exact: a recording parsed in parts cut at random sample boundaries and
// merged is the profile one parser gives, bit for bit (tree, order, totals, function view
// statistics, time-order column, warnings with their true line numbers).

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AbortedError, loadPart, loadProfileFromText, probeSplit } from '../import/load';
import { PerfLateMerge } from '../import/perf/perf-late';
import type { PerfPartMeta } from '../import/perf/perf-parts';
import { mergeParts } from './merge';
import { chunked, expectSameProfile, loadSplitOrNull as loadSplitAt } from '../testing/split-parts';
import { syntheticPerf } from '../testing/synthetic-perf';
import { awaitPart, boundaryIn, findCuts, importerFor, loadInParts, MIN_PART_BYTES, minPartBytes, parsePartJob, partCount, type PartJob, type PartMessage, type PartRunner, type RangeSource } from './split';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url)));

const FIXTURES = [
  'rust-toyc.perf-script.txt',
  'sqlite.perf-script.txt',
  'rust-toyc.fp.perf-script.txt',
  'sqlite.no-callchain.perf-script.txt',
  'rust-toyc.comm-trailing-digit.perf-script.txt',
  'rust-toyc.folded',
  'rust-toyc.diff.folded',
  'sqlite.folded',
  // Recursion through one call site and functions inlined into themselves: samples that wait for
  // the whole recording's run statistics (perf-runs.ts), folded by the merge (perf-late.ts).
  'cpp/recur.perf-script.txt',
  'cpp/funcs.perf-script.txt',
  'cpp/mixed-clang.perf-script.txt',
  'cpp/maps.perf-script.txt',
  'cpp/recur.no-inline.perf-script.txt',
  // Self-inlined fib and ack, and short DWARF names named by their ELF symbol (functionFrames).
  'cpp/fibmix.perf-script.txt',
  'cpp/sortptr.perf-script.txt',
  'cpp/hashack.perf-script.txt',
  // Recursion of fixed depths, and doubled .part clones: decided by evidence seen in some part.
  'cpp/fixdepth.perf-script.txt',
  'cpp/partrec.perf-script.txt',
  'sqlite.fp.perf-script.txt',
  'rust-toyc.run-a.perf-script.txt',
];

// Recordings printed with -F +srcline (fixtures/srcline/, fixtures/source/): the parts' line trees
// merge into the one parser's (locations, located ids, line tree, its nodes in the call tree).
const SRCLINE = [
  'srcline/funcs.srcline.perf-script.txt.gz',
  'srcline/hashack.srcline.perf-script.txt.gz',
  'srcline/mixed-clang.srcline.perf-script.txt.gz',
  'srcline/toyc.srcline.perf-script.txt.gz',
  'srcline/loop.no-callchain.srcline.perf-script.txt.gz',
  'source/hot.srcline.perf-script.txt',
];

const MERGED_WITH_LINES = ['srcline/loop.no-callchain.srcline.perf-script.txt.gz', 'source/hot.srcline.perf-script.txt'];

describe('split and merge', () => {
  for (const name of SRCLINE) {
    it(`${name}: source lines of parts cut at random boundaries merge to the one parser's`, async () => {
      const raw = fixture(name);
      const bytes = name.endsWith('.gz') ? new Uint8Array(gunzipSync(raw)) : raw;
      const whole = await loadProfileFromText(bytes);
      expect(whole.lines).toBeTruthy();
      let merges = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { minLength: 1, maxLength: 7 }), async (offsets) => {
          const merged = await loadSplitAt(bytes, offsets);
          // Late samples (recursion through one call site) send the input to one parser.
          if (merged === null) return;
          merges++;
          expectSameProfile(merged, whole);
        }),
        { numRuns: 5 },
      );
      // Those with samples that wait for the whole recording's run statistics are read by one parser.
      if (MERGED_WITH_LINES.includes(name)) expect(merges, 'inputs merged in parts').toBeGreaterThan(0);
    });
  }

  for (const name of FIXTURES) {
    it(`${name}: parts cut at random boundaries merge to the one-parser profile`, async () => {
      const bytes = fixture(name);
      const whole = await loadProfileFromText(bytes);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { minLength: 1, maxLength: 7 }), fc.integer({ min: 7, max: 1 << 17 }), async (offsets, chunk) => {
          const merged = await loadSplitAt(bytes, offsets, {}, chunk);
          expect(merged).not.toBeNull();
          expectSameProfile(merged!, whole);
        }),
        { numRuns: 6 },
      );
    });
  }
});

// Generated recordings with what the fixtures lack: junk lines (quoted warnings with line
// numbers), several events, bad periods, samples without a time, doubled physical lines and
// real recursion (the function view's doubled-frame statistics), modules given as [unknown],
// CRLF line ends, comment blocks and blank runs.
const SYMBOLS = ['main', 'run', 'parse', 'lex', 'std::vec::Vec<T>::push', 'hash_one', 'recurse', '[unknown]'];
const DSOS = ['/build/app', '/usr/lib/libc.so.6', '[kernel.kallsyms]', '[unknown]'];
const EVENTS = ['cpu-clock:ppp:', 'cycles:u:', 'instructions:'];
const JUNK = ['garbage line', '\tnot a frame', '   ', '# comment', 'x 1: y', '\t  zz (', '<b>&</b>'];

const perfFrame = fc.record({
  address: fc.integer({ min: 0x1000, max: 0x1010 }),
  symbol: fc.constantFrom(...SYMBOLS),
  dso: fc.constantFrom(...DSOS),
  inlined: fc.array(fc.constantFrom(...SYMBOLS), { maxLength: 2 }),
  repeat: fc.constantFrom(1, 1, 1, 2, 3),
});
const perfSample = fc.record({
  comm: fc.constantFrom('app', 'app worker', 'perf'),
  tid: fc.integer({ min: 1, max: 40 }),
  time: fc.option(fc.integer({ min: 0, max: 10 ** 6 }), { freq: 12, nil: -1 }),
  period: fc.oneof(fc.integer({ min: 0, max: 10 ** 7 }).map(String), fc.constant('-3'), fc.constant('')),
  event: fc.constantFrom(...EVENTS),
  frames: fc.array(perfFrame, { maxLength: 6 }),
  junk: fc.option(fc.constantFrom(...JUNK), { freq: 5 }),
  blanks: fc.constantFrom(1, 1, 1, 2),
});

type PerfSample = typeof perfSample extends fc.Arbitrary<infer T> ? T : never;

function perfText(samples: PerfSample[], crlf: boolean): string {
  const lines = ['# ========', '# captured on: test', '# ========', '#'];
  for (const s of samples) {
    const time = s.time < 0 ? '' : ` ${(s.time / 1000).toFixed(6)}:`;
    lines.push(`${s.comm} ${String(s.tid).padStart(5)}${time} ${s.period.padStart(8)} ${s.event} `);
    for (const f of s.frames) {
      const at = f.address.toString(16).padStart(16);
      for (let r = 0; r < f.repeat; r++) {
        for (const name of f.inlined) lines.push(`\t${at} ${name}+0x1 (inlined)`);
        lines.push(`\t${at} ${f.symbol}+0x1 (${f.dso})`);
      }
    }
    if (s.junk !== null) lines.push(s.junk);
    for (let b = 0; b < s.blanks; b++) lines.push('');
  }
  return lines.join(crlf ? '\r\n' : '\n');
}

const foldedLine = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.array(fc.constantFrom('a', 'b', 'c_[i]', 'd_[k]', 'a_[j]', 'é'), { minLength: 1, maxLength: 5 }), fc.nat(50)).map(([s, n]) => `${s.join(';')} ${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('a;b', 'a;b x', 'a;b -1', '', '# c', '  ', 'q;r 3\r') },
);

async function expectSameError(split: Promise<unknown>, error: unknown): Promise<void> {
  const got = await split.then(
    (v) => v,
    (e: unknown) => e,
  );
  if (got !== null) expect((got as Error).message).toBe((error as Error).message);
}

const cutOffsets = () => fc.array(fc.nat(), { minLength: 1, maxLength: 6 });

describe('split and merge of generated recordings', () => {
  const cut = cutOffsets();

  it('perf script: junk, events, bad periods, no times, inline groups, doubled lines', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(perfSample, { minLength: 1, maxLength: 40 }), fc.boolean(), cut, fc.constantFrom(undefined, 'cycles'), async (samples, crlf, offsets, event) => {
        const bytes = new TextEncoder().encode(perfText(samples, crlf));
        let whole;
        try {
          whole = await loadProfileFromText(bytes, { event });
        } catch (e) {
          // A requested event that never occurs: the merge throws the same error (or the input
          // is not split, and the one-parser path throws it).
          await expectSameError(loadSplitAt(bytes, offsets.map((o) => o % bytes.length), { event }), e);
          return;
        }
        const merged = await loadSplitAt(bytes, offsets.map((o) => o % bytes.length), { event }, 13);
        if (merged === null) return; // the start decided no event: not split
        expectSameProfile(merged, whole);
      }),
      { numRuns: 150 },
    );
  });

  it('a folded frame takes its twin\'s module from the part that gave it first', async () => {
    // Found by the property above (seed 363537384): part 2 knew `parse` only in /build/app and
    // folded its leaf run there, while one parser had met `parse` in [unknown] first. A frame made
    // by folding takes its twin's module when the table is finished (FrameTableBuilder.finish).
    const frame = (name: string, dso: string) => `\t            1000 ${name}+0x1 (${dso})`;
    const group = [frame('main', 'inlined'), frame('parse', '/build/app')];
    const text = ['#', 'app     1 0.000000:        0 cpu-clock:ppp: ', frame('parse', '[unknown]'), '', 'app     1 0.000000:        0 cpu-clock:ppp: ', ...group, ...group, ...group, ''].join('\n');
    const bytes = new TextEncoder().encode(text);
    const merged = await loadSplitAt(bytes, [1]);
    expect(merged).not.toBeNull();
    expectSameProfile(merged!, await loadProfileFromText(bytes));
  });

  it('a frame perf printed below its address\'s physical line keeps the module of its own line', async () => {
    // Found by the property above (seed 1911221618): hash_one is folded at 0x1000 under main, in libc.
    const text = ['#', 'app     1 0.000000:        0 cpu-clock:ppp: ', '\t            1001 hash_one+0x1 (/build/app)', '\t            1000 hash_one+0x1 (/usr/lib/libc.so.6)', '\t            1000 main+0x1 (/build/app)', '', 'app     1        cpu-clock:ppp: ', ''].join('\n');
    const bytes = new TextEncoder().encode(text);
    const merged = await loadSplitAt(bytes, [1]);
    expect(merged).not.toBeNull();
    expectSameProfile(merged!, await loadProfileFromText(bytes));
  });

  it('folded: bad lines, comments, differential input, zero counts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(foldedLine, { minLength: 1, maxLength: 60 }), fc.boolean(), cut, async (lines, differential, offsets) => {
        const text = lines.map((l) => (differential && /\d$/.test(l) ? l.replace(/ (\d+)$/, ' 7 $1') : l)).join('\n');
        const bytes = new TextEncoder().encode(text);
        let whole;
        try {
          whole = await loadProfileFromText(bytes);
        } catch (e) {
          await expectSameError(loadSplitAt(bytes, offsets.map((o) => o % bytes.length)), e);
          return;
        }
        const merged = await loadSplitAt(bytes, offsets.map((o) => o % bytes.length), {}, 5);
        if (merged === null) return;
        expectSameProfile(merged, whole);
      }),
      { numRuns: 200 },
    );
  });

  it('folded with decimal counts: sums round as one parser rounds them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('a;b', 'a;c', 'a;b;d'), fc.integer({ min: 0, max: 10 ** 6 }), fc.nat(3)), { minLength: 2, maxLength: 50 }), cutOffsets(), async (rows, offsets) => {
        const bytes = new TextEncoder().encode(rows.map(([s, n, d]) => `${s} ${(n / 10 ** d).toString()}`).join('\n'));
        const merged = await loadSplitAt(bytes, offsets.map((o) => o % bytes.length));
        expectSameProfile(merged!, await loadProfileFromText(bytes));
      }),
      { numRuns: 200 },
    );
    // 0.1 + 0.2 + 0.3 in order is 0.6000000000000001; (0.1 + 0.2) + 0.3 merged by part sums too,
    // but 0.1 + (0.2 + 0.3) would be 0.6: the replay keeps one parser's order.
    const bytes = new TextEncoder().encode('a;b 0.1\na;b 0.2\na;b 0.3\n');
    const merged = await loadSplitAt(bytes, [9]);
    expect(merged!.tree.totalWeight[0]).toBe(0.1 + 0.2 + 0.3);
    expect(merged!.meta.samples).toBe(0.1 + 0.2 + 0.3);
  });
});

describe('samples kept aside past the limit', () => {
  it('when one parser would have folded kept-aside samples early, the merge gives up (null: one parser reads the file)', async () => {
    const bytes = fixture('sqlite.perf-script.txt');
    const probe = probeSplit(bytes, true)!;
    const cut = boundaryIn(bytes, bytes.length >> 1, 'blank-line');
    const parts = [
      await loadPart(chunked(bytes.subarray(0, cut)), probe.importer),
      await loadPart(chunked(bytes.subarray(cut)), probe.importer, { partContext: probe.context }),
    ];
    const lowLimit = { ...probe.importer, lateSamples: (metas: readonly unknown[]) => PerfLateMerge.of(metas as PerfPartMeta[], 100) };
    expect(mergeParts(parts, lowLimit)).toBeNull();
    expectSameProfile(mergeParts(parts, probe.importer)!, await loadProfileFromText(bytes));
  });
});

describe('cuts', () => {
  it('a part starts after a line end (folded) or after an empty line (perf script)', () => {
    const bytes = new TextEncoder().encode('h 1\n\ta\n\nh 2\r\n\r\nh 3\n');
    expect(boundaryIn(bytes, 1, 'line')).toBe(4);
    expect(boundaryIn(bytes, 1, 'blank-line')).toBe(8);
    expect(boundaryIn(bytes, 8, 'blank-line')).toBe(8);
    expect(boundaryIn(bytes, 9, 'blank-line')).toBe(15);
    expect(boundaryIn(bytes, 16, 'blank-line')).toBe(-1);
  });

  it('cuts cover the input in increasing, non-empty parts', async () => {
    const text = 'a;b 1\n'.repeat(1000);
    const bytes = new TextEncoder().encode(text);
    const source = { size: bytes.length, read: async (s: number, e: number) => bytes.subarray(s, e) };
    const cuts = await findCuts(source, 4, 'line');
    expect(cuts).toEqual([0, 1500, 3000, 4500, 6000]);
    expect(await findCuts(source, 3, 'blank-line')).toBeNull();
  });

  it('one part per worker, each at least the minimum size', () => {
    expect(partCount(100, 8, 30)).toBe(3);
    expect(partCount(10, 8, 30)).toBe(1);
    expect(partCount(10 ** 9, 2, 30)).toBe(2);
  });

  it('chunked hands out every byte in order', async () => {
    const bytes = new Uint8Array([1, 2, 3, 4, 5]);
    const got: number[] = [];
    for await (const c of chunked(bytes, 2)) got.push(...c);
    expect(got).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('loadInParts', () => {
  const text = 'a;b 1\n'.repeat(3000);
  const bytes = new TextEncoder().encode(text);
  const source = { size: bytes.length, read: async (s: number, e: number) => bytes.subarray(s, e) };

  it('runs one job per part with the context for all but the first, and merges them', async () => {
    const jobs: PartJob[] = [];
    const run: PartRunner = async (job, progress) => {
      jobs.push(job);
      const part = await loadPart(chunked(bytes.subarray(job.start, job.end)), importerFor(job.format), job.options);
      progress({ bytesRead: job.end - job.start, samples: 0 });
      return part;
    };
    const reported: number[] = [];
    const p = await loadInParts(source, run, { workers: 3, minPartBytes: 1000, onProgress: (x) => reported.push(x.bytesRead) });
    expectSameProfile(p!, await loadProfileFromText(bytes));
    // The workers' jobs are started first, the last part first.
    expect(jobs.map((j) => [j.start, j.end, j.options.partContext])).toEqual([
      [12000, 18000, { differential: false }],
      [6000, 12000, { differential: false }],
      [0, 6000, undefined],
    ]);
    expect(reported.at(-1)).toBe(bytes.length);
  });

  it('with readHere the first part is parsed on this thread, the others by the runner', async () => {
    const perfBytes = new TextEncoder().encode(syntheticPerf(1500));
    const ranges = { size: perfBytes.length, read: async (s: number, e: number) => perfBytes.subarray(s, e) };
    const jobs: number[] = [];
    const here: [number, number][] = [];
    const run: PartRunner = async (job, progress) => {
      jobs.push(job.index);
      const part = await loadPart(chunked(perfBytes.subarray(job.start, job.end)), importerFor(job.format), job.options);
      progress({ bytesRead: job.end - job.start, samples: 0 });
      return part;
    };
    const readHere = (job: PartJob) => {
      here.push([job.start, job.end]);
      return chunked(perfBytes.subarray(job.start, job.end));
    };
    const reported: number[] = [];
    const timings = { parts: 0, partsMs: 0, mergeMs: 0, cpuClock: () => performance.now() };
    const merged = await loadInParts(ranges, run, { workers: 3, minPartBytes: 1000, readHere, timings, onProgress: (p) => reported.push(p.bytesRead) });
    expectSameProfile(merged!, await loadProfileFromText(perfBytes));
    expect(jobs.sort()).toEqual([1, 2]);
    expect(here).toHaveLength(1);
    expect(here[0][0]).toBe(0);
    expect(reported.at(-1)).toBe(perfBytes.length);
    expect((timings as { partCpuMs?: number[] }).partCpuMs?.[0]).toBeGreaterThan(0);
  });

  it('an error in a worker cancels the part parsed here, and one here cancels the workers', async () => {
    // A worker fails while this thread is still reading its part: the read stops (AbortedError
    // inside), and the load throws the worker's error.
    let hereChunks = 0;
    let hereStopped: () => void = () => {};
    const stopped = new Promise<void>((resolve) => (hereStopped = resolve));
    const slowHere = async function* (job: PartJob) {
      try {
        for (let at = job.start; at < job.end; at += 100) {
          hereChunks++;
          await new Promise((r) => setTimeout(r, 1));
          yield bytes.subarray(at, Math.min(job.end, at + 100));
        }
      } finally {
        hereStopped();
      }
    };
    const failing: PartRunner = () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('disk on fire')), 5));
    await expect(loadInParts(source, failing, { workers: 3, minPartBytes: 1000, readHere: slowHere })).rejects.toThrow('disk on fire');
    // The part parsed here stops reading soon after (it is not awaited by the failed load).
    await stopped;
    expect(hereChunks).toBeLessThan(50);
    // This thread's part fails: the workers are told to stop.
    const aborted: number[] = [];
    const waiting: PartRunner = (job, _progress, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => (aborted.push(job.index), reject(new AbortedError()))));
    const broken = async function* (): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(0);
      throw new Error('read failed');
    };
    await expect(loadInParts(source, waiting, { workers: 3, minPartBytes: 1000, readHere: broken })).rejects.toThrow('read failed');
    expect(aborted.sort()).toEqual([1, 2]);
  });

  it('an error in one part cancels the others and is what the load throws', async () => {
    const aborted: number[] = [];
    const run: PartRunner = (job, _progress, signal) =>
      new Promise((_resolve, reject) => {
        if (job.index === 1) return void setTimeout(() => reject(new Error('disk on fire')), 5);
        signal.addEventListener('abort', () => {
          aborted.push(job.index);
          reject(new AbortedError());
        });
      });
    await expect(loadInParts(source, run, { workers: 3, minPartBytes: 1000 })).rejects.toThrow('disk on fire');
    expect(aborted.sort()).toEqual([0, 2]);
  });

  it('a recording whose samples wait for the whole recording is merged through part workers', async () => {
    const recursive = readFileSync(new URL('../../../fixtures/rust-toyc.perf-script.txt', import.meta.url), 'utf8');
    const mixed = new TextEncoder().encode(syntheticPerf(3000) + recursive);
    const ranges = { size: mixed.length, read: async (s: number, e: number) => mixed.subarray(s, e) };
    const run: PartRunner = (job, progress, signal) => {
      let onMessage: (m: PartMessage) => void = () => {};
      const done = awaitPart({ listen: (m) => (onMessage = m), terminate: () => {} }, progress, signal);
      void parsePartJob(chunked(mixed.subarray(job.start, job.end)), job, (m) => onMessage(m));
      return done;
    };
    const merged = await loadInParts(ranges, run, { workers: 2, minPartBytes: 1000 });
    expectSameProfile(merged!, await loadProfileFromText(mixed));
  });

  it('cancel from the caller rejects with AbortedError', async () => {
    const controller = new AbortController();
    const run: PartRunner = (_job, _progress, signal) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new AbortedError())));
    const load = loadInParts(source, run, { workers: 2, minPartBytes: 1000, signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(load).rejects.toBeInstanceOf(AbortedError);
  });
});

describe('how many parts: the measured smallest part of each format', () => {
  const MiB = 1024 * 1024;
  /** `size` bytes of `name` repeated, read only where asked (the probe and around the cuts). */
  const repeated = (name: string, size: number): RangeSource => {
    const one = fixture(name);
    return {
      size,
      read: async (start, end) => {
        const out = new Uint8Array(Math.max(0, Math.min(end, size) - start));
        for (let i = 0; i < out.length; i++) out[i] = one[(start + i) % one.length];
        return out;
      },
    };
  };
  /** The jobs loadInParts starts (each stopped at once), or null when it does not split. */
  const jobsFor = async (source: RangeSource, workers: number): Promise<PartJob[] | null> => {
    const jobs: PartJob[] = [];
    const run: PartRunner = async (job) => {
      jobs.push(job);
      throw new Error('stop');
    };
    try {
      return (await loadInParts(source, run, { workers })) === null ? null : jobs;
    } catch (e) {
      if ((e as Error).message !== 'stop') throw e;
      return jobs.sort((a, b) => a.index - b.index);
    }
  };

  it('perf script: parts of at least 128 MiB, folded stacks: at least 384 MiB', async () => {
    expect(minPartBytes('perf-script')).toBe(128 * MiB);
    expect(minPartBytes('folded')).toBe(384 * MiB);
    expect(MIN_PART_BYTES).toBe(128 * MiB);
    // 200 MB of perf script is read by one parser (2 parts were 0.79× one parser's speed)...
    expect(await jobsFor(repeated('sqlite.perf-script.txt', 200e6), 2)).toBeNull();
    // ...300 MB in 2 parts, 600 MB on 8 cores in 4 parts of 150 MB, each cut after a blank line.
    const two = await jobsFor(repeated('sqlite.perf-script.txt', 300e6), 2);
    expect(two?.map((j) => j.format)).toEqual(['perf-script', 'perf-script']);
    const four = await jobsFor(repeated('sqlite.perf-script.txt', 600e6), 8);
    expect(four).toHaveLength(4);
    const bytes = fixture('sqlite.perf-script.txt');
    for (const job of four!.slice(1)) {
      expect(bytes[(job.start - 1) % bytes.length]).toBe(10);
      expect(bytes[(job.start - 2) % bytes.length]).toBe(10);
    }
    // Folded stacks parse 2-3× faster a byte, so the worker's fixed cost needs larger parts.
    expect(await jobsFor(repeated('sqlite.folded', 600e6), 8)).toBeNull();
    expect(await jobsFor(repeated('sqlite.folded', 1000e6), 8)).toHaveLength(2);
  });
});
