// Interns strings: each distinct string is stored once and named by a dense index.
// Invariant: strings[intern(s)] === s, and indices are assigned 0, 1, 2, ... in first-seen order.

import type { StringIndex } from './types';

export class StringTable {
  readonly strings: string[] = [];
  private readonly indexOf = new Map<string, StringIndex>();

  intern(s: string): StringIndex {
    let index = this.indexOf.get(s);
    if (index === undefined) {
      index = this.strings.length;
      this.strings.push(s);
      this.indexOf.set(s, index);
    }
    return index;
  }

  get(index: StringIndex): string {
    return this.strings[index];
  }

  get size(): number {
    return this.strings.length;
  }
}
