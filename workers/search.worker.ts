// Search worker: holds the frame names, answers (pattern, flags) with one flag per frame.
// A pathological pattern may run forever here; the page terminates this worker after a timeout.

import { matchNames } from '../src/core/query/match-names';
import type { SearchRequest, SearchResponse } from '../src/core/query/search-protocol';

let strings: string[] = [];
let name: Int32Array = new Int32Array(0);

self.onmessage = (event: MessageEvent<SearchRequest>) => {
  const msg = event.data;
  if (msg.type === 'names') {
    strings = msg.strings.length ? msg.strings.split('\0') : [];
    name = msg.name;
    return;
  }
  let response: SearchResponse;
  try {
    const matches = matchNames(strings, name, new RegExp(msg.pattern, msg.flags));
    response = { id: msg.id, matches };
    (self as unknown as Worker).postMessage(response, [matches.buffer]);
  } catch (e) {
    response = { id: msg.id, error: e instanceof Error ? e.message : String(e) };
    (self as unknown as Worker).postMessage(response);
  }
};
