// The search worker's session (what workers/search.worker.ts wraps) in-process, answering a
// microtask later as a worker would answer asynchronously: for tests of the page's search clients.

import { SearchSession } from '../query/search-session';
import type { SearchWorker } from '../query/search-protocol';

export class InlineSearchWorker implements SearchWorker {
  private readonly session = new SearchSession();
  /** `hangs`: patterns that never answer, as a catastrophic one in a real worker (running it here would block the test). */
  constructor(private readonly hangs: (pattern: string) => boolean = () => false) {}
  readonly api = {
    setNames: (strings: string, name: Int32Array) => this.session.setNames(strings, name),
    match: (pattern: string, flags: string) => (this.hangs(pattern) ? new Promise<Uint8Array>(() => {}) : Promise.resolve().then(() => this.session.match(pattern, flags))),
  };
  terminate(): void {}
}
