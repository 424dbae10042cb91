/** Go template value semantics over plain JSON-like data: truth, printing, field access, Helm's value merge. */
import { FunctionError } from './errors.js';

export type Value = unknown;

export function isMap(value: Value): value is Record<string, Value> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go's truth: false, 0, nil, and empty strings, lists and maps are false. */
export function isTruthy(value: Value): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return true;
}

/** How `{{ value }}` prints (Go's fmt %v; nil prints nothing, as in Helm). */
export function formatValue(value: Value): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(formatValue).join(' ')}]`;
  if (isMap(value)) {
    const entries = Object.keys(value).sort().map((k) => `${k}:${formatValue(value[k])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(value);
}

/** Typename as Go's messages print it. */
export function goType(value: Value): string {
  if (value === undefined || value === null) return 'interface {}';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** `.a.b.c` on a value: a missing key gives nil; a field of nil is an error, as in Helm. */
export function walkChain(value: Value, chain: readonly string[]): Value {
  let current = value;
  for (const name of chain) {
    if (current === undefined || current === null) throw new FunctionError(`nil pointer evaluating interface {}.${name}`);
    if (!isMap(current)) throw new FunctionError(`can't evaluate field ${name} in type ${goType(current)}`);
    current = current[name];
  }
  return current;
}

/** Helm's value coalescing: maps merge key by key, anything else replaces, null deletes the key. */
export function mergeValues(base: Value, override: Value): Value {
  if (!isMap(base) || !isMap(override)) return override === undefined ? base : override;
  const merged: Record<string, Value> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete merged[key];
    else merged[key] = mergeValues(base[key], value);
  }
  return merged;
}
