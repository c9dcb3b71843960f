// The search worker's session (what workers/search.worker.ts wraps) in-process, answering a
// microtask later as a worker would answer asynchronously: for tests of the page's search clients.

import { SearchSession } from '../query/search-session';
import type { SearchWorker } from '../query/search-protocol';

export class InlineSearchWorker implements SearchWorker {
  private readonly session = new SearchSession();
  readonly api = {
    setNames: (strings: string, name: Int32Array) => this.session.setNames(strings, name),
    match: async (pattern: string, flags: string) => this.session.match(pattern, flags),
  };
  terminate(): void {}
}
