import { describe, expect, it } from 'vitest';
import { NodePoolHashVersion } from '../../../../src/apis/index.js';
import { eligibleNodes } from '../../../../src/domain/disruption/index.js';
import { apiNodePool, clusterNode, disruptionInput, type instanceType, pods, types } from './fixtures.js';

const [, s4] = types() as [ReturnType<typeof instanceType>, ReturnType<typeof instanceType>];

describe('nodes eligible for each disruption reason', () => {
  it('counts the nodes each method could take, before budgets; do-not-disrupt nodes count for none', () => {
    const stale = {
      claimAnnotations: { 'karpenter.sh/nodepool-hash': 'stale', 'karpenter.sh/nodepool-hash-version': NodePoolHashVersion },
    };
    const nodes = [
      clusterNode('empty-1', s4, []),
      clusterNode('empty-2', s4, []),
      clusterNode('busy', s4, pods('p', 1, '1')),
      clusterNode('drifted', s4, pods('d', 1, '1'), stale),
      clusterNode('pinned', s4, [], { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
    ];
    // A budget of zero still leaves them eligible: budgets decide how many go at once, not which could.
    const input = disruptionInput(nodes, [apiNodePool('default', { budgets: [{ nodes: '0' }] })]);
    expect(eligibleNodes(input)).toEqual({ drifted: 1, empty: 2, underutilized: 4 });
  });

  it('WhenEmpty leaves no node to underutilized consolidation', () => {
    const input = disruptionInput(
      [clusterNode('busy', s4, pods('p', 1, '1'))],
      [apiNodePool('default', { consolidationPolicy: 'WhenEmpty' })],
    );
    expect(eligibleNodes(input).underutilized).toBe(0);
  });
});
