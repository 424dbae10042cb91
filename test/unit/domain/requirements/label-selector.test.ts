import { describe, it, expect } from 'vitest';
import {
  CompiledLabelSelector,
  type LabelSelector,
  LabelSelectorError,
  labelSelectorMatches,
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
    expect(() => CompiledLabelSelector.compile({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      /"a" In: values must be non-empty/,
    );
    expect(() => CompiledLabelSelector.compile({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] })).toThrow(
      LabelSelectorError,
    );
    expect(() => CompiledLabelSelector.compile({ matchExpressions: [{ key: 'a', operator: 'Near' }] })).toThrow(
      /accepted: In, NotIn, Exists, DoesNotExist/,
    );
  });
});
