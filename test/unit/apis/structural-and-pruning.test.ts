import { describe, expect, it } from 'vitest';
import type { OpenApiSchema } from '../../../src/apis/schema/openapi-schema.js';
import { findUnknownFields, pruneUnknownFields } from '../../../src/apis/validation/pruning.js';
import { SchemaValidator } from '../../../src/apis/validation/schema-validator.js';
import { validateStructure } from '../../../src/apis/validation/structural.js';
import type { FieldError } from '../../../src/apis/validation/field-error.js';

const structureErrors = (schema: OpenApiSchema, value: unknown): FieldError[] => {
  const errors: FieldError[] = [];
  validateStructure(schema, value, 'name', errors, { reportUnknownFields: false });
  return errors;
};

describe('string lengths count runes, as the API server does', () => {
  it.each([
    ['ab', 0],
    ['😀😀', 0],
    ['😀😀😀', 1],
    ['abc', 1],
    ['\ud83d\ud83d', 0], // two lone high surrogates: two runes
    ['\ud83d\ud83d\ud83d', 1],
  ])('%j against maxLength 2 → %i error(s)', (value, count) => {
    expect(structureErrors({ type: 'string', maxLength: 2 }, value)).toHaveLength(count);
  });

  it('minLength counts runes too', () => {
    expect(structureErrors({ type: 'string', minLength: 2 }, '😀')).toHaveLength(1);
    expect(structureErrors({ type: 'string', minLength: 2 }, '😀😀')).toHaveLength(0);
  });
});

describe('pruneUnknownFields', () => {
  const schema: OpenApiSchema = {
    type: 'object',
    properties: {
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: { a: { type: 'string' }, list: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } } } },
      },
    },
  };

  it('returns the value itself when nothing is unknown (no copy)', () => {
    const value = { metadata: { name: 'x', anything: 1 }, spec: { a: 'b', list: [{ k: 'v' }] } };
    expect(pruneUnknownFields(schema, value)).toBe(value);
  });

  it('returns a pruned copy and leaves the input alone when something is unknown', () => {
    const value = { spec: { a: 'b', extra: 1, list: [{ k: 'v', stray: true }] } };
    const pruned = pruneUnknownFields(schema, value);
    expect(pruned).toEqual({ spec: { a: 'b', list: [{ k: 'v' }] } });
    expect(value.spec.extra).toBe(1);
    expect(findUnknownFields(schema, value)).toEqual(['spec.extra', 'spec.list[0].stray']);
  });
});

describe('CEL rules at several depths are all evaluated against the typed, pruned value', () => {
  const schema: OpenApiSchema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': [
          { rule: '!has(self.unknown)', message: 'unknown fields are pruned before CEL' },
          { rule: 'self.n > 1', message: 'n must exceed 1' },
        ],
        properties: {
          n: { type: 'integer' },
          items: {
            type: 'array',
            items: {
              type: 'object',
              'x-kubernetes-validations': [{ rule: 'self.v.startsWith("ok")', message: 'v must start with ok' }],
              properties: { v: { type: 'string' } },
            },
          },
        },
      },
    },
  };
  const validator = new SchemaValidator(schema);

  it('reports each failing rule at its own path', () => {
    const errors = validator.validate({ spec: { n: 1, unknown: true, items: [{ v: 'ok-1' }, { v: 'bad' }] } });
    expect(errors.map((e) => [e.path, e.message])).toEqual([
      ['spec', 'Invalid value: "object": n must exceed 1'],
      ['spec.items[1]', 'Invalid value: "object": v must start with ok'],
    ]);
  });

  it('passes a valid value', () => {
    expect(validator.validate({ spec: { n: 2, items: [{ v: 'ok' }] } })).toEqual([]);
  });
});
