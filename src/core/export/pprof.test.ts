// pprof export (./pprof.ts) read back by flameview's own pprof importer: every view the same as
// the recording's, for every fixture (Go's own CPU profile included). `go tool pprof` reading the same bytes is checked in src/cli/convert.test.ts.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseLines } from './folded';
import { pprofEventName, toPprof } from './pprof';
import { decodePprof } from '../import/pprof/pprof-decode';
import { loadProfileFromText } from '../import/load';
import type { Profile } from '../model/profile';
import { profileFrom } from '../testing/tree-dsl';
import { fixtureBytes, RECORDING_FIXTURES } from '../testing/fixtures';
import { FrameFlags } from '../model/types';
import { framesMatching, functionLines, leafLineWeights } from '../query/source-lines';
import { functionView } from '../views/function-view';

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
    expect(original.meta.event).toBe('cpu-clock:ppp');
    // perf's modifiers are not part of the name pprof shows (`-sample_index=cpu-clock`).
    expect(back.meta.events.map((e) => e.name)).toEqual(['samples/count', 'cpu-clock/nanoseconds']);
    expect(back.meta.event).toBe('cpu-clock/nanoseconds');
  });

  it("names the event without perf's modifiers, a tracepoint's name whole", () => {
    expect(pprofEventName('cpu-clock/freq=999/')).toBe('cpu-clock');
    expect(pprofEventName('cpu-clock:ppp')).toBe('cpu-clock');
    expect(pprofEventName('cycles:u')).toBe('cycles');
    expect(pprofEventName('cycles')).toBe('cycles');
    expect(pprofEventName('sched:sched_switch')).toBe('sched:sched_switch');
    expect(pprofEventName('probe_prog:enter')).toBe('probe_prog:enter');
    expect(pprofEventName('/odd/')).toBe('/odd/');
    expect(pprofEventName('cpu_core/cycles/')).toBe('cpu_core/cycles');
    expect(pprofEventName('cpu_atom/cycles/u')).toBe('cpu_atom/cycles');
    expect(pprofEventName('cpu/name=loads,event=0xd0,period=1000/')).toBe('loads');
    expect(pprofEventName('cpu/event=0x3c,umask=0x00,freq=99/')).toBe('cpu/event=0x3c,umask=0x00');
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

// Source lines: the recordings that carry them (perf script -F +srcline, a .cpuprofile, Go's own
// CPU profile) read back with each line's weight, the leaf's (what `perf report --sort srcline`
// sums) and every frame's, the callers' call-site lines included.
const LINE_FIXTURES = [
  'srcline/hashack.srcline.perf-script.txt.gz',
  'srcline/funcs.srcline.perf-script.txt.gz',
  'source/hot.srcline.perf-script.txt',
  'interchange/node.cpuprofile',
  'interchange/go-cpu.pb.gz',
] as const;

/** A line table with its weights rounded as pprof's int64 counts are. */
const rounded = (m: Map<string | null, number> | null) => new Map([...(m ?? [])].map(([k, v]) => [k, Math.round(v)]));

describe('pprof export: source lines', () => {
  it.each(LINE_FIXTURES)('%s: every leaf line reads back with its weight', async (name) => {
    const original = await loadProfileFromText(fixture(name));
    expect(original.lines).toBeTruthy();
    const back = await readBack(original);
    const want = rounded(leafLineWeights(original));
    const got = rounded(leafLineWeights(back));
    expect(want.size).toBeGreaterThan(1);
    // Within one unit per line: a line's weight is the sum of several samples, each rounded.
    for (const [line, w] of want) expect(Math.abs((got.get(line) ?? 0) - w), `${line}`).toBeLessThanOrEqual(1);
    expect([...got.keys()].filter((k) => !want.has(k))).toEqual([]);
  });

  it.each(LINE_FIXTURES)('%s: the heaviest functions keep their lines, self and total, in the function view', async (name) => {
    const original = await loadProfileFromText(fixture(name));
    const back = await readBack(original);
    const rows = (p: typeof original, view: 'functions' | 'inline', fn: string) =>
      functionLines(p, view, framesMatching(p, view, (n) => n === fn))?.lines.map((l) => ({ at: `${l.file}:${l.line}`, self: l.self, total: l.total })) ?? [];
    // The five heaviest by self weight in the function view.
    const fv = functionView(original)?.tree ?? original.tree;
    const self = new Map<string, number>();
    for (let n = 1; n < fv.nodeCount; n++) {
      const name = original.frames.strings[original.frames.name[fv.frame[n]]];
      self.set(name, (self.get(name) ?? 0) + fv.selfWeight[n]);
    }
    const names = [...self].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n]) => n);
    expect(names.length).toBeGreaterThan(0);
    // The function view only: read back, the inline view names a physical frame as its function
    // (see physicalNamed), and an inlined function's own lines are the leaf lines above.
    for (const view of ['functions'] as const) {
      for (const fn of names) {
        const want = rows(original, view, fn);
        const got = rows(back, view, fn);
        expect(want.length, fn).toBeGreaterThan(0);
        expect(got.map((r) => r.at), `${view} ${fn}`).toEqual(want.map((r) => r.at));
        // Within one unit: a .cpuprofile splits a sample between lines, and pprof's counts are integers.
        got.forEach((r, i) => {
          expect(Math.abs(r.self - want[i].self), `${view} ${fn} ${r.at}`).toBeLessThanOrEqual(1);
          expect(Math.abs(r.total - want[i].total), `${view} ${fn} ${r.at}`).toBeLessThanOrEqual(1);
        });
      }
    }
  });

  it('weights that only add up within rounding: no negative count, no stray sample, each node its rounded total', async () => {
    const original = await loadProfileFromText(fixture('source/hot.srcline.perf-script.txt'));
    const lines = original.lines!;
    const samplesOf = (p: ReturnType<typeof decodePprof>) => p.valueStart.length - 1;
    const written = samplesOf(decodePprof(toPprof(original)));
    // A node whose self weight the line tree splits three ways: parts 95.1, 26.1 and 0.3 sum to
    // 121.5 in one order and 121.49999999999999 in another (the review's case). The tree's sum and
    // the line tree's may take either: the rest without lines is then ±1.4e-14, which must be no
    // count of -1 and no sample of its own.
    const parts = new Map<number, number[]>();
    for (let ln = 1; ln < lines.tree.nodeCount; ln++) if (lines.tree.selfWeight[ln] > 0) parts.set(lines.node[ln], [...(parts.get(lines.node[ln]) ?? []), ln]);
    const [node, lns] = [...parts].find(([, l]) => l.length >= 3)!;
    for (const [order, whole] of [[[0.3, 26.1, 95.1], 95.1 + 26.1 + 0.3], [[95.1, 26.1, 0.3], 0.3 + 26.1 + 95.1]] as const) {
      const lineWeight = lines.tree.selfWeight.slice();
      const treeWeight = original.tree.selfWeight.slice();
      for (const ln of lns) lineWeight[ln] = 0;
      order.forEach((w, i) => (lineWeight[lns[i]] = w));
      treeWeight[node] = whole;
      const edited = { ...original, tree: { ...original.tree, selfWeight: treeWeight }, lines: { ...lines, tree: { ...lines.tree, selfWeight: lineWeight } } };
      const p = decodePprof(toPprof(edited));
      expect(Math.min(...p.values), `${order}`).toBeGreaterThanOrEqual(0);
      expect(samplesOf(p), `${order}`).toBe(written);
      let total = 0;
      for (let i = 0; i < samplesOf(p); i++) total += p.values[p.valueStart[i] + 1];
      let want = 0;
      for (let n = 1; n < edited.tree.nodeCount; n++) want += Math.round(edited.tree.selfWeight[n]);
      expect(Math.abs(total - want), `${order}`).toBeLessThanOrEqual(1);
    }
  });

  it('a recording without lines writes none', async () => {
    const original = await loadProfileFromText(fixture('rust-toyc.perf-script.txt'));
    expect(original.lines ?? null).toBeNull();
    expect((await readBack(original)).lines ?? null).toBeNull();
  });
});

describe('the main binary', () => {
  const H = (comm: string, period: number) => `${comm} 100   1.000001:   ${period} cpu-clock:ppp: `;
  const F = (addr: string, sym: string, dso: string) => `\t${addr.padStart(16)} ${sym} (${dso})`;

  it('is the first mapping: the heaviest program, not the kernel or a library met first', async () => {
    // The first sample starts in the kernel and libc, as most perf recordings do.
    const text = [
      H('app', 10),
      F('ffffffff81000000', 'do_syscall_64', '[kernel.kallsyms]'),
      F('7f0000001000', '__write', '/usr/lib/x86_64-linux-gnu/libc.so.6'),
      F('1000', 'main', '/work/app'),
      '',
      H('tool', 30),
      F('2000', 'run', '/usr/bin/tool'),
      F('2100', 'tool_main', '/usr/bin/tool'),
      '',
      H('app', 15),
      F('1010', 'work', '/work/app'),
      F('1000', 'main', '/work/app'),
      '',
    ].join('\n');
    const pprof = decodePprof(toPprof(await loadProfileFromText(text)));
    const files = [...pprof.mappings.values()].map((m) => pprof.strings[m.filename]);
    // pprof's `File:` is mapping[0]; ids follow the wire order (1, 2, …) as pprof writes them.
    expect(files[0]).toBe('/usr/bin/tool');
    expect([...pprof.mappings.keys()]).toEqual(files.map((_, i) => i + 1));
    expect(new Set(files)).toEqual(new Set(['/usr/bin/tool', '/work/app', '[kernel.kallsyms]', '/usr/lib/x86_64-linux-gnu/libc.so.6']));
    // JIT code (a perf map) is no main binary, however heavy: the JVM that ran it is.
    const jit = [H('java', 50), F('7f00', 'Interpreter', '/tmp/perf-100.map'), F('7f10', 'JavaMain', '/usr/lib/jvm/lib/libjli.so'), F('1000', 'main', '/usr/lib/jvm/bin/java'), ''].join('\n');
    const jitPprof = decodePprof(toPprof(await loadProfileFromText(jit)));
    expect(jitPprof.strings[[...jitPprof.mappings.values()][0].filename]).toBe('/usr/lib/jvm/bin/java');
    // Each location still names its own module (the process frames have none).
    for (const loc of pprof.locations.values()) {
      if (!loc.mapping) continue;
      const fn = pprof.functions.get(loc.functions[0])!;
      const name = pprof.strings[fn.name];
      const file = pprof.strings[pprof.mappings.get(loc.mapping)!.filename];
      expect(file, name).toBe({ do_syscall_64: '[kernel.kallsyms]', __write: '/usr/lib/x86_64-linux-gnu/libc.so.6', run: '/usr/bin/tool', work: '/work/app' }[name] ?? file);
    }
  });
});
