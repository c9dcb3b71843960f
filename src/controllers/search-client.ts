// Runs searches in a worker (comlink), cancellably: a new request or a timeout terminates the
// worker and starts a fresh one, so a catastrophic pattern such as (a+)+$ can never freeze the
// page. The latest request wins; earlier promises resolve as 'cancelled'.

import * as Comlink from 'comlink';
import type { SearchWorker, SearchWorkerApi } from '../core/query/search-protocol';
import { Latest } from '../core/util/latest';
import { packStrings } from '../core/util/wire';

export type SearchOutcome = { kind: 'done'; matches: Uint8Array } | { kind: 'timeout' } | { kind: 'cancelled' } | { kind: 'error'; message: string };

export const SEARCH_TIMEOUT_MS = 1500;

export function defaultSearchWorker(): SearchWorker {
  const worker = new Worker(new URL('../../workers/search.worker.ts', import.meta.url), { type: 'module' });
  return { api: Comlink.wrap<SearchWorkerApi>(worker), terminate: () => worker.terminate() };
}

export class SearchClient {
  private worker: SearchWorker | null = null;
  private names: { strings: string; name: Int32Array } | null = null;
  private readonly latest = new Latest();
  private inFlight: { resolve: (o: SearchOutcome) => void; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(
    private readonly makeWorker: () => SearchWorker = defaultSearchWorker,
    private readonly timeoutMs = SEARCH_TIMEOUT_MS,
  ) {}

  /** The names to search; sent once per worker (a copy is kept to restart after a kill). */
  setNames(strings: readonly string[], name: Int32Array): void {
    this.cancel();
    this.names = { strings: packStrings(strings), name };
    if (this.worker) void this.worker.api.setNames(this.names.strings, this.names.name);
  }

  search(pattern: string, caseInsensitive: boolean): Promise<SearchOutcome> {
    // A request still running may be stuck in a catastrophic regex: kill rather than queue.
    if (this.inFlight) this.kill();
    const worker = this.ensureWorker();
    const id = this.latest.next();
    return new Promise<SearchOutcome>((resolve) => {
      const settle = (outcome: SearchOutcome) => {
        const pending = this.inFlight;
        if (!pending || !this.latest.isLatest(id)) return;
        clearTimeout(pending.timer);
        this.inFlight = null;
        resolve(outcome);
      };
      const timer = setTimeout(() => {
        if (!this.latest.isLatest(id) || !this.inFlight) return;
        this.inFlight = null;
        this.worker?.terminate();
        this.worker = null;
        resolve({ kind: 'timeout' });
      }, this.timeoutMs);
      this.inFlight = { resolve, timer };
      worker.api.match(pattern, caseInsensitive ? 'i' : '').then(
        (matches) => settle({ kind: 'done', matches }),
        (e: unknown) => settle({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
      );
    });
  }

  cancel(): void {
    if (this.inFlight) this.kill();
  }

  dispose(): void {
    this.kill();
    this.worker?.terminate();
    this.worker = null;
  }

  private ensureWorker(): SearchWorker {
    if (this.worker) return this.worker;
    const worker = this.makeWorker();
    if (this.names) void worker.api.setNames(this.names.strings, this.names.name);
    this.worker = worker;
    return worker;
  }

  /** Terminates the worker (and resolves the request in flight as cancelled). */
  private kill(): void {
    const pending = this.inFlight;
    this.inFlight = null;
    this.latest.cancel();
    if (pending) {
      clearTimeout(pending.timer);
      this.worker?.terminate();
      this.worker = null;
      pending.resolve({ kind: 'cancelled' });
    }
  }
}
