/** Resolving the project, cluster, pool and node a path names, with the API's 404s. */
import { notFound } from './api-error.js';
import type { EmulatorContext, RequestContext } from './context.js';
import type { ClusterRecord, NodeRecord, PoolRecord } from './records.js';

export function clusterOf(emu: EmulatorContext, req: RequestContext): ClusterRecord {
  const serviceName = req.params.serviceName ?? '';
  const clusters = [...emu.store.clusters.values()].filter((c) => c.serviceName === serviceName);
  if (clusters.length === 0) throw notFound('', 'This service does not exist');
  const cluster = clusters.find((c) => c.id === req.params.kubeId);
  if (!cluster) throw notFound('KubeNotFound', `Cluster ${req.params.kubeId ?? ''} does not exist`);
  return cluster;
}

export function projectExists(emu: EmulatorContext, req: RequestContext): void {
  const serviceName = req.params.serviceName ?? '';
  if (![...emu.store.clusters.values()].some((c) => c.serviceName === serviceName)) throw notFound('', 'This service does not exist');
}

/** Pools of the cluster that reads can see: not hidden by eventual consistency, not gone. */
export function visiblePools(emu: EmulatorContext, cluster: ClusterRecord, now: number): PoolRecord[] {
  emu.store.settle(now);
  return [...emu.store.pools.values()].filter((p) => p.clusterId === cluster.id && now >= p.visibleAt);
}

export function poolOf(emu: EmulatorContext, cluster: ClusterRecord, req: RequestContext): PoolRecord {
  const pool = visiblePools(emu, cluster, req.now).find((p) => p.id === req.params.nodePoolId);
  if (!pool) throw notFound('NodePoolNotFound', `Node pool ${req.params.nodePoolId ?? ''} does not exist`);
  return pool;
}

/** Nodes as node lists show them: appeared, of a pool listing its nodes, DELETED only with history. */
export function listedNodes(emu: EmulatorContext, nodes: NodeRecord[], now: number, history: boolean): NodeRecord[] {
  return nodes.filter((n) => {
    if (now < n.appearsAt) return false;
    const pool = emu.store.pools.get(n.poolId);
    if (pool && (now < pool.nodesListedFrom || now < pool.visibleAt)) return false;
    const deleted = n.goneAt !== undefined && now >= n.goneAt;
    return history || !deleted;
  });
}

export function nodeOf(emu: EmulatorContext, cluster: ClusterRecord, req: RequestContext): NodeRecord {
  emu.store.settle(req.now);
  const node = emu.store.nodes.get(req.params.nodeId ?? '');
  const listed = node && node.clusterId === cluster.id ? listedNodes(emu, [node], req.now, false) : [];
  if (!node || listed.length === 0) throw notFound('NodeNotFound', `Node ${req.params.nodeId ?? ''} does not exist`);
  return node;
}
