// What crosses to and from a worker as one string instead of an array of many: frame names and
// table names joined by NUL. Posting one string is one copy; posting an array of 100k strings is
// 100k structured-clone steps (and as many objects on the other side). It works because no name
// holds a NUL: importers replace it (withoutNul) before a name enters the model.

import { Memo } from './memo';

const NUL = '\0';

/**
 * Each list unpackStrings made, with the string it came from: the page passes a recording's names
 * on to the search and analysis workers, and joining 5 million names again took as long as
 * splitting them (seconds of the page's thread). Only those lists: they are never changed (a
 * frame table that adds names copies them first), where a list still being filled may be.
 */
const packedOf = new Memo<string>();

/** The strings as one, for postMessage: each after a NUL, so [] and [''] differ. */
export function packStrings(strings: readonly string[]): string {
  return packedOf.peek([strings]) ?? (strings.length === 0 ? '' : NUL + strings.join(NUL));
}

/** The strings packStrings packed. */
export function unpackStrings(packed: string): readonly string[] {
  const strings = packed.length === 0 ? [] : packed.slice(1).split(NUL);
  packedOf.get([strings], () => packed);
  return strings;
}

/** A name safe to pack: every NUL replaced by U+FFFD, as the importers show undecodable bytes. */
export function withoutNul(name: string): string {
  return name.includes(NUL) ? name.replaceAll(NUL, '\ufffd') : name;
}
