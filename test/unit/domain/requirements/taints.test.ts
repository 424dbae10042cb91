import { describe, it, expect } from 'vitest';
import {
  firstUntoleratedTaint,
  isKnownEphemeralTaint,
  KnownEphemeralTaints,
  mergeTaints,
  type Taint,
  type Toleration,
  toleratesTaint,
} from '../../../../src/domain/requirements/index.js';

const gpu: Taint = { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' };

describe('toleratesTaint (k8s ToleratesTaint)', () => {
  it.each<[string, Toleration, Taint, boolean]>([
    ['Equal with same key, value, effect', { key: 'nvidia.com/gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }, gpu, true],
    ['no operator means Equal', { key: 'nvidia.com/gpu', value: 'true' }, gpu, true],
    ['Equal with another value', { key: 'nvidia.com/gpu', operator: 'Equal', value: 'false' }, gpu, false],
    ['Equal with absent value vs taint without value', { key: 'k', operator: 'Equal' }, { key: 'k', effect: 'NoSchedule' }, true],
    ['Equal with absent value vs taint with value', { key: 'nvidia.com/gpu' }, gpu, false],
    ['Exists ignores the value', { key: 'nvidia.com/gpu', operator: 'Exists' }, gpu, true],
    ['empty effect matches every effect', { key: 'nvidia.com/gpu', operator: 'Exists', effect: '' }, { ...gpu, effect: 'NoExecute' }, true],
    ['another effect does not match', { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoExecute' }, gpu, false],
    ['empty key with Exists tolerates everything', { operator: 'Exists' }, gpu, true],
    ['empty key with Exists keeps the effect filter', { operator: 'Exists', effect: 'NoExecute' }, gpu, false],
    ['empty key with Equal compares values of any key', { operator: 'Equal', value: 'true' }, gpu, true],
    ['another key', { key: 'other', operator: 'Exists' }, gpu, false],
    ['Gt: taint value greater', { key: 'n', operator: 'Gt', value: '5' }, { key: 'n', value: '7', effect: 'NoSchedule' }, true],
    ['Gt: taint value equal', { key: 'n', operator: 'Gt', value: '5' }, { key: 'n', value: '5', effect: 'NoSchedule' }, false],
    ['Lt: taint value smaller', { key: 'n', operator: 'Lt', value: '5' }, { key: 'n', value: '-2', effect: 'NoSchedule' }, true],
    ['Lt: non-integer taint value', { key: 'n', operator: 'Lt', value: '5' }, { key: 'n', value: 'x', effect: 'NoSchedule' }, false],
    [
      'Gt: leading zero is not a decimal integer',
      { key: 'n', operator: 'Gt', value: '05' },
      { key: 'n', value: '7', effect: 'NoSchedule' },
      false,
    ],
    ['unknown operator', { key: 'nvidia.com/gpu', operator: 'Matches', value: 'true' }, gpu, false],
  ])('%s', (_name, toleration, taint, expected) => {
    expect(toleratesTaint(toleration, taint)).toBe(expected);
  });
});

describe('firstUntoleratedTaint', () => {
  const taints: Taint[] = [
    { key: 'a', effect: 'PreferNoSchedule' },
    { key: 'b', effect: 'NoSchedule' },
    { key: 'c', effect: 'NoExecute' },
  ];
  it('returns the first taint no toleration tolerates, over all effects by default', () => {
    expect(firstUntoleratedTaint(taints, [])).toEqual(taints[0]);
    expect(firstUntoleratedTaint(taints, [{ key: 'a', operator: 'Exists' }])).toEqual(taints[1]);
    expect(firstUntoleratedTaint(taints, [{ operator: 'Exists' }])).toBeUndefined();
    expect(firstUntoleratedTaint(undefined, undefined)).toBeUndefined();
  });
  it('can consider only some effects', () => {
    expect(firstUntoleratedTaint(taints, [{ key: 'b', operator: 'Exists' }], ['NoSchedule', 'NoExecute'])).toEqual(taints[2]);
  });
});

describe('known ephemeral taints', () => {
  it('match on key and effect, plus the readiness.k8s.io/ prefix', () => {
    expect(KnownEphemeralTaints).toHaveLength(5);
    expect(isKnownEphemeralTaint({ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' })).toBe(true);
    expect(isKnownEphemeralTaint({ key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' })).toBe(
      true,
    );
    expect(isKnownEphemeralTaint({ key: 'karpenter.sh/unregistered', effect: 'NoExecute' })).toBe(true);
    expect(isKnownEphemeralTaint({ key: 'readiness.k8s.io/network', effect: 'NoSchedule' })).toBe(true);
    expect(isKnownEphemeralTaint({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' })).toBe(false);
    expect(isKnownEphemeralTaint(gpu)).toBe(false);
  });
  it('merge adds only new key/effect pairs', () => {
    expect(
      mergeTaints(
        [gpu],
        [
          { key: 'nvidia.com/gpu', value: 'x', effect: 'NoSchedule' },
          { key: 'd', effect: 'NoSchedule' },
        ],
      ),
    ).toEqual([gpu, { key: 'd', effect: 'NoSchedule' }]);
  });
});
