import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  CompiledLabelSelector, formatLabelSelector, type LabelSelector, LabelSelectorError, labelSelectorMatches, parseLabelSelector,
} from '../../../../src/domain/requirements/index.js';

describe('label selector objects', () => {
  const selector: LabelSelector = {
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'tier', operator: 'In', values: ['front', 'edge'] },
      { key: 'canary', operator: 'DoesNotExist' },
      { key: 'env', operator: 'NotIn', values: ['dev'] },
      { key: 'zone', operator: 'Exists' },
    ],
  };
  it.each([
    [{ app: 'web', tier: 'front', zone: 'a' }, true],
    [{ app: 'web', tier: 'edge', zone: 'a', env: 'prod' }, true],
    [{ app: 'web', tier: 'front', zone: 'a', env: 'dev' }, false],
    [{ app: 'web', tier: 'front', zone: 'a', canary: 'true' }, false],
    [{ app: 'web', tier: 'back', zone: 'a' }, false],
    [{ app: 'web', tier: 'front' }, false],
    [{ app: 'api', tier: 'front', zone: 'a' }, false],
  ])('matches %j: %s', (labels, expected) => {
    expect(labelSelectorMatches(selector, labels)).toBe(expected);
  });

  it('an empty selector matches everything, a missing one nothing', () => {
    expect(labelSelectorMatches({}, { a: 'b' })).toBe(true);
    expect(CompiledLabelSelector.compile({}).isEverything).toBe(true);
    expect(labelSelectorMatches(undefined, { a: 'b' })).toBe(false);
    expect(labelSelectorMatches(null, {})).toBe(false);
  });

  it('rejects malformed expressions, naming the key, operator and what is accepted', () => {
    expect(() => CompiledLabelSelector.compile({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(/"a" In: values must be non-empty/);
    expect(() => CompiledLabelSelector.compile({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] })).toThrow(LabelSelectorError);
    expect(() => CompiledLabelSelector.compile({ matchExpressions: [{ key: 'a', operator: 'Near' }] })).toThrow(/accepted: In, NotIn, Exists, DoesNotExist/);
  });
});

describe('label selector string form', () => {
  it.each([
    ['', []],
    ['a=b', [{ key: 'a', operator: 'In', values: ['b'] }]],
    ['a==b', [{ key: 'a', operator: 'In', values: ['b'] }]],
    ['a!=b', [{ key: 'a', operator: 'NotIn', values: ['b'] }]],
    ['a in (x, y)', [{ key: 'a', operator: 'In', values: ['x', 'y'] }]],
    ['a notin (x,y),!f', [{ key: 'a', operator: 'NotIn', values: ['x', 'y'] }, { key: 'f', operator: 'DoesNotExist' }]],
    ['a=b,c!=d,e in (x,y),!f', [
      { key: 'a', operator: 'In', values: ['b'] },
      { key: 'c', operator: 'NotIn', values: ['d'] },
      { key: 'e', operator: 'In', values: ['x', 'y'] },
      { key: 'f', operator: 'DoesNotExist' },
    ]],
    ['app.kubernetes.io/name', [{ key: 'app.kubernetes.io/name', operator: 'Exists' }]],
    ['a=', [{ key: 'a', operator: 'In', values: [''] }]],
    ['a in (,x)', [{ key: 'a', operator: 'In', values: ['', 'x'] }]],
    ['a in ()', [{ key: 'a', operator: 'In', values: [''] }]],
    ['n>3,m<10', [{ key: 'n', operator: 'Gt', values: ['3'] }, { key: 'm', operator: 'Lt', values: ['10'] }]],
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
    const selector = fc.record({ matchLabels: fc.dictionary(name, value, { maxKeys: 2 }), matchExpressions: fc.array(expression, { maxLength: 3 }) });
    const labels = fc.dictionary(name, value);
    fc.assert(
      fc.property(selector, labels, (s, l) => {
        expect(labelSelectorMatches(parseLabelSelector(formatLabelSelector(s)), l)).toBe(labelSelectorMatches(s, l));
      }),
    );
  });
});
