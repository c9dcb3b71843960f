// The store behind `flameview serve`: one interface, two backends (disk-store.ts: a directory;
// s3-store.ts: a bucket and prefix, shared by any number of stateless replicas), and the part of
// an upload they share (UploadMeter, receive).
//
// Invariants, whatever the backend:
// - Content addressing: a recording's id is the lowercase hex sha256 of its bytes as uploaded,
//   computed while they stream; the same bytes are stored once.
// - A recording is visible under its id only once complete: bytes go to a temporary file or key
//   first, and an upload that fails, is refused or is cut off leaves nothing under an id.
// - An upload holds a bounded amount of it in memory (one chunk, the sniffed head, and for S3 the
//   parts in flight), whatever its size; the size limit is checked as bytes arrive.
// - Every file name or key is built from an id that matched ID_PATTERN.

import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { SNIFF_BYTES } from '../core/import/sniff';

export interface RecordingInfo {
  id: string;
  name: string;
  size: number;
  /** ISO 8601, when the recording was stored. */
  date: string;
}

/** What listing and eviction need, cheap to get for every recording (no name). */
export type StoredEntry = Omit<RecordingInfo, 'name'>;

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export type PutResult =
  | { kind: 'stored'; info: RecordingInfo; created: boolean }
  | { kind: 'too-large'; limit: number }
  | { kind: 'rejected'; reason: string }
  /** The client went away before the end of the body. */
  | { kind: 'interrupted' }
  /** ENOSPC / EDQUOT while writing. */
  | { kind: 'no-space' }
  /** The client sent slower than PutOptions.pace allows (a trickled body). */
  | { kind: 'too-slow'; minBytesPerSecond: number };

/**
 * How slowly an upload may arrive: it gets `graceMs`, plus one second for every
 * `minBytesPerSecond` bytes received (Apache's mod_reqtimeout MinRate), so a body trickled byte
 * by byte or stalled is cut while a slow but steady link is not. Time the store itself holds the
 * body back (backpressure) does not count.
 */
export interface UploadPace {
  graceMs: number;
  minBytesPerSecond: number;
}

export interface PutOptions {
  name: string;
  maxBytes: number;
  /**
   * Looks at the first HEAD_BYTES of the upload (all of it when `complete`); returns a reason to
   * refuse it, or null to keep it. Asked once, before the rest is stored.
   */
  accept?: (head: Buffer, complete: boolean) => Promise<string | null>;
  pace?: UploadPace;
}

export interface RecordingStore {
  /** DIR or s3://BUCKET/PREFIX, for messages. */
  readonly location: string;
  /** Streams `body` into the store under its sha256. */
  put(body: Readable, options: PutOptions): Promise<PutResult>;
  /** The recording's metadata, or null when there is no such recording. */
  info(id: string): Promise<RecordingInfo | null>;
  /** Its bytes (or a range of them), or null when it is gone. */
  open(id: string, range?: ByteRange): Promise<Readable | null>;
  /**
   * A store on a local disk: the recording's file, which downloads send through reused buffers
   * (./send-file.ts) rather than a stream's fresh buffer per read; null when it is gone.
   */
  openFile?(id: string): Promise<FileHandle | null>;
  /** Every stored recording, in no particular order. */
  entries(): Promise<StoredEntry[]>;
  /** False when there was no such recording. */
  delete(id: string): Promise<boolean>;
  /** The secret delete tokens are signed with, made once and kept in the store for every replica. */
  secret(): Promise<Buffer>;
  close(): Promise<void>;
}

/** Bytes of the head handed to PutOptions.accept: what the core sniffer reads of any input. */
export const HEAD_LIMIT = SNIFF_BYTES;

export class UploadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`upload exceeds ${limit} bytes`);
  }
}

export class UploadRejected extends Error {}

export class UploadInterrupted extends Error {
  constructor() {
    super('the upload was interrupted');
  }
}

export class UploadTooSlow extends Error {
  constructor(readonly minBytesPerSecond: number) {
    super(`the upload arrived slower than ${minBytesPerSecond} bytes a second`);
  }
}

/**
 * The store cannot be reached (an object store that is down or answers 5xx): the request gets
 * 503 and Retry-After, and the server logs this one-line message, not a stack.
 */
export class StoreUnavailable extends Error {
  readonly statusCode = 503;
  constructor(location: string, cause: unknown) {
    super(`the recording store ${location} is unavailable (${describeCause(cause)})`);
  }
}

function describeCause(cause: unknown): string {
  const e = cause as Error & { code?: string; $metadata?: { httpStatusCode?: number } };
  const code = e?.$metadata?.httpStatusCode;
  return code ? `HTTP ${code}` : (e?.code ?? e?.name ?? 'no answer');
}

/**
 * Passes an upload through, counting (UploadTooLarge past maxBytes), hashing, and asking `accept`
 * about its head before letting more than HEAD_LIMIT bytes through (UploadRejected).
 */
export class UploadMeter extends Transform {
  /** Bytes so far (not `size`: lib-storage would take a `size` property for the body's length). */
  received = 0;
  /** Why the upload stopped, when the meter stopped it. */
  failure: Error | null = null;
  private readonly hash = createHash('sha256');
  private head: Buffer[] | null = [];
  private headLength = 0;

  constructor(readonly options: PutOptions) {
    super();
  }

  get id(): string {
    return this.hash.copy().digest('hex');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.options.maxBytes) return this.fail(new UploadTooLarge(this.options.maxBytes), callback);
    this.hash.update(chunk);
    if (this.head === null) return callback(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < HEAD_LIMIT) return callback();
    this.decide(false, callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.head === null) return callback();
    this.decide(true, callback);
  }

  private decide(complete: boolean, callback: TransformCallback): void {
    const bytes = Buffer.concat(this.head!);
    this.head = null;
    const accept = this.options.accept ?? (async () => null);
    accept(bytes.subarray(0, HEAD_LIMIT), complete && bytes.length <= HEAD_LIMIT).then(
      (refusal) => (refusal === null ? callback(null, bytes) : this.fail(new UploadRejected(refusal), callback)),
      (e: Error) => callback(e),
    );
  }

  private fail(error: Error, callback: TransformCallback): void {
    this.failure = error;
    callback(error);
  }
}

/**
 * Runs an upload: pipes the request body into the meter without tying their lifetimes together
 * (pipeline() would destroy the request, and with it the socket the 413 or 415 answer must go out
 * on) and waits for `done`, the backend's write of what comes out of the meter. Returns null when
 * every byte is stored, else the result to answer. A client that goes away mid-body fails the
 * meter, so the backend abandons the upload.
 */
export async function receive(body: Readable, meter: UploadMeter, done: Promise<unknown>): Promise<PutResult | null> {
  const abandon = () => abandonWith(meter, new UploadInterrupted());
  body.once('error', abandon);
  body.once('aborted', abandon);
  body.once('close', () => {
    if (!body.readableEnded) abandon();
  });
  body.pipe(meter);
  const pace = meter.options.pace;
  const watchdog = pace ? watchPace(meter, pace, () => abandonWith(meter, new UploadTooSlow(pace.minBytesPerSecond))) : undefined;
  try {
    await done;
    return null;
  } catch (e) {
    // Stop storing but keep reading the request (and throw it away), so the answer reaches a
    // client that is still sending.
    body.unpipe(meter);
    if (!meter.destroyed) meter.destroy();
    body.resume();
    const cause = meter.failure ?? e;
    if (cause instanceof UploadTooLarge) return { kind: 'too-large', limit: cause.limit };
    if (cause instanceof UploadRejected) return { kind: 'rejected', reason: cause.message };
    if (cause instanceof UploadInterrupted) return { kind: 'interrupted' };
    if (cause instanceof UploadTooSlow) return { kind: 'too-slow', minBytesPerSecond: cause.minBytesPerSecond };
    if (isNoSpace(cause)) return { kind: 'no-space' };
    throw e;
  } finally {
    clearInterval(watchdog);
  }
}

export function isNoSpace(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

function abandonWith(meter: UploadMeter, failure: Error): void {
  if (!meter.destroyed) meter.destroy((meter.failure = failure));
}

/** Calls `tooSlow` once the upload is behind its pace (see UploadPace); returns the timer. */
function watchPace(meter: UploadMeter, pace: UploadPace, tooSlow: () => void): NodeJS.Timeout {
  const tick = Math.max(10, Math.min(1000, pace.graceMs / 4));
  let allowed = pace.graceMs;
  let last = Date.now();
  const start = last;
  const timer = setInterval(() => {
    const now = Date.now();
    // Waiting on the store (its writes are behind) is the server's time, not the client's.
    if (meter.writableNeedDrain) allowed += now - last;
    last = now;
    if (now - start > allowed + (meter.received / pace.minBytesPerSecond) * 1000) {
      clearInterval(timer);
      tooSlow();
    }
  }, tick);
  timer.unref();
  return timer;
}

/** Runs `task` for one id at a time in this process (two identical uploads: one stores, one finds it). */
export class IdLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(id) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(id, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(id) === tail) this.tails.delete(id);
    }
  }
}
