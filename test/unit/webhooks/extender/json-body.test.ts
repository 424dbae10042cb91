import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { JsonBodyError, parseJsonBody } from '../../../../webhooks/extender/json-body.js';
import { damage, damaged } from './damaged-bodies.js';

/** The oracle: JSON.parse of the UTF-8 text, or the fact that it throws. */
function oracle(bytes: Buffer): { value: unknown } | 'throws' {
  try {
    return { value: JSON.parse(bytes.toString('utf8')) };
  } catch {
    return 'throws';
  }
}

function expectSameAsJsonParse(bytes: Buffer): void {
  const expected = oracle(bytes);
  if (expected === 'throws') {
    expect(() => parseJsonBody(bytes)).toThrow(JsonBodyError);
    return;
  }
  const actual = parseJsonBody(bytes);
  expect(actual).toStrictEqual(expected.value);
  // toStrictEqual treats an own "__proto__" and a prototype alike; the keys must be JSON.parse's own keys, in its order.
  if (actual && typeof actual === 'object') expect(Object.keys(actual)).toEqual(Object.keys(expected.value as object));
}

const nodeName = fc.oneof(
  fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,40}[a-z0-9])?$/),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', 'a"b', 'a\\b', 'tab\there', 'é', '😀', '\u007f', '\ud800'),
);
const names = fc.oneof(fc.array(nodeName), fc.constant(null), fc.jsonValue());
const nodeNamesKey = fc.constantFrom('NodeNames', 'nodenames', 'NODENAMES', 'nodeNames');
const args = fc.record({ Pod: fc.jsonValue(), Nodes: fc.jsonValue(), names, key: nodeNamesKey }, { requiredKeys: ['names', 'key'] });
const indent = fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n');

function body(value: { Pod?: unknown; Nodes?: unknown; names: unknown; key: string }, space: string | number | undefined): Buffer {
  const { names: nodeNames, key, ...rest } = value;
  return Buffer.from(JSON.stringify({ ...rest, [key]: nodeNames }, null, space));
}

describe('parseJsonBody', () => {
  it.each([
    ['the usual NodeNames body', '{"Pod":{"metadata":{"name":"p"}},"Nodes":null,"NodeNames":["node-a","node-b"]}'],
    ['whitespace everywhere', ' \n{ "Pod" : { } ,\r\n\t"NodeNames" : [ "a" , "b" ] } \n'],
    ['an empty NodeNames', '{"Pod":{},"NodeNames":[]}'],
    ['escaped and non-ASCII names', '{"Pod":{},"NodeNames":["a\\"b","\\u00e9","é","😀"]}'],
    ['a name that is not a string', '{"Pod":{},"NodeNames":["a",1,null]}'],
    ['a key written twice (the last wins)', '{"NodeNames":["a"],"NodeNames":["b"]}'],
    ['a "__proto__" member', '{"__proto__":{"polluted":true},"NodeNames":["a"]}'],
    ['an escaped key', '{"Node\\u004eames":["a"]}'],
    ['full Nodes', '{"Pod":{},"Nodes":{"items":[{"metadata":{"name":"x","labels":{"a":"}]\\"{"}}}]},"NodeNames":null}'],
    ['numbers and literals', '{"a":-1.5e3,"b":true,"c":false,"d":null,"NodeNames":[]}'],
    ['a top-level array', '["NodeNames"]'],
    ['a top-level string', '"hello"'],
  ])('parses %s as JSON.parse does', (_label, text) => {
    expectSameAsJsonParse(Buffer.from(text));
  });

  it.each([
    ['an empty body', ''],
    ['a truncated body', '{"Pod": '],
    ['a trailing comma', '{"NodeNames":["a",]}'],
    ['an unterminated name', '{"NodeNames":["a'],
    ['a raw control character in a name', '{"NodeNames":["a\nb"]}'],
    ['garbage after the object', '{"NodeNames":[]} x'],
    ['a bare word value', '{"Pod":truex,"NodeNames":[]}'],
    ['single quotes', "{'NodeNames':[]}"],
  ])('rejects %s with a 400 naming the problem', (_label, text) => {
    expect(oracle(Buffer.from(text))).toBe('throws');
    try {
      parseJsonBody(Buffer.from(text));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JsonBodyError);
      expect((error as JsonBodyError).status).toBe(400);
      expect((error as Error).message).toMatch(/^body is not valid JSON: /);
    }
  });

  it('never turns the usual body into one string (the reason it exists)', () => {
    const names = Array.from({ length: 2_000 }, (_, i) => `karpenter-b3-8-eu-west-par-a-node-${i.toString(16).padStart(6, '0')}`);
    const text = JSON.stringify({ Pod: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } }, Nodes: null, NodeNames: names });
    const expected: unknown = JSON.parse(text);
    const parse = vi.spyOn(JSON, 'parse');
    const toString = vi.spyOn(Buffer.prototype, 'toString');
    try {
      expect(parseJsonBody(Buffer.from(text))).toEqual(expected);
      const longest = Math.max(
        ...parse.mock.calls.map(([arg]) => String(arg).length),
        ...toString.mock.results.map((r) => String(r.value).length),
      );
      expect(longest).toBeLessThan(1_000);
    } finally {
      parse.mockRestore();
      toString.mockRestore();
    }
  });

  it('drops a UTF-8 byte order mark, as body-parser did', () => {
    expect(parseJsonBody(Buffer.from('\ufeff{"NodeNames":["a"]}'))).toEqual({ NodeNames: ['a'] });
    expect(parseJsonBody(Buffer.from('\ufeff[1]'))).toEqual([1]);
  });

  it('does not set the prototype from a "__proto__" member', () => {
    const parsed = parseJsonBody(Buffer.from('{"__proto__":{"polluted":true},"NodeNames":[]}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(parsed, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives JSON.parse results for ExtenderArgs-shaped bodies (property)', () => {
    fc.assert(
      fc.property(args, indent, (value, space) => expectSameAsJsonParse(body(value, space))),
      { numRuns: 400 },
    );
  });

  it('agrees with JSON.parse on damaged bodies (property)', () => {
    const damagedBody = fc.tuple(args, indent, damage).map(([value, space, how]) => damaged(body(value, space), how));
    fc.assert(fc.property(damagedBody, expectSameAsJsonParse), { numRuns: 1_000 });
  });

  it('agrees with JSON.parse on arbitrary text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => expectSameAsJsonParse(Buffer.from(text))),
      { numRuns: 200 },
    );
  });
});
