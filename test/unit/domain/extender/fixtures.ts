import type { V1Node, V1Pod, V1Taint } from '@kubernetes/client-node';
import type { ExtenderNode, ExtenderNodeState } from '../../../../src/domain/extender/index.js';

export function node(overrides: Partial<ExtenderNode> = {}): ExtenderNode {
  return {
    labels: {},
    taints: [],
    allocatable: { cpu: 4000, memory: 8 * 2 ** 30, pods: 110 },
    requested: {},
    pricePerHour: 0.1,
    state: 'ok',
    ...overrides,
  };
}

export function stateNode(state: ExtenderNodeState): ExtenderNode {
  return node({ state });
}

export function pod(requests?: Record<string, string>, extra: Partial<V1Pod> = {}): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'shop' },
    spec: { containers: [{ name: 'app', image: 'nginx', ...(requests ? { resources: { requests } } : {}) }] },
    ...extra,
  };
}

export function daemonSetPod(): V1Pod {
  return pod(
    { cpu: '100m' },
    {
      metadata: {
        name: 'agent-x',
        namespace: 'kube-system',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u1', controller: true }],
      },
    },
  );
}

export function nodeObject(
  name: string,
  extra: { taints?: V1Taint[]; deleting?: boolean; allocatable?: Record<string, string> } = {},
): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name }, ...(extra.deleting ? { deletionTimestamp: new Date(0) } : {}) },
    spec: { taints: extra.taints ?? [] },
    status: { allocatable: extra.allocatable ?? { cpu: '4', memory: '8Gi', pods: '110' } },
  };
}
