// Hostile and broken inputs through the whole engine (gzip sniffing, UTF-8 decoding, line
// splitting, detection, the importers, the exporter): every case ends in a profile or an
// ImportError value, never a crash, a hang or an unbounded allocation.

import { describe, expect, it } from 'vitest';
import { collapseLines } from '../export/folded';
import { ImportError, type Profile } from '../model/profile';
import { functionView } from '../views/function-view';
import { loadProfile, loadProfileFromText, type LoadOptions } from './load';

async function loadError(input: string | Uint8Array, options?: LoadOptions): Promise<ImportError> {
  try {
    await loadProfileFromText(input, options);
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError);
    return e as ImportError;
  }
  throw new Error('expected an ImportError');
}

/** Feeds bytes in small uneven chunks, as a network or a pipe would. */
async function loadChunked(bytes: Uint8Array, size: number, options?: LoadOptions): Promise<Profile> {
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
  }
  return loadProfile(chunks(), options);
}

const totalOf = (p: Profile) => p.tree.totalWeight[0];

describe('bad input', () => {
  it('empty file: an empty profile with a note, no error', async () => {
    for (const input of ['', '\n\n\n', '   \r\n']) {
      const p = await loadProfileFromText(input);
      expect(p.tree.nodeCount).toBe(1);
      expect(p.meta.samples).toBe(0);
      expect(p.meta.warnings.map((w) => w.message).join()).toMatch(/empty/);
    }
  });

  it('binary garbage: an ImportError naming both formats, the line and what was found', async () => {
    let seed = 12345;
    const bytes = Uint8Array.from({ length: 4096 }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff);
    const e = await loadError(bytes, { source: 'noise.bin' });
    expect(e.expected).toMatch(/perf script text or .*folded stacks/);
    expect(e.found).toMatch(/^binary data/);
    expect(e.message).toMatch(/^noise\.bin: line \d+: expected /);
    expect(e.message).not.toContain('\n');
  });

  it('NUL bytes: an ImportError, even when the rest looks like folded text', async () => {
    const e = await loadError(new Uint8Array([0, 0, 0, 0, 10, 97, 59, 98, 32, 49, 10]));
    expect(e.found).toMatch(/NUL/);
    const e2 = await loadError('a;b\u0000c 1\n');
    expect(e2.found).toMatch(/NUL/);
  });

  it('a NUL inside a later line of a valid file is kept out of frame names', async () => {
    const p = await loadProfileFromText('a;b 1\na;b\u0000c 2\n');
    expect(p.frames.strings.some((s) => s.includes('\u0000'))).toBe(false);
    expect(totalOf(p)).toBe(3);
  });

  it('bytes that are not UTF-8: loaded with U+FFFD and a warning', async () => {
    const latin1 = new Uint8Array([...new TextEncoder().encode('main;caf'), 0xe9, ...new TextEncoder().encode(';x 3\nmain;y 1\n')]);
    const p = await loadProfileFromText(latin1);
    expect(totalOf(p)).toBe(4);
    expect(p.frames.strings).toContain('caf\ufffd');
    expect(p.meta.warnings.some((w) => /not valid UTF-8/.test(w.message))).toBe(true);
  });

  it('a multi-byte character split across chunks is decoded whole', async () => {
    const bytes = new TextEncoder().encode('main;中文😀;x 2\n'.repeat(50));
    const p = await loadChunked(bytes, 7);
    expect(p.frames.strings).toContain('中文😀');
    expect(p.meta.warnings).toEqual([]);
    expect(totalOf(p)).toBe(100);
  });

  it('a truncated last line of folded text: the good lines load, the cut one is skipped', async () => {
    const p = await loadProfileFromText('a;b 5\na;c 2\na;d;e');
    expect(totalOf(p)).toBe(7);
    expect(p.meta.skippedLines).toBe(1);
    expect(p.meta.warnings[0].line).toBe(3);
  });

  it('a truncated last perf sample (cut inside a frame line) is reported and not drawn; the rest loads', async () => {
    const full = 'prog 100 1.000000: 10 cpu-clock:ppp: \n\t1000 leaf+0x1 (/bin/prog)\n\t2000 main+0x2 (/bin/prog)\n\n';
    const cut = full + 'prog 100 2.000000: 10 cpu-clock:ppp: \n\t1000 leaf+0x1 (/bin/prog)\n\t20';
    const p = await loadProfileFromText(cut);
    expect(p.meta.format).toBe('perf-script');
    expect(collapseLines(p)).toEqual(['prog;main;leaf 10']);
    expect(p.meta.samples).toBe(1);
    expect(p.meta.skippedLines).toBe(3);
    expect(p.meta.warnings).toEqual([{ line: 7, message: expect.stringMatching(/found the input cut off after "\\t20"; its sample \(3 lines, from the header 2 above\) is skipped$/) }]);
    // A last sample that only lacks its blank line is complete (FlameGraph's corpus has such files).
    const p2 = await loadProfileFromText(full.trimEnd() + '\n');
    expect(collapseLines(p2)).toEqual(['prog;main;leaf 10']);
    expect(p2.meta.warnings).toEqual([]);
  });

  it('a line over the limit is skipped and reported, the rest loads', async () => {
    const long = 'a;' + 'x'.repeat(500) + ' 1';
    const p = await loadProfileFromText(`ok;one 1\n${long}\nok;two 2\n`, { maxLineChars: 100 });
    expect(totalOf(p)).toBe(3);
    expect(p.meta.skippedLines).toBe(1);
    expect(p.meta.warnings).toEqual([{ line: 2, message: expect.stringMatching(/line of 504 characters is over the limit of 100/) }]);
  });

  it('a real 17 MB line is skipped without holding it', async () => {
    const enc = new TextEncoder();
    const piece = enc.encode('frame;'.repeat(1024 * 1024 / 6));
    async function* chunks() {
      yield enc.encode('ok;one 1\n');
      for (let sent = 0; sent < 17 * 1024 * 1024; sent += piece.length) yield piece;
      yield enc.encode(' 5\nok;two 2\n');
    }
    const p = await loadProfile(chunks());
    expect(totalOf(p)).toBe(3);
    expect(p.meta.skippedLines).toBe(1);
    expect(p.meta.warnings[0].message).toMatch(/over the limit/);
  });

  it('negative or non-numeric counts: skipped, counted, quoted with line numbers', async () => {
    const p = await loadProfileFromText('a;b 1\na;b -1\na;b NaN\na;b Infinity\na;b 0x10\na;b 1,5\na;b 2\n');
    expect(totalOf(p)).toBe(3);
    expect(p.meta.skippedLines).toBe(5);
    expect(p.meta.warnings.map((w) => w.line)).toEqual([2, 3, 4, 5, 6]);
    expect(p.meta.warnings[0].message).toContain('"a;b -1"');
  });

  it('a folded file with 1,000,000 distinct stacks', async () => {
    const lines: string[] = [];
    // Distinct stacks over 2,000 distinct frames: 1,001,002 tree nodes. (1,000,000 distinct
    // frame *names* also load, but spend most of their time in the string table's Map.)
    for (let i = 0; i < 1_000_000; i++) lines.push(`root;mod${i % 1000};fn${(i / 1000) | 0} ${(i % 5) + 1}`);
    const bytes = new TextEncoder().encode(lines.join('\n') + '\n');
    lines.length = 0;
    const p = await loadChunked(bytes, 1 << 20);
    expect(p.meta.skippedLines).toBe(0);
    expect(p.frames.count).toBe(2001);
    expect(p.tree.nodeCount).toBe(1 + 1 + 1000 + 1_000_000);
    expect(collapseLines(p, { fullNames: true })).toHaveLength(1_000_000);
    expect(totalOf(p)).toBe(3_000_000);
    expect(p.meta.samples).toBe(3_000_000);
  }, 180_000);

  it('a 10,000-deep folded stack: no recursion anywhere', async () => {
    const deep = Array.from({ length: 10_000 }, (_, i) => `f${i}_[${i % 3 === 0 ? 'i' : 'k'}]`).join(';');
    const p = await loadProfileFromText(`${deep} 7\nshallow 1\n`);
    expect(p.meta.format).toBe('folded');
    expect(p.tree.maxDepth).toBe(10_000);
    expect(totalOf(p)).toBe(8);
    const out = collapseLines(p, { fullNames: true, annotateKernel: true });
    expect(out).toEqual([`${deep} 7`, 'shallow 1']);
    const fv = functionView(p);
    expect(fv.tree.totalWeight[0]).toBe(8);
    // 3,334 inlined frames; f0_[i] has no physical caller, so it stays a frame.
    expect(fv.tree.maxDepth).toBe(10_000 - 3333);
  });

  it('a 10,000-deep perf script stack', async () => {
    const frames = Array.from({ length: 10_000 }, (_, i) => `\t${(0x1000 + i).toString(16)} fn${i}+0x1 (/bin/deep)`);
    const text = `deep 42 1.000000: 1001001 cpu-clock:ppp: \n${frames.join('\n')}\n\n`;
    const p = await loadProfileFromText(text);
    expect(p.meta.format).toBe('perf-script');
    expect(p.tree.maxDepth).toBe(10_001);
    expect(totalOf(p)).toBe(1001001);
    const [line] = collapseLines(p);
    expect(line.startsWith('deep;fn9999;fn9998;')).toBe(true);
    expect(line.endsWith(';fn0 1001001')).toBe(true);
    expect(functionView(p).tree.maxDepth).toBe(10_001);
  });

  it('CRLF files load like LF files', async () => {
    const lf = await loadProfileFromText('a;b 1\na;c 2\n');
    const crlf = await loadProfileFromText('a;b 1\r\na;c 2\r\n');
    expect(collapseLines(crlf)).toEqual(collapseLines(lf));
  });

  it('gzip that is corrupt or truncated: an ImportError, not a crash', async () => {
    const { gzipSync } = await import('node:zlib');
    const gz = gzipSync(Buffer.from('a;b 1\n'.repeat(1000)));
    const e = await loadError(gz.subarray(0, gz.length >> 1));
    expect(e.expected).toMatch(/gzip/);
  });
});

describe('an executable instead of a recording', () => {
  it('says it is an ELF executable and how to record it; binary data lists every format read', async () => {
    const elf = new Uint8Array(4096);
    elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
    const e = await loadProfileFromText(elf).then(() => null, (x: unknown) => x as ImportError);
    expect(e).toBeInstanceOf(ImportError);
    expect(e!.message).toContain('found an ELF executable (ELF magic), not a recording: record it with `perf record -g -- ./PROGRAM`, then run `perf script > out.txt`');
    for (const format of ['perf script', 'folded stacks', 'pprof', 'Chrome', 'speedscope']) expect(e!.expected).toContain(format);
    const garbage = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe, 10]);
    const g = await loadProfileFromText(garbage).then(() => null, (x: unknown) => x as ImportError);
    expect(g!.found).toMatch(/^binary data/);
    for (const format of ['perf script', 'folded stacks', 'pprof', 'Chrome', 'speedscope']) expect(g!.expected).toContain(format);
  });
});
