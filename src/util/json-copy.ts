/** Deep copies of decoded JSON/YAML values (used by admission, validation and JSON patches). */

type JsonObject = Record<string, unknown>;

/**
 * A deep copy of a decoded JSON/YAML value. Plain objects and arrays are walked directly: structuredClone
 * serializes and was the largest single cost of an admission review. Anything else that is not a primitive
 * (a Date from YAML) still goes through structuredClone.
 */
export function deepCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => deepCopy(item)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return structuredClone(value);
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) {
    const item = deepCopy((value as JsonObject)[key]);
    // A "__proto__" key in JSON is data: define it, never assign it (that would set the copy's prototype).
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy as T;
}
