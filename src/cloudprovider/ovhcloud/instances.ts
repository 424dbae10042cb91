/**
 * The nodes this service launched, as CloudNodeClaims: every node of our node pools (those named
 * `karpenter-…` and labelled managed-by karpenter-eu) read with two calls whatever the number of pools —
 * the pool list and the cluster's node list. Any failed read fails the whole listing: garbage collection
 * must never see a partial list.
 */
import { CapacityTypeOnDemand, LabelCapacityType, LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import type { CloudNodeClaim } from '../types.js';
import type { OvhAccount } from './accounts.js';
import type { OvhNode, OvhNodePool } from './api.js';
import type { OvhCaller } from './calls.js';
import { matchPendingClaims } from './claim-matching.js';
import { isOvhNotFound } from './errors.js';
import { ClaimAnnotationPrefix, claimRecordsOf, isManagedPool } from './pool-naming.js';
import { formatProviderID } from './provider-id.js';

/** A node of one of our pools, with its pool. */
export interface ManagedNode {
  node: OvhNode;
  pool: OvhNodePool;
  /** The NodeClaim recorded for it on the pool, when bound. */
  nodeClaimName?: string;
}

export interface ClusterView {
  pools: OvhNodePool[];
  nodes: ManagedNode[];
}

/** NodeClaim name by node id: bound records, and pending ones whose node has appeared. */
function claimNamesByNode(pool: OvhNodePool, nodes: readonly OvhNode[]): Map<string, string> {
  const records = claimRecordsOf(pool.template);
  const byNode = new Map<string, string>();
  const nameOf = (key: string): string => key.slice(ClaimAnnotationPrefix.length);
  for (const [key, record] of records) if (record.kind === 'node') byNode.set(record.nodeId, nameOf(key));
  for (const [key, nodeId] of matchPendingClaims(records, nodes)) byNode.set(nodeId, nameOf(key));
  return byNode;
}

/** This cluster's pools and their nodes that have an instance (DELETED ones are not listed by the API). */
export async function readCluster(account: OvhAccount, call: OvhCaller, clusterName: string): Promise<ClusterView> {
  const { api, target } = account;
  const [allPools, allNodes] = await Promise.all([
    call(`listing node pools of cluster ${target.kubeId}`, () => api.listNodePools(target)),
    call(`listing nodes of cluster ${target.kubeId}`, () => api.listNodes(target)),
  ]);
  const pools = [...allPools, ...(await poolsOnlyNodesName(account, call, allPools, allNodes))].filter((p) =>
    isManagedPool(p, clusterName),
  );
  const nodesByPool = new Map<string, OvhNode[]>();
  for (const node of allNodes) {
    const list = nodesByPool.get(node.nodePoolId) ?? [];
    list.push(node);
    nodesByPool.set(node.nodePoolId, list);
  }
  const byId = new Map(pools.map((p) => [p.id, { pool: p, claims: claimNamesByNode(p, nodesByPool.get(p.id) ?? []) }]));
  const nodes: ManagedNode[] = [];
  for (const node of allNodes) {
    const owner = byId.get(node.nodePoolId);
    if (!owner || !node.instanceId || node.status === 'DELETED') continue;
    const nodeClaimName = owner.claims.get(node.id);
    nodes.push({ node, pool: owner.pool, ...(nodeClaimName ? { nodeClaimName } : {}) });
  }
  return { pools, nodes };
}

/**
 * Pools that nodes point to but the pool list left out (a pool created between the two reads, or not
 * yet consistent): read one by one, so their nodes are not missing from the listing. Gone ones are skipped
 * (the cluster answered the two lists just before, so a 404 here is about the pool).
 */
async function poolsOnlyNodesName(
  account: OvhAccount,
  call: OvhCaller,
  pools: readonly OvhNodePool[],
  nodes: readonly OvhNode[],
): Promise<OvhNodePool[]> {
  const known = new Set(pools.map((p) => p.id));
  const missing = [...new Set(nodes.map((n) => n.nodePoolId).filter((id) => !known.has(id)))];
  const found = await Promise.all(
    missing.map((id) =>
      call(`reading node pool ${id}`, () => account.api.getNodePool(account.target, id)).catch((error: unknown) => {
        if (isOvhNotFound(error)) return undefined;
        throw error;
      }),
    ),
  );
  return found.filter((p): p is OvhNodePool => p !== undefined);
}

/** The node's zone: its own when the API reports it, else its pool's (MKS pools have one zone). */
export function zoneOf(node: OvhNode, pool: OvhNodePool, regionZones: readonly string[]): string {
  return node.availabilityZone ?? pool.availabilityZones[0] ?? regionZones[0] ?? '';
}

export function toCloudNodeClaim(managed: ManagedNode, instanceType: InstanceType | undefined, zone: string): CloudNodeClaim {
  const { node, pool } = managed;
  const nodePoolName = pool.template.metadata.labels[LabelNodePool];
  const labels: Record<string, string> = {
    ...(instanceType?.labels ?? {}),
    [LabelInstanceType]: pool.flavor,
    [LabelTopologyZone]: zone,
    [LabelCapacityType]: CapacityTypeOnDemand,
    ...(nodePoolName ? { [LabelNodePool]: nodePoolName } : {}),
  };
  return {
    providerID: formatProviderID(node.instanceId ?? ''),
    ...(managed.nodeClaimName ? { nodeClaimName: managed.nodeClaimName } : {}),
    ...(nodePoolName ? { nodePoolName } : {}),
    instanceType: pool.flavor,
    zone,
    capacityType: CapacityTypeOnDemand,
    capacity: instanceType?.capacity ?? {},
    allocatable: instanceType?.allocatable ?? {},
    labels,
    createdAt: Date.parse(node.createdAt),
    ...(node.status === 'DELETING' ? { terminating: true } : {}),
  };
}
