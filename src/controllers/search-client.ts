// Runs searches in a worker (comlink), cancellably: a new request or a timeout terminates the
// worker and starts a fresh one, so a catastrophic pattern such as (a+)+$ can never freeze the
// page. The latest request wins; earlier promises resolve as 'cancelled'. The timeout counts the
// matching only: a fresh worker's start and its copy of the names (seconds on a loaded machine)
// have their own, longer bound, so a plain pattern is not called catastrophic for them.

import * as Comlink from 'comlink';
import type { SearchWorker, SearchWorkerApi } from '../core/query/search-protocol';
import { Latest } from '../core/util/latest';
import { packStrings } from '../core/util/wire';

export type SearchOutcome = { kind: 'done'; matches: Uint8Array } | { kind: 'timeout' } | { kind: 'cancelled' } | { kind: 'error'; message: string };

export const SEARCH_TIMEOUT_MS = 1500;
/** How long a fresh search worker may take to start and take the names before a search fails. */
export const SEARCH_START_TIMEOUT_MS = 30_000;

export function defaultSearchWorker(): SearchWorker {
  const worker = new Worker(new URL('../../workers/search.worker.ts', import.meta.url), { type: 'module' });
  return { api: Comlink.wrap<SearchWorkerApi>(worker), terminate: () => worker.terminate() };
}

export class SearchClient {
  /** The worker, and when it has started and holds the current names. */
  private worker: { handle: SearchWorker; ready: Promise<unknown> } | null = null;
  private names: { strings: string; name: Int32Array } | null = null;
  private readonly latest = new Latest();
  private inFlight: { resolve: (o: SearchOutcome) => void; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(
    private readonly makeWorker: () => SearchWorker = defaultSearchWorker,
    private readonly timeoutMs = SEARCH_TIMEOUT_MS,
    private readonly startTimeoutMs = SEARCH_START_TIMEOUT_MS,
  ) {}

  /** The names to search; sent once per worker (a copy is kept to restart after a kill). */
  setNames(strings: readonly string[], name: Int32Array): void {
    this.cancel();
    this.names = { strings: packStrings(strings), name };
    if (this.worker) this.worker.ready = Promise.resolve(this.worker.handle.api.setNames(this.names.strings, this.names.name));
  }

  search(pattern: string, caseInsensitive: boolean): Promise<SearchOutcome> {
    // A request still running may be stuck in a catastrophic regex: kill rather than queue.
    if (this.inFlight) this.kill();
    const { handle, ready } = this.ensureWorker();
    const id = this.latest.next();
    return new Promise<SearchOutcome>((resolve) => {
      const pending = { resolve, timer: setTimeout(() => expire({ kind: 'error', message: 'the search worker did not start' }), this.startTimeoutMs) };
      this.inFlight = pending;
      const current = () => this.inFlight === pending && this.latest.isLatest(id);
      const settle = (outcome: SearchOutcome) => {
        if (!current()) return;
        clearTimeout(pending.timer);
        this.inFlight = null;
        resolve(outcome);
      };
      // Past a bound the worker is stuck (or never started): it goes, and the next search starts afresh.
      const expire = (outcome: SearchOutcome) => {
        if (!current()) return;
        this.inFlight = null;
        this.worker?.handle.terminate();
        this.worker = null;
        resolve(outcome);
      };
      ready.then(
        () => {
          if (!current()) return;
          clearTimeout(pending.timer);
          pending.timer = setTimeout(() => expire({ kind: 'timeout' }), this.timeoutMs);
          handle.api.match(pattern, caseInsensitive ? 'i' : '').then(
            (matches) => settle({ kind: 'done', matches }),
            (e: unknown) => settle({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
          );
        },
        (e: unknown) => expire({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
      );
    });
  }

  cancel(): void {
    if (this.inFlight) this.kill();
  }

  dispose(): void {
    this.kill();
    this.worker?.handle.terminate();
    this.worker = null;
  }

  private ensureWorker(): { handle: SearchWorker; ready: Promise<unknown> } {
    if (this.worker) return this.worker;
    const handle = this.makeWorker();
    // A comlink call answers once the worker's script has run and the call is done.
    const ready = Promise.resolve(this.names ? handle.api.setNames(this.names.strings, this.names.name) : undefined);
    this.worker = { handle, ready };
    return this.worker;
  }

  /** Terminates the worker (and resolves the request in flight as cancelled). */
  private kill(): void {
    const pending = this.inFlight;
    this.inFlight = null;
    this.latest.cancel();
    if (pending) {
      clearTimeout(pending.timer);
      this.worker?.handle.terminate();
      this.worker = null;
      pending.resolve({ kind: 'cancelled' });
    }
  }
}
