/** Shared set-up for the kubelet and scheduler simulator wire tests. */
import type * as k8s from '@kubernetes/client-node';
import { type CloudInstance } from '../../../src/testbed/cluster/index.js';
import { ovhProviderID } from '../../../src/testbed/cluster/index.js';

export function ovhInstance(id: string, overrides: Partial<CloudInstance> = {}): CloudInstance {
  return {
    cloud: 'ovhcloud',
    nodeName: `pool-a-node-${id}`,
    providerID: ovhProviderID(id),
    instanceType: 'b3-8',
    region: 'GRA',
    zone: 'eu-west-gra-a',
    arch: 'amd64',
    capacity: { cpu: '2', memory: '8Gi', pods: '110', 'ephemeral-storage': '50Gi' },
    labels: {},
    taints: [],
    bootedAt: 0,
    internalIP: `10.0.0.${id.length}`,
    ...overrides,
  };
}

export function podOn(name: string, spec: Partial<k8s.V1PodSpec> = {}, labels: Record<string, string> = {}, cpu = '100m'): k8s.V1Pod {
  return {
    metadata: { name, labels },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu, memory: '64Mi' } } }], ...spec },
  };
}

export function readyStatus(node: k8s.V1Node): string | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

export function podScheduled(pod: k8s.V1Pod): k8s.V1PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
}
