// sniff() reads only the start of an input: it stops pulling once it has decided, returns the
// source's iterator, and a gzip bomb inflates no further than detection needs.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from './load';
import { sniff, SNIFF_BYTES } from './sniff';

/** `bytes` in 16 KiB chunks, counting what was pulled and whether the iterator was returned. */
function counted(bytes: Uint8Array) {
  const seen = { pulled: 0, returned: false };
  const source: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      let at = 0;
      return {
        async next() {
          if (at >= bytes.length) return { done: true, value: undefined };
          const chunk = bytes.subarray(at, at + 16 * 1024);
          at += chunk.length;
          seen.pulled += chunk.length;
          return { done: false, value: chunk };
        },
        async return() {
          seen.returned = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { source, seen };
}

describe('sniff', () => {
  it('decides on the start of a large folded input and stops reading', async () => {
    const text = new TextEncoder().encode('main;work 3\n'.repeat(500_000));
    const { source, seen } = counted(text);
    expect(await sniff(source)).toEqual({ ok: true, format: 'folded', gzip: false });
    expect(seen.pulled).toBeLessThanOrEqual(SNIFF_BYTES + 16 * 1024);
    expect(seen.returned).toBe(true);
  });

  it('inflates a gzip bomb no further than detection needs', async () => {
    // 1 GiB of 'a' with no line end, as 64 gzip members of 16 MiB each (a valid gzip stream).
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024, 0x61), { level: 9 });
    const bomb = Buffer.concat(new Array<Buffer>(64).fill(member));
    const before = process.memoryUsage().rss;
    const { source, seen } = counted(bomb);
    const r = await sniff(source);
    expect(r.ok).toBe(false);
    expect(seen.pulled).toBeLessThanOrEqual(SNIFF_BYTES + 16 * 1024);
    // Not the 1 GiB it inflates to (a generous bound: the heap moves for other reasons).
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    expect(seen.returned).toBe(true);
  });

  it('gives the loader’s own message for what it refuses', async () => {
    const text = 'this is not\na profile\n';
    const { source } = counted(new TextEncoder().encode(text));
    const r = await sniff(source);
    const loaded = await loadProfileFromText(text).then(
      () => 'loaded',
      (e: Error) => e.message,
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && loaded.endsWith(r.reason)).toBe(true);
  });
});
