import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { frameModule, frameName } from '../../model/frame-table';
import { FrameFlags } from '../../model/types';
import { ImportError, type Profile } from '../../model/profile';
import { dumpTree } from '../../testing/tree-dsl';
import { functionView } from '../../views/function-view';
import type { ImportOptions } from '../importer';
import { loadProfileFromText } from '../load';
import { detectPerfScript, perfScriptImporter, PerfScriptParser } from './perf-script';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

/** Imports text straight through the parser (lines split on '\n'). */
function parse(text: string, options: ImportOptions = {}): Profile {
  const parser = new PerfScriptParser(options);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, i) => parser.line(line, i + 1));
  return parser.finish();
}

function tree(p: Profile): string {
  return dumpTree(p.tree, p.frames);
}

function frameNamed(p: Profile, name: string, flags?: number): number {
  for (let f = 0; f < p.frames.count; f++) {
    if (frameName(p.frames, f) === name && (flags === undefined || p.frames.flags[f] === flags)) return f;
  }
  throw new Error(`no frame ${name}`);
}

const H = (comm: string, period = 10, event = 'cpu-clock:ppp') => `${comm} 100   1.000001:   ${period} ${event}: `;
const F = (addr: string, sym: string, dso = '/bin/app') => `\t${addr.padStart(16)} ${sym} (${dso})`;

describe('detect', () => {
  it('says yes to every perf fixture, and after a --header block', () => {
    for (const name of ['rust-toyc', 'sqlite.fp', 'sqlite.no-callchain', 'rust-toyc.comm-trailing-digit']) {
      const head = readFileSync(`${FIXTURES}${name}.perf-script.txt`, 'utf8').slice(0, 65536);
      expect(detectPerfScript(head, false), name).toBe('yes');
    }
    expect(detectPerfScript('# ========\n# captured on: x\n#\n' + H('a') + '\n', false)).toBe('yes');
  });

  it('needs more while it has only comments or a partial line', () => {
    expect(detectPerfScript('# ========\n# hostname : x\n', false)).toBe('need-more');
    expect(detectPerfScript('toyc 100   1.000001:   10 cpu-c', false)).toBe('need-more');
    expect(detectPerfScript('\n\n', false)).toBe('need-more');
    expect(detectPerfScript('# only comments\n', true)).toBe('no');
  });

  it('says no to folded stacks, text and binary data', () => {
    expect(detectPerfScript('main;parse;lex 12\nmain 3\n', false)).toBe('no');
    expect(detectPerfScript('hello world\n', true)).toBe('no');
    expect(detectPerfScript('\u0000\u0001ELF 1 2.3: x:\n', false)).toBe('no');
    expect(detectPerfScript('\ufffd\ufffd 1 2.3: x:\n', false)).toBe('no');
    expect(detectPerfScript('comm 1 2.5: abc cpu-clock:\n', false)).toBe('no');
    expect(detectPerfScript('<text>main 12 1.5: 3 cycles:</text>\n', false)).toBe('no');
    expect(detectPerfScript('{"a 12 1.5: 3 cycles:": 1}\n', false)).toBe('no');
    expect(perfScriptImporter.detect('', true)).toBe('no');
  });
});

describe('perf script import', () => {
  it('adds each sample’s period to its leaf, root = process name with spaces as _', () => {
    const p = parse([H('toyc cgu.0', 7), F('1', 'leaf+0x1'), F('2', 'main+0x2'), '', H('toyc cgu.0', 5), F('3', 'main+0x9'), ''].join('\n'));
    expect(tree(p)).toBe(['toyc_cgu.0 12/0', '  main 12/5', '    leaf 7/7'].join('\n'));
    expect(p.tree.totalSamples[0]).toBe(2);
    expect(p.meta).toMatchObject({ format: 'perf-script', samples: 2, event: 'cpu-clock:ppp', weightUnit: 'nanoseconds', skippedLines: 0 });
    expect(p.meta.events).toEqual([{ name: 'cpu-clock:ppp', samples: 2 }]);
  });

  it('weighs samples without a period as 1, and then has no unit', () => {
    const p = parse(['java 12/12 [000] 1.5: cycles: ', F('1', 'a'), '', 'java 12/12 [000] 1.6: cycles: ', F('1', 'a'), ''].join('\n'));
    expect(tree(p)).toBe(['java 2/0', '  a 2/2'].join('\n'));
    expect(p.meta.weightUnit).toBeNull();
  });

  it('names the root comm-PID or comm-PID/TID, with ? without a PID', () => {
    const text = ['toyc worker 1 17570/17572   1.5:  3 cpu-clock: ', F('1', 'f'), '', 'toyc 17600   1.6:  3 cpu-clock: ', F('1', 'f'), ''].join('\n');
    const roots = (p: Profile) => [...tree(p).matchAll(/^(\S+) /gm)].map((m) => m[1]);
    expect(roots(parse(text))).toEqual(['toyc', 'toyc_worker_1']);
    expect(roots(parse(text, { split: 'pid' }))).toEqual(['toyc-?', 'toyc_worker_1-17570']);
    expect(roots(parse(text, { split: 'tid' }))).toEqual(['toyc-?/17600', 'toyc_worker_1-17570/17572']);
  });

  it('applies the address-group rule: the last line of each group is physical', () => {
    const p = parse(
      [
        H('app'),
        F('10', 'inner_helper+0x5', 'inlined'),
        F('10', 'helper+0x5', 'inlined'),
        F('10', 'compute+0x5'), // closes the group at 10: compute is physical
        F('20', '__GI___libc_malloc+0x9', 'inlined'), // inline-only group: physical despite (inlined)
        F('30', 'main+0x1'),
        '',
      ].join('\n'),
    );
    expect(tree(p)).toBe(
      ['app 10/0', '  main 10/0', '    __GI___libc_malloc 10/0', '      compute 10/0', '        helper_[i] 10/0', '          inner_helper_[i] 10/10'].join(
        '\n',
      ),
    );
    expect(p.meta.hasInlineInfo).toBe(true);
    expect(dumpTree(functionView(p).tree, p.frames)).toBe(['app 10/0', '  main 10/0', '    __GI___libc_malloc 10/0', '      compute 10/10'].join('\n'));
  });

  it('keeps full names (offset stripped), ; inside names, and drops NUL characters', () => {
    const p = parse([H('app'), F('1', 'Ljava/lang/String;::hashCode+0x1c'), F('2', 'ba\u0000d+0x0'), F('3', 'std::vector<int>::push_back(int const&)'), ''].join('\n'));
    expect(tree(p)).toContain('Ljava/lang/String;::hashCode 10/10');
    expect(tree(p)).toContain('bad 10/0');
    expect(tree(p)).toContain('std::vector<int>::push_back(int const&) 10/0');
  });

  it('names [unknown] symbols after their DSO, flags kernel and JIT frames', () => {
    const p = parse(
      [
        H('app'),
        F('ffffffff81000130', 'entry_SYSCALL_64+0x76', '[kernel.kallsyms]'),
        F('7f00', '[unknown]', '/tmp/perf-123.map'),
        F('7f01', '[unknown]', '/usr/lib/libc.so.6'),
        F('ffffffffffffffff', '[unknown]', '[unknown]'),
        '',
      ].join('\n'),
    );
    expect(tree(p)).toBe(['app 10/0', '  [unknown] 10/0', '    [libc.so.6] 10/0', '      [perf-123.map] 10/0', '        entry_SYSCALL_64 10/10'].join('\n'));
    expect(p.frames.flags[frameNamed(p, 'entry_SYSCALL_64')]).toBe(FrameFlags.KERNEL);
    expect(p.frames.flags[frameNamed(p, '[perf-123.map]')]).toBe(FrameFlags.JIT);
    expect(p.frames.flags[frameNamed(p, '[libc.so.6]')]).toBe(0);
    expect(frameModule(p.frames, frameNamed(p, '[libc.so.6]'))).toBe('/usr/lib/libc.so.6');
  });

  it('reads perf-map-agent a->b->c chains: a physical, b and c inlined', () => {
    const p = parse([H('java'), F('7f89', 'Lpkg/A;::outer->Lpkg/B;::mid->Lpkg/C;::inner+0x4b', '/tmp/perf-10487.map'), F('7f90', 'Interpreter', '/tmp/perf-10487.map'), ''].join('\n'));
    expect(tree(p)).toBe(['java 10/0', '  Interpreter 10/0', '    Lpkg/A;::outer 10/0', '      Lpkg/B;::mid_[i] 10/0', '        Lpkg/C;::inner_[i] 10/10'].join('\n'));
    expect(p.frames.flags[frameNamed(p, 'Lpkg/A;::outer')]).toBe(FrameFlags.JIT);
    // C++'s operator-> is not a chain.
    expect(tree(parse([H('app'), F('1', 'std::unique_ptr<T>::operator->+0x4'), ''].join('\n')))).toContain('std::unique_ptr<T>::operator-> 10/10');
  });

  it('keeps single-line samples (no call chain) and mixes them with chains', () => {
    const p = parse(
      [
        '         sqlite3 17882 [000]   722.658610:    1001 cpu-clock:ppp:  ffffffff821e9476 copy_mc+0x6 ([kernel.kallsyms])',
        '         sqlite3 17882 [000]   722.659610:    1001 cpu-clock:ppp:      55bbe8d83163 sqlite3VdbeExec+0x3 (/bin/sqlite3)',
        H('app'),
        F('1', 'main'),
        '',
      ].join('\n'),
    );
    expect(tree(p)).toBe(['app 10/0', '  main 10/10', 'sqlite3 2002/0', '  copy_mc 1001/1001', '  sqlite3VdbeExec 1001/1001'].join('\n'));
    expect(p.meta.samples).toBe(3);
  });

  it('ends a sample at the next header when the blank line is missing, and keeps a truncated last sample', () => {
    const p = parse([H('a'), F('1', 'x'), H('b'), F('1', 'y'), F('2', 'main')].join('\n'));
    expect(tree(p)).toBe(['a 10/0', '  x 10/10', 'b 10/0', '  main 10/0', '    y 10/10'].join('\n'));
    expect(p.meta.samples).toBe(2);
    expect(p.meta.skippedLines).toBe(0);
  });

  it('handles a 10,000-deep stack', () => {
    const lines = [H('deep')];
    for (let i = 10000; i > 0; i--) lines.push(F(i.toString(16), `f${i}+0x1`));
    const p = parse(lines.join('\n') + '\n');
    expect(p.tree.maxDepth).toBe(10001);
    expect(p.tree.nodeCount).toBe(10002);
  });

  it('keeps the first event (compared without modifiers) and lists every event', () => {
    const text = [H('a', 1, 'cycles:u'), F('1', 'x'), '', H('a', 2, 'instructions:u'), F('1', 'x'), '', H('a', 4, 'cycles'), F('1', 'x'), ''].join('\n');
    const p = parse(text);
    expect(p.tree.totalWeight[0]).toBe(5);
    expect(p.meta.events).toEqual([
      { name: 'cycles:u', samples: 1 },
      { name: 'instructions:u', samples: 1 },
      { name: 'cycles', samples: 1 },
    ]);
    expect(p.meta.event).toBe('cycles');
    expect(p.meta.weightUnit).toBeNull();
    expect(p.meta.warnings.some((w) => /instructions:u \(1\)/.test(w.message))).toBe(true);
    expect(parse(text, { event: 'instructions' }).tree.totalWeight[0]).toBe(2);
    expect(parse(text, { event: 'cycles:u' }).tree.totalWeight[0]).toBe(1);
    expect(parse(text, { event: 'cycles:u' }).meta.event).toBe('cycles:u');
    expect(() => parse(text, { event: 'branch-misses' })).toThrow(ImportError);
    expect(() => parse(text, { event: 'branch-misses' })).toThrow(/expected samples of event "branch-misses", found only cycles:u \(1\)/);
  });
});

describe('bad input', () => {
  it('skips frame lines before any header, with the line number', () => {
    const p = parse([F('1', 'orphan'), H('a'), F('1', 'x'), ''].join('\n'));
    expect(p.meta.samples).toBe(1);
    expect(p.meta.skippedLines).toBe(1);
    expect(p.meta.warnings[0]).toMatchObject({ line: 1 });
    expect(p.meta.warnings[0].message).toMatch(/^expected a sample header line before frame lines, found "\\t +1 orphan \(\/bin\/app\)"; line skipped$/);
  });

  it('skips a sample whose period is not a non-negative integer', () => {
    const p = parse([H('a', 5), F('1', 'x'), '', 'a 100   1.5:   12abc cpu-clock: ', F('1', 'y'), '', 'a 100   1.6:   -3 cpu-clock: ', F('1', 'z'), ''].join('\n'));
    expect(tree(p)).toBe(['a 5/0', '  x 5/5'].join('\n'));
    expect(p.meta.samples).toBe(1);
    expect(p.meta.skippedLines).toBe(2);
    expect(p.meta.warnings[0]).toEqual({
      line: 4,
      message: 'expected a period (a non-negative integer) in the sample header, found "12abc"; sample skipped',
    });
    expect(p.meta.warnings[1].line).toBe(7);
  });

  it('counts unparseable lines, quotes the first five, and never throws', () => {
    const junk = Array.from({ length: 8 }, (_, i) => `garbage line ${i} <img src=x onerror=alert(1)>`);
    const p = parse([H('a'), F('1', 'x'), '', ...junk, H('a'), '\t          THIS_IS_A_WEIRD_LINE', F('2', 'y'), ''].join('\n'));
    expect(p.meta.samples).toBe(2);
    expect(p.meta.skippedLines).toBe(9);
    const quoted = p.meta.warnings.filter((w) => w.line > 0);
    expect(quoted).toHaveLength(5);
    expect(quoted[0]).toMatchObject({ line: 4 });
    expect(quoted[0].message).toContain('"garbage line 0 <img src=x onerror=alert(1)>"');
    expect(p.meta.warnings.some((w) => w.message === '4 more problem lines were not quoted')).toBe(true);
  });

  it('is not fooled by binary garbage through loadProfile', async () => {
    const bytes = new Uint8Array(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    await expect(loadProfileFromText(bytes)).rejects.toThrow(ImportError);
  });

  it('loads through loadProfile with CRLF line ends and an empty input', async () => {
    const p = await loadProfileFromText([H('a'), F('1', 'x'), ''].join('\r\n'));
    expect(p.meta.format).toBe('perf-script');
    expect(tree(p)).toBe(['a 10/0', '  x 10/10'].join('\n'));
    const empty = await loadProfileFromText('');
    expect(empty.meta.samples).toBe(0);
  });
});

describe('one frame printed as several identical lines (a function inlined into itself)', () => {
  const sample = (...frames: string[]) => [H('app'), F('c', 'work+0x1'), ...frames, ''].join('\n');
  const folded = (p: Profile) => [...Array(p.frames.count).keys()].filter((f) => p.frames.flags[f] & FrameFlags.FOLDED).map((f) => frameName(p.frames, f));
  const ack = (address: string, n: number) => Array.from({ length: n }, () => F(address, `ack+0x${address}0`));

  it('learns k per address: 3 lines at one call site, 2 at another, recursion at a third', () => {
    const text = [
      sample(...ack('5', 3), ...ack('6', 2), F('9', 'main')),
      sample(...ack('5', 6), F('9', 'main')),
      sample(...ack('6', 4), F('9', 'main')),
      sample(...ack('7', 2), F('9', 'main')),
      sample(...ack('7', 3), F('9', 'main')),
      sample(F('b', 'y+0x1', 'inlined'), F('b', 'z+0x1'), F('9', 'main')),
    ].join('\n');
    // ack printed twice at the sampled instruction (one frame): ack is inlined into itself.
    const evidence = [H('app'), ...ack('8', 2), F('9', 'main'), ''].join('\n');
    const p = parse(`${text}\n${evidence}`);
    expect(folded(p)).toEqual(['ack']);
    // k = 3 at 0x5 (runs 3, 6), 2 at 0x6 (runs 2, 4), 1 at 0x7 (runs 2, 3): every ack sample is
    // two function frames deep but the one with three lines at 0x7.
    expect(dumpTree(functionView(p).tree, p.frames)).toContain(
      '    ack 60/10\n      ack 50/0\n        ack 10/0\n          work 10/10\n        work 40/40',
    );
    // Without that evidence, runs of different lengths at one call site are real recursion
    // (std::__introsort_loop 2, 4 and 6 deep at one address): nothing is folded.
    expect(folded(parse(text))).toEqual([]);
    // The inline view keeps every line as perf printed it (a folded ack is a node of its own).
    const inline = dumpTree(p.tree, p.frames);
    expect(inline.split('\n').filter((l) => l.trim().startsWith('work')).length).toBe(6);
    expect(Math.max(...inline.split('\n').map((l) => l.search(/\S/) / 2))).toBe(8);
  });

  it('takes runs of one length 2 for one frame (addr2line doubled the line), any other length m for m frames', () => {
    const text = [
      sample(F('5', 'step+0x23f'), F('5', 'step+0x23f'), F('9', 'main')),
      sample(F('5', 'step+0x23f'), F('5', 'step+0x23f'), F('9', 'main')),
      sample(F('7', 'rec+0x54'), F('7', 'rec+0x54'), F('7', 'rec+0x54'), F('9', 'main')),
      // Recursion four deep at one call site, every time: addr2line doubles a line, it does not
      // print it four times (before, this was taken for two frames).
      sample(F('8', 'deep+0xf'), F('8', 'deep+0xf'), F('8', 'deep+0xf'), F('8', 'deep+0xf'), F('9', 'main')),
      sample(F('b', 'y+0x1', 'inlined'), F('b', 'z+0x1'), F('9', 'main')),
    ].join('\n');
    const p = parse(text);
    expect(folded(p)).toEqual(['step']);
    const fv = dumpTree(functionView(p).tree, p.frames);
    expect(fv).toContain('    rec 10/0\n      rec 10/0\n        rec 10/0\n          work 10/10');
    expect(fv).toContain('    deep 10/0\n      deep 10/0\n        deep 10/0\n          deep 10/0\n            work 10/10');
    expect(fv).toContain('    step 20/0\n      work 20/20');
  });

  it('halves the even runs of a function perf doubles elsewhere (a gcc .part clone: runs of two above another function)', () => {
    // fc(2): the base-case frame's call to work is two lines at 0x11e; the two recursive frames above
    // it are four lines at 0xfb. Before the fix for fixed depths this was right; after its first
    // version, 0xfb's four lines were four frames.
    const text = [
      sample(F('6', 'part+0x11e'), F('6', 'part+0x11e'), F('5', 'part+0xfb'), F('5', 'part+0xfb'), F('5', 'part+0xfb'), F('5', 'part+0xfb'), F('9', 'main')),
      sample(F('b', 'y+0x1', 'inlined'), F('b', 'z+0x1'), F('9', 'main')),
    ].join('\n');
    const p = parse(text);
    expect(dumpTree(functionView(p).tree, p.frames)).toContain('    part 10/0\n      part 10/0\n        part 10/0\n          work 10/10');
  });

  it('takes runs of two above a frame of their own function (a recursion\'s base case) for two frames', () => {
    // twice(2) → twice(1) at one call site → twice(0) at another address, which calls work.
    const base = (leaf: string) => [H('app'), F('1', leaf), F('6', 'twice+0xe'), F('5', 'twice+0x2f'), F('5', 'twice+0x2f'), F('9', 'main'), ''].join('\n');
    const text = [base('work+0x1'), base('work+0x2'), sample(F('b', 'y+0x1', 'inlined'), F('b', 'z+0x1'), F('9', 'main'))].join('\n');
    const p = parse(text);
    expect(folded(p)).toEqual([]);
    expect(dumpTree(functionView(p).tree, p.frames)).toContain('    twice 20/0\n      twice 20/0\n        twice 20/0\n          work 20/20');
  });

  it('folds every repeat at the sampled instruction: it is one frame', () => {
    const text = [
      [H('app'), F('5', 'ack+0x10'), F('5', 'ack+0x10'), F('5', 'ack+0x10'), F('9', 'main'), ''].join('\n'),
      sample(F('b', 'y+0x1', 'inlined'), F('b', 'z+0x1'), F('9', 'main')),
    ].join('\n');
    const p = parse(text);
    expect(dumpTree(functionView(p).tree, p.frames)).toContain('  main 20/0\n    ack 10/10\n');
  });

  it('folds nothing in a recording without inline frames (perf resolved none, so repeats are recursion)', () => {
    const p = parse(sample(F('5', 'step+0x23f'), F('5', 'step+0x23f'), F('9', 'main')));
    expect(p.meta.hasInlineInfo).toBe(false);
    expect(folded(p)).toEqual([]);
  });

  it('gives the hook every sample with its input ordinal, folded ones last', () => {
    const seen: number[] = [];
    const parser = new PerfScriptParser({}, { sample: (_r, _s, _d, _w, ordinal) => seen.push(ordinal) });
    const text = [sample(F('5', 'step+0x1'), F('5', 'step+0x1'), F('a', 'x+0x1', 'inlined')), sample(F('9', 'main'))].join('\n');
    text.split('\n').forEach((line, i) => parser.line(line, i + 1));
    parser.finish();
    expect(seen).toEqual([1, 0]);
  });
});
