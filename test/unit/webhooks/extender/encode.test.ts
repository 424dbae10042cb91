import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ExtenderFilterResult, HostPriorityList } from '../../../../src/domain/extender/index.js';
import { encodeFilterResult, encodeHostPriorityList } from '../../../../webhooks/extender/encode.js';

/** What res.json sent before: the encoder must give the same bytes. */
const stringified = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

// Node names as they come, and strings a broken or hostile caller may send: quotes, backslashes, control
// characters, non-ASCII, emoji (surrogate pairs) and lone surrogates (which JSON.stringify escapes).
const awkwardString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    '"',
    '\\',
    '\u0000',
    '\u001f',
    '\u007f',
    'é',
    '\u2028',
    '😀',
    '\ud800',
    'a\udc00b',
    'ip-10-0-1-23.eu-west-2.compute.internal',
  ),
);
const score = fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer(), fc.double());

describe('encodeHostPriorityList', () => {
  it.each<[string, HostPriorityList]>([
    ['an empty list', []],
    [
      'scores 0 and 10',
      [
        { Host: 'node-a', Score: 0 },
        { Host: 'node-b', Score: 10 },
      ],
    ],
    ['a name needing escapes', [{ Host: 'we"ird\\name\n', Score: 3 }]],
    ['a non-ASCII name', [{ Host: 'nœud-é-😀', Score: 7 }]],
    ['a lone surrogate', [{ Host: 'x\ud800y', Score: 1 }]],
    [
      'non-integer and non-finite scores',
      [
        { Host: 'a', Score: 2.5 },
        { Host: 'b', Score: -1 },
        { Host: 'c', Score: Number.NaN },
        { Host: 'd', Score: Number.POSITIVE_INFINITY },
      ],
    ],
  ])('writes %s exactly as JSON.stringify', (_label, list) => {
    expect(encodeHostPriorityList(list).equals(stringified(list))).toBe(true);
  });

  it('writes any list exactly as JSON.stringify (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ Host: awkwardString, Score: score })), (list) => {
        expect(encodeHostPriorityList(list).toString('utf8')).toBe(stringified(list).toString('utf8'));
        expect(encodeHostPriorityList(list).equals(stringified(list))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('grows past its first estimate for long names', () => {
    const list = Array.from({ length: 50 }, (_, i) => ({ Host: `${'n'.repeat(500)}-${i}`, Score: i % 11 }));
    expect(encodeHostPriorityList(list).equals(stringified(list))).toBe(true);
  });
});

describe('encodeFilterResult', () => {
  const result = (overrides: Partial<ExtenderFilterResult>): ExtenderFilterResult => ({
    Nodes: null,
    NodeNames: [],
    FailedNodes: {},
    FailedAndUnresolvableNodes: {},
    Error: '',
    ...overrides,
  });

  it.each<[string, ExtenderFilterResult]>([
    [
      'NodeNames with failures',
      result({
        NodeNames: ['a', 'b'],
        FailedNodes: { c: 'node is being disrupted' },
        FailedAndUnresolvableNodes: { d: 'node is being terminated' },
      }),
    ],
    ['integer-like node names (JSON.stringify puts them first)', result({ FailedNodes: { zeta: 'x', '10': 'y', '2': 'z' } })],
    [
      'a NodeList (Nodes mode)',
      result({
        Nodes: { apiVersion: 'v1', kind: 'NodeList', metadata: {}, items: [{ metadata: { name: 'n1', labels: { é: '😀' } } }] },
        NodeNames: null,
      }),
    ],
    ['an error message with quotes', result({ Error: 'bad "thing"\n' })],
  ])('writes %s exactly as JSON.stringify', (_label, value) => {
    expect(encodeFilterResult(value).equals(stringified(value))).toBe(true);
  });

  it('writes any NodeNames result exactly as JSON.stringify (property)', () => {
    fc.assert(
      fc.property(
        fc.array(awkwardString),
        fc.dictionary(awkwardString, awkwardString),
        fc.dictionary(awkwardString, awkwardString),
        awkwardString,
        (names, failed, unresolvable, error) => {
          const value = result({ NodeNames: names, FailedNodes: failed, FailedAndUnresolvableNodes: unresolvable, Error: error });
          expect(encodeFilterResult(value).equals(stringified(value))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
