import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAhead } from './read-ahead';

const dir = mkdtempSync(join(tmpdir(), 'flameview-read-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readAll(path: string, chunk: number, depth: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  // Chunks are views of reused buffers: copy each before asking for the next.
  for await (const c of readAhead(await open(path, 'r'), chunk, depth)) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

describe('readAhead', () => {
  const sizes = [0, 1, 7, 64, 65, 1000, 4096 * 3, 4096 * 3 + 5];
  for (const size of sizes) {
    it(`reads a ${size}-byte file whole and in order, for several chunk sizes and depths`, async () => {
      const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 131 + (i >> 8)) & 255));
      const path = join(dir, `f${size}`);
      writeFileSync(path, bytes);
      for (const [chunk, depth] of [[64, 1], [64, 4], [100, 3], [4096, 2], [1 << 20, 4]]) {
        expect((await readAll(path, chunk, depth)).equals(bytes)).toBe(true);
      }
    });
  }

  it('reads a byte range of the file, whole and in order', async () => {
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) & 255));
    const path = join(dir, 'range');
    writeFileSync(path, bytes);
    for (const [start, end, chunk] of [[0, 5000, 64], [1, 4999, 100], [4096, 5000, 4096], [17, 18, 64], [300, 300, 64], [4000, 9000, 128]]) {
      const parts: Buffer[] = [];
      for await (const c of readAhead(await open(path, 'r'), chunk, 3, start, end)) parts.push(Buffer.from(c));
      expect(Buffer.concat(parts).equals(bytes.subarray(start, end))).toBe(true);
    }
  });

  it('closes the file when the reader stops early', async () => {
    const path = join(dir, 'early');
    writeFileSync(path, Buffer.alloc(10_000, 65));
    const handle = await open(path, 'r');
    for await (const c of readAhead(handle, 100, 4)) {
      expect(c.length).toBe(100);
      break;
    }
    // A closed FileHandle has fd -1.
    expect(handle.fd).toBe(-1);
  });
});
