// Matching a regular expression against the unique frame names, as the search worker does.
// Invariant: each distinct name string is tested once; the result has one flag per frame.

/** The frame table's names as they cross to the worker: strings joined by NUL and name indices. */
export interface NameTable {
  strings: string;
  name: Int32Array;
}

export function matchNames(strings: readonly string[], name: Int32Array, regex: RegExp): Uint8Array {
  const byString = new Int8Array(strings.length).fill(-1);
  const out = new Uint8Array(name.length);
  for (let f = 0; f < name.length; f++) {
    const s = name[f];
    let hit = byString[s];
    if (hit < 0) {
      regex.lastIndex = 0;
      hit = byString[s] = regex.test(strings[s]) ? 1 : 0;
    }
    out[f] = hit;
  }
  return out;
}
