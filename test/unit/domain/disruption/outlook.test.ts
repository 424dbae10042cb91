import { describe, expect, it } from 'vitest';
import { disruptionOutlook } from '../../../../src/domain/disruption/index.js';
import { apiNodePool, clusterNode, disruptionInput, HOUR, NOW, pods, types } from './fixtures.js';

const s4 = types()[1] as ReturnType<typeof types>[number];

describe('disruptionOutlook', () => {
  it('names drifted nodes before consolidation candidates, and leaves undisruptable nodes out', () => {
    const nodes = [
      clusterNode('drifted', s4, pods('d', 1, '1'), { cloudDriftReason: 'ImageDrifted' }),
      clusterNode('idle', s4, pods('i', 1, '1')),
      clusterNode('pinned', s4, pods('p', 1, '1'), { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
      clusterNode('leaving', s4, [], { markedForDeletion: true }),
    ];
    const outlook = disruptionOutlook(disruptionInput(nodes));
    expect(Object.fromEntries(outlook)).toEqual({ drifted: 'drifted', idle: 'consolidation-candidate' });
  });

  it.each([
    ['pods moved within consolidateAfter', { consolidateAfter: '2h' }, pods('a', 1, '1'), undefined],
    ['consolidateAfter elapsed', { consolidateAfter: '30m' }, pods('a', 1, '1'), 'consolidation-candidate'],
    ['consolidateAfter Never', { consolidateAfter: 'Never' }, [], undefined],
    ['WhenEmpty pool, node in use', { consolidationPolicy: 'WhenEmpty' as const }, pods('a', 1, '1'), undefined],
    ['WhenEmpty pool, empty node', { consolidationPolicy: 'WhenEmpty' as const }, [], 'consolidation-candidate'],
  ])('%s → %s', (_name, poolOptions, nodePods, expected) => {
    const node = clusterNode('n', s4, nodePods, { lastPodEventAt: NOW - HOUR });
    expect(disruptionOutlook(disruptionInput([node], [apiNodePool('default', poolOptions)])).get('n')).toBe(expected);
  });

  it('a drifted node under consolidateAfter Never is still drifted (drift ignores consolidateAfter)', () => {
    const node = clusterNode('n', s4, pods('a', 1, '1'), { cloudDriftReason: 'ImageDrifted' });
    expect(disruptionOutlook(disruptionInput([node], [apiNodePool('default', { consolidateAfter: 'Never' })])).get('n')).toBe('drifted');
  });
});
