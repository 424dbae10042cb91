/**
 * Typed CEL values from decoded JSON, the way the API server builds them from the schema: integers become
 * CEL ints (bigint), unknown fields are dropped (CEL sees the pruned object).
 */
import type { OpenApiSchema } from '../schema/openapi-schema.js';
import { isObject } from './json-value.js';

export function toCelValue(schema: OpenApiSchema | undefined, value: unknown): unknown {
  if (value === null || value === undefined || schema === undefined) return value;
  if (typeof value === 'number') {
    const isInt = schema.type === 'integer' || schema['x-kubernetes-int-or-string'] === true;
    return isInt && Number.isInteger(value) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map((item) => toCelValue(schema.items, item));
  if (isObject(value)) return objectToCel(schema, value);
  return value;
}

function objectToCel(schema: OpenApiSchema, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const keepUnknown = schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true;
  for (const key in value) {
    const child = value[key];
    if (child === undefined) continue;
    const childSchema = schema.properties?.[key] ?? additional;
    if (childSchema) out[key] = toCelValue(childSchema, child);
    else if (keepUnknown) out[key] = child;
  }
  return out;
}
