import type { V1Node } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { nodeResourceMetrics, nodeResourceSamples, resourceTypeLabel } from '../../../src/metrics/node-resources.js';
import { pod } from '../../builders.js';

const node: V1Node = {
  metadata: {
    name: 'n1',
    labels: {
      'karpenter.sh/nodepool': 'default',
      'topology.kubernetes.io/zone': 'fr-par-1',
      'node.kubernetes.io/instance-type': 'DEV1-M',
      'kubernetes.io/arch': 'amd64',
    },
  },
  status: {
    capacity: { cpu: '4', memory: '8Gi', 'ephemeral-storage': '20Gi' },
    allocatable: { cpu: '3800m', memory: '7Gi', 'ephemeral-storage': '20Gi' },
    phase: 'Running',
  },
};
const view = {
  node,
  pods: [pod({ name: 'app', requests: { cpu: '1500m' } }), pod({ name: 'agent', requests: { cpu: '100m' }, daemonSet: true })],
  managed: true,
};

describe('karpenter_nodes_* resource samples, as upstream computes them', () => {
  it('sums DaemonSet pods alone for daemon requests, every bound pod for pod requests, cpu in cores', () => {
    const cpu = (kind: Parameters<typeof nodeResourceSamples>[1]): number | undefined =>
      nodeResourceSamples([view], kind).find((s) => s.labels.resource_type === 'cpu')?.value;
    expect(cpu('daemonRequests')).toBeCloseTo(0.1);
    expect(cpu('podRequests')).toBeCloseTo(1.6);
    expect(cpu('allocatable')).toBeCloseTo(3.8);
    expect(cpu('systemOverhead')).toBeCloseTo(0.2);
    expect(nodeResourceSamples([view], 'systemOverhead').find((s) => s.labels.resource_type === 'memory')?.value).toBe(1024 ** 3);
  });

  it("labels with upstream's well-known node labels, '' where the node has none, and snake_case resource types", () => {
    const [sample] = nodeResourceSamples([view], 'allocatable');
    expect(sample?.labels).toMatchObject({
      nodepool: 'default',
      zone: 'fr-par-1',
      instance_type: 'DEV1-M',
      arch: 'amd64',
      os: '',
      region: '',
      capacity_type: '',
      windows_build: '',
      node_name: 'n1',
      phase: 'Running',
      managed: 'true',
    });
    expect(resourceTypeLabel('ephemeral-storage')).toBe('ephemeral_storage');
  });

  it('skips NodeClaims without a Node, and a pod with an unparsable request counts as requesting nothing', () => {
    expect(nodeResourceSamples([{ pods: [], managed: true }], 'allocatable')).toEqual([]);
    const bad = pod({ name: 'bad', requests: { cpu: 'lots' } });
    expect(nodeResourceSamples([{ ...view, pods: [bad] }], 'podRequests')).toEqual([]);
  });

  it('exports series at scrape time from the source it reads, and none before one is given', async () => {
    const registry = new Registry();
    const metrics = nodeResourceMetrics(registry);
    expect(nodeResourceMetrics(registry)).toBe(metrics);
    expect((await metrics.totalDaemonRequests.get()).values).toEqual([]);
    let views = [view];
    metrics.readFrom(() => views);
    expect((await metrics.totalDaemonRequests.get()).values.map((v) => v.labels.resource_type)).toEqual(['cpu']);
    views = [];
    expect((await metrics.totalDaemonRequests.get()).values).toEqual([]);
  });
});
