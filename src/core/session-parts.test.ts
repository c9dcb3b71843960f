// ProfileSession with parallel parsing: a large Blob is parsed in parts (here in this thread,
// each part read from its own Blob.slice(), as a part worker does) into the snapshot one parser
// gives; what cannot be split falls back to one parser.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parsePartJob, awaitPart, type PartMessage } from './parallel/split';
import { ProfileSession, readStream, type SessionParts } from './session';
import { expectSameProfile } from './testing/split-parts';
import { loadProfileFromText } from './import/load';
import { makeSnapshot } from './snapshot';

const perf = readFileSync(new URL('../../fixtures/rust-toyc.perf-script.txt', import.meta.url));

function inThread(log: number[]): SessionParts {
  return {
    workers: 3,
    minPartBytes: 100_000,
    run(input, job, progress, signal) {
      log.push(job.index);
      let onMessage: (m: PartMessage) => void = () => {};
      const done = awaitPart({ listen: (m) => (onMessage = m), terminate: () => {} }, progress, signal);
      void parsePartJob(readStream(input.blob.slice(job.start, job.end).stream()), job, (m) => onMessage(m));
      return done;
    },
  };
}

describe('ProfileSession in parts', () => {
  it('a large Blob: parts from its own slices, the one-parser snapshot, progress to its size', async () => {
    const log: number[] = [];
    const seen: number[] = [];
    const session = new ProfileSession({ parts: inThread(log), progressIntervalMs: 0 });
    const r = await session.openBlob(new Blob([perf]), { name: 'toyc.txt', onProgress: (p) => seen.push(p.bytesRead) });
    expect(r.ok).toBe(true);
    expect(log).toEqual([0, 1, 2]);
    expect(seen.at(-1)).toBe(perf.length);
    const whole = makeSnapshot(await loadProfileFromText(perf, { source: 'toyc.txt' }));
    if (!r.ok) return;
    expect(r.snapshot.meta).toEqual(whole.meta);
    expect(r.snapshot.inline.totalWeight).toEqual(whole.inline.totalWeight);
    expect(r.snapshot.functions?.totalWeight).toEqual(whole.functions?.totalWeight);
    expectSameProfile({ frames: r.snapshot.frames, tree: r.snapshot.inline, meta: r.snapshot.meta, samples: r.snapshot.samples }, { frames: whole.frames, tree: whole.inline, meta: whole.meta, samples: whole.samples });
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
