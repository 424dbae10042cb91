/**
 * Which new node of a pool is which pending NodeClaim's (pure). Scale-ups of one pool are serialised, and
 * MKS creates nodes in request order, so pending claims (by the time they were recorded) take the unbound
 * nodes created since (by creation time, then id) in order. Every reader computes the same answer from
 * the pool's records and its node list, so concurrent creates — or a restarted service — agree.
 */
import type { OvhNode } from './api.js';
import type { ClaimRecord } from './pool-naming.js';

/** OVH dates have second precision; a node may look up to this much older than the request that made it. */
export const CreationSkewMs = 5_000;

const GoneStatuses: ReadonlySet<string> = new Set(['DELETING', 'DELETED']);

function createdAtMs(node: OvhNode): number {
  return Date.parse(node.createdAt);
}

/** Node id for each pending claim key that has one yet. */
export function matchPendingClaims(records: ReadonlyMap<string, ClaimRecord>, nodes: readonly OvhNode[]): Map<string, string> {
  const bound = new Set([...records.values()].flatMap((r) => (r.kind === 'node' ? [r.nodeId] : [])));
  const pending = [...records.entries()]
    .flatMap(([key, r]) => (r.kind === 'pending' ? [{ key, since: r.since }] : []))
    .sort((a, b) => a.since - b.since || a.key.localeCompare(b.key));
  const free = nodes
    .filter((n) => !bound.has(n.id) && !GoneStatuses.has(n.status))
    .sort((a, b) => createdAtMs(a) - createdAtMs(b) || a.id.localeCompare(b.id));
  const matched = new Map<string, string>();
  let next = 0;
  for (const claim of pending) {
    while (next < free.length && createdAtMs(free[next] as OvhNode) < claim.since - CreationSkewMs) next += 1;
    const node = free[next];
    if (!node) break;
    matched.set(claim.key, node.id);
    next += 1;
  }
  return matched;
}
