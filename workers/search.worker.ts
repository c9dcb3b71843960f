// Search worker: a comlink facade over a SearchSession (src/core/query/search-session.ts) that
// holds the frame names and answers (pattern, flags) with one flag per frame, by transfer. A
// pathological pattern may run forever here; the page terminates this worker after a timeout.

import * as Comlink from 'comlink';
import { SearchSession } from '../src/core/query/search-session';
import type { SearchWorkerApi } from '../src/core/query/search-protocol';

const session = new SearchSession();

const api: SearchWorkerApi = {
  setNames: (strings, name) => session.setNames(strings, name),
  match(pattern, flags) {
    const matches = session.match(pattern, flags);
    return Comlink.transfer(matches, [matches.buffer]);
  },
};

Comlink.expose(api);
