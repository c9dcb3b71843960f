// Byte mode (./perf-bytes.ts) must give exactly the profile text mode gives, for any chunking:
// fixtures, and small inputs with every odd line shape, cut at random places.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../model/profile';
import { loadProfile, type LoadOptions } from '../load';
import { MAX_KEY } from './perf-byte-keys';
import { textImporters } from '../../testing/perf-text-only';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));


async function load(bytes: Uint8Array, cuts: number[], options: LoadOptions = {}, asBuffer = true): Promise<Profile> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  async function* chunks() {
    let start = 0;
    for (const cut of [...points, bytes.length]) {
      // A fresh copy per chunk, overwritten after use: byte mode must not keep views.
      const part = asBuffer ? Buffer.from(bytes.subarray(start, cut)) : bytes.slice(start, cut);
      yield part;
      part.fill(0x58);
      start = cut;
    }
  }
  return loadProfile(chunks(), options);
}

function summary(p: Profile) {
  const { tree, frames } = p;
  return {
    nodes: tree.nodeCount,
    parent: [...tree.parent],
    frame: [...tree.frame].map((f) => (f < 0 ? '' : `${frames.strings[frames.name[f]]}|${frames.flags[f]}`)),
    selfWeight: [...tree.selfWeight],
    selfSamples: [...tree.selfSamples],
    meta: p.meta,
    samples: p.samples ? { count: p.samples.count, leaf: [...p.samples.leaf], time: [...p.samples.time] } : null,
  };
}

describe('perf script byte mode', () => {
  for (const name of ['rust-toyc.perf-script.txt', 'sqlite.perf-script.txt', 'rust-toyc.comm-trailing-digit.perf-script.txt', 'cpp/recur.perf-script.txt', 'cpp/funcs.perf-script.txt']) {
    it(`gives the text mode's profile for ${name}, in 1 MiB, odd and tiny chunks`, async () => {
      const bytes = new Uint8Array(readFileSync(FIXTURES + name));
      const reference = summary(await load(bytes, [], { importers: textImporters }));
      for (const step of [1 << 20, 65_537, 4_099]) {
        const cuts = Array.from({ length: Math.floor(bytes.length / step) }, (_, k) => (k + 1) * step);
        expect(summary(await load(bytes, cuts))).toEqual(reference);
      }
      expect(summary(await load(bytes, [70_001, 70_002, 200_003], {}, false))).toEqual(reference);
    });
  }

  // Lines of every shape the text path knows, in random order; the detection head comes first
  // (a header and enough frames that the switch to bytes happens inside the input).
  const header = (k: number) => `toyc ${k % 3} 1${k % 7}  [00${k % 4}]   ${100 + k}.${String(k).padStart(6, '0')}:     ${1000 + k} cpu-clock:ppp: `;
  const frame = fc.constantFrom(
    '\t           278ef core::ptr::drop_in_place<toyc::Expr>+0x10f (/build/rust/toyc)',
    '\t           27859 core::ptr::drop_in_place<alloc::boxed::Box<toyc::Expr>>+0x79 (inlined)',
    '\t           27859 core::ptr::drop_in_place<toyc::Expr>+0x79 (/build/rust/toyc)',
    '\t           1cbbb toyc::optimize_module+0xeb (inlined)',
    '\t           1cbbb toyc::compile_module+0xeb (/build/rust/toyc)',
    '\tffffffff81000010 entry_SYSCALL_64+0x10 ([kernel.kallsyms])',
    '\t           35ff5 naïve_ünïcode_fn+0x25 (/build/rust/toyc)',
    '\t           35ff6 [unknown] (/usr/lib/libc.so.6)',
    '\t           35ff7 bad \xff\xfe bytes+0x1 (/build/rust/toyc)',
    '        7f00 spaced_frame+0x1 (/lib/x.so)',
    '\t           zzzzz not a frame',
  );
  const block = fc.tuple(fc.nat(50), fc.array(frame, { maxLength: 12 }), fc.boolean());
  const input = fc.tuple(fc.array(block, { minLength: 1, maxLength: 30 }), fc.boolean()).map(([blocks, crlf]) => {
    const lines: string[] = [];
    blocks.forEach(([k, frames, trailing], i) => {
      lines.push(header(k + i), ...frames);
      if (trailing || i < blocks.length - 1) lines.push('');
    });
    const text = lines.join(crlf ? '\r\n' : '\n');
    return Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
  });

  it('gives the text mode profile for any chunking of odd inputs (CRLF, bad lines, non-UTF-8 bytes)', async () => {
    await fc.assert(
      fc.asyncProperty(input, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), async (bytes, cuts, asBuffer) => {
        const reference = summary(await load(bytes, [], { importers: textImporters }));
        // Detection needs a whole first line, so the head is the first chunk; cuts come after it.
        const head = new TextDecoder().decode(bytes).indexOf('\n') + 1;
        expect(summary(await load(bytes, [head, ...cuts.map((c) => head + (c % Math.max(1, bytes.length - head)))], {}, asBuffer))).toEqual(reference);
      }),
      { numRuns: 200 },
    );
  });

  it('parses a frame line too long to keep (over MAX_KEY bytes) each time it occurs', async () => {
    const long = '\t           278ef ' + 'y'.repeat(MAX_KEY + 10) + '+0x1 (/build/rust/toyc)';
    const sample = (k: number) => [header(k), '\t           278ef f+0x1 (/a)', long, '\t           27800 main+0x1 (/a)', ''];
    const text = [...sample(1), ...sample(2), ...sample(3)].join('\n');
    const bytes = new TextEncoder().encode(text);
    const reference = summary(await load(bytes, [], { importers: textImporters }));
    const cut = text.indexOf('\n') + 1;
    expect(summary(await load(bytes, [cut]))).toEqual(reference);
    expect(summary(await load(bytes, [cut, cut + 30_000, cut + 100_000]))).toEqual(reference);
    expect(reference.frame.filter((f) => f.startsWith('yyyy'))).toHaveLength(3);
  });

  it('skips a line over the limit in byte mode as text mode does', async () => {
    const line = '\t           278ef ' + 'x'.repeat(300) + ' (/build/rust/toyc)';
    const text = [header(1), '\t           278ef f+0x1 (/a)', '', header(2), line, '\t           278ef f+0x1 (/a)', ''].join('\n');
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf('\n') + 1;
    const reference = await load(bytes, [], { importers: textImporters, maxLineChars: 100 });
    for (const cuts of [[cut], [cut, cut + 120], [cut, text.indexOf('xxx') + 10, text.indexOf('xxx') + 150]]) {
      const p = await load(bytes, cuts, { maxLineChars: 100 });
      expect(summary(p)).toEqual(summary(reference));
      expect(p.meta.warnings.some((w) => /over the limit/.test(w.message))).toBe(true);
    }
  });
});
