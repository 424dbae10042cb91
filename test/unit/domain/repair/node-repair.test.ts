import { describe, expect, it } from 'vitest';
import {
  allowedUnhealthy,
  type HealthNode,
  planRepairs,
  repairTerminationTimestamp,
  type RepairPolicy,
  unhealthyCondition,
} from '../../../../src/domain/repair/index.js';

const minute = 60_000;
const t0 = Date.UTC(2026, 0, 5, 9);
const policies: RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 30 * minute },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: 30 * minute },
];

function node(name: string, ready: 'True' | 'False' | 'Unknown', since = t0, extra: Partial<HealthNode> = {}): HealthNode {
  return {
    name,
    nodeClaim: `nc-${name}`,
    nodePool: 'default',
    deleting: false,
    conditions: [{ type: 'Ready', status: ready, lastTransitionTime: new Date(since).toISOString() }],
    ...extra,
  };
}

function healthyPool(count: number, nodePool = 'default'): HealthNode[] {
  return Array.from({ length: count }, (_, i) => node(`${nodePool}-ok-${i}`, 'True', t0, { nodePool }));
}

describe('node repair: which NodeClaims to replace', () => {
  it('repairs a node NotReady past the toleration, and only then', () => {
    const nodes = [node('sick', 'False'), ...healthyPool(9)];
    const early = planRepairs(nodes, policies, t0 + 30 * minute - 1);
    expect(early.repairs).toEqual([]);
    expect(early.nextDueAt).toBe(t0 + 30 * minute);
    const due = planRepairs(nodes, policies, t0 + 30 * minute);
    expect(due.repairs.map((r) => r.nodeClaim)).toEqual(['nc-sick']);
    expect(due.repairs[0]?.condition).toEqual({ type: 'Ready', status: 'False', dueAt: t0 + 30 * minute });
  });

  it('repairs a node whose kubelet stopped reporting (Ready Unknown)', () => {
    expect(planRepairs([node('silent', 'Unknown'), ...healthyPool(4)], policies, t0 + 31 * minute).repairs.map((r) => r.node)).toEqual([
      'silent',
    ]);
  });

  it('20% rounds up: 1 of 3 and 2 of 10 unhealthy are repaired, 3 of 10 are held back with the reason', () => {
    expect(allowedUnhealthy(3)).toBe(1);
    expect(allowedUnhealthy(10)).toBe(2);
    const later = t0 + 40 * minute;
    expect(planRepairs([node('a', 'False'), ...healthyPool(2)], policies, later).repairs).toHaveLength(1);
    expect(planRepairs([node('a', 'False'), node('b', 'False'), ...healthyPool(8)], policies, later).repairs).toHaveLength(2);
    const held = planRepairs([node('a', 'False'), node('b', 'False'), node('c', 'Unknown'), ...healthyPool(7)], policies, later);
    expect(held.repairs).toEqual([]);
    expect(held.blocked.map((b) => b.node)).toEqual(['a', 'b', 'c']);
    expect(held.blocked[0]?.message).toBe('more than 20% nodes are unhealthy in the nodepool');
  });

  it('counts nodes still within their toleration towards the valve (any matching condition is unhealthy)', () => {
    const later = t0 + 40 * minute;
    const plan = planRepairs(
      [node('old', 'False'), node('fresh-1', 'False', later - minute), node('fresh-2', 'False', later - minute), ...healthyPool(7)],
      policies,
      later,
    );
    expect(plan.repairs).toEqual([]);
    expect(plan.blocked.map((b) => b.node)).toEqual(['old']);
  });

  it('applies the valve per NodePool: a sick pool does not stop repairs in a healthy one', () => {
    const later = t0 + 40 * minute;
    const sickPool = [node('s1', 'False', t0, { nodePool: 'gpu' }), node('s2', 'False', t0, { nodePool: 'gpu' }), ...healthyPool(1, 'gpu')];
    const plan = planRepairs([...sickPool, node('d1', 'False'), ...healthyPool(9)], policies, later);
    expect(plan.repairs.map((r) => r.node)).toEqual(['d1']);
    expect(plan.blocked.map((b) => b.node)).toEqual(['s1', 's2']);
  });

  it('a NodeClaim without a NodePool is judged against every Node of the cluster, unmanaged ones included', () => {
    const later = t0 + 40 * minute;
    const unmanaged = Array.from({ length: 4 }, (_, i) => node(`system-${i}`, 'True', t0, { nodeClaim: undefined, nodePool: undefined }));
    const standalone = node('standalone', 'False', t0, { nodePool: undefined });
    expect(planRepairs([standalone, ...unmanaged], policies, later).repairs.map((r) => r.node)).toEqual(['standalone']);
    const plan = planRepairs(
      [
        standalone,
        {
          ...(unmanaged[0] as HealthNode),
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: new Date(t0).toISOString() }],
        },
        ...unmanaged.slice(1, 3),
      ],
      policies,
      later,
    );
    expect(plan.blocked.map((b) => b.message)).toEqual(['more than 20% nodes are unhealthy in the cluster']);
  });

  it('leaves alone unmanaged Nodes, NodeClaims already deleting, no policies, and conditions with no transition time', () => {
    const later = t0 + 40 * minute;
    expect(planRepairs([node('x', 'False', t0, { nodeClaim: undefined }), ...healthyPool(9)], policies, later).repairs).toEqual([]);
    expect(planRepairs([node('x', 'False', t0, { deleting: true }), ...healthyPool(9)], policies, later).repairs).toEqual([]);
    expect(planRepairs([node('x', 'False'), ...healthyPool(9)], [], later).repairs).toEqual([]);
    expect(unhealthyCondition([{ type: 'Ready', status: 'False' }], policies)).toBeUndefined();
    expect(unhealthyCondition([{ type: 'Ready', status: 'False', lastTransitionTime: 'yesterday' }], policies)).toBeUndefined();
  });

  it('picks the matching condition due first', () => {
    const mixed: RepairPolicy[] = [
      ...policies,
      { conditionType: 'DiskPressure', conditionStatus: 'True', tolerationDurationMs: 5 * minute },
    ];
    const conditions = [
      { type: 'Ready', status: 'False', lastTransitionTime: new Date(t0).toISOString() },
      { type: 'DiskPressure', status: 'True', lastTransitionTime: new Date(t0 + 10 * minute).toISOString() },
    ];
    expect(unhealthyCondition(conditions, mixed)).toEqual({ type: 'DiskPressure', status: 'True', dueAt: t0 + 15 * minute });
  });

  it('sets the termination timestamp to now unless an earlier one is set', () => {
    expect(repairTerminationTimestamp(undefined, t0 + 1_500)).toBe('2026-01-05T09:00:01Z');
    expect(repairTerminationTimestamp('2026-01-05T08:00:00Z', t0)).toBeUndefined();
    expect(repairTerminationTimestamp('2026-01-05T10:00:00Z', t0)).toBe('2026-01-05T09:00:00Z');
    expect(repairTerminationTimestamp('garbage', t0)).toBe('2026-01-05T09:00:00Z');
  });
});
