import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { LabelSelectorError, labelSelectorMatches } from '../../../src/domain/requirements/index.js';
import { formatLabelSelector, parseLabelSelector } from '../../../src/testbed/cluster/apiserver/label-selector-parse.js';

describe('label selector string form', () => {
  it.each([
    ['', []],
    ['a=b', [{ key: 'a', operator: 'In', values: ['b'] }]],
    ['a==b', [{ key: 'a', operator: 'In', values: ['b'] }]],
    ['a!=b', [{ key: 'a', operator: 'NotIn', values: ['b'] }]],
    ['a in (x, y)', [{ key: 'a', operator: 'In', values: ['x', 'y'] }]],
    [
      'a notin (x,y),!f',
      [
        { key: 'a', operator: 'NotIn', values: ['x', 'y'] },
        { key: 'f', operator: 'DoesNotExist' },
      ],
    ],
    [
      'a=b,c!=d,e in (x,y),!f',
      [
        { key: 'a', operator: 'In', values: ['b'] },
        { key: 'c', operator: 'NotIn', values: ['d'] },
        { key: 'e', operator: 'In', values: ['x', 'y'] },
        { key: 'f', operator: 'DoesNotExist' },
      ],
    ],
    ['app.kubernetes.io/name', [{ key: 'app.kubernetes.io/name', operator: 'Exists' }]],
    ['a=', [{ key: 'a', operator: 'In', values: [''] }]],
    ['a in (,x)', [{ key: 'a', operator: 'In', values: ['', 'x'] }]],
    ['a in ()', [{ key: 'a', operator: 'In', values: [''] }]],
    [
      'n>3,m<10',
      [
        { key: 'n', operator: 'Gt', values: ['3'] },
        { key: 'm', operator: 'Lt', values: ['10'] },
      ],
    ],
  ])('parses %j', (text, expressions) => {
    expect(parseLabelSelector(text)).toEqual({ matchExpressions: expressions });
  });

  it.each(['a=b,', ',a', 'a b', 'a in x', 'a in (x', '!a=b', 'a=b=c', '-a=b', 'a=-b', 'n>x', 'a in (x y)'])('rejects %j', (text) => {
    expect(() => parseLabelSelector(text)).toThrow(LabelSelectorError);
  });

  it('error names the selector and the accepted syntax', () => {
    expect(() => parseLabelSelector('a b')).toThrow(/parsing label selector "a b": found 'b'.*accepted: comma-separated a=b/);
  });

  it('matches the same labels after format → parse', () => {
    const name = fc.constantFrom('a', 'b', 'x.io/c');
    const value = fc.constantFrom('1', '2', 'v');
    const expression = fc.oneof(
      fc.record({ key: name, operator: fc.constantFrom('In', 'NotIn'), values: fc.uniqueArray(value, { minLength: 1, maxLength: 2 }) }),
      fc.record({ key: name, operator: fc.constantFrom('Exists', 'DoesNotExist') }),
    );
    const selector = fc.record({
      matchLabels: fc.dictionary(name, value, { maxKeys: 2 }),
      matchExpressions: fc.array(expression, { maxLength: 3 }),
    });
    const labels = fc.dictionary(name, value);
    fc.assert(
      fc.property(selector, labels, (s, l) => {
        expect(labelSelectorMatches(parseLabelSelector(formatLabelSelector(s)), l)).toBe(labelSelectorMatches(s, l));
      }),
    );
  });
});
