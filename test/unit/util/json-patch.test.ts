import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  type JsonObject,
  type JsonValue,
  JsonPatchError,
  applyJsonPatch,
  applyMergePatch,
  createJsonPatch,
  createMergePatch,
  parseJsonPatch,
  parsePointer,
} from '../../../src/util/json-patch.js';

describe('RFC 6902 JSON patch', () => {
  const doc = { metadata: { labels: { a: '1' } }, spec: { taints: [{ key: 'x' }, { key: 'y' }] } };

  it.each([
    [
      'add a map key',
      [{ op: 'add', path: '/metadata/labels/b', value: '2' }],
      { metadata: { labels: { a: '1', b: '2' } }, spec: doc.spec },
    ],
    [
      'append with -',
      [{ op: 'add', path: '/spec/taints/-', value: { key: 'z' } }],
      { ...doc, spec: { taints: [{ key: 'x' }, { key: 'y' }, { key: 'z' }] } },
    ],
    [
      'insert at index',
      [{ op: 'add', path: '/spec/taints/0', value: { key: 'w' } }],
      { ...doc, spec: { taints: [{ key: 'w' }, { key: 'x' }, { key: 'y' }] } },
    ],
    ['remove array item', [{ op: 'remove', path: '/spec/taints/0' }], { ...doc, spec: { taints: [{ key: 'y' }] } }],
    ['replace', [{ op: 'replace', path: '/metadata/labels/a', value: '9' }], { ...doc, metadata: { labels: { a: '9' } } }],
    ['move', [{ op: 'move', from: '/metadata/labels/a', path: '/metadata/labels/b' }], { ...doc, metadata: { labels: { b: '1' } } }],
    [
      'copy',
      [{ op: 'copy', from: '/metadata/labels/a', path: '/metadata/labels/c' }],
      { ...doc, metadata: { labels: { a: '1', c: '1' } } },
    ],
    [
      'test then add',
      [
        { op: 'test', path: '/metadata/labels/a', value: '1' },
        { op: 'add', path: '/x', value: true },
      ],
      { ...doc, x: true },
    ],
    ['replace the whole document', [{ op: 'replace', path: '', value: { kind: 'Node' } }], { kind: 'Node' }],
    [
      'escaped key',
      [{ op: 'add', path: '/metadata/labels/karpenter.sh~1nodepool', value: 'default' }],
      { ...doc, metadata: { labels: { a: '1', 'karpenter.sh/nodepool': 'default' } } },
    ],
  ])('%s', (_name, ops, expected) => {
    expect(applyJsonPatch(doc, parseJsonPatch(ops))).toEqual(expected);
  });

  it.each([
    ['failed test', [{ op: 'test', path: '/metadata/labels/a', value: '2' }]],
    ['missing parent', [{ op: 'add', path: '/nope/x', value: 1 }]],
    ['remove missing key', [{ op: 'remove', path: '/metadata/labels/zzz' }]],
    ['index out of bounds', [{ op: 'add', path: '/spec/taints/5', value: 1 }]],
    ['bad index', [{ op: 'remove', path: '/spec/taints/01' }]],
    ['move into its own child', [{ op: 'move', from: '/metadata', path: '/metadata/labels/m' }]],
    [
      'second operation fails after a good first',
      [
        { op: 'add', path: '/x', value: 1 },
        { op: 'remove', path: '/nope' },
      ],
    ],
  ])('rejects %s and leaves the input untouched', (_name, ops) => {
    const before = structuredClone(doc);
    expect(() => applyJsonPatch(doc, parseJsonPatch(ops))).toThrow(JsonPatchError);
    expect(doc).toEqual(before);
  });

  it.each([[{}], [[{ op: 'add' }]], [[{ op: 'add', path: '/a' }]], [[{ op: 'move', path: '/a' }]]])(
    'rejects malformed document %j',
    (bad) => {
      expect(() => parseJsonPatch(bad)).toThrow(JsonPatchError);
    },
  );

  it('parses pointers with escapes', () => {
    expect(parsePointer('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(() => parsePointer('a')).toThrow(JsonPatchError);
  });
});

describe('RFC 7386 merge patch', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ] as Array<[JsonValue, JsonValue, JsonValue]>)('the RFC examples: %j + %j', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });
});

const jsonDoc = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>;
const objectDoc = fc.dictionary(fc.string({ maxLength: 6 }), jsonDoc, { maxKeys: 5 }) as fc.Arbitrary<JsonValue>;

describe('properties', () => {
  it('createJsonPatch(a, b) applied to a gives b', () => {
    fc.assert(
      fc.property(objectDoc, objectDoc, (a, b) => {
        expect(applyJsonPatch(a, createJsonPatch(a, b))).toEqual(b);
      }),
    );
  });

  it('createMergePatch(a, b) applied to a gives b when b has no nulls', () => {
    const noNulls = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.integer())), {
      maxKeys: 5,
    }) as fc.Arbitrary<JsonValue>;
    fc.assert(
      fc.property(objectDoc, noNulls, (a, b) => {
        expect(applyMergePatch(a, createMergePatch(a, b))).toEqual(b);
      }),
    );
  });

  it('a merge patch is idempotent', () => {
    fc.assert(
      fc.property(objectDoc, objectDoc, (a, p) => {
        expect(applyMergePatch(applyMergePatch(a, p), p)).toEqual(applyMergePatch(a, p));
      }),
    );
  });

  it('applying never mutates its inputs', () => {
    fc.assert(
      fc.property(objectDoc, objectDoc, (a, b) => {
        const copyA = structuredClone(a);
        const patch = createJsonPatch(a, b);
        const copyPatch = structuredClone(patch);
        applyJsonPatch(a, patch);
        applyMergePatch(a, b);
        expect(a).toEqual(copyA);
        expect(patch).toEqual(copyPatch);
      }),
    );
  });
});

describe('a "__proto__" key is data', () => {
  const withProto = (value: JsonValue): JsonObject => JSON.parse(`{"__proto__":${JSON.stringify(value)}}`) as JsonObject;

  it('is added, replaced and removed like any key, and never becomes a prototype', () => {
    const added = applyJsonPatch({ a: {} }, [{ op: 'add', path: '/a', value: withProto('') }]) as JsonObject;
    expect(Object.keys(added.a as JsonObject)).toEqual(['__proto__']);
    expect(added).toEqual({ a: withProto('') });
    const replaced = applyJsonPatch({ a: withProto(1) }, [
      { op: 'replace', path: '/a/__proto__', value: { polluted: true } },
    ]) as JsonObject;
    expect(Object.getPrototypeOf(replaced.a)).toBe(Object.prototype);
    expect((replaced.a as JsonObject)['polluted']).toBeUndefined();
    expect(applyJsonPatch({ a: withProto(1) }, [{ op: 'remove', path: '/a/__proto__' }])).toEqual({ a: {} });
  });

  it('createJsonPatch between documents holding one round-trips', () => {
    const b = { '': withProto('') };
    expect(applyJsonPatch({}, createJsonPatch({}, b))).toEqual(b);
  });
});

describe('a "__proto__" key in a merge patch is data', () => {
  const withProto = (value: JsonValue): JsonObject => JSON.parse(`{"__proto__":${JSON.stringify(value)}}`) as JsonObject;

  it('merges into an own key and leaves the prototype alone', () => {
    const merged = applyMergePatch({ a: 1 }, withProto({ polluted: true })) as JsonObject;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(merged['polluted']).toBeUndefined();
    expect(Object.keys(merged).sort()).toEqual(['__proto__', 'a']);
  });

  it('createMergePatch to a document holding one round-trips', () => {
    const to = { a: withProto({ b: 1 }) };
    expect(applyMergePatch({ a: {} }, createMergePatch({ a: {} }, to))).toEqual(to);
  });
});
