// The Node host of parallel parsing (../core/parallel/split.ts): a large regular file is cut at
// sample boundaries; this thread parses the first part, each other part is parsed by a
// worker_threads worker that reads its own byte range (./parse-worker.ts), and the parts are
// merged on this thread.
//
// Workers: os.availableParallelism(), or FLAMEVIEW_WORKERS (1 turns parallel parsing off);
// FLAMEVIEW_MIN_PART_BYTES lowers the smallest part (tests use it on small fixtures).

import { open, type FileHandle } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { LoadOptions } from '../core/import/load';
import type { PartialProfile } from '../core/import/importer';
import { awaitPart, loadInParts, MIN_PART_BYTES, partCount, type PartJob, type PartRunner, type RangeSource, type SplitOptions } from '../core/parallel/split';
import type { Profile } from '../core/model/profile';
import type { ParseWorkerData } from './parse-worker';
import { readFileRange } from '../node/read-ahead';

/** FLAMEVIEW_WORKERS when set to a count, else null. */
export function workersSetting(): number | null {
  const n = Number(process.env.FLAMEVIEW_WORKERS);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** Workers to use: FLAMEVIEW_WORKERS when set, else the cores available. */
export function workerCount(): number {
  return workersSetting() ?? availableParallelism();
}

/** FLAMEVIEW_MIN_PART_BYTES when set (for every format), else undefined: the format's own minimum. */
function minPartBytes(): number | undefined {
  const n = Number(process.env.FLAMEVIEW_MIN_PART_BYTES);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/**
 * Loads the regular file at `path` (of `size` bytes) in parallel; null when it is too small or
 * cannot be split (the caller loads it with one parser).
 */
export async function loadFileInParts(
  path: string,
  size: number,
  options: LoadOptions & Pick<SplitOptions, 'timings'>,
  workers = workerCount(),
): Promise<Profile | null> {
  const minPart = minPartBytes();
  if (partCount(size, workers, minPart ?? MIN_PART_BYTES) < 2) return null;
  const handle = await open(path, 'r');
  try {
    const run: PartRunner = (job, progress, signal) => runWorker({ path, job }, progress, signal);
    const readHere = (job: PartJob) => readFileRange(path, job.start, job.end);
    return await loadInParts(rangeSource(handle, size), run, { ...options, workers, minPartBytes: minPart, readHere });
  } finally {
    await handle.close();
  }
}

function rangeSource(handle: FileHandle, size: number): RangeSource {
  return {
    size,
    async read(start, end) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(end, size) - start));
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    },
  };
}

function runWorker(data: ParseWorkerData, progress: Parameters<PartRunner>[1], signal: AbortSignal): Promise<PartialProfile> {
  const worker = startWorker(data);
  return awaitPart(
    {
      listen(message, failure) {
        worker.on('message', message);
        worker.on('error', failure);
        worker.on('exit', (code) => failure(new Error(`a parse worker stopped (exit code ${code}) before its part was read`)));
      },
      terminate: () => void worker.terminate(),
    },
    progress,
    signal,
  );
}

/**
 * The compiled CLI (dist/node/*.mjs) starts the compiled worker beside it; from the sources (tsx)
 * a worker does not inherit the TypeScript loader, so a two-line bootstrap registers it first.
 */
function startWorker(data: ParseWorkerData): Worker {
  const here = import.meta.url;
  if (here.endsWith('.mjs') || here.endsWith('.js')) return new Worker(new URL('./parse-worker.mjs', here), { workerData: data });
  const entry = new URL('./parse-worker.ts', here).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}));`;
  return new Worker(boot, { eval: true, workerData: data });
}
