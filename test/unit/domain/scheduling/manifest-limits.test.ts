/**
 * `plan` from manifests applies a NodePool's limits as the live service does: the Nodes of the NodePool in the
 * input use part of them (upstream subtracts every existing node's capacity from its NodePool's limits).
 */
import { describe, expect, it } from 'vitest';
import { fakeInstanceType } from '../../../../src/cloudprovider/fake/index.js';
import { type ManifestEntry, schedulingInputFromManifests } from '../../../../src/domain/scheduling/manifest-input.js';
import { solve } from '../../../../src/domain/scheduling/index.js';

const types = [fakeInstanceType({ name: 'm-4', cpu: 4, memoryMiB: 16384, pricePerHour: 0.08 })];

function entries(limits: Record<string, string>, existingNodes: number): ManifestEntry[] {
  const nodePool = {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      limits,
      template: { spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] } },
    },
  };
  const nodeClass = { apiVersion: 'karpenter.ovhcloud.sh/v1alpha1', kind: 'OVHNodeClass', metadata: { name: 'default' }, spec: {} };
  const nodes = Array.from({ length: existingNodes }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `node-${i}`, labels: { 'karpenter.sh/nodepool': 'default', 'node.kubernetes.io/instance-type': 'm-4' } },
    status: { capacity: { cpu: '4', memory: '16Gi', pods: '110' }, allocatable: { cpu: '4', memory: '16Gi', pods: '110' } },
  }));
  // Each existing node is full: its pod requests all of it.
  const bound = nodes.map((n, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `busy-${i}`, namespace: 'default' },
    spec: { nodeName: n.metadata.name, containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '4' } } }] },
  }));
  const pending = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'pending', namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1' } } }] },
  };
  return [nodePool, nodeClass, ...nodes, ...bound, pending].map((object, i) => ({ source: `#${i}`, object }));
}

function planOf(limits: Record<string, string>, existingNodes: number) {
  const { input, errors } = schedulingInputFromManifests(entries(limits, existingNodes), () => types);
  expect(errors).toEqual([]);
  return solve(input);
}

describe('plan counts the existing Nodes of a NodePool against its limits', () => {
  it('refuses a new node when the existing ones already use the cpu limit', () => {
    const plan = planOf({ cpu: '8' }, 2);
    expect(plan.newNodeClaims).toEqual([]);
    expect(plan.unschedulable.map((u) => u.reason).join()).toMatch(/limits/);
  });

  it('refuses a new node when the existing ones already reach limits.nodes', () => {
    const plan = planOf({ nodes: '2' }, 2);
    expect(plan.newNodeClaims).toEqual([]);
    expect(plan.unschedulable.map((u) => u.reason).join()).toMatch(/limits\.nodes/);
  });

  it('adds one while the limits leave room for it', () => {
    expect(planOf({ cpu: '12', nodes: '3' }, 2).newNodeClaims).toHaveLength(1);
  });
});
