// readStream reads byte streams into one reused buffer: every yielded chunk is detached by the
// next read. These tests feed every input kind through such a stream, with a tiny buffer so
// that each consumer that keeps bytes across reads (gzip, whole-input head and body, the perf.data
// sniffer, a one-byte first chunk) would lose bytes if it did not copy them.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { collapseLines } from '../export/folded';
import { loadProfile, loadProfileFromText } from '../import/load';
import { ProfileSession, readStream, withTaskTurns } from './profile-session';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url)));

/** A byte stream (BYOB-capable) that delivers `bytes` in pieces of `piece` bytes. */
function byteStream(bytes: Uint8Array, piece: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        controller.byobRequest?.respond(0);
        return;
      }
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

async function foldedVia(bytes: Uint8Array, piece: number, buffer: number): Promise<string[]> {
  return collapseLines(await loadProfile(readStream(byteStream(bytes, piece), buffer)));
}

describe('readStream over a byte stream (one reused buffer)', () => {
  it('reuses the buffer: a kept chunk is detached by the next read', async () => {
    const chunks: Uint8Array[] = [];
    for await (const c of readStream(byteStream(new Uint8Array(100).fill(65), 10), 16)) chunks.push(c);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.slice(0, -1).every((c) => c.length === 0)).toBe(true);
  });

  const cases: [string, Uint8Array][] = [
    ['perf script', fixture('sqlite.perf-script.txt')],
    ['folded', fixture('rust-toyc.folded')],
    ['gzipped perf script', new Uint8Array(gzipSync(fixture('sqlite.perf-script.txt')))],
    ['a Chrome .cpuprofile (whole input)', fixture('interchange/node.cpuprofile')],
    ['gzipped pprof (whole input)', fixture('interchange/go-cpu.pb.gz')],
  ];
  for (const [name, bytes] of cases) {
    it(`gives the same profile as one whole chunk: ${name}`, async () => {
      const expected = collapseLines(await loadProfileFromText(bytes));
      expect(expected.length).toBeGreaterThan(0);
      expect(await foldedVia(bytes, 4096, 1000)).toEqual(expected);
      expect(await foldedVia(bytes, 97, 50)).toEqual(expected);
    });
  }

  it('gives the same profile for small gzip input delivered one byte at a time', async () => {
    const bytes = new Uint8Array(gzipSync('main;a;b 3\nmain;a 2\nmain;c 1\n'));
    const expected = collapseLines(await loadProfileFromText(bytes));
    expect(expected).toEqual(['main;a 2', 'main;a;b 3', 'main;c 1']);
    expect(await foldedVia(bytes, 1, 3)).toEqual(expected);
  });

  it('opens a Blob and a fetched byte stream through the session unchanged', async () => {
    const bytes = fixture('rust-toyc.perf-script.txt');
    const expected = collapseLines(await loadProfileFromText(bytes));
    const session = new ProfileSession({
      fetch: async () => new Response(byteStream(bytes, 777), { headers: { 'content-length': String(bytes.length) } }),
    });
    const r = await session.openUrl('http://example.test/p.txt', { name: 'p.txt' });
    expect(r.ok).toBe(true);
    const blob = await session.openBlob(new Blob([bytes]), { name: 'p.txt' });
    expect(blob.ok && blob.snapshot.inline.nodeCount).toBe(r.ok && r.snapshot.inline.nodeCount);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('still detects perf.data magic delivered one byte at a time', async () => {
    const bytes = new TextEncoder().encode('PERFILE2' + '\0'.repeat(100));
    const session = new ProfileSession({ fetch: async () => new Response(byteStream(bytes, 1)) });
    const r = await session.openUrl('http://example.test/perf.data', { name: 'perf.data' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe('perf-data');
  });
});

describe('withTaskTurns', () => {
  /** Chunks that are always ready: each read resolves as a microtask, as a Blob's queued bytes do. */
  async function* ready(n: number): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < n; i++) yield new Uint8Array([i]);
  }
  /**
   * Reads `chunks` whole; says after how many chunks a message queued before the read was handled
   * (-1: not before the end). A message, as the part workers' are, not a timer: Node runs a 1 ms
   * timer only once a millisecond has passed, so a timer made this depend on the machine's speed.
   */
  async function taskRanAfter(chunks: AsyncIterable<Uint8Array>): Promise<{ at: number; bytes: number[] }> {
    let read = 0;
    let at = -1;
    const other = new MessageChannel();
    other.port1.onmessage = () => {
      at = read;
      other.port1.close();
    };
    other.port2.postMessage(null);
    const bytes: number[] = [];
    for await (const c of chunks) {
      bytes.push(c[0]);
      read++;
    }
    return { at, bytes };
  }

  it('lets queued tasks run while a parse reads chunks that are always ready, and loses none', async () => {
    // Without turns a task waits for the whole read (what delayed the part workers' start).
    expect((await taskRanAfter(ready(2000))).at).toBe(-1);
    let clock = 0;
    const { at, bytes } = await taskRanAfter(withTaskTurns(ready(2000), () => (clock += 3)));
    expect(at).toBeGreaterThan(0); // mid-way, not after the last chunk
    expect(bytes).toEqual(Array.from({ length: 2000 }, (_, i) => i & 255));
  });

  it('takes a turn only once per 10 ms of reading', async () => {
    const posted = vi.spyOn(MessagePort.prototype, 'postMessage');
    try {
      let clock = 0;
      const seen: number[] = [];
      // 1 ms a chunk (each chunk reads the clock once): a turn every 10 chunks.
      for await (const c of withTaskTurns(ready(100), () => clock++)) seen.push(c[0]);
      expect(seen).toHaveLength(100);
      expect(posted.mock.calls.length).toBeGreaterThanOrEqual(8);
      expect(posted.mock.calls.length).toBeLessThanOrEqual(10);
    } finally {
      posted.mockRestore();
    }
  });
});
