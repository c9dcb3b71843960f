// ProfileSession with parallel parsing: a large Blob is parsed in parts (the first by the session,
// the others here in this thread too, each read from its own Blob.slice() or byte range, as a part
// worker does) into the snapshot one parser gives; what cannot be split falls back to one parser.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parsePartJob, awaitPart, type PartMessage } from '../parallel/split';
import { partBytes, ProfileSession, type SessionParts } from './profile-session';
import { expectSameProfile } from '../testing/split-parts';
import { syntheticPerf } from '../testing/synthetic-perf';
import { loadProfileFromText } from '../import/load';
import { makeSnapshot } from '../views/snapshot';

// No recursion through one call site: its parts merge (see ../parallel/split.test.ts).
const perf = Buffer.from(syntheticPerf(2000));

function inThread(log: number[], fetchImpl?: typeof fetch): SessionParts {
  return {
    workers: 3,
    minPartBytes: 30_000,
    run(input, job, progress, signal) {
      log.push(job.index);
      let onMessage: (m: PartMessage) => void = () => {};
      const done = awaitPart({ listen: (m) => (onMessage = m), terminate: () => {} }, progress, signal);
      void parsePartJob(partBytes(fetchImpl ?? fetch, input, job), job, (m) => onMessage(m));
      return done;
    },
  };
}

/** A server of `bytes` that honours single Range requests, or ignores them; logs each request. */
function server(bytes: Uint8Array, ranges: boolean, log: string[]): typeof fetch {
  return (async (_url: string, init?: RequestInit) => {
    const range = new Headers(init?.headers).get('range');
    const accept: Record<string, string> = ranges ? { 'accept-ranges': 'bytes' } : {};
    if (init?.method === 'HEAD') {
      log.push('head');
      return new Response(null, { status: 200, headers: { 'content-length': String(bytes.length), ...accept } });
    }
    log.push(range ?? 'whole');
    const m = ranges && range ? /^bytes=(\d+)-(\d+)$/.exec(range) : null;
    if (!m) return new Response(bytes.slice(), { status: 200, headers: { 'content-length': String(bytes.length), ...accept } });
    const end = Math.min(Number(m[2]) + 1, bytes.length);
    return new Response(bytes.slice(Number(m[1]), end), { status: 206, headers: { 'content-range': `bytes ${m[1]}-${end - 1}/${bytes.length}` } });
  }) as typeof fetch;
}

describe('ProfileSession in parts', () => {
  it('a large Blob: parts from its own slices, the one-parser snapshot, progress to its size', async () => {
    const log: number[] = [];
    const seen: number[] = [];
    const session = new ProfileSession({ parts: inThread(log), progressIntervalMs: 0 });
    const r = await session.openBlob(new Blob([perf]), { name: 'toyc.txt', onProgress: (p) => seen.push(p.bytesRead) });
    expect(r.ok).toBe(true);
    expect(log.sort()).toEqual([1, 2]); // the first part is the session's own
    expect(seen.at(-1)).toBe(perf.length);
    const whole = makeSnapshot(await loadProfileFromText(perf, { source: 'toyc.txt' }));
    if (!r.ok) return;
    expect(r.snapshot.meta).toEqual(whole.meta);
    expect(r.snapshot.inline.totalWeight).toEqual(whole.inline.totalWeight);
    expect(r.snapshot.functions?.totalWeight).toEqual(whole.functions?.totalWeight);
    expectSameProfile({ frames: r.snapshot.frames, tree: r.snapshot.inline, meta: r.snapshot.meta, samples: r.snapshot.samples }, { frames: whole.frames, tree: whole.inline, meta: whole.meta, samples: whole.samples });
  });

  it('a URL whose server honours Range: each part fetches its own range', async () => {
    const log: number[] = [];
    const requests: string[] = [];
    const fetchImpl = server(new Uint8Array(perf), true, requests);
    const session = new ProfileSession({ parts: inThread(log, fetchImpl), fetch: fetchImpl, base: 'http://x/' });
    const r = await session.openUrl('http://x/api/local/t/toyc.txt', { name: 'toyc.txt' });
    expect(r.ok).toBe(true);
    expect(log.sort()).toEqual([1, 2]); // the first part is the session's own
    expect(requests).not.toContain('whole');
    // The probe of the start (256 KiB), then the session's own part up to the first cut.
    expect(requests.filter((r) => r.startsWith('bytes=0-'))).toEqual(['bytes=0-262143', expect.stringMatching(/^bytes=0-\d+$/)]);
    const whole = makeSnapshot(await loadProfileFromText(perf, { source: 'toyc.txt' }));
    if (r.ok) expect(r.snapshot.inline.totalWeight).toEqual(whole.inline.totalWeight);
  });

  it('part workers start while the session parses the first part (it takes task turns)', async () => {
    const big = Buffer.from(syntheticPerf(20_000));
    let bytesAtStart = -1;
    let latest = 0;
    const parts = inThread([]);
    // A part worker's start is a task of this thread, as a nested worker's is in Chromium.
    const run: SessionParts['run'] = (input, job, progress, signal) =>
      new Promise((resolve, reject) => {
        const task = new MessageChannel();
        task.port1.onmessage = () => {
          task.port1.close();
          if (bytesAtStart < 0) bytesAtStart = latest;
          parts.run(input, job, progress, signal).then(resolve, reject);
        };
        task.port2.postMessage(null);
      });
    const session = new ProfileSession({ parts: { ...parts, workers: 2, minPartBytes: 1_000_000, run }, progressIntervalMs: 0 });
    const r = await session.openBlob(new Blob([big]), { name: 'big.txt', onProgress: (p) => (latest = p.bytesRead) });
    expect(r.ok).toBe(true);
    expect(bytesAtStart).toBeLessThan(big.length / 4);
  });

  it('a URL whose server does not take ranges is read by one parser, with one GET', async () => {
    const log: number[] = [];
    const requests: string[] = [];
    const fetchImpl = server(new Uint8Array(perf), false, requests);
    const session = new ProfileSession({ parts: inThread(log, fetchImpl), fetch: fetchImpl, base: 'http://x/' });
    const r = await session.openUrl('http://x/api/local/t/toyc.txt', { name: 'toyc.txt' });
    expect(r.ok).toBe(true);
    expect(log).toEqual([]);
    expect(requests).toEqual(['head', 'whole']);
    // Another server's URL: no HEAD, one GET.
    requests.length = 0;
    expect((await session.openUrl('http://y/toyc.txt', { name: 'toyc.txt' })).ok).toBe(true);
    expect(requests).toEqual(['whole']);
  });

  it("the open's minPartBytes wins over the session's, both ways, for a Blob and a URL", async () => {
    // The session's 30,000 would split; an open's larger minimum keeps one parser...
    const log: number[] = [];
    const session = new ProfileSession({ parts: inThread(log), progressIntervalMs: 0 });
    expect((await session.openBlob(new Blob([perf]), { name: 'toyc.txt', minPartBytes: perf.length })).ok).toBe(true);
    expect(log).toEqual([]);
    // ...and a smaller one splits where the session's minimum would not.
    const strict = new ProfileSession({ parts: { ...inThread(log), minPartBytes: perf.length }, progressIntervalMs: 0 });
    expect((await strict.openBlob(new Blob([perf]), { name: 'toyc.txt' })).ok).toBe(true);
    expect(log).toEqual([]);
    expect((await strict.openBlob(new Blob([perf]), { name: 'toyc.txt', minPartBytes: 30_000 })).ok).toBe(true);
    expect(log.sort()).toEqual([1, 2]); // the first part is the session's own
    const requests: string[] = [];
    const byUrl = new ProfileSession({ parts: { ...inThread([], server(perf, true, requests)), minPartBytes: perf.length }, fetch: server(perf, true, requests), base: 'http://x/', progressIntervalMs: 0 });
    expect((await byUrl.openUrl('http://x/api/local/t/toyc.txt', { name: 'toyc.txt' })).ok).toBe(true);
    expect(requests).toEqual(['head', 'whole']);
    requests.length = 0;
    expect((await byUrl.openUrl('http://x/api/local/t/toyc.txt', { name: 'toyc.txt', minPartBytes: 30_000 })).ok).toBe(true);
    expect(requests.filter((r) => r.startsWith('bytes=')).length).toBeGreaterThan(3);
  });

  it('gzip and perf.data are read by one parser (no parts)', async () => {
    const log: number[] = [];
    const session = new ProfileSession({ parts: inThread(log) });
    const gz = await session.openBlob(new Blob([gzipSync(perf)]), { name: 'toyc.txt.gz' });
    expect(gz.ok).toBe(true);
    const data = await session.openBlob(new Blob([Buffer.concat([Buffer.from('PERFILE2'), Buffer.alloc(300_000)])]), { name: 'perf.data' });
    expect(data.ok ? null : data.error.kind).toBe('perf-data');
    expect(log).toEqual([]);
  });
});
