/**
 * What an OVH answer must carry before the provider reads it. The SDK hands back whatever JSON came (`null`
 * for an empty body), so a 200 from a broken proxy would otherwise read as "no pools, no nodes" and every
 * node would look gone. A missing list or key field is an IncompleteResponseError: retried, and never the
 * ground for a deletion.
 */
import { IncompleteResponseError } from '../errors.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function missingKeys(entry: Record<string, unknown>, keys: readonly string[]): string[] {
  return keys.filter((key) => typeof entry[key] !== 'string' || entry[key] === '');
}

/** `body` as a list whose every entry has the string fields `keys`; anything else throws. */
export function requireList<T>(operation: string, body: unknown, keys: readonly string[]): T[] {
  if (!Array.isArray(body)) throw new IncompleteResponseError(`${operation}: the answer is not a list (${describe(body)})`);
  body.forEach((entry: unknown, index) => {
    if (!isRecord(entry)) throw new IncompleteResponseError(`${operation}: entry ${index} is not an object`);
    const missing = missingKeys(entry, keys);
    if (missing.length > 0) throw new IncompleteResponseError(`${operation}: entry ${index} has no ${missing.join(', ')}`);
  });
  return body as T[];
}

/** `body` as an object with the string fields `keys`; anything else throws. */
export function requireObject<T>(operation: string, body: unknown, keys: readonly string[]): T {
  if (!isRecord(body)) throw new IncompleteResponseError(`${operation}: the answer is not an object (${describe(body)})`);
  const missing = missingKeys(body, keys);
  if (missing.length > 0) throw new IncompleteResponseError(`${operation}: the answer has no ${missing.join(', ')}`);
  return body as T;
}

function describe(body: unknown): string {
  if (body === null || body === undefined) return 'empty body';
  return Array.isArray(body) ? 'a list' : typeof body;
}
