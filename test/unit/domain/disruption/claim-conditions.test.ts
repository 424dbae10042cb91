import { describe, expect, it } from 'vitest';
import { claimConditionChanges, type DisruptionNode } from '../../../../src/domain/disruption/index.js';
import { apiNodePool, clusterNode, disruptionInput, HOUR, NOW, pods, types } from './fixtures.js';

const s4 = types()[1] as ReturnType<typeof types>[number];

type ConditionSketch = { type: string; status: 'True' | 'False'; reason: string };

function withConditions(node: DisruptionNode, extra: ConditionSketch[], lastPodEventTime?: string): DisruptionNode {
  const claim = node.nodeClaim as NonNullable<DisruptionNode['nodeClaim']>;
  const conditions = [
    ...(claim.status?.conditions ?? []),
    ...extra.map((c) => ({ ...c, message: '', lastTransitionTime: new Date(NOW - HOUR).toISOString() })),
  ];
  return {
    ...node,
    nodeClaim: {
      ...claim,
      metadata: { ...claim.metadata, resourceVersion: '7' },
      status: { ...claim.status, conditions, ...(lastPodEventTime ? { lastPodEventTime } : {}) },
    },
  };
}

const summary = (conditions: { type: string; status: string; reason: string }[] | undefined) =>
  conditions?.map((c) => `${c.type}=${c.status}/${c.reason}`);

describe('claimConditionChanges (upstream Drifted / Consolidatable conditions)', () => {
  it('sets Drifted with the reason and Consolidatable once consolidateAfter has passed, keeping the other conditions', () => {
    const changes = claimConditionChanges(disruptionInput([clusterNode('n', s4, pods('a', 1, '1'), { cloudDriftReason: 'ImageDrifted' })]));
    expect(changes).toHaveLength(1);
    expect(changes[0]?.nodeClaim).toBe('claim-n');
    expect(summary(changes[0]?.conditions)).toEqual([
      'Initialized=True/Initialized',
      'Drifted=True/ImageDrifted',
      'Consolidatable=True/Consolidatable',
    ]);
    expect(changes[0]?.conditions.find((c) => c.type === 'Drifted')?.lastTransitionTime).toBe(new Date(NOW).toISOString());
  });

  it('writes nothing when the conditions and lastPodEventTime already say so (lastTransitionTime kept)', () => {
    const node = withConditions(
      clusterNode('n', s4, [], { cloudDriftReason: 'ImageDrifted' }),
      [
        { type: 'Drifted', status: 'True', reason: 'ImageDrifted' },
        { type: 'Consolidatable', status: 'True', reason: 'Consolidatable' },
      ],
      new Date(NOW - HOUR).toISOString(),
    );
    expect(claimConditionChanges(disruptionInput([node]))).toEqual([]);
  });

  it("writes the node's last pod event to status.lastPodEventTime when it moved, and drops Consolidatable with it", () => {
    const node = withConditions(
      clusterNode('n', s4, [], { lastPodEventAt: NOW - 5_000 }),
      [{ type: 'Consolidatable', status: 'True', reason: 'Consolidatable' }],
      new Date(NOW - HOUR).toISOString(),
    );
    const [change] = claimConditionChanges(disruptionInput([node], [apiNodePool('default', { consolidateAfter: '30s' })]));
    expect(change?.lastPodEventTime).toBe(new Date(NOW - 5_000).toISOString());
    expect(summary(change?.conditions)).toEqual(['Initialized=True/Initialized']);
  });

  it('removes conditions that stopped holding, and carries the resourceVersion it saw', () => {
    const node = withConditions(clusterNode('n', s4, [], { lastPodEventAt: NOW - 60_000 }), [
      { type: 'Drifted', status: 'True', reason: 'ImageDrifted' },
      { type: 'Consolidatable', status: 'True', reason: 'Consolidatable' },
    ]);
    const [change] = claimConditionChanges(disruptionInput([node], [apiNodePool('default', { consolidateAfter: '10m' })]));
    expect(summary(change?.conditions)).toEqual(['Initialized=True/Initialized']);
    expect(change?.resourceVersion).toBe('7');
  });

  it('updates the reason when the drift reason changes', () => {
    const node = withConditions(clusterNode('n', s4, [], { cloudDriftReason: 'SubnetDrifted' }), [
      { type: 'Drifted', status: 'True', reason: 'ImageDrifted' },
    ]);
    const [change] = claimConditionChanges(disruptionInput([node], [apiNodePool('default', { consolidateAfter: 'Never' })]));
    expect(change?.conditions.find((c) => c.type === 'Drifted')).toMatchObject({
      reason: 'SubnetDrifted',
      lastTransitionTime: new Date(NOW - HOUR).toISOString(),
    });
  });

  it('leaves NodeClaims being deleted, uninitialized or without their NodePool alone', () => {
    const nodes = [
      clusterNode('leaving', s4, [], { cloudDriftReason: 'ImageDrifted', markedForDeletion: true }),
      { ...clusterNode('booting', s4, [], { cloudDriftReason: 'ImageDrifted' }), initialized: false },
      clusterNode('orphan', s4, [], { pool: 'gone', cloudDriftReason: 'ImageDrifted' }),
    ];
    expect(claimConditionChanges(disruptionInput(nodes))).toEqual([]);
  });
});
