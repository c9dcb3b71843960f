// Marks fields that will be replaced later (a buffer swapped for a bigger one, a hash mask that
// widens) as ordinary variable fields from the start.
//
// Why: V8 treats a field that has held only one value as a constant, and optimised code is
// compiled against that: the parser object is a constant inside the line callback, so its
// buffers and masks get folded in. The first time a grown buffer replaces one, every function
// compiled against it is thrown away and later recompiled, and runs unoptimised in between
// (bench/README.md). Writing a different value once, at construction, turns each field variable
// before any code is compiled against it.
//
// Invariant: the values are unchanged (a typed array is replaced by an equal copy, a number is
// written back after a different one). A name that is not a typed-array or number field throws,
// so a renamed field cannot be skipped silently (names are strings: private fields are not in
// TypeScript's keyof).

export function markMutable(owner: object, fields: readonly string[]): void {
  const o = owner as Record<string, unknown>;
  for (const field of fields) {
    const value = o[field];
    if (typeof value === 'number') {
      o[field] = value + 1;
      o[field] = value;
    } else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      o[field] = (value as Int32Array).slice();
    } else {
      throw new Error(`markMutable: ${field} is not a typed-array or number field`);
    }
  }
}
