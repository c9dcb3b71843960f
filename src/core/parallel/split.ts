// Parallel parsing of one recording: the input is cut into byte ranges at sample boundaries, each
// range is parsed into a partial profile (loadPart), the first by the calling thread when the host
// lets it read a part (readHere), every other by its own worker, and the parts are merged
// (./merge.ts) into exactly the profile one parser gives. Host-neutral: the host (the browser's
// profile worker, the Node CLI) says how to read bytes at an offset and how to run a part.
//
// Where a part may start: where one parser's state is the same whatever came before, given the
// PartContext: after a blank line for perf script (a blank line ends the sample; the next line
// starts one), after any line end for folded stacks (one stack per line).
//
// Invariants: parts are whole lines, in input order, non-empty, covering the input exactly;
// inputs that cannot be split (gzip, whole-input formats, an importer without parts, a start
// that decides nothing, no boundary found) return null and take the one-parser path; an error
// in one part cancels the others.

import { AbortedError, loadPart, probeSplit, type LoadOptions, type LoadProgress } from '../import/load';
import type { PartContext, PartialProfile } from '../import/importer';
import type { FormatId, Profile } from '../model/profile';
import { importers } from '../import/registry';
import { mergeParts } from './merge';

/**
 * The smallest part worth a worker, by format: each worker first pays a fixed cost (its own V8
 * isolate compiles the parser, it learns every frame line again, the merge follows), which
 * smaller parts do not repay; folded stacks parse 2-3× faster a byte, so need larger parts.
 * Measured where 2 parts break even with one parser (bench/README.md, "Parallel parsing").
 */
const MIN_PART_BYTES_BY_FORMAT: Partial<Record<FormatId, number>> = {
  'perf-script': 128 * 1024 * 1024,
  folded: 384 * 1024 * 1024,
};
/** The smallest of them: an input below twice this is never split (decided before reading it). */
export const MIN_PART_BYTES = Math.min(...Object.values(MIN_PART_BYTES_BY_FORMAT));

/** The smallest part worth a worker for `format`. */
export function minPartBytes(format: FormatId): number {
  return MIN_PART_BYTES_BY_FORMAT[format] ?? MIN_PART_BYTES;
}
/** Bytes of the input's start read to choose the importer and its PartContext. */
const PROBE_BYTES = 256 * 1024;
/** Bytes read around a cut to find a boundary; doubled up to MAX_SEARCH. */
const SEARCH_BYTES = 64 * 1024;
const MAX_SEARCH = 16 * 1024 * 1024;

const LF = 10;
const CR = 13;

/** Random access to the input: bytes [start, end), fewer only at its end. */
export interface RangeSource {
  readonly size: number;
  read(start: number, end: number): Promise<Uint8Array>;
}

/** What a worker needs to parse one part: plain data. */
export interface PartJob {
  index: number;
  start: number;
  end: number;
  format: FormatId;
  options: PartOptions;
}

export type PartOptions = Pick<LoadOptions, 'event' | 'split' | 'source' | 'maxLineChars'> & { partContext?: PartContext };

/** Runs a part in a worker; reports the bytes it read so far through `progress`. */
export type PartRunner = (job: PartJob, progress: (progress: LoadProgress) => void, signal: AbortSignal) => Promise<PartialProfile>;

export interface SplitOptions extends LoadOptions {
  /** How many workers to use at most (cores available). */
  workers: number;
  /** The smallest part, for every format (tests lower it); else minPartBytes(format). */
  minPartBytes?: number;
  /**
   * The bytes of a part, for this thread to parse the first part itself instead of waiting for the
   * workers: a worker fewer to start, whose isolate would compile the parser again (0.5 s of CPU
   * or more on the cores that parse; bench/README.md, "fourth session").
   */
  readHere?: (job: PartJob, signal: AbortSignal) => AsyncIterable<Uint8Array>;
  /** Filled in for benchmarks: parts read, time until the last part arrived, merge time (ms), each part's CPU time when known. */
  timings?: { parts: number; partsMs: number; mergeMs: number; partCpuMs?: number[]; mergeCpuMs?: number; cpuClock?: () => number };
}

/** How many parts an input of `size` bytes gets: one per worker, each at least minPart. */
export function partCount(size: number, workers: number, minPart = MIN_PART_BYTES): number {
  return Math.max(1, Math.min(workers, Math.floor(size / minPart)));
}

/**
 * Loads `source` in parallel parts; null when it is not worth it or cannot be split (the caller
 * then loads it with one parser, which also gives the right error for bad input).
 */
export async function loadInParts(source: RangeSource, run: PartRunner, options: SplitOptions): Promise<Profile | null> {
  if (partCount(source.size, options.workers, options.minPartBytes) < 2) return null;
  const head = await source.read(0, Math.min(source.size, PROBE_BYTES));
  const probe = probeSplit(head, head.length === source.size, options);
  if (!probe) return null;
  const n = partCount(source.size, options.workers, options.minPartBytes ?? minPartBytes(probe.importer.format));
  if (n < 2) return null;
  const cuts = await findCuts(source, n, probe.importer.format === 'perf-script' ? 'blank-line' : 'line');
  if (!cuts) return null;

  const controller = new AbortController();
  const abort = () => controller.abort();
  options.signal?.addEventListener('abort', abort);
  const bytes = new Float64Array(cuts.length - 1);
  const samples = new Float64Array(cuts.length - 1);
  const report = (i: number, p: LoadProgress): void => {
    bytes[i] = p.bytesRead;
    samples[i] = p.samples;
    options.onProgress?.({ bytesRead: sum(bytes), samples: sum(samples) });
  };
  const base: PartOptions = { event: options.event, split: options.split, source: options.source, maxLineChars: options.maxLineChars };
  const pending: Promise<PartialProfile>[] = [];
  try {
    const jobs = cuts.slice(1).map((end, i): PartJob => ({
      index: i,
      start: cuts[i],
      end,
      format: probe.importer.format,
      options: i === 0 ? base : { ...base, partContext: probe.context },
    }));
    const { readHere } = options;
    const cpuClock = options.timings?.cpuClock;
    const start = (job: PartJob): Promise<PartialProfile> => {
      const progress = (p: LoadProgress) => report(job.index, p);
      const part = job.index === 0 && readHere ? parseHere(readHere, job, progress, controller.signal, cpuClock) : run(job, progress, controller.signal);
      return part.catch((e: unknown) => {
        controller.abort();
        throw e;
      });
    };
    // The workers first: this thread's part then parses while they start.
    for (let i = jobs.length - 1; i >= 0; i--) pending[i] = start(jobs[i]);
    const started = performance.now();
    let parts: PartialProfile[];
    try {
      parts = await Promise.all(pending);
    } catch (e) {
      // A part that cannot be merged (WholeInputNeeded): the others were cancelled.
      if ((e as Error).name === 'WholeInputNeeded' && !options.signal?.aborted) return null;
      throw e;
    }
    if (options.signal?.aborted) throw new AbortedError();
    const merging = performance.now();
    const cpu = options.timings?.cpuClock?.() ?? NaN;
    const profile = mergeParts(parts, probe.importer, options);
    if (options.timings) {
      const mergeCpuMs = (options.timings.cpuClock?.() ?? NaN) - cpu;
      Object.assign(options.timings, { parts: parts.length, partsMs: merging - started, mergeMs: performance.now() - merging, partCpuMs: parts.map((p) => p.cpuMs ?? NaN), mergeCpuMs });
    }
    return profile;
  } catch (e) {
    // Whatever failed, no part goes on (a worker started before a failure here would), and the
    // parts that fail for that are not unhandled rejections.
    controller.abort();
    for (const p of pending) if (p) p.catch(() => {});
    if (options.signal?.aborted) throw new AbortedError();
    throw e;
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
}

/**
 * Parses a part on this thread, as a worker would (parsePartJob); with `cpuClock`, the thread's
 * CPU time while it did (the other parts' messages it handled meanwhile included).
 */
async function parseHere(
  read: NonNullable<SplitOptions['readHere']>,
  job: PartJob,
  progress: (p: LoadProgress) => void,
  signal: AbortSignal,
  cpuClock?: () => number,
): Promise<PartialProfile> {
  const cpu = cpuClock?.();
  const part = await loadPart(read(job, signal), importerFor(job.format), { ...job.options, onProgress: progress, signal });
  if (cpu !== undefined) part.cpuMs = cpuClock!() - cpu;
  return part;
}

/**
 * Offsets 0 = c0 < c1 < … < ck = size where parts may start: each cut moved forward from an
 * equal share to the next boundary. Null when no cut found a boundary.
 */
export async function findCuts(source: RangeSource, n: number, kind: 'blank-line' | 'line'): Promise<number[] | null> {
  const cuts = [0];
  for (let i = 1; i < n; i++) {
    const target = Math.max(Math.floor((source.size * i) / n), cuts[cuts.length - 1] + 1);
    const at = await nextBoundary(source, target, kind);
    if (at > cuts[cuts.length - 1] && at < source.size) cuts.push(at);
  }
  if (cuts.length < 2) return null;
  cuts.push(source.size);
  return cuts;
}

/** The first offset ≥ `from` where a line starts after a line end (or, for 'blank-line', after an empty line). */
async function nextBoundary(source: RangeSource, from: number, kind: 'blank-line' | 'line'): Promise<number> {
  // The two bytes before `from` are read too: a boundary may sit right at it.
  for (let length = SEARCH_BYTES; ; length *= 2) {
    const start = Math.max(0, from - 2);
    const bytes = await source.read(start, Math.min(source.size, from + length));
    const at = boundaryIn(bytes, from - start, kind);
    if (at >= 0) return start + at;
    if (from + length >= source.size || length >= MAX_SEARCH) return source.size;
  }
}

/** In `bytes`, the first position ≥ from that starts a line after a line end (after an empty line); -1 if none. */
export function boundaryIn(bytes: Uint8Array, from: number, kind: 'blank-line' | 'line'): number {
  for (let nl = bytes.indexOf(LF, Math.max(0, from - 1)); nl >= 0; nl = bytes.indexOf(LF, nl + 1)) {
    if (kind === 'line') return nl + 1;
    // An empty line: LF LF, or LF CR LF.
    const prev = nl > 0 && bytes[nl - 1] === CR ? nl - 2 : nl - 1;
    if (prev >= 0 && bytes[prev] === LF) return nl + 1;
  }
  return -1;
}

/** The importer a job names (workers look it up by format). */
export function importerFor(format: FormatId) {
  const importer = importers.find((i) => i.format === format);
  if (!importer) throw new Error(`no line importer for ${format}`);
  return importer;
}

/** What a part worker sends: progress, then its part or an error. */
export type PartMessage =
  | { type: 'progress'; bytesRead: number; samples: number }
  | { type: 'done'; part: PartialProfile }
  | { type: 'error'; name: string; message: string };

/**
 * The worker side of a part, host-neutral: parses `input` (the part's bytes) and posts progress,
 * then the part with its buffers transferred, or the error.
 */
export async function parsePartJob(input: AsyncIterable<Uint8Array>, job: PartJob, post: (message: PartMessage, transfer?: ArrayBuffer[]) => void): Promise<void> {
  try {
    const part = await loadPart(input, importerFor(job.format), {
      ...job.options,
      onProgress: (p) => post({ type: 'progress', bytesRead: p.bytesRead, samples: p.samples }),
    });
    post({ type: 'done', part }, partBuffers(part));
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    post({ type: 'error', name: error.name, message: error.message });
  }
}

/** A started part worker, as the host sees it. */
export interface PartPort {
  /** Calls `message` for each PartMessage, `failure` when the worker dies. */
  listen(message: (m: PartMessage) => void, failure: (e: Error) => void): void;
  terminate(): void;
}

/** The part a worker sends back; the worker is terminated when it is done, fails or is aborted. */
export function awaitPart(port: PartPort, progress: (progress: LoadProgress) => void, signal: AbortSignal): Promise<PartialProfile> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      fn();
      port.terminate();
    };
    const onAbort = (): void => finish(() => reject(new AbortedError()));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort);
    port.listen(
      (m) => {
        if (m.type === 'progress') progress(m);
        else if (m.type === 'done') finish(() => resolve(m.part));
        else finish(() => reject(Object.assign(new Error(m.message), { name: m.name })));
      },
      (e) => finish(() => reject(e)),
    );
  });
}

/** The buffers of every typed array in a part, to transfer it instead of copying it. */
export function partBuffers(part: PartialProfile): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (ArrayBuffer.isView(value)) {
      if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
      return;
    }
    if (Array.isArray(value)) {
      // Arrays of strings (the string table) hold nothing to transfer.
      if (typeof value[0] !== 'string') for (const v of value) walk(v);
      return;
    }
    for (const v of Object.values(value)) walk(v);
  };
  walk(part);
  return [...found];
}

function sum(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
}
