// Search worker: a facade over a SearchSession (src/core/query/search-session.ts) that holds the
// frame names and answers (pattern, flags) with one flag per frame. A pathological pattern may run
// forever here; the page terminates this worker after a timeout.

import { SearchSession } from '../src/core/query/search-session';
import type { SearchRequest, SearchResponse } from '../src/core/query/search-protocol';

const session = new SearchSession();

self.onmessage = (event: MessageEvent<SearchRequest>) => {
  const msg = event.data;
  if (msg.type === 'names') {
    session.setNames(msg.strings, msg.name);
    return;
  }
  let response: SearchResponse;
  try {
    const matches = session.match(msg.pattern, msg.flags);
    response = { id: msg.id, matches };
    (self as unknown as Worker).postMessage(response, [matches.buffer]);
  } catch (e) {
    response = { id: msg.id, error: e instanceof Error ? e.message : String(e) };
    (self as unknown as Worker).postMessage(response);
  }
};
