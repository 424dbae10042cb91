import { nodePoolHash } from '../../../../src/domain/disruption/index.js';
import { describe, expect, it } from 'vitest';
import type { NodePool } from '../../../../src/apis/index.js';
import { nodeClaimFromDecision, singleValuedLabels } from '../../../../src/domain/provisioning/index.js';
import type { PlannedNodeClaim } from '../../../../src/domain/scheduling/index.js';

const nodePool: NodePool = {
  metadata: { name: 'general', uid: 'uid-np' },
  spec: {
    template: {
      metadata: { labels: { team: 'a' }, annotations: { note: 'x' } },
      spec: {
        nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' },
        requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
        taints: [{ key: 'dedicated', value: 'a', effect: 'NoSchedule' }],
        startupTaints: [{ key: 'cni', effect: 'NoSchedule' }],
        expireAfter: '720h',
        terminationGracePeriod: '1h',
      },
    },
  },
} as NodePool;

const planned: PlannedNodeClaim = {
  hostname: 'hostname-placeholder-0001',
  nodePool: 'general',
  nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' },
  instanceTypeOptions: [
    { name: 'DEV1-M', pricePerHour: 0.02 },
    { name: 'DEV1-L', pricePerHour: 0.04 },
  ],
  instanceType: 'DEV1-M',
  zone: 'fr-par-1',
  capacityType: 'on-demand',
  pricePerHour: 0.02,
  allocatable: { cpu: 2800, memory: 3 * 2 ** 30 },
  requirements: [
    { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
    { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['DEV1-M', 'DEV1-L'] },
    { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['fr-par-1'] },
    { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
  ],
  requests: { cpu: 1500, memory: 2 ** 30, pods: 3 },
  pods: ['default/a', 'default/b', 'default/c'],
};

describe('nodeClaimFromDecision', () => {
  const claim = nodeClaimFromDecision(planned, nodePool);

  it('names, owns and labels the NodeClaim after its NodePool', () => {
    expect(claim.metadata?.generateName).toBe('general-');
    expect(claim.metadata?.ownerReferences).toEqual([
      { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', name: 'general', uid: 'uid-np', blockOwnerDeletion: true },
    ]);
    expect(claim.metadata?.labels).toEqual({
      team: 'a',
      'karpenter.sh/nodepool': 'general',
      'karpenter.scaleway.sh/scalewaynodeclass': 'default',
      'kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/zone': 'fr-par-1',
      'karpenter.sh/capacity-type': 'on-demand',
    });
    expect(claim.metadata?.annotations).toMatchObject({ note: 'x', 'karpenter.sh/nodepool-hash-version': 'v4' });
    // The template hash drift compares against (a NodeClaim without it would never drift on a template change).
    expect(claim.metadata?.annotations?.['karpenter.sh/nodepool-hash']).toBe(nodePoolHash(nodePool));
  });

  it('narrows requirements to the decision and carries requests, taints and durations', () => {
    expect(claim.spec.requirements).toContainEqual({
      key: 'node.kubernetes.io/instance-type',
      operator: 'In',
      values: ['DEV1-M', 'DEV1-L'],
    });
    expect(claim.spec.requirements).toContainEqual({ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['fr-par-1'] });
    expect(claim.spec.resources?.requests).toEqual({ cpu: '1500m', memory: '1Gi', pods: '3' });
    expect(claim.spec.taints).toEqual([{ key: 'dedicated', value: 'a', effect: 'NoSchedule' }]);
    expect(claim.spec.startupTaints).toEqual([{ key: 'cni', effect: 'NoSchedule' }]);
    expect(claim.spec).toMatchObject({
      expireAfter: '720h',
      terminationGracePeriod: '1h',
      nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' },
    });
  });

  it('turns only single-valued In requirements into labels, never the hostname', () => {
    expect(
      singleValuedLabels([
        { key: 'a', operator: 'In', values: ['1'] },
        { key: 'b', operator: 'In', values: ['1', '2'] },
        { key: 'c', operator: 'NotIn', values: ['1'] },
        { key: 'kubernetes.io/hostname', operator: 'In', values: ['h'] },
      ]),
    ).toEqual({ a: '1' });
  });
});
