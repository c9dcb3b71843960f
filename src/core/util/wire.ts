// What crosses to and from a worker as one string instead of an array of many: frame names and
// table names joined by NUL. Posting one string is one copy; posting an array of 100k strings is
// 100k structured-clone steps (and as many objects on the other side). It works because no name
// holds a NUL: importers replace it (withoutNul) before a name enters the model.

const NUL = '\0';

/** The strings as one, for postMessage: each after a NUL, so [] and [''] differ. */
export function packStrings(strings: readonly string[]): string {
  return strings.length === 0 ? '' : NUL + strings.join(NUL);
}

/** The strings packStrings packed. */
export function unpackStrings(packed: string): string[] {
  return packed.length === 0 ? [] : packed.slice(1).split(NUL);
}

/** A name safe to pack: every NUL replaced by U+FFFD, as the importers show undecodable bytes. */
export function withoutNul(name: string): string {
  return name.includes(NUL) ? name.replaceAll(NUL, '\ufffd') : name;
}
