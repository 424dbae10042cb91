import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpenApiSchema } from '../../../src/apis/index.js';
import { SchemaValidator, findUnknownFields, formatFieldErrors, pruneUnknownFields } from '../../../src/apis/validation/index.js';

const schema: OpenApiSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 5 },
        count: { type: 'integer', format: 'int32', minimum: 0 },
        ratio: { type: 'number', maximum: 1 },
        size: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, pattern: '^[0-9]+Gi$' },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        nested: { type: 'object', default: {}, properties: { inner: { type: 'string', default: 'x' } } },
        items: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['id'],
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, value: { type: 'integer' } },
            'x-kubernetes-validations': [{ rule: 'self.value >= oldSelf.value', message: 'value may not decrease' }],
          },
        },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
      'x-kubernetes-validations': [{ rule: "self.name != 'bad'", message: 'name may not be bad' }],
    },
  },
};
const validator = new SchemaValidator(schema);
const messages = (object: unknown, oldObject?: unknown) =>
  formatFieldErrors(validator.validate(object, oldObject === undefined ? {} : { oldObject }));

describe('structural validation', () => {
  it.each([
    [{ spec: {} }, 'spec.name: Required value'],
    [{ spec: { name: 3 } }, 'spec.name: Invalid value: 3: spec.name in body must be of type string: "integer"'],
    [{ spec: { name: '' } }, 'spec.name: Invalid value: "": spec.name in body should be at least 1 chars long'],
    [{ spec: { name: 'toolong' } }, 'spec.name: Too long: may not be more than 5 bytes'],
    [{ spec: { name: 'a', count: -1 } }, 'spec.count: Invalid value: -1: spec.count in body should be greater than or equal to 0'],
    [
      { spec: { name: 'a', count: 2 ** 31 } },
      'spec.count: Invalid value: 2147483648: spec.count in body must be of type int32: "2147483648"',
    ],
    [{ spec: { name: 'a', count: 1.5 } }, 'spec.count: Invalid value: 1.5: spec.count in body must be of type integer: "number"'],
    [{ spec: { name: 'a', ratio: 2 } }, 'spec.ratio: Invalid value: 2: spec.ratio in body should be less than or equal to 1'],
    [{ spec: { name: 'a', size: '10G' } }, `spec.size: Invalid value: "10G": spec.size in body should match '^[0-9]+Gi$'`],
    [{ spec: { name: 'a', size: true } }, 'spec.size: Invalid value: true: spec.size in body must be of type integer or string: "boolean"'],
    [{ spec: { name: 'a', mode: 'c' } }, 'spec.mode: Unsupported value: "c": supported values: "a", "b"'],
    [{ spec: { name: 'a', items: [{ id: 'x' }, { id: 'x' }] } }, 'spec.items[1]: Duplicate value: {"id":"x"}'],
    [{ spec: { name: 'bad' } }, 'spec: Invalid value: "object": name may not be bad'],
    [{ spec: null }, 'spec: Invalid value: null: spec in body must be of type object: "null"'],
  ])('%j → %s', (object, expected) => {
    const [first] = validator.validate(object);
    expect(first && formatFieldErrors([first])).toBe(expected);
  });

  it('skips the CEL rules, saying so, when the object is structurally broken (as kube-apiserver)', () => {
    expect(messages({ spec: { name: 'bad', mode: 'c' } })).toBe(
      'spec.mode: Unsupported value: "c": supported values: "a", "b"; : Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    );
    expect(messages({ spec: { name: 'bad', count: -1 } })).toBe(
      'spec.count: Invalid value: -1: spec.count in body should be greater than or equal to 0; spec: Invalid value: "object": name may not be bad',
    );
  });

  it('accepts valid values, integers in int-or-string and anything under preserve-unknown-fields', () => {
    expect(messages({ spec: { name: 'a', count: 3, ratio: 0.5, size: 10, mode: 'b', free: { any: { thing: [1] } } } })).toBe('');
  });

  it('reports unknown fields only when asked, and prunes them', () => {
    const object = { spec: { name: 'a', extra: 1, free: { kept: 1 } }, other: true };
    expect(validator.validate(object)).toEqual([]);
    expect(formatFieldErrors(validator.validate(object, { rejectUnknownFields: true }))).toBe(
      'spec.extra: unknown field "spec.extra"; other: unknown field "other"',
    );
    expect(findUnknownFields(schema, object)).toEqual(['spec.extra', 'other']);
    expect(pruneUnknownFields(schema, object)).toEqual({ spec: { name: 'a', free: { kept: 1 } } });
    expect(object.spec.extra).toBe(1);
  });
});

describe('transition rules', () => {
  const stored = { spec: { name: 'a', items: [{ id: 'x', value: 5 }] } };

  it('are skipped on create', () => {
    expect(messages({ spec: { name: 'a', items: [{ id: 'x', value: 1 }] } })).toBe('');
  });

  it('see the old item of a map-list by its key', () => {
    expect(messages({ spec: { name: 'a', items: [{ id: 'x', value: 4 }] } }, stored)).toBe(
      'spec.items[0]: Invalid value: "object": value may not decrease',
    );
    expect(
      messages(
        {
          spec: {
            name: 'a',
            items: [
              { id: 'y', value: 1 },
              { id: 'x', value: 6 },
            ],
          },
        },
        stored,
      ),
    ).toBe('');
  });
});

describe('defaults', () => {
  it('fill missing and null fields, then continue inside the defaulted value', () => {
    expect(validator.applyDefaults({ spec: { name: 'a', mode: null } })).toEqual({
      spec: { name: 'a', mode: 'a', nested: { inner: 'x' } },
    });
  });

  it('drop nulls without a default, keep what is set, and never change the input', () => {
    const input = { spec: { name: 'a', count: null, mode: 'b', nested: { inner: 'y' } } };
    expect(validator.applyDefaults(input)).toEqual({ spec: { name: 'a', mode: 'b', nested: { inner: 'y' } } });
    expect(input.spec.count).toBeNull();
  });

  it('are idempotent', () => {
    const objectArb = fc.record({
      spec: fc.record(
        {
          name: fc.string(),
          mode: fc.constantFrom('a', 'b', null),
          nested: fc.option(fc.record({ inner: fc.string() }), { nil: undefined }),
        },
        { requiredKeys: ['name'] },
      ),
    });
    fc.assert(
      fc.property(objectArb, (object) => {
        const once = validator.applyDefaults(object);
        expect(validator.applyDefaults(once)).toEqual(once);
      }),
    );
  });
});

describe('messageExpression', () => {
  const withMessageExpression = (messageExpression: string) =>
    new SchemaValidator({
      type: 'object',
      properties: {
        tags: {
          type: 'array',
          items: { type: 'string' },
          'x-kubernetes-validations': [{ rule: "self.all(t, t != 'x')", message: "no tag may be 'x'", messageExpression }],
        },
      },
    });
  const denial = (messageExpression: string) => formatFieldErrors(withMessageExpression(messageExpression).validate({ tags: ['a', 'x'] }));

  it('replaces the message with its text, which may name the item and its index', () => {
    expect(denial("'tags[' + string(self.indexOf('x')) + '] is \\'x\\''")).toBe(`tags: Invalid value: "array": tags[1] is 'x'`);
  });

  it('falls back to the message when it fails, is empty or is not a string, as the API server does', () => {
    for (const failing of ['self[7]', "''", '1 + 1']) expect(denial(failing)).toBe(`tags: Invalid value: "array": no tag may be 'x'`);
  });
});
