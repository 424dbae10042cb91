/**
 * CRD defaulting as the API server applies it (apiextensions structuraldefaulting): a missing or null property
 * with a `default` gets a copy of it, then defaulting continues inside; nulls without a default are dropped
 * where the schema is not nullable. Returns a new value; the input is not changed.
 */
import type { OpenApiSchema } from '../schema/openapi-schema.js';
import { deepCopy, isObject } from './json-value.js';

export function applySchemaDefaults<T>(schema: OpenApiSchema, value: T): T {
  return defaultValue(schema, deepCopy(value), true) as T;
}

function defaultValue(schema: OpenApiSchema, value: unknown, isRoot = false): unknown {
  if (Array.isArray(value)) {
    return schema.items ? value.map((item) => defaultValue(schema.items!, item)) : value;
  }
  if (!isObject(value)) return value;
  const properties = schema.properties ?? {};
  for (const key in properties) {
    if (isRoot && key === 'metadata') continue;
    const propertySchema = properties[key] as OpenApiSchema;
    const current = value[key];
    if ((current === undefined || current === null) && propertySchema.default !== undefined) value[key] = deepCopy(propertySchema.default);
    else if (current === null && !propertySchema.nullable) delete value[key];
  }
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const key in value) {
    if (isRoot && key === 'metadata') continue;
    const childSchema = properties[key] ?? additional;
    if (childSchema) value[key] = defaultValue(childSchema, value[key]);
  }
  return value;
}
