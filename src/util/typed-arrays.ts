/** Growing the typed arrays that index-by-slot and span lists keep (pure: no I/O). */

/**
 * A copy of `array` with room for at least `atLeast` elements, doubling at least (so n appends cost O(n));
 * the new elements are zero.
 */
export function grown(array: Int32Array, atLeast: number): Int32Array<ArrayBuffer>;
export function grown(array: Float64Array, atLeast: number): Float64Array<ArrayBuffer>;
export function grown(array: Uint8Array, atLeast: number): Uint8Array<ArrayBuffer>;
export function grown(array: Int32Array | Float64Array | Uint8Array, atLeast: number): Int32Array | Float64Array | Uint8Array {
  const Kind = array.constructor as new (length: number) => Int32Array | Float64Array | Uint8Array;
  const next = new Kind(Math.max(atLeast, array.length * 2));
  next.set(array);
  return next;
}
