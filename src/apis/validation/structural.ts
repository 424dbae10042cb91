/**
 * OpenAPI v3 structural validation as kube-apiserver applies a CRD schema (go-openapi validate + the
 * x-kubernetes-* extensions): types, required, enum, pattern, bounds, sizes, list types, unknown fields.
 */
import type { OpenApiSchema } from '../schema/openapi-schema.js';
import {
  type FieldError,
  childPath,
  duplicate,
  indexPath,
  invalid,
  notSupported,
  required,
  tooLong,
  tooMany,
  unknownField,
} from './field-error.js';
import { LinearPatternMatchers } from '../v1/patterns.js';
import { type JsonObject, isObject, jsonEqual } from './json-value.js';

export interface StructuralOptions {
  /** Report fields the schema does not know (which the API server would prune) as errors. */
  reportUnknownFields: boolean;
}

const Int32Range = [-2147483648, 2147483647] as const;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const patternCache = new Map<string, PatternMatcher>();

interface PatternMatcher {
  test(value: string): boolean;
}

function regex(pattern: string): PatternMatcher {
  let compiled = patternCache.get(pattern);
  if (!compiled) {
    const linear = LinearPatternMatchers.get(pattern);
    compiled = linear ? { test: linear } : compilePattern(pattern);
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

/** RE2 matches runes, as the `u` flag does; patterns that are not valid in unicode mode fall back to plain mode. */
function compilePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(schema: OpenApiSchema, value: unknown): boolean {
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
  const actual = jsonType(value);
  if (schema.type === undefined) return true;
  if (schema.type === 'number') return actual === 'number' || actual === 'integer';
  return actual === schema.type;
}

/**
 * Validates a whole object: as the API server validates the root metadata itself and the CRD schema only says
 * `type: object` there, metadata is checked to be an object and nothing more.
 */
export function validateRootObject(schema: OpenApiSchema, value: unknown, errors: FieldError[], options: StructuralOptions): void {
  const metadata: OpenApiSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const root = schema.properties?.metadata ? { ...schema, properties: { ...schema.properties, metadata } } : schema;
  validateStructure(root, value, '', errors, options);
}

/** Validates `value` at `path` against `schema`, appending to `errors`. */
export function validateStructure(
  schema: OpenApiSchema,
  value: unknown,
  path: string,
  errors: FieldError[],
  options: StructuralOptions,
): void {
  if (value === null && schema.nullable) return;
  if (!typeMatches(schema, value)) {
    const expected = schema['x-kubernetes-int-or-string'] ? 'integer or string' : schema.type;
    errors.push(
      invalid(path, value, `${path} in body must be of type ${expected}: ${JSON.stringify(jsonType(value))}`, 'FieldValueTypeInvalid'),
    );
    return;
  }
  if (schema.enum && !schema.enum.some((allowed) => jsonEqual(allowed, value))) {
    errors.push(notSupported(path, value, schema.enum));
  }
  if (typeof value === 'string') validateString(schema, value, path, errors);
  else if (typeof value === 'number') validateNumber(schema, value, path, errors);
  else if (Array.isArray(value)) validateArray(schema, value, path, errors, options);
  else if (isObject(value)) validateObjectNode(schema, value, path, errors, options);
}

/** Length in code points (runes, as the API server counts), without materialising them. */
function codePointLength(value: string): number {
  let length = value.length;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

function validateString(schema: OpenApiSchema, value: string, path: string, errors: FieldError[]): void {
  const length = schema.maxLength !== undefined || schema.minLength !== undefined ? codePointLength(value) : 0;
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    // Too long is reason enough; no pattern runs over a string longer than the field allows.
    errors.push(tooLong(path, value, schema.maxLength));
    return;
  }
  if (schema.minLength !== undefined && length < schema.minLength) {
    errors.push(invalid(path, value, `${path} in body should be at least ${schema.minLength} chars long`));
  }
  if (schema.pattern !== undefined && !regex(schema.pattern).test(value)) {
    errors.push(invalid(path, value, `${path} in body should match '${schema.pattern}'`));
  }
  if (schema.format === 'date-time' && !(RFC3339.test(value) && !Number.isNaN(Date.parse(value)))) {
    errors.push(invalid(path, value, `${path} in body must be of type date-time: ${JSON.stringify(value)}`));
  }
}

function validateNumber(schema: OpenApiSchema, value: number, path: string, errors: FieldError[]): void {
  if (schema.minimum !== undefined && (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)) {
    errors.push(
      invalid(path, value, `${path} in body should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}`),
    );
  }
  if (schema.maximum !== undefined && (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)) {
    errors.push(
      invalid(path, value, `${path} in body should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}`),
    );
  }
  if (schema.format === 'int32' && (value < Int32Range[0] || value > Int32Range[1])) {
    errors.push(invalid(path, value, `${path} in body must be of type int32: ${JSON.stringify(String(value))}`));
  }
  if (schema.format === 'int64' && !Number.isSafeInteger(value) && Number.isInteger(value)) {
    errors.push(invalid(path, value, `${path} in body must be of type int64: ${JSON.stringify(String(value))}`));
  }
}

function validateArray(schema: OpenApiSchema, value: unknown[], path: string, errors: FieldError[], options: StructuralOptions): void {
  if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(tooMany(path, value.length, schema.maxItems, 'items'));
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    errors.push(invalid(path, value.length, `${path} in body should have at least ${schema.minItems} items`));
  }
  const items = schema.items;
  if (items) for (let i = 0; i < value.length; i++) validateStructure(items, value[i], indexPath(path, i), errors, options);
  validateListType(schema, value, path, errors);
}

/** `set` items and `map` keys must be unique, as the API server checks for x-kubernetes-list-type. */
function validateListType(schema: OpenApiSchema, value: unknown[], path: string, errors: FieldError[]): void {
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== 'set' && listType !== 'map') return;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const identity = (item: unknown): unknown =>
    listType === 'set' || !isObject(item) ? item : Object.fromEntries(keys.map((k) => [k, item[k]]));
  const seen: unknown[] = [];
  value.forEach((item, i) => {
    const id = identity(item);
    if (seen.some((other) => jsonEqual(other, id))) errors.push(duplicate(indexPath(path, i), id));
    else seen.push(id);
  });
}

function validateObjectNode(
  schema: OpenApiSchema,
  value: JsonObject,
  path: string,
  errors: FieldError[],
  options: StructuralOptions,
): void {
  if (schema.maxProperties !== undefined || schema.minProperties !== undefined) {
    const count = Object.keys(value).length;
    if (schema.maxProperties !== undefined && count > schema.maxProperties)
      errors.push(tooMany(path, count, schema.maxProperties, 'properties'));
    if (schema.minProperties !== undefined && count < schema.minProperties) {
      errors.push(invalid(path, count, `${path} in body should have at least ${schema.minProperties} properties`));
    }
  }
  for (const name of schema.required ?? []) {
    if (value[name] === undefined) errors.push(required(childPath(path, name)));
  }
  const properties = schema.properties ?? {};
  const additional = schema.additionalProperties;
  for (const key in value) {
    const child = value[key];
    if (child === undefined) continue;
    const propertySchema = properties[key];
    if (propertySchema) {
      validateStructure(propertySchema, child, childPath(path, key), errors, options);
    } else if (typeof additional === 'object') {
      validateStructure(additional, child, indexPath(path, key), errors, options);
    } else if (options.reportUnknownFields && additional !== true && !schema['x-kubernetes-preserve-unknown-fields']) {
      errors.push(unknownField(childPath(path, key)));
    }
  }
}
