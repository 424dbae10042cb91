import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isPlainName, isPlainSpan, type NameSpans, spanName } from '../../../../src/byte-path/index.js';
import { parseJsonBody, walkNodeNamesBody } from '../../../../webhooks/extender/json-body.js';
import { damage, damaged } from './damaged-bodies.js';

const names = (spans: NameSpans): string[] => Array.from({ length: spans.count }, (_, i) => spanName(spans, i));
const allPlain = (spans: NameSpans): boolean => Array.from({ length: spans.count }, (_, i) => isPlainSpan(spans, i)).every(Boolean);

/** JSON.parse of the UTF-8 text with a leading byte order mark dropped (as parseJsonBody does), or the fact that it throws. */
function oracle(bytes: Buffer): { value: unknown } | 'throws' {
  const text = bytes.toString('utf8');
  try {
    return { value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch {
    return 'throws';
  }
}

/**
 * A walk that returned names all plain must be JSON.parse's reading of the body: an object with one NodeNames
 * member (any case), an array of exactly those names, no full Nodes, and every other member as JSON.parse has it.
 */
function expectAgreesWithJsonParse(bytes: Buffer): boolean {
  const walked = walkNodeNamesBody(bytes);
  if (!walked || !allPlain(walked.names)) return false;
  const expected = oracle(bytes);
  expect(expected, `JSON.parse refuses ${JSON.stringify(bytes.toString('latin1'))}`).not.toBe('throws');
  if (expected === 'throws') return false;
  const parsed = expected.value as Record<string, unknown>;
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  const keys = Object.keys(parsed).filter((key) => key.toLowerCase() === 'nodenames');
  expect(keys).toHaveLength(1);
  expect(names(walked.names)).toEqual(parsed[keys[0] as string]);
  for (const key of Object.keys(parsed)) if (key.toLowerCase() === 'nodes') expect(parsed[key]).toBeNull();
  delete parsed[keys[0] as string];
  expect(walked.members).toStrictEqual(parsed);
  // toStrictEqual treats an own "__proto__" and a prototype alike; the keys must be JSON.parse's own keys, in its order.
  expect(Object.keys(walked.members)).toEqual(Object.keys(parsed));
  return true;
}

describe('walkNodeNamesBody', () => {
  it.each([
    [
      'the usual body',
      '{"Pod":{"metadata":{"name":"p"}},"Nodes":null,"NodeNames":["node-a","node-b"]}',
      { Pod: { metadata: { name: 'p' } }, Nodes: null },
      ['node-a', 'node-b'],
    ],
    [
      'whitespace everywhere',
      ' \n{ "Pod" : { } ,\r\n\t"NodeNames" : [ "a" ,\n"b"\t] , "Nodes" : null } \n',
      { Pod: {}, Nodes: null },
      ['a', 'b'],
    ],
    ['an empty NodeNames', '{"Pod":{},"NodeNames":[]}', { Pod: {} }, []],
    ['an empty NodeNames with space inside', '{"NodeNames":[ \n ]}', {}, []],
    ['lower-case nodenames', '{"Pod":{},"nodenames":["a"]}', { Pod: {} }, ['a']],
    ['upper-case NODENAMES', '{"NODENAMES":["a"],"Pod":{}}', { Pod: {} }, ['a']],
    ['names NodeNames first', '{"NodeNames":["a","b"],"Nodes":null,"Pod":{"spec":{}}}', { Nodes: null, Pod: { spec: {} } }, ['a', 'b']],
    ['an empty name and an all-digit name', '{"NodeNames":["","123","0"]}', {}, ['', '123', '0']],
    ['names with JSON punctuation', '{"NodeNames":["a,b","[c]","{d}",":e"]}', {}, ['a,b', '[c]', '{d}', ':e']],
    [
      'other members with escapes, non-ASCII and nesting',
      '{"Pod":{"a":"\\"}]","b":["é","😀"]},"x":-1.5e3,"NodeNames":["n"]}',
      { Pod: { a: '"}]', b: ['é', '😀'] }, x: -1500 },
      ['n'],
    ],
    [
      'a "__proto__" member',
      '{"__proto__":{"polluted":true},"NodeNames":["a"]}',
      JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>,
      ['a'],
    ],
    ['a UTF-8 byte order mark (dropped, as parseJsonBody does)', '\ufeff{"Pod":{},"NodeNames":["a"]}', { Pod: {} }, ['a']],
  ])('reads %s: members without NodeNames, names as spans of the body', (_label, text, members, expected) => {
    const bytes = Buffer.from(text);
    const walked = walkNodeNamesBody(bytes);
    expect(walked).toBeDefined();
    expect(walked?.members).toStrictEqual(members);
    expect(Object.keys(walked?.members ?? {})).toEqual(Object.keys(members));
    expect(walked?.names.bytes).toBe(bytes);
    expect(names(walked?.names as NameSpans)).toEqual(expected);
    expect(expectAgreesWithJsonParse(bytes)).toBe(true);
  });

  it('does not set the prototype of members from a "__proto__" member', () => {
    const walked = walkNodeNamesBody(Buffer.from('{"__proto__":{"polluted":true},"NodeNames":[]}'));
    expect(walked).toBeDefined();
    expect(Object.getPrototypeOf(walked?.members)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(walked?.members, '__proto__')).toBe(true);
  });

  it('agrees with parseJsonBody on the byte order mark', () => {
    const bytes = Buffer.from('\ufeff{"NodeNames":["a"]}');
    expect(parseJsonBody(bytes)).toEqual({ NodeNames: ['a'] });
    expect(names(walkNodeNamesBody(bytes)?.names as NameSpans)).toEqual(['a']);
  });

  it('keeps spans of many names (past its first span arrays)', () => {
    const many = Array.from({ length: 5_000 }, (_, i) => `karpenter-b3-8-eu-west-par-a-node-${i.toString(16).padStart(6, '0')}`);
    const walked = walkNodeNamesBody(Buffer.from(JSON.stringify({ Pod: {}, Nodes: null, NodeNames: many })));
    expect(walked?.names.count).toBe(5_000);
    expect(names(walked?.names as NameSpans)).toEqual(many);
  });

  it.each([
    ['an escaped quote in a name', '{"NodeNames":["a\\"b"]}'],
    ['an escaped letter in a name', '{"NodeNames":["\\u0061"]}'],
    ['a backslash anywhere in the array', '{"NodeNames":["a","b\\\\"]}'],
    ['a non-ASCII name', '{"NodeNames":["é"]}'],
    ['an emoji name', '{"NodeNames":["a","😀"]}'],
    ['a number among the names', '{"NodeNames":["a",1]}'],
    ['null among the names', '{"NodeNames":["a",null]}'],
    ['an array among the names', '{"NodeNames":[["a"]]}'],
    ['NodeNames null', '{"Pod":{},"Nodes":null,"NodeNames":null}'],
    ['NodeNames a string', '{"NodeNames":"a"}'],
    ['NodeNames an object', '{"NodeNames":{"a":1}}'],
    ['no NodeNames', '{"Pod":{},"Nodes":null}'],
    ['an empty object', '{}'],
    ['NodeNames twice', '{"NodeNames":["a"],"NodeNames":["b"]}'],
    ['NodeNames and nodenames', '{"NodeNames":["a"],"nodenames":["b"]}'],
    ['NodeNames twice, the second null', '{"NodeNames":["a"],"NODENAMES":null}'],
    ['full Nodes', '{"Pod":{},"Nodes":{"items":[]},"NodeNames":["a"]}'],
    ['full Nodes after the names', '{"NodeNames":["a"],"nodes":{"items":[{"metadata":{"name":"a"}}]}}'],
    ['Nodes an empty array', '{"NodeNames":["a"],"Nodes":[]}'],
    ['a top-level array', '[{"NodeNames":["a"]}]'],
    ['a top-level string', '"NodeNames"'],
    ['an escaped key', '{"Node\\u004eames":["a"]}'],
    ['a non-ASCII key', '{"é":1,"NodeNames":["a"]}'],
    ['an empty body', ''],
    ['a truncated body', '{"Pod":{},"NodeNames":["a","b'],
    ['a body cut after the names', '{"NodeNames":["a","b"]'],
    ['a trailing comma in the names', '{"NodeNames":["a",]}'],
    ['a leading comma in the names', '{"NodeNames":[,"a"]}'],
    ['a missing comma between names', '{"NodeNames":["a" "b"]}'],
    ['a trailing comma in the object', '{"NodeNames":["a"],}'],
    ['a missing colon', '{"NodeNames" ["a"]}'],
    ['garbage after the object', '{"NodeNames":["a"]} x'],
    ['two objects', '{"NodeNames":["a"]}{}'],
    ['a bare word value', '{"Pod":truex,"NodeNames":["a"]}'],
    ['a malformed member', '{"Pod":{"a":},"NodeNames":["a"]}'],
    ['a raw control character in another member', '{"Pod":"a\nb","NodeNames":["a"]}'],
    ['single quotes', "{'NodeNames':['a']}"],
    ['a byte order mark not at the start', ' \ufeff{"NodeNames":["a"]}'],
  ])('returns undefined for %s', (_label, text) => {
    expect(walkNodeNamesBody(Buffer.from(text))).toBeUndefined();
  });

  it.each([
    ['a raw tab', '{"NodeNames":["a\tb"]}', 'a\tb'],
    ['a raw newline', '{"NodeNames":["a\nb"]}', 'a\nb'],
    ['a raw NUL', '{"NodeNames":["\u0000"]}', '\u0000'],
    ['a raw DEL', '{"NodeNames":["a\u007f"]}', 'a\u007f'],
  ])('leaves a name with %s to the handler: a span that is not plain', (_label, text, name) => {
    const walked = walkNodeNamesBody(Buffer.from(text));
    expect(walked).toBeDefined();
    expect(names(walked?.names as NameSpans)).toEqual([name]);
    expect(isPlainSpan(walked?.names as NameSpans, 0)).toBe(false);
  });

  // ExtenderArgs-shaped bodies as in json-body.test.ts: node names as they come and awkward strings.
  const nodeName = fc.oneof(
    fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,40}[a-z0-9])?$/),
    fc.stringMatching(/^[0-9]{1,4}$/),
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('', 'a"b', 'a\\b', 'tab\there', 'é', '😀', '\u007f', '\ud800', ',', ']', '}'),
  );
  const plainNames = fc.array(
    fc.oneof(
      fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,40}[a-z0-9])?$/),
      fc.stringMatching(/^[0-9]{0,4}$/),
      fc.string().filter(isPlainName),
    ),
  );
  const nameList = fc.oneof(fc.array(nodeName), plainNames, plainNames, fc.constant(null), fc.jsonValue());
  const nodeNamesKey = fc.constantFrom('NodeNames', 'nodenames', 'NODENAMES', 'nodeNames');
  const nodes = fc.oneof(fc.constant(null), fc.constant(null), fc.jsonValue());
  const args = fc.record(
    {
      Pod: fc.jsonValue(),
      Nodes: nodes,
      names: nameList,
      key: nodeNamesKey,
      extra: fc.dictionary(fc.constantFrom('Pod', 'x', '__proto__', 'NodeNames', 'nodenames', '1'), fc.jsonValue(), { maxKeys: 2 }),
    },
    { requiredKeys: ['names', 'key'] },
  );
  const indent = fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n');
  /** Bodies the walk takes before they are damaged. */
  const walkable = fc.record(
    { Pod: fc.jsonValue(), Nodes: fc.constant(null), names: plainNames, key: nodeNamesKey },
    { requiredKeys: ['names', 'key'] },
  );

  /** The body JSON.stringify writes, names under `key` and the extra members (which may repeat a key) spliced in. */
  function body(
    value: { Pod?: unknown; Nodes?: unknown; names: unknown; key: string; extra?: Record<string, unknown> },
    space: string | number | undefined,
  ): Buffer {
    const { names: nodeNames, key, extra, ...rest } = value;
    const main = JSON.stringify({ ...rest, [key]: nodeNames }, null, space);
    const more = Object.entries(extra ?? {}).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    if (more.length === 0) return Buffer.from(main);
    return Buffer.from(main === '{}' ? `{${more.join(',')}}` : `${main.slice(0, -1)},${more.join(',')}}`);
  }

  it('agrees with JSON.parse whenever it returns names all plain (property)', () => {
    let taken = 0;
    fc.assert(
      fc.property(args, indent, (value, space) => {
        if (expectAgreesWithJsonParse(body(value, space))) taken++;
      }),
      { numRuns: 300 },
    );
    // The oracle is not vacuous: most bodies with plain names take the walk.
    expect(taken).toBeGreaterThan(10);
  });

  it('takes every body JSON.stringify writes with plain names, one NodeNames and no full Nodes (property)', () => {
    fc.assert(
      fc.property(walkable, indent, (value, space) => {
        const bytes = body(value, space);
        const walked = walkNodeNamesBody(bytes);
        expect(walked).toBeDefined();
        expect(names(walked?.names as NameSpans)).toEqual(value.names);
        expect(expectAgreesWithJsonParse(bytes)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('agrees with JSON.parse on damaged bodies whenever it returns names all plain (property)', () => {
    const damagedBody = fc
      .tuple(fc.oneof(args, walkable, walkable), indent, damage)
      .map(([value, space, how]) => damaged(body(value, space), how));
    expectAgreementOnSomeTaken(damagedBody);
  });

  /** Checks every body; damage the walk takes in its stride (whitespace, a byte inside a member or a name) must occur, not only refusals. */
  function expectAgreementOnSomeTaken(bodies: fc.Arbitrary<Buffer>): void {
    let taken = 0;
    fc.assert(
      fc.property(bodies, (bytes) => {
        if (expectAgreesWithJsonParse(bytes)) taken++;
      }),
      { numRuns: 300 },
    );
    expect(taken).toBeGreaterThan(10);
  }

  it('damage inside the names array (a byte inserted or replaced there) never yields names JSON.parse does not give (property)', () => {
    const namesDamaged = fc
      .tuple(
        plainNames.filter((list) => list.length > 0),
        fc.nat(),
        fc.constantFrom(0x22, 0x5c, 0x2c, 0x5d, 0x5b, 0x20, 0x0a, 0x00, 0x7f, 0x80, 0xc3, 0x61),
        fc.boolean(),
      )
      .map(([list, at, byte, replace]) => {
        const bytes = Buffer.from(JSON.stringify({ Pod: {}, NodeNames: list }));
        const from = bytes.indexOf('[');
        const i = from + (at % (bytes.length - from));
        return Buffer.concat([bytes.subarray(0, i), Buffer.from([byte]), bytes.subarray(replace ? i + 1 : i)]);
      });
    expectAgreementOnSomeTaken(namesDamaged);
  });
});
