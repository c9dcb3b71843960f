// The search worker's session (what workers/search.worker.ts wraps) in-process, answering a
// microtask later as a worker would answer asynchronously: for tests of the page's search clients.

import { SearchSession } from '../query/search-session';
import type { SearchRequest, SearchResponse } from '../query/search-protocol';

export class InlineSearchWorker {
  onmessage: ((event: MessageEvent<SearchResponse>) => void) | null = null;
  private readonly session = new SearchSession();
  postMessage(msg: SearchRequest): void {
    if (msg.type === 'names') this.session.setNames(msg.strings, msg.name);
    else {
      const matches = this.session.match(msg.pattern, msg.flags);
      queueMicrotask(() => this.onmessage?.({ data: { id: msg.id, matches } } as MessageEvent<SearchResponse>));
    }
  }
  terminate(): void {}
}
