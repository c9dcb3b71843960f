// Messages between the page and the search worker.

export type SearchRequest =
  | { type: 'names'; strings: string; name: Int32Array }
  | { type: 'search'; id: number; pattern: string; flags: string };

export type SearchResponse = { id: number; matches: Uint8Array } | { id: number; error: string };
