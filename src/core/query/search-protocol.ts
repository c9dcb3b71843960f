// What the search worker (workers/search.worker.ts, on comlink) offers the page: the names of
// the open recording once (packed, util/wire.ts), then patterns matched against them, one flag
// per frame. A pathological pattern may never answer: the page terminates the worker.

export interface SearchWorkerApi {
  setNames(strings: string, name: Int32Array): void;
  /** 1 for each frame whose name matches; throws (the promise rejects) on an invalid pattern. */
  match(pattern: string, flags: string): Uint8Array;
}

/** A started search worker as its client holds it: the api (its calls answer as promises) and a kill switch. */
export interface SearchWorker {
  readonly api: { setNames(strings: string, name: Int32Array): unknown; match(pattern: string, flags: string): Promise<Uint8Array> };
  terminate(): void;
}
