/**
 * The `Drifted` and `Consolidatable` conditions upstream's NodeClaim disruption controller keeps on every
 * initialized NodeClaim (shown by `kubectl get nodeclaims -o wide`, read by dashboards and alerts):
 * Drifted=True with the drift reason while the NodeClaim is drifted, Consolidatable=True once consolidateAfter
 * has passed since its last pod event; each condition is removed when it stops holding. The last pod event
 * itself goes to status.lastPodEventTime, as upstream keeps it: a restarted or new leader reads the clock off
 * the NodeClaim instead of starting it again. Returns only the NodeClaims whose status must change, with their
 * whole new condition list.
 */
import type { Condition } from '../../apis/v1/common.js';
import { NodeClaimConditionTypes, type NodePool } from '../../apis/index.js';
import { setCondition } from '../provisioning/lifecycle.js';
import { consolidateAfterElapsed } from './candidates.js';
import { driftReason } from './drift.js';
import type { DisruptionInput, DisruptionNode } from './types.js';

export interface ClaimConditionChange {
  nodeClaim: string;
  /** The version the change was computed from: the write must fail if the NodeClaim moved on since. */
  resourceVersion: string | undefined;
  conditions: Condition[];
  /** The node's last pod event (RFC 3339), when it moved. */
  lastPodEventTime?: string;
}

const { Drifted, Consolidatable } = NodeClaimConditionTypes;

function desiredConditions(node: DisruptionNode, pool: NodePool, now: number): Condition[] {
  let next: Condition[] = [...(node.nodeClaim?.status?.conditions ?? [])];
  const reason = driftReason(node, pool);
  if (reason !== undefined) next = setCondition(next, { type: Drifted, status: 'True', reason, message: '' }, now);
  else next = next.filter((c) => c.type !== Drifted);
  if (consolidateAfterElapsed(node, pool, now))
    next = setCondition(next, { type: Consolidatable, status: 'True', reason: Consolidatable, message: '' }, now);
  else next = next.filter((c) => c.type !== Consolidatable);
  return next;
}

function sameConditions(a: readonly Condition[], b: readonly Condition[]): boolean {
  return (
    a.length === b.length &&
    a.every((c, i) => c.type === b[i]?.type && c.status === b[i]?.status && c.reason === b[i]?.reason && c.message === b[i]?.message)
  );
}

/** The last pod event to write, when the NodeClaim does not carry it yet. */
function lastPodEventTimeChange(node: DisruptionNode): string | undefined {
  const at = node.lastPodEventAt;
  if (at === undefined || at <= 0) return undefined;
  const recorded = node.nodeClaim?.status?.lastPodEventTime;
  return recorded !== undefined && Date.parse(recorded) === at ? undefined : new Date(at).toISOString();
}

export function claimConditionChanges(input: DisruptionInput): ClaimConditionChange[] {
  const pools = new Map(input.nodePools.map((p) => [p.metadata?.name ?? '', p]));
  const changes: ClaimConditionChange[] = [];
  for (const node of input.nodes) {
    const pool = node.nodePool === undefined ? undefined : pools.get(node.nodePool);
    if (!node.nodeClaim || !node.node || !node.initialized || node.markedForDeletion || !pool) continue;
    const current = node.nodeClaim.status?.conditions ?? [];
    const desired = desiredConditions(node, pool, input.now);
    const lastPodEventTime = lastPodEventTimeChange(node);
    if (!sameConditions(current, desired) || lastPodEventTime !== undefined)
      changes.push({
        nodeClaim: node.nodeClaim.metadata?.name ?? '',
        resourceVersion: node.nodeClaim.metadata?.resourceVersion,
        conditions: desired,
        ...(lastPodEventTime === undefined ? {} : { lastPodEventTime }),
      });
  }
  return changes;
}
