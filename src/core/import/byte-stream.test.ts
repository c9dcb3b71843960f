// Utf8Decoder must give exactly what one streaming TextDecoder gives for the whole input, for any
// chunking, whether chunks are Node Buffers (ASCII fast path) or plain Uint8Arrays.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiText, isAscii, Utf8Decoder } from './byte-stream';

const reference = (bytes: Uint8Array): string => new TextDecoder('utf-8').decode(bytes);

function decodeInChunks(bytes: Uint8Array, cuts: number[], asBuffer: boolean): { text: string; sawReplacement: boolean } {
  const d = new Utf8Decoder();
  let text = '';
  let start = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    const part = bytes.subarray(start, cut);
    text += d.decode(asBuffer ? Buffer.from(part) : part.slice());
    start = cut;
  }
  text += d.end();
  return { text, sawReplacement: d.sawReplacement };
}

// Mostly ASCII text with some multi-byte characters, BOMs and invalid bytes.
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((s) => new TextEncoder().encode(s)) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => new TextEncoder().encode(s)) },
  { weight: 1, arbitrary: fc.constant(new Uint8Array([0xef, 0xbb, 0xbf])) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 4 }) },
);
const input = fc.array(piece, { maxLength: 30 }).map((parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
});

describe('Utf8Decoder', () => {
  for (const asBuffer of [true, false]) {
    it(`equals one streaming TextDecoder for any chunking (${asBuffer ? 'Buffer' : 'Uint8Array'} chunks)`, () => {
      fc.assert(
        fc.property(input, fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
          const { text, sawReplacement } = decodeInChunks(bytes, cuts, asBuffer);
          const expected = reference(bytes);
          expect(text).toBe(expected);
          expect(sawReplacement).toBe(expected.includes('\ufffd'));
        }),
        { numRuns: 500 },
      );
    });
  }

  it('drops a leading BOM only at the start of the input, even after ASCII chunks', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const bytes = new Uint8Array([...bom, 0x61, 0x0a, 0x62, ...bom, 0x63]);
    for (const cuts of [[], [3], [5], [6], [7], [8], [5, 6, 7, 8]]) {
      expect(decodeInChunks(bytes, cuts, true).text).toBe('a\nb\ufeffc');
    }
  });

  it('keeps a character split across an ASCII-looking boundary', () => {
    const bytes = new TextEncoder().encode('ab€cd');
    expect(decodeInChunks(bytes, [3, 4], true).text).toBe('ab€cd');
    expect(decodeInChunks(bytes, [2, 3, 4, 5], true).text).toBe('ab€cd');
  });

  it('reports a truncated last character', () => {
    const d = new Utf8Decoder();
    expect(d.decode(Buffer.from([0x61, 0xe2, 0x82]))).toBe('a');
    expect(d.end()).toBe('\ufffd');
    expect(d.sawReplacement).toBe(true);
  });
});

describe('isAscii', () => {
  it('checks every byte at any offset and length', () => {
    const base = new Uint8Array(64).fill(0x41);
    for (let off = 0; off < 8; off++) {
      for (let len = 0; len < 40; len++) {
        expect(isAscii(base.subarray(off, off + len))).toBe(true);
        for (let k = 0; k < len; k++) {
          const b = base.slice();
          b[off + k] = 0x80;
          expect(isAscii(b.subarray(off, off + len))).toBe(false);
        }
      }
    }
  });
});

describe('asciiText (the browser path of Utf8Decoder for ASCII chunks)', () => {
  it('gives what TextDecoder gives, for every length around its 16-byte steps', () => {
    const all = new Uint8Array(200);
    for (let i = 0; i < all.length; i++) all[i] = (i * 37) % 128;
    for (let n = 0; n <= all.length; n++) {
      const bytes = all.subarray(0, n);
      expect(asciiText(bytes)).toBe(new TextDecoder().decode(bytes));
    }
  });
});

describe('Utf8Decoder with mixed chunk kinds and cut characters', () => {
  it('carries a character cut by a Buffer chunk into a following plain Uint8Array chunk', () => {
    const bytes = new TextEncoder().encode('a€b\u{1F600}c');
    for (let cut = 1; cut < bytes.length; cut++) {
      for (let cut2 = cut + 1; cut2 <= bytes.length; cut2++) {
        const d = new Utf8Decoder();
        let text = d.decode(Buffer.from(bytes.subarray(0, 1)));
        text += d.decode(Buffer.from(bytes.subarray(1, cut)));
        text += d.decode(bytes.slice(cut, cut2));
        text += d.decode(Buffer.from(bytes.subarray(cut2)));
        text += d.end();
        expect(text).toBe('a€b\u{1F600}c');
      }
    }
  });

  it('completeLength stops before a character cut short, and only then', async () => {
    const { completeLength } = await import('./byte-stream');
    expect(completeLength(new Uint8Array([0x61, 0xe2, 0x82]))).toBe(1);
    expect(completeLength(new Uint8Array([0x61, 0xe2, 0x82, 0xac]))).toBe(4);
    expect(completeLength(new Uint8Array([0x61, 0xf0, 0x9f, 0x98]))).toBe(1);
    // Invalid leads and stray continuation bytes are decoded (as U+FFFD) at once.
    expect(completeLength(new Uint8Array([0x61, 0xff]))).toBe(2);
    expect(completeLength(new Uint8Array([0x61, 0x80, 0x80, 0x80, 0x80]))).toBe(5);
  });
});

describe('isAsciiRange', () => {
  it('looks only at the range', async () => {
    const { isAsciiRange } = await import('./byte-stream');
    const b = Uint8Array.from([0x80, 0x41, 0x42, 0xc3]);
    expect(isAsciiRange(b, 1, 3)).toBe(true);
    expect(isAsciiRange(b, 0, 3)).toBe(false);
    expect(isAsciiRange(b, 1, 4)).toBe(false);
  });
});
