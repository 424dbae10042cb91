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

/** A copy of `value` without the fields `schema` does not declare (`value` itself when it has none). */
export function pruneUnknownFields<T>(schema: OpenApiSchema, value: T): T {
  if (!hasUnknownFields(schema, value)) return value;
  const copy = deepCopy(value);
  walk(schema, copy, '', true, (_path, parent, key) => delete parent[key]);
  return copy;
}

/** Whether any field is undeclared, without building paths (the common answer is no). */
function hasUnknownFields(schema: OpenApiSchema, value: unknown, isRoot = true): boolean {
  if (schema['x-kubernetes-preserve-unknown-fields']) return false;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items) for (const item of value) if (hasUnknownFields(items, item, false)) return true;
    return false;
  }
  if (!isObject(value)) return false;
  const additional = schema.additionalProperties;
  for (const key in value) {
    if (isRoot && key === 'metadata') continue;
    const property = schema.properties?.[key];
    if (property) {
      if (hasUnknownFields(property, value[key], false)) return true;
    } else if (typeof additional === 'object') {
      if (hasUnknownFields(additional, value[key], false)) return true;
    } else if (additional !== true) return true;
  }
  return false;
}

function walk(
  schema: OpenApiSchema,
  value: unknown,
  path: string,
  isRoot: boolean,
  onUnknown: (path: string, parent: Record<string, unknown>, key: string) => void,
): void {
  if (schema['x-kubernetes-preserve-unknown-fields']) return;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items) for (let i = 0; i < value.length; i++) walk(items, value[i], indexPath(path, i), false, onUnknown);
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
