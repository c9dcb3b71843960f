// A typed-array column made longer: typed arrays cannot grow in place, so the columns of the
// builders and importers are replaced by a longer copy (geometrically, by their callers).

/** A new array of `size` elements (at least a's length) holding a's elements at its start. */
export function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer>;
export function grown(a: Uint8Array, size: number): Uint8Array<ArrayBuffer>;
export function grown(a: Float64Array, size: number): Float64Array<ArrayBuffer>;
export function grown(a: Int32Array | Uint8Array | Float64Array, size: number): Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Float64Array<ArrayBuffer> {
  // Plain arrays of a's element type (never a subclass such as Node's Buffer).
  const b = a instanceof Float64Array ? new Float64Array(size) : a instanceof Uint8Array ? new Uint8Array(size) : new Int32Array(size);
  b.set(a);
  return b;
}
