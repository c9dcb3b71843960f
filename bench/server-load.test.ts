// A few seconds of bench/server-load.ts on a real `bin/flameview serve` (the minute-long run and
// its figures are in docs/robustness.md): no error under concurrent downloads and uploads, and
// the server's memory stays bounded.

import { expect, it } from 'vitest';
import { runLoad } from './server-load';

it('16 connections for 3 s of downloads and uploads: every answer right, memory bounded', { timeout: 90_000 }, async () => {
  const report = await runLoad({ seconds: 3, connections: 16, uploadShare: 0.25, maxRequests: 20_000, seeded: 10 });
  expect(report.errorSamples).toEqual([]);
  expect(report.errors).toBe(0);
  expect(report.download.count).toBeGreaterThan(20);
  expect(report.upload.count).toBeGreaterThan(5);
  // Bodies are streamed: the server grows by far less than the bytes it moved.
  expect(report.rss.peakMb - report.rss.idleMb).toBeLessThan(150);
});
