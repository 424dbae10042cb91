/** Unknown fields: the ones the API server prunes silently (or reports with `kubectl apply --validate=strict`). */
import type { OpenApiSchema } from '../schema/openapi-schema.js';
import { childPath, indexPath } from './field-error.js';
import { deepCopy, isObject } from './json-value.js';

/** Paths of the fields `schema` does not declare. */
export function findUnknownFields(schema: OpenApiSchema, value: unknown): string[] {
  const found: string[] = [];
  walk(schema, value, '', true, (path) => found.push(path));
  return found;
}

/** A copy of `value` without the fields `schema` does not declare. */
export function pruneUnknownFields<T>(schema: OpenApiSchema, value: T): T {
  const copy = deepCopy(value);
  walk(schema, copy, '', true, (_path, parent, key) => delete parent[key]);
  return copy;
}

function walk(schema: OpenApiSchema, value: unknown, path: string, isRoot: boolean, onUnknown: (path: string, parent: Record<string, unknown>, key: string) => void): void {
  if (schema['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => walk(schema.items!, item, indexPath(path, i), false, onUnknown));
    return;
  }
  if (!isObject(value)) return;
  const additional = schema.additionalProperties;
  for (const key of Object.keys(value)) {
    if (isRoot && key === 'metadata') continue;
    const property = schema.properties?.[key];
    if (property) walk(property, value[key], childPath(path, key), false, onUnknown);
    else if (typeof additional === 'object') walk(additional, value[key], indexPath(path, key), false, onUnknown);
    else if (additional !== true) onUnknown(childPath(path, key), value, key);
  }
}
