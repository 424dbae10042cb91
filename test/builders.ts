/**
 * Kubernetes objects for tests, one builder per kind, each taking one options object: a test names only the
 * fields it is about, in any order, and everything else gets a plain default.
 */
import type { V1Node, V1ObjectMeta, V1OwnerReference, V1Pod, V1PodSpec, V1Taint } from '@kubernetes/client-node';
import type { NodeClaim, NodePool } from '../src/apis/index.js';

/** The fake cloud provider's NodeClass, as the integration beds register it. */
export const TestNodeClassRef = { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' };

export interface PodOptions {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  /** Requests of the pod's one container. */
  requests?: Record<string, string>;
  nodeName?: string;
  phase?: string;
  /** Owned by DaemonSet `ds` (controller: true), as the DaemonSet controller writes it. */
  daemonSet?: boolean;
  ownerReferences?: V1OwnerReference[];
  metadata?: Partial<V1ObjectMeta>;
  /** Merged over the defaults; `containers` here replaces the default container. */
  spec?: Partial<V1PodSpec>;
  status?: V1Pod['status'];
}

export function pod(o: PodOptions = {}): V1Pod {
  const name = o.name ?? 'p';
  const owners = o.daemonSet
    ? [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'ds-uid', controller: true }]
    : o.ownerReferences;
  const container = { name: 'app', image: 'app', ...(o.requests ? { resources: { requests: o.requests } } : {}) };
  const status = o.phase !== undefined ? { ...o.status, phase: o.phase } : o.status;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      ...(o.labels ? { labels: o.labels } : {}),
      ...(owners ? { ownerReferences: owners } : {}),
      ...o.metadata,
    },
    spec: { containers: [container], ...(o.nodeName ? { nodeName: o.nodeName } : {}), ...o.spec },
    ...(status ? { status } : {}),
  };
}

export interface NodeOptions {
  name?: string;
  labels?: Record<string, string>;
  providerID?: string;
  allocatable?: Record<string, string>;
  /** Defaults to `allocatable`. */
  capacity?: Record<string, string>;
  taints?: V1Taint[];
  /** The Ready condition's status; default 'True'. */
  ready?: 'True' | 'False' | 'Unknown';
}

export function node(o: NodeOptions = {}): V1Node {
  const allocatable = o.allocatable ?? { cpu: '4', memory: '16Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: o.name ?? 'n', labels: o.labels ?? {} },
    spec: { ...(o.providerID ? { providerID: o.providerID } : {}), ...(o.taints ? { taints: o.taints } : {}) },
    status: { allocatable, capacity: o.capacity ?? allocatable, conditions: [{ type: 'Ready', status: o.ready ?? 'True' }] },
  };
}

export interface NodePoolOptions {
  name?: string;
  nodeClassRef?: { group: string; kind: string; name: string };
  requirements?: NodePool['spec']['template']['spec']['requirements'];
  limits?: Record<string, string>;
  disruption?: NodePool['spec']['disruption'];
  expireAfter?: string;
}

export function nodePool(o: NodePoolOptions = {}): NodePool {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: o.name ?? 'default' },
    spec: {
      ...(o.disruption ? { disruption: o.disruption } : {}),
      ...(o.limits ? { limits: o.limits } : {}),
      template: {
        spec: {
          nodeClassRef: o.nodeClassRef ?? TestNodeClassRef,
          requirements: o.requirements ?? [],
          ...(o.expireAfter ? { expireAfter: o.expireAfter } : {}),
        },
      },
    },
  } as NodePool;
}

export interface NodeClaimOptions {
  name?: string;
  nodePool?: string;
  nodeClassRef?: { group: string; kind: string; name: string };
  requirements?: NodeClaim['spec']['requirements'];
  providerID?: string;
}

export function nodeClaim(o: NodeClaimOptions = {}): NodeClaim {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name: o.name ?? 'claim', labels: { 'karpenter.sh/nodepool': o.nodePool ?? 'default' } },
    spec: { nodeClassRef: o.nodeClassRef ?? TestNodeClassRef, requirements: o.requirements ?? [] },
    ...(o.providerID ? { status: { providerID: o.providerID } } : {}),
  } as NodeClaim;
}
