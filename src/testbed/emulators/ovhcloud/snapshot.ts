/** The plain snapshot tests and the kubelet simulator read: the cloud's own view of its nodes and pools. */
import { nodeStatus, poolStatus, visibleInstanceId, type NodeStatus, type PoolStatus } from './lifecycle.js';
import type { NodeRecord, PoolRecord } from './records.js';
import type { OvhStore } from './store.js';
import { providerIdOf } from './wire.js';

export interface OvhInstanceSnapshot {
  /** The MKS node id. */
  id: string;
  /** The Kubernetes node name (`<pool>-node-<hex>`). */
  name: string;
  /** The OpenStack instance id, once the API shows it. */
  instanceId?: string;
  instanceType: string;
  zone: string;
  region: string;
  state: NodeStatus;
  nodePoolId: string;
  nodePoolName: string;
  /** The pool template's labels: what MKS puts on the Node (plus `nodepool=<pool name>`). */
  labels: Record<string, string>;
  taints: { key: string; value: string; effect: string }[];
  /** MKS nodes take no user data: always undefined, kept for the shared snapshot shape. */
  userData?: string;
  createdAt: number;
  /** The providerID the Node carries: `openstack:///<instanceId>`, once the instance exists. */
  providerID?: string;
  clusterId: string;
  /** False while the node is not yet (or no longer) listed by the API. */
  visible: boolean;
}

export interface OvhPoolSnapshot {
  id: string;
  name: string;
  clusterId: string;
  flavor: string;
  status: PoolStatus;
  desiredNodes: number;
  minNodes: number;
  maxNodes: number;
  availabilityZones: string[];
  antiAffinity: boolean;
  monthlyBilled: boolean;
  labels: Record<string, string>;
  visible: boolean;
}

export interface OvhEmulatorState {
  instances: OvhInstanceSnapshot[];
  pools: OvhPoolSnapshot[];
}

function instanceSnapshot(store: OvhStore, node: NodeRecord, now: number): OvhInstanceSnapshot {
  const pool = store.pools.get(node.poolId);
  const instanceId = visibleInstanceId(node, now) ?? undefined;
  const status = nodeStatus(node, now);
  return {
    id: node.id,
    name: node.name,
    instanceId,
    instanceType: node.flavor,
    zone: node.zone,
    region: store.clusters.get(node.clusterId)?.region ?? '',
    state: status,
    nodePoolId: node.poolId,
    nodePoolName: pool?.name ?? '',
    labels: { ...pool?.template.metadata.labels, nodepool: pool?.name ?? '' },
    taints: pool?.template.spec.taints.map((t) => ({ ...t })) ?? [],
    createdAt: node.createdAt,
    providerID: instanceId ? providerIdOf(instanceId) : undefined,
    clusterId: node.clusterId,
    visible:
      now >= node.appearsAt && status !== 'DELETED' && (pool === undefined || (now >= pool.nodesListedFrom && now >= pool.visibleAt)),
  };
}

function poolSnapshot(store: OvhStore, pool: PoolRecord, now: number): OvhPoolSnapshot {
  return {
    id: pool.id,
    name: pool.name,
    clusterId: pool.clusterId,
    flavor: pool.flavor,
    status: poolStatus(pool, store.nodesOf(pool.id), now),
    desiredNodes: pool.desiredNodes,
    minNodes: pool.minNodes,
    maxNodes: pool.maxNodes,
    availabilityZones: [...pool.availabilityZones],
    antiAffinity: pool.antiAffinity,
    monthlyBilled: pool.monthlyBilled,
    labels: { ...pool.template.metadata.labels },
    visible: now >= pool.visibleAt,
  };
}

export function snapshotOf(store: OvhStore, now: number): OvhEmulatorState {
  store.settle(now);
  return {
    instances: [...store.nodes.values()].map((n) => instanceSnapshot(store, n, now)),
    pools: [...store.pools.values()].map((p) => poolSnapshot(store, p, now)),
  };
}
