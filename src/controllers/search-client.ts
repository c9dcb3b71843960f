// Runs searches in a worker, cancellably: a new request or a timeout terminates the worker and
// starts a fresh one, so a catastrophic pattern such as (a+)+$ can never freeze the page. The
// latest request wins; earlier promises resolve as 'cancelled'.

import type { SearchRequest, SearchResponse } from '../core/query/search-protocol';
import { Latest } from '../core/util/latest';
import { packStrings } from '../core/util/wire';

export type SearchOutcome = { kind: 'done'; matches: Uint8Array } | { kind: 'timeout' } | { kind: 'cancelled' } | { kind: 'error'; message: string };

export interface WorkerLike {
  postMessage(message: SearchRequest, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<SearchResponse>) => void) | null;
}

export const SEARCH_TIMEOUT_MS = 1500;

export function defaultSearchWorker(): WorkerLike {
  return new Worker(new URL('../../workers/search.worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike;
}

export class SearchClient {
  private worker: WorkerLike | null = null;
  private names: { strings: string; name: Int32Array } | null = null;
  private readonly latest = new Latest();
  private inFlight: { resolve: (o: SearchOutcome) => void; timer: ReturnType<typeof setTimeout> } | null = null;

  constructor(
    private readonly makeWorker: () => WorkerLike = defaultSearchWorker,
    private readonly timeoutMs = SEARCH_TIMEOUT_MS,
  ) {}

  /** The names to search; sent once per worker (a copy is kept to restart after a kill). */
  setNames(strings: readonly string[], name: Int32Array): void {
    this.cancel();
    this.names = { strings: packStrings(strings), name };
    if (this.worker) this.worker.postMessage({ type: 'names', ...this.names });
  }

  search(pattern: string, caseInsensitive: boolean): Promise<SearchOutcome> {
    // A request still running may be stuck in a catastrophic regex: kill rather than queue.
    if (this.inFlight) this.kill();
    const worker = this.ensureWorker();
    const id = this.latest.next();
    return new Promise<SearchOutcome>((resolve) => {
      const timer = setTimeout(() => {
        if (!this.latest.isLatest(id) || !this.inFlight) return;
        this.inFlight = null;
        this.worker?.terminate();
        this.worker = null;
        resolve({ kind: 'timeout' });
      }, this.timeoutMs);
      this.inFlight = { resolve, timer };
      worker.postMessage({ type: 'search', id, pattern, flags: caseInsensitive ? 'i' : '' });
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

  private ensureWorker(): WorkerLike {
    if (this.worker) return this.worker;
    const worker = this.makeWorker();
    worker.onmessage = (event) => this.onResponse(event.data);
    if (this.names) worker.postMessage({ type: 'names', ...this.names });
    this.worker = worker;
    return worker;
  }

  private onResponse(msg: SearchResponse): void {
    const pending = this.inFlight;
    if (!pending || !this.latest.isLatest(msg.id)) return;
    clearTimeout(pending.timer);
    this.inFlight = null;
    pending.resolve('error' in msg ? { kind: 'error', message: msg.error } : { kind: 'done', matches: msg.matches });
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
