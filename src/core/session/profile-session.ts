// A loading session: the engine behind the Web Worker, drivable from Node tests without one.
// Bytes in (a Blob, a fetched URL, pasted text, any async iterable of chunks), a ProfileSnapshot
// or an error value out.
//
// Invariants:
// - The latest request wins: starting an open aborts the one in flight, which then resolves
//   { ok: false, error.kind: 'cancelled' } and never delivers a snapshot.
// - Nothing here throws to the caller: every failure is an OpenError whose message is one line
//   the page can show (which format was expected, which line, what was found; or what to do).
// - Progress is reported at most once per `progressIntervalMs` (plus once at the end), so a
//   fast stream cannot flood the page with messages.
// - The input is never held whole: chunks flow through loadProfile as they arrive.

import { checkProfileUrl, lastSegment } from './profile-url';
import { diagnoseFetchFailure, fetchFailureMessage } from './fetch-failure';
import { AbortedError, loadProfile, type LoadOptions, type LoadProgress } from '../import/load';
import type { ImportOptions, PartialProfile } from '../import/importer';
import { mergeRecordings } from '../parallel/recordings';
import { loadInParts, partCount, type PartJob, type PartRunner, type RangeSource } from '../parallel/split';
import { ImportError, type Profile } from '../model/profile';
import { isPerfData } from '../import/sniff';
import { makeSnapshot, type ProfileSnapshot } from '../views/snapshot';
import { functionOffsets, type AddressesProfile, type SymbolOffsets } from '../query/leaf-addresses';
import { framesMatching, functionLines, type FunctionLines, type LinesProfile, type LinesView } from '../query/source-lines';
import type { KeptColumns } from '../export/processed';
import { narrowedFunctionLines, rangeLineWeights } from '../query/narrowed-lines';
import type { SampleColumns } from '../model/sample-column';

export interface OpenProgress {
  bytesRead: number;
  /** Bytes expected in all (file size, Content-Length), or null when unknown. */
  totalBytes: number | null;
  samples: number;
}

export type OpenErrorKind = 'cancelled' | 'import' | 'perf-data' | 'network' | 'http' | 'refused' | 'internal';

export interface OpenError {
  kind: OpenErrorKind;
  message: string;
}

/** name: the file name the server gave (Content-Disposition), when it gave one. */
export type OpenResult = { ok: true; snapshot: ProfileSnapshot; name?: string } | { ok: false; error: OpenError };

export interface OpenOptions extends Pick<ImportOptions, 'event' | 'split' | 'unit'> {
  /** Shown in messages: the file name or URL. */
  name: string;
  onProgress?: (progress: OpenProgress) => void;
  /** The smallest part of a parallel load, for every format (tests lower it); else SessionParts'. */
  minPartBytes?: number;
}

export interface SessionDeps {
  fetch?: typeof fetch;
  /** The fetching context's URL (the worker's location), to explain a failed fetch. */
  base?: string;
  /** URLs the Content-Security-Policy refused (fetch-failure.ts's watchCspViolations). */
  cspBlocked?: () => readonly string[];
  now?: () => number;
  progressIntervalMs?: number;
  /** Parallel parsing (../parallel/split.ts): large inputs are parsed in parts, one per core: the first on this thread, each other in a worker. */
  parts?: SessionParts;
}

/** What a part worker reads: its slice of a Blob, or its byte range of a URL (HTTP Range). */
export type PartInput = { blob: Blob } | { url: string };

export interface SessionParts {
  /** Workers to use at most (navigator.hardwareConcurrency). */
  workers: number;
  minPartBytes?: number;
  /** Starts a worker on one part of `input` and resolves with its partial profile. */
  run(input: PartInput, job: PartJob, progress: (progress: LoadProgress) => void, signal: AbortSignal): Promise<PartialProfile>;
}

/**
 * What the Source panel's questions read: the line tree, copies of the frame columns and of the
 * function view's node map, and, when the samples are linked to the line tree, copies of their
 * times and weights (a time range narrows by them); the snapshot's own are transferred away.
 */
function keepLines(profile: Profile, toFunction: Int32Array | null): KeptLines | null {
  if (!profile.lines) return null;
  const { frames } = profile;
  const s = profile.samples;
  // No leaves: a range is weighed by line-tree node here, never by call-tree node.
  const samples = s?.line ? { count: s.count, leaf: new Int32Array(0), time: s.time.slice(), weight: s.weight.slice(), line: s.line, ...(s.duration ? { duration: s.duration.slice() } : {}) } : null;
  return {
    lines: profile.lines,
    functionFrames: profile.functionFrames?.slice() ?? null,
    frames: { ...frames, name: frames.name.slice(), module: frames.module.slice(), flags: frames.flags.slice() },
    toFunction: toFunction?.slice() ?? null,
    samples,
    timed: !!s && s.count > 0,
  };
}

type KeptLines = LinesProfile & { toFunction: Int32Array | null; samples: SampleColumns | null; timed: boolean };

/** The view the page shows, as the Source panel's figures follow it (derive's BaseMap, and the time range). */
export interface LinesScope {
  toNew: Int32Array | null;
  frame: Int32Array | null;
  range: { from: number; to: number } | null;
}

/** What the Assembly panel's questions read: the sampled instructions and copies of the frame columns (null: no addresses). */
function keepAddresses(profile: Profile): AddressesProfile | null {
  if (!profile.leafAddresses) return null;
  const { frames } = profile;
  return { leafAddresses: profile.leafAddresses, functionFrames: profile.functionFrames?.slice(), frames: { ...frames, name: frames.name.slice(), module: frames.module.slice(), flags: frames.flags.slice() } };
}

/** How long the HEAD before a ranged load may take (see rangedSize). */
const HEAD_TIMEOUT_MS = 1000;

export class ProfileSession {
  private current: AbortController | null = null;
  private readonly fetchImpl: typeof fetch;
  private readonly base: string | undefined;
  private readonly cspBlocked: (() => readonly string[]) | undefined;
  private readonly now: () => number;
  private readonly interval: number;
  private readonly parts: SessionParts | null;
  /**
   * What the Source panel's questions read of the recording last delivered (null: no lines): the
   * line tree and copies of the frame columns, since the snapshot's own are transferred away.
   */
  private linesOf: KeptLines | null = null;
  /** The same for the Assembly panel: the sampled instructions of the recording last delivered. */
  private addressesOf: AddressesProfile | null = null;
  /** The tree size and sample count of the recording last delivered (keptColumns names them). */
  private deliveredSize: { nodes: number; samples: number } | null = null;

  constructor(deps: SessionDeps = {}) {
    this.parts = deps.parts ?? null;
    this.fetchImpl = deps.fetch ?? ((...args) => globalThis.fetch(...args));
    this.base = deps.base;
    this.cspBlocked = deps.cspBlocked;
    this.now = deps.now ?? (() => Date.now());
    this.interval = deps.progressIntervalMs ?? 80;
  }

  /**
   * The per-line weights of function `name` in `view` of the recording last delivered (null: no
   * lines or no such function), over the stacks `scope` shows (transforms, time range) when given.
   * A range over samples not linked to the line tree cannot narrow them: the figures are then the
   * whole recording's, and say so (`range: 'not-linked'`).
   */
  functionLines(view: LinesView, name: string, scope: LinesScope | null = null): FunctionLines | null {
    const kept = this.linesOf;
    if (!kept?.lines) return null;
    const match = framesMatching(kept, view, (n) => n === name);
    if (!match.includes(1)) return null;
    if (!scope || (!scope.toNew && !scope.range)) return functionLines(kept, view, match);
    if (scope.range && kept.timed) {
      const weights = kept.samples ? rangeLineWeights(kept.samples, kept.lines.tree.nodeCount, scope.range.from, scope.range.to) : null;
      if (!weights) return { ...functionLines(kept, view, match)!, range: 'not-linked' };
      return { ...narrowedFunctionLines(kept, view, kept.toFunction, match, { toNew: scope.toNew, frame: scope.frame, weights })!, range: 'applied' };
    }
    return narrowedFunctionLines(kept, view, kept.toFunction, match, { toNew: scope.toNew, frame: scope.frame });
  }

  /** What Export and Share write beside the snapshot's columns, of the recording last delivered (null: none delivered). */
  keptColumns(): KeptColumns | null {
    const size = this.deliveredSize;
    if (!size) return null;
    const lines = this.linesOf;
    return { ...size, lines: lines?.lines ?? null, sampleLine: lines?.samples?.line ?? null, leafAddresses: this.addressesOf?.leafAddresses ?? null };
  }

  /** The sampled offsets of function `name` (as the function view names it), heaviest symbol first; null when the recording kept no addresses. */
  functionOffsets(name: string): SymbolOffsets[] | null {
    const kept = this.addressesOf;
    if (!kept) return null;
    return functionOffsets(kept, framesMatching(kept, 'functions', (n) => n === name));
  }

  /** Aborts the open in flight, if any. */
  cancel(): void {
    this.current?.abort();
    this.current = null;
  }

  openBlob(blob: Blob, options: OpenOptions): Promise<OpenResult> {
    return this.run(...blobArgs(blob, options, this.begin()));
  }

  openText(text: string, options: OpenOptions): Promise<OpenResult> {
    const signal = this.begin();
    const bytes = new TextEncoder().encode(text);
    return this.run(() => withTaskTurns(chunked(bytes)), bytes.length, options, signal);
  }

  openChunks(chunks: AsyncIterable<Uint8Array>, totalBytes: number | null, options: OpenOptions): Promise<OpenResult> {
    const signal = this.begin();
    return this.run(() => chunks, totalBytes, options, signal);
  }

  /** Fetches an absolute http(s) URL as a stream; progress against Content-Length. */
  async openUrl(url: string, options: OpenOptions): Promise<OpenResult> {
    const signal = this.begin();
    const checked = checkProfileUrl(url);
    if (!checked.ok) return { ok: false, error: { kind: 'refused', message: checked.message } };
    let response: Response;
    try {
      // With part workers, a HEAD request first: a large body served whole (no Content-Encoding)
      // in byte ranges lets each part worker fetch its own range. Anything else (no HEAD, gzip
      // on the wire, a small file) is one GET read by one parser, as before.
      // Only for bin/flameview's own files (same origin, /api/local/): a HEAD to other servers
      // is one more request that may fail or be refused, which a page should not make for nothing.
      const own = this.parts !== null && this.base !== undefined && isLocalFileUrl(checked.url, this.base);
      const total = own ? await rangedSize(this.fetchImpl, checked.url, signal) : null;
      if (total !== null && partCount(total.size, this.parts!.workers, options.minPartBytes ?? this.parts!.minPartBytes) > 1) {
        const whole = async function* (fetchImpl: typeof fetch): AsyncGenerator<Uint8Array> {
          const r = await fetchImpl(checked.url, { signal });
          if (!r.ok || !r.body) throw new Error(`HTTP ${r.status} ${r.statusText}`.trimEnd());
          yield* readStream(r.body);
        };
        const split = { source: urlRanges(this.fetchImpl, checked.url, total.size, signal), input: { url: checked.url } };
        const served = total.name;
        const result = await this.run(() => whole(this.fetchImpl), total.size, served ? { ...options, name: served } : options, signal, split);
        return result.ok && served ? { ...result, name: served } : result;
      }
      response = await this.fetchImpl(checked.url, { signal });
    } catch (e) {
      return this.fetchFailed(checked.url, e, signal);
    }
    const bad = badResponse(checked.url, response);
    if (bad) return bad;
    const body = response.body!;
    const served = dispositionName(response.headers.get('content-disposition'));
    const result = await this.run(() => readStream(body), contentLength(response), served ? { ...options, name: served } : options, signal);
    return result.ok && served ? { ...result, name: served } : result;
  }

  /**
   * Several URLs summed into one recording (issue 31, item 2: several `profile=` in a link), in
   * the order given: each fetched whole (as a Blob, not into the heap), then read as openBlobs
   * reads files; the first that fails fails them all, its message naming it.
   */
  async openUrls(urls: readonly string[], options: OpenOptions & { byRecording?: boolean }): Promise<OpenResult> {
    const signal = this.begin();
    const files: { blob: Blob; name: string }[] = [];
    for (const url of urls) {
      const checked = checkProfileUrl(url);
      if (!checked.ok) return { ok: false, error: { kind: 'refused', message: checked.message } };
      let response: Response;
      try {
        response = await this.fetchImpl(checked.url, { signal });
      } catch (e) {
        return this.fetchFailed(checked.url, e, signal);
      }
      const bad = badResponse(checked.url, response);
      if (bad) return bad;
      const name = dispositionName(response.headers.get('content-disposition')) ?? lastSegment(checked.url);
      try {
        files.push({ blob: await response.blob(), name });
      } catch (e) {
        return this.fetchFailed(checked.url, e, signal);
      }
    }
    if (signal.aborted) return cancelled();
    // openBlobs starts its own request, which must not cancel this one: it is this one's next step.
    return this.openBlobs(files, options);
  }

  /** A fetch that threw: cancelled, or why the network refused it, in the page's words. */
  private async fetchFailed(url: string, e: unknown, signal: AbortSignal): Promise<OpenResult> {
    if (signal.aborted) return cancelled();
    const cause = await diagnoseFetchFailure(url, { fetch: this.fetchImpl, base: this.base, cspBlocked: this.cspBlocked });
    if (signal.aborted) return cancelled();
    const origin = this.base ? new URL(this.base).origin : undefined;
    const detail = e instanceof TypeError ? '' : ` (${errorText(e)})`;
    return { ok: false, error: { kind: 'network', message: fetchFailureMessage(url, cause, origin) + detail } };
  }

  private begin(): AbortSignal {
    this.current?.abort();
    const controller = new AbortController();
    this.current = controller;
    return controller.signal;
  }

  /**
   * Several files summed into one recording (issue 31, item 2; core/parallel/recordings.ts), in
   * the order given, each read as openBlob reads one; the first that fails fails them all, its
   * message naming it. `byRecording`: each file's stacks under a root frame of its name.
   */
  async openBlobs(files: readonly { blob: Blob; name: string }[], options: OpenOptions & { byRecording?: boolean }): Promise<OpenResult> {
    const signal = this.begin();
    const profiles: Profile[] = [];
    for (const { blob, name } of files) {
      const one = await this.readProfile(...blobArgs(blob, { ...options, name }, signal));
      if (!one.ok) return one.error.kind === 'cancelled' || one.error.message.includes(name) ? one : { ok: false, error: { ...one.error, message: `${name}: ${one.error.message}` } };
      profiles.push(one.profile);
    }
    const names = files.map((f) => f.name);
    return this.snapshotOf(() => mergeRecordings(profiles, { labels: names, rootPerRecording: options.byRecording }), signal, options.name, profiles);
  }

  private async run(...args: ReadArgs): Promise<OpenResult> {
    const one = await this.readProfile(...args);
    return one.ok ? this.snapshotOf(() => one.profile, args[3], args[2].name) : one;
  }

  /** The snapshot of the profile `make` gives, or the error it throws, worded as run() words it. */
  private snapshotOf(make: () => Profile, signal: AbortSignal, name: string, runs?: readonly Profile[]): OpenResult {
    try {
      const profile = make();
      const snapshot = makeSnapshot(profile, runs);
      if (signal.aborted) return cancelled();
      this.linesOf = keepLines(profile, snapshot.toFunction);
      this.addressesOf = keepAddresses(profile);
      this.deliveredSize = { nodes: profile.tree.nodeCount, samples: profile.samples?.count ?? 0 };
      return { ok: true, snapshot };
    } catch (e) {
      return { ok: false, error: { kind: 'internal', message: `Could not open ${name}: ${errorText(e)}` } };
    }
  }

  private async readProfile(...[source, totalBytes, options, signal, split]: ReadArgs): Promise<{ ok: true; profile: Profile } | Extract<OpenResult, { ok: false }>> {
    const { name, onProgress } = options;
    let last = -Infinity;
    let latest: OpenProgress = { bytesRead: 0, totalBytes, samples: 0 };
    const report = (force: boolean) => {
      const t = this.now();
      if (!onProgress || (!force && t - last < this.interval)) return;
      last = t;
      onProgress(latest);
    };
    const seen = { bytes: 0 };
    const loadOptions: LoadOptions = {
      event: options.event,
      split: options.split,
      unit: options.unit,
      source: name,
      signal,
      onProgress: (p) => {
        latest = { bytesRead: p.bytesRead, totalBytes, samples: p.samples };
        report(false);
      },
    };
    try {
      const parts = this.parts;
      let profile: Profile | null = null;
      const minPartBytes = options.minPartBytes ?? parts?.minPartBytes;
      if (parts && split && partCount(split.source.size, parts.workers, minPartBytes) > 1) {
        const run: PartRunner = (job, progress, s) => parts.run(split.input, job, progress, s);
        // This worker parses the first part itself (it would only wait for the part workers),
        // with task turns for the part workers' start and for Cancel (see withTaskTurns).
        const readHere = (job: PartJob, stop: AbortSignal) => withTaskTurns(partBytes(this.fetchImpl, split.input, job, stop));
        profile = await loadInParts(split.source, run, { ...loadOptions, workers: parts.workers, minPartBytes, readHere });
        seen.bytes = split.source.size;
      }
      // What cannot be split (gzip, JSON, perf.data, a small file) is read by one parser.
      profile ??= await loadProfile(sniffPerfData(source(), name, signal, seen), loadOptions);
      if (signal.aborted) return cancelled();
      // An empty file would replace the open recording with nothing: say so instead.
      if (seen.bytes === 0) return { ok: false, error: { kind: 'import', message: `${name}: the file is empty` } };
      report(true);
      return { ok: true, profile };
    } catch (e) {
      if (signal.aborted || e instanceof AbortedError) return cancelled();
      if (e instanceof PerfDataError) return { ok: false, error: { kind: 'perf-data', message: e.message } };
      if (e instanceof ImportError) {
        // A binary file named like perf.data that was gzipped or truncated: still say what to do.
        if (/perf\.data/i.test(name) && /binary data/.test(e.found)) {
          return { ok: false, error: { kind: 'perf-data', message: perfDataMessage(name) } };
        }
        return { ok: false, error: { kind: 'import', message: e.message } };
      }
      return { ok: false, error: { kind: 'internal', message: `Could not open ${name}: ${errorText(e)}` } };
    }
  }
}

/** What ProfileSession reads a recording from: its bytes, their count, options, the abort signal, and how to read it in parts. */
type ReadArgs = [source: () => AsyncIterable<Uint8Array>, totalBytes: number | null, options: OpenOptions, signal: AbortSignal, split?: { source: RangeSource; input: PartInput }];

/**
 * A Blob read as one stream or in parts: each part worker reads its own Blob.slice(); this
 * worker reads only the start and the bytes around each cut.
 */
function blobArgs(blob: Blob, options: OpenOptions, signal: AbortSignal): ReadArgs {
  const split = { size: blob.size, read: async (start: number, end: number) => new Uint8Array(await blob.slice(start, end).arrayBuffer()) };
  return [() => readStream(blob.stream()), blob.size, options, signal, { source: split, input: { blob } }];
}

export function perfDataMessage(name: string): string {
  return (
    `${name} is a binary perf.data recording, which the browser cannot symbolise. ` +
    `Run \`flameview ${name}\` (\`bin/flameview ${name}\` in a flameview checkout), or \`perf script -i ${name} > out.txt\` and open out.txt.`
  );
}

class PerfDataError extends Error {
  constructor(name: string) {
    super(perfDataMessage(name));
    this.name = 'PerfDataError';
  }
}

function cancelled(): Extract<OpenResult, { ok: false }> {
  return { ok: false, error: { kind: 'cancelled', message: 'Loading was cancelled' } };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A file bin/flameview serves from the command line (src/server/app.ts: /api/local/, byte ranges). */
function isLocalFileUrl(url: string, base: string): boolean {
  const u = new URL(url);
  return u.origin === new URL(base).origin && u.pathname.startsWith('/api/local/');
}

/**
 * HEAD: the size of a body the server sends whole (no Content-Encoding) and in byte ranges
 * (Accept-Ranges: bytes), with the name it gives; null otherwise, or when HEAD fails.
 */
async function rangedSize(fetchImpl: typeof fetch, url: string, signal: AbortSignal): Promise<{ size: number; name: string | null } | null> {
  let r: Response;
  try {
    // A server that holds HEAD's headers back (a streaming handler that ignores the method) must
    // not delay the load: past HEAD_TIMEOUT_MS the one-parser GET goes ahead.
    r = await fetchImpl(url, { method: 'HEAD', signal: AbortSignal.any([signal, AbortSignal.timeout(HEAD_TIMEOUT_MS)]) });
  } catch (e) {
    if (signal.aborted) throw e;
    return null;
  }
  if (!r.ok || r.headers.get('accept-ranges') !== 'bytes') return null;
  const size = contentLength(r);
  return size === null ? null : { size, name: dispositionName(r.headers.get('content-disposition')) };
}

/** Random access to a URL through HTTP Range requests (a part worker reads its own range). */
function urlRanges(fetchImpl: typeof fetch, url: string, size: number, signal: AbortSignal): RangeSource {
  return {
    size,
    async read(start, end) {
      const r = await fetchRange(fetchImpl, url, start, Math.min(end, size), signal);
      return new Uint8Array(await r.arrayBuffer());
    },
  };
}

/** GET bytes [start, end) of `url`; fails unless the server answers 206. */
export async function fetchRange(fetchImpl: typeof fetch, url: string, start: number, end: number, signal?: AbortSignal): Promise<Response> {
  const r = await fetchImpl(url, { signal, headers: { range: `bytes=${start}-${end - 1}` } });
  if (r.status !== 206) {
    await r.body?.cancel();
    throw new Error(`${url}: expected bytes ${start}-${end - 1} (HTTP 206), the server answered ${r.status}`);
  }
  return r;
}

/** The bytes of a part of a parallel load: its slice of the Blob, or its byte range of the URL. */
export async function* partBytes(fetchImpl: typeof fetch, input: PartInput, job: Pick<PartJob, 'start' | 'end'>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  if ('blob' in input) return yield* readStream(input.blob.slice(job.start, job.end).stream());
  const response = await fetchRange(fetchImpl, input.url, job.start, job.end, signal);
  yield* readStream(response.body!);
}

/** How long a parse may hold this thread's task queue between two turns (see withTaskTurns). */
const TASK_TURN_MS = 10;

/**
 * `chunks`, with a task turn at least every TASK_TURN_MS, so that a parse of bytes that are
 * always ready lets tasks through: a Cancel, and a part worker's start (nested workers start
 * through their parent's tasks). A stream with bytes queued resolves each read as a microtask,
 * as in-memory chunks do, so a parse reading faster than it parses never let a task run: the
 * part workers started only when the profile worker's own part was done, and a Cancel waited as
 * long (Chromium 2026-12: a part worker terminated while it was starting also left this worker's
 * Blob reads hanging).
 */
export async function* withTaskTurns(chunks: AsyncIterable<Uint8Array>, now: () => number = () => performance.now()): AsyncGenerator<Uint8Array> {
  const channel = new MessageChannel();
  let wake: () => void = () => {};
  channel.port1.onmessage = () => wake();
  let last = now();
  try {
    for await (const chunk of chunks) {
      yield chunk;
      if (now() - last < TASK_TURN_MS) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        channel.port2.postMessage(null);
      });
      last = now();
    }
  } finally {
    channel.port1.close();
  }
}

function contentLength(response: Response): number | null {
  // With a Content-Encoding the length counts encoded bytes, but we count decoded ones.
  const encoding = response.headers.get('content-encoding');
  if (encoding && encoding !== 'identity') return null;
  const n = Number(response.headers.get('content-length'));
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The file name in a Content-Disposition header (RFC 6266: filename* preferred), or null. */
export function dispositionName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return cleanName(decodeURIComponent(extended[1].trim()));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(header);
  if (!plain) return null;
  return cleanName((plain[1] ?? plain[2] ?? '').replace(/\\(.)/g, '$1').trim());
}

function cleanName(name: string): string | null {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200);
  return clean === '' ? null : clean;
}

/** Passes the chunks through, failing with PerfDataError when the first bytes are perf.data's magic. */
async function* sniffPerfData(source: AsyncIterable<Uint8Array>, name: string, signal: AbortSignal, seen: { bytes: number }): AsyncGenerator<Uint8Array> {
  const need = 8;
  let head = new Uint8Array(0);
  let decided = false;
  for await (const chunk of source) {
    if (signal.aborted) throw new AbortedError();
    seen.bytes += chunk.length;
    if (decided) {
      yield chunk;
      continue;
    }
    const joined = new Uint8Array(head.length + chunk.length);
    joined.set(head);
    joined.set(chunk, head.length);
    if (joined.length < need) {
      head = joined;
      continue;
    }
    decided = true;
    if (isPerfData(joined)) throw new PerfDataError(name);
    yield joined;
  }
  if (!decided && head.length > 0) yield head;
}

/** Bytes a BYOB read asks for at most; one buffer of this size is reused for the whole stream. */
export const READ_BUFFER_BYTES = 1 << 20;

/**
 * A ReadableStream as an async iterable (Chromium before 124 and Safari lack stream iteration).
 *
 * Byte streams (Blob.stream() and fetch bodies in current browsers) are read with a BYOB reader
 * into one reused 1 MiB buffer: the default reader's fresh ArrayBuffer per chunk costs worker CPU
 * in allocation, page faults and GC (bench/README.md).
 *
 * Invariant: a yielded chunk is valid only until the next one is requested (its buffer is then
 * handed back to the stream and detached). Consumers that keep bytes copy them: maybeGunzip,
 * wholeInput and sniffPerfData do. Streams that are not byte streams fall back to the default
 * reader, whose chunks stay valid.
 */
export async function* readStream(stream: ReadableStream<Uint8Array>, bufferBytes = READ_BUFFER_BYTES): AsyncGenerator<Uint8Array> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = stream.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream (or no BYOB support): the default reader below.
  }
  if (byob) {
    yield* readBytes(byob, bufferBytes);
    return;
  }
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) {
        done = true;
        return;
      }
      yield r.value;
    }
  } finally {
    // Stopped early (cancel, error): release the file handle or the connection.
    if (!done) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

async function* readBytes(reader: ReadableStreamBYOBReader, bufferBytes: number): AsyncGenerator<Uint8Array> {
  let buffer = new ArrayBuffer(bufferBytes);
  let done = false;
  try {
    for (;;) {
      const r = await reader.read(new Uint8Array(buffer));
      if (r.done) {
        done = true;
        return;
      }
      const view = r.value;
      buffer = view.buffer as ArrayBuffer;
      if (view.length > 0) yield view;
    }
  } finally {
    if (!done) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** Slices an in-memory buffer into 1 MB chunks so progress works (and, read through withTaskTurns, cancellation). */
async function* chunked(bytes: Uint8Array, size = 1 << 20): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

/** A response that did not bring a body to read (an HTTP error, or none), as an OpenResult; null when it did. */
function badResponse(url: string, response: Response): OpenResult | null {
  if (!response.ok) return { ok: false, error: { kind: 'http', message: `Could not fetch ${url}: HTTP ${response.status} ${response.statusText}`.trimEnd() } };
  if (!response.body) return { ok: false, error: { kind: 'http', message: `Could not fetch ${url}: the response has no body` } };
  return null;
}

