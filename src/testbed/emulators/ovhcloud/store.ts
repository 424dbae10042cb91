/**
 * Clusters, node pools and nodes, with the MKS scaling rules applied to them: scale-up adds nodes that
 * appear asynchronously, scale-down removes the requested nodes first and then the newest ones (as MKS
 * does), deleting a node lowers its pool's desiredNodes, deleting a pool deletes its nodes.
 */
import type { IdGenerator } from './ids.js';
import { isLive, type OvhTimings } from './lifecycle.js';
import type { ClusterRecord, NodeFailure, NodeRecord, PoolRecord } from './records.js';

export type PoolDraft = Omit<
  PoolRecord,
  'id' | 'createdAt' | 'updatedAt' | 'visibleAt' | 'installedAt' | 'nodesListedFrom' | 'deleteRequestedAt' | 'goneAt'
>;

export interface LaunchPlan {
  now: number;
  /** Why each new node fails to launch, if it does (one entry per node; undefined = launches). */
  failures: (NodeFailure | undefined)[];
}

export class OvhStore {
  readonly clusters = new Map<string, ClusterRecord>();
  readonly pools = new Map<string, PoolRecord>();
  readonly nodes = new Map<string, NodeRecord>();

  constructor(
    private readonly ids: IdGenerator,
    readonly timings: OvhTimings,
  ) {}

  nodesOf(poolId: string): NodeRecord[] {
    return [...this.nodes.values()].filter((n) => n.poolId === poolId);
  }

  liveNodesOfCluster(clusterId: string): NodeRecord[] {
    return [...this.nodes.values()].filter((n) => n.clusterId === clusterId && isLive(n));
  }

  /** Drops pools whose deletion finished and DELETED nodes past their retention. */
  settle(now: number): void {
    for (const pool of this.pools.values()) {
      if (pool.goneAt !== undefined && now >= pool.goneAt) this.pools.delete(pool.id);
    }
    for (const node of this.nodes.values()) {
      if (node.goneAt !== undefined && now >= node.goneAt + this.timings.deletedNodeRetentionMs) this.nodes.delete(node.id);
    }
  }

  createPool(draft: PoolDraft, plan: LaunchPlan, delays: { consistencyMs: number; nodeListingMs: number }): PoolRecord {
    const { now } = plan;
    const pool: PoolRecord = {
      ...draft,
      id: this.ids.uuid(),
      createdAt: now,
      updatedAt: now,
      visibleAt: now + delays.consistencyMs,
      installedAt: now + this.timings.poolInstallMs,
      nodesListedFrom: now + delays.nodeListingMs,
    };
    this.pools.set(pool.id, pool);
    this.addNodes(pool, plan);
    return pool;
  }

  /** Adds `plan.failures.length` nodes to the pool, spread over its zones (or the cluster's first zone). */
  addNodes(pool: PoolRecord, plan: LaunchPlan): NodeRecord[] {
    const cluster = this.clusters.get(pool.clusterId);
    const zones = pool.availabilityZones.length > 0 ? pool.availabilityZones : (cluster?.zones.slice(0, 1) ?? []);
    const t = this.timings;
    const added = plan.failures.map((failure, i) => {
      const node: NodeRecord = {
        id: this.ids.uuid(),
        poolId: pool.id,
        clusterId: pool.clusterId,
        projectId: pool.projectId,
        name: `${pool.name}-node-${this.ids.hex(6)}`,
        flavor: pool.flavor,
        zone: zones[i % Math.max(1, zones.length)] ?? '',
        instanceId: this.ids.uuid(),
        version: cluster?.version ?? '',
        createdAt: plan.now,
        appearsAt: plan.now + t.nodeAppearMs,
        instanceAt: plan.now + t.instanceIdMs,
        readyAt: plan.now + Math.max(t.nodeReadyMs, t.instanceIdMs),
        failure,
      };
      this.nodes.set(node.id, node);
      return node;
    });
    return added;
  }

  /** Starts deleting nodes (DELETING, then DELETED). */
  removeNodes(nodes: NodeRecord[], now: number): void {
    for (const node of nodes) {
      if (!isLive(node)) continue;
      node.deleteRequestedAt = now;
      node.goneAt = now + this.timings.nodeDeleteMs;
    }
  }

  /**
   * Brings the pool to `desired` live nodes: adds nodes with `plan`, or removes `preferred` first and then
   * the newest nodes (MKS removes the most recently created nodes when no node is named).
   */
  resize(pool: PoolRecord, desired: number, preferred: NodeRecord[], plan: LaunchPlan): void {
    const live = this.nodesOf(pool.id).filter(isLive);
    pool.desiredNodes = desired;
    pool.updatedAt = plan.now;
    if (desired > live.length) {
      this.addNodes(pool, plan);
      return;
    }
    const excess = live.length - desired;
    if (excess <= 0) return;
    const preferredIds = new Set(preferred.map((n) => n.id));
    // Map order is creation order, so the reversed list is newest first (ties within one request included).
    const newestFirst = live
      .filter((n) => !preferredIds.has(n.id))
      .reverse()
      .sort((a, b) => b.createdAt - a.createdAt);
    this.removeNodes([...preferred, ...newestFirst].slice(0, excess), plan.now);
  }

  deletePool(pool: PoolRecord, now: number): void {
    const nodes = this.nodesOf(pool.id);
    this.removeNodes(nodes, now);
    pool.deleteRequestedAt = now;
    pool.updatedAt = now;
    const lastNodeGone = Math.max(now, ...nodes.map((n) => n.goneAt ?? now));
    pool.goneAt = Math.max(now + this.timings.poolDeleteMs, lastNodeGone);
  }
}
