// The Node host of parallel parsing: worker_threads workers read their own byte ranges of a file
// and the merged profile is the one-parser profile; progress adds up, cancel and errors stop
// every worker.

import { readFileSync, statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AbortedError, loadProfileFromText } from '../core/import/load';
import { expectSameProfile } from '../core/testing/split-parts';
import { syntheticPerf } from '../core/testing/synthetic-perf';
import { loadFileInParts } from './parallel-load';

const fixture = (name: string) => new URL(`../../fixtures/${name}`, import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'flameview-parallel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function withMinPart<T>(bytes: number, fn: () => Promise<T>): Promise<T> {
  process.env.FLAMEVIEW_MIN_PART_BYTES = String(bytes);
  return fn().finally(() => delete process.env.FLAMEVIEW_MIN_PART_BYTES);
}

describe('loadFileInParts (worker_threads)', () => {
  it('perf script in 3 workers: the one-parser profile, progress over the whole file', async () => {
    const path = join(dir, 'synthetic.perf-script.txt');
    writeFileSync(path, syntheticPerf(2000));
    const size = statSync(path).size;
    const whole = await loadProfileFromText(readFileSync(path), { source: path });
    const seen: number[] = [];
    const merged = await withMinPart(30_000, () =>
      loadFileInParts(path, size, { source: path, onProgress: (p) => seen.push(p.bytesRead) }, 3),
    );
    expect(merged).not.toBeNull();
    expectSameProfile(merged!, whole);
    expect(seen.at(-1)).toBe(size);
    expect(seen.every((b, i) => i === 0 || b >= seen[i - 1])).toBe(true);
  }, 60_000);

  it('folded with a bad line: the warning names its line in the whole file', async () => {
    const lines = Array.from({ length: 4000 }, (_, i) => `main;f${i % 50};g ${i + 1}`);
    lines[3100] = 'main;broken x';
    const path = join(dir, 'bad.folded');
    writeFileSync(path, lines.join('\n') + '\n');
    const merged = await withMinPart(10_000, () => loadFileInParts(path, statSync(path).size, {}, 4));
    expect(merged).not.toBeNull();
    expect(merged!.meta.warnings).toEqual([{ line: 3101, message: 'count "x" is not a number; skipped "main;broken x"' }]);
    expectSameProfile(merged!, await loadProfileFromText(readFileSync(path)));
  }, 60_000);

  it('a small file, gzip or a whole-input format takes the one-parser path (null)', async () => {
    const path = fixture('sqlite.folded');
    expect(await loadFileInParts(path, statSync(path).size, {}, 2)).toBeNull();
    await withMinPart(1000, async () => {
      for (const name of ['interchange/go-cpu.pb.gz', 'interchange/node.cpuprofile', 'interchange/chrome-trace.json']) {
        expect(await loadFileInParts(fixture(name), statSync(fixture(name)).size, {}, 2), name).toBeNull();
      }
    });
  });

  it('cancel stops the workers and rejects with AbortedError', async () => {
    const path = join(dir, 'cancel.perf-script.txt');
    writeFileSync(path, syntheticPerf(3000));
    const controller = new AbortController();
    const load = withMinPart(30_000, () =>
      loadFileInParts(path, statSync(path).size, { signal: controller.signal, onProgress: () => controller.abort() }, 2),
    );
    await expect(load).rejects.toBeInstanceOf(AbortedError);
  }, 60_000);
});
