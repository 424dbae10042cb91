/**
 * Pool and node statuses computed from the clock on each read (no timers), so tests move time with
 * FakeClock.step() and see the same status sequence the MKS API shows.
 */
import type { NodeFailure, NodeRecord, PoolRecord } from './records.js';

export interface OvhTimings {
  /** A new pool is INSTALLING for at least this long. */
  poolInstallMs: number;
  /** A node appears in node lists this long after the request that created it. */
  nodeAppearMs: number;
  /** The node's `instanceId` is filled in this long after creation. */
  instanceIdMs: number;
  /** The node is READY this long after creation. */
  nodeReadyMs: number;
  /** A deleted node is DELETING for this long, then DELETED (only listed with `history=true`). */
  nodeDeleteMs: number;
  /** A deleted pool is DELETING for this long (at least until its nodes are gone), then answers 404. */
  poolDeleteMs: number;
  /** DELETED nodes stay listed with `history=true` for this long. */
  deletedNodeRetentionMs: number;
}

export const DEFAULT_TIMINGS: OvhTimings = {
  poolInstallMs: 2_000,
  nodeAppearMs: 500,
  instanceIdMs: 1_000,
  nodeReadyMs: 4_000,
  nodeDeleteMs: 1_000,
  poolDeleteMs: 1_000,
  deletedNodeRetentionMs: 600_000,
};

export type NodeStatus = 'INSTALLING' | 'READY' | 'DELETING' | 'DELETED' | NodeFailure;

export type PoolStatus = 'INSTALLING' | 'READY' | 'UPSCALING' | 'DOWNSCALING' | 'DELETING' | 'ERROR' | 'USER_QUOTA_ERROR';

export function nodeStatus(node: NodeRecord, now: number): NodeStatus {
  if (node.deleteRequestedAt !== undefined) return now >= (node.goneAt ?? 0) ? 'DELETED' : 'DELETING';
  if (node.failure) return node.failure;
  return now >= node.readyAt ? 'READY' : 'INSTALLING';
}

/** The instance id as the API shows it: null until the OpenStack instance exists (never, on a failed launch). */
export function visibleInstanceId(node: NodeRecord, now: number): string | null {
  if (node.failure) return null;
  return now >= node.instanceAt ? node.instanceId : null;
}

export function isLive(node: NodeRecord): boolean {
  return node.deleteRequestedAt === undefined;
}

export function poolStatus(pool: PoolRecord, nodes: NodeRecord[], now: number): PoolStatus {
  if (pool.deleteRequestedAt !== undefined) return 'DELETING';
  const live = nodes.filter(isLive);
  const firstNodesBooting = live.some((n) => n.createdAt === pool.createdAt && nodeStatus(n, now) === 'INSTALLING');
  if (now < pool.installedAt || firstNodesBooting) return 'INSTALLING';
  if (live.some((n) => n.failure === 'USER_QUOTA_ERROR')) return 'USER_QUOTA_ERROR';
  if (live.some((n) => n.failure !== undefined)) return 'ERROR';
  if (nodes.some((n) => nodeStatus(n, now) === 'DELETING')) return 'DOWNSCALING';
  if (live.some((n) => nodeStatus(n, now) === 'INSTALLING')) return 'UPSCALING';
  return 'READY';
}

export function sizeStatus(pool: PoolRecord, available: number): 'CAPACITY_OK' | 'OVER_CAPACITY' | 'UNDER_CAPACITY' {
  if (available < pool.desiredNodes) return 'UNDER_CAPACITY';
  if (available > pool.desiredNodes) return 'OVER_CAPACITY';
  return 'CAPACITY_OK';
}
