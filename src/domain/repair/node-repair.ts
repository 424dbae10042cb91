/**
 * Node repair (upstream Karpenter's node health controller): a Node whose condition matches one of its cloud's
 * repair policies for longer than the policy's toleration has its NodeClaim deleted, and provisioning replaces
 * it. Not while more than 20% of the Nodes of its NodePool (of the cluster, for a NodeClaim without one) are
 * unhealthy: then the fault is likely not the node's, and replacing them all would only add churn.
 * Disruption budgets do not apply, as upstream: the 20% valve is this path's budget.
 */

export interface RepairPolicy {
  conditionType: string;
  conditionStatus: 'True' | 'False' | 'Unknown';
  /** How long the condition must hold before the node is repaired. */
  tolerationDurationMs: number;
}

export interface NodeConditionLike {
  type: string;
  status: string;
  lastTransitionTime?: Date | string;
}

/** One Node of the cluster, managed or not (every Node counts in the valve). */
export interface HealthNode {
  name: string;
  conditions: readonly NodeConditionLike[];
  /** The NodePool label of the Node; undefined for a standalone NodeClaim or an unmanaged Node. */
  nodePool?: string;
  /** The NodeClaim this service launched for it; undefined for a Node it does not manage. */
  nodeClaim?: string;
  /** The NodeClaim is already being deleted: nothing to repair. */
  deleting: boolean;
}

/** A condition matching a policy, and when its toleration runs out (epoch ms). */
export interface UnhealthyCondition {
  type: string;
  status: string;
  dueAt: number;
}

export interface Repair {
  node: string;
  nodeClaim: string;
  nodePool?: string;
  condition: UnhealthyCondition;
}

export interface BlockedRepair extends Repair {
  message: string;
}

export interface RepairPlan {
  repairs: Repair[];
  blocked: BlockedRepair[];
  /** The earliest time a node unhealthy but still tolerated becomes due; undefined when none is. */
  nextDueAt?: number;
}

/**
 * What the three clouds repair: a Node whose Ready condition is False (kubelet unhealthy) or Unknown (no
 * status posted) for 30 minutes, as Karpenter's AWS provider.
 */
export const NotReadyRepairPolicies: readonly RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 30 * 60_000 },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: 30 * 60_000 },
];

/** Upstream's allowedUnhealthyPercent. */
export const AllowedUnhealthyPercent = 20;

/** How many unhealthy Nodes out of `total` leave the group healthy: 20%, rounded up (as a PDB's percentages). */
export function allowedUnhealthy(total: number): number {
  return Math.ceil((total * AllowedUnhealthyPercent) / 100);
}

function transitionTime(condition: NodeConditionLike): number | undefined {
  if (condition.lastTransitionTime === undefined) return undefined;
  const ms =
    condition.lastTransitionTime instanceof Date ? condition.lastTransitionTime.getTime() : Date.parse(condition.lastTransitionTime);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The matching condition due first (upstream picks the one closest to its toleration's end). A condition
 * without a readable transition time never becomes due: how long it has held is unknown.
 */
export function unhealthyCondition(
  conditions: readonly NodeConditionLike[],
  policies: readonly RepairPolicy[],
): UnhealthyCondition | undefined {
  let found: UnhealthyCondition | undefined;
  for (const policy of policies) {
    const condition = conditions.find((c) => c.type === policy.conditionType);
    if (condition?.status !== policy.conditionStatus) continue;
    const since = transitionTime(condition);
    if (since === undefined) continue;
    const dueAt = since + policy.tolerationDurationMs;
    if (!found || dueAt < found.dueAt) found = { type: condition.type, status: condition.status, dueAt };
  }
  return found;
}

/** Unhealthy for the valve: some condition matches a policy, however long it has held. */
export function matchesRepairPolicy(conditions: readonly NodeConditionLike[], policies: readonly RepairPolicy[]): boolean {
  return policies.some((p) => conditions.some((c) => c.type === p.conditionType && c.status === p.conditionStatus));
}

/** Per valve group (a NodePool's name, or '' for the whole cluster): whether it is healthy enough to repair in. */
function groupHealth(nodes: readonly HealthNode[], policies: readonly RepairPolicy[]): (nodePool: string | undefined) => boolean {
  const memo = new Map<string, boolean>();
  return (nodePool) => {
    const key = nodePool ?? '';
    let healthy = memo.get(key);
    if (healthy === undefined) {
      const members = nodePool === undefined ? nodes : nodes.filter((n) => n.nodePool === nodePool);
      const unhealthy = members.filter((n) => matchesRepairPolicy(n.conditions, policies)).length;
      healthy = unhealthy <= allowedUnhealthy(members.length);
      memo.set(key, healthy);
    }
    return healthy;
  };
}

function blockedMessage(nodePool: string | undefined): string {
  return nodePool === undefined
    ? `more than ${AllowedUnhealthyPercent}% nodes are unhealthy in the cluster`
    : `more than ${AllowedUnhealthyPercent}% nodes are unhealthy in the nodepool`;
}

/** Which NodeClaims to delete now, which repairs the valve holds back, and when to look again. */
export function planRepairs(nodes: readonly HealthNode[], policies: readonly RepairPolicy[], now: number): RepairPlan {
  const plan: RepairPlan = { repairs: [], blocked: [] };
  if (policies.length === 0) return plan;
  const healthy = groupHealth(nodes, policies);
  for (const node of nodes) {
    if (node.nodeClaim === undefined || node.deleting) continue;
    const condition = unhealthyCondition(node.conditions, policies);
    if (!condition) continue;
    if (now < condition.dueAt) {
      plan.nextDueAt = Math.min(plan.nextDueAt ?? Infinity, condition.dueAt);
      continue;
    }
    const repair: Repair = {
      node: node.name,
      nodeClaim: node.nodeClaim,
      ...(node.nodePool === undefined ? {} : { nodePool: node.nodePool }),
      condition,
    };
    if (healthy(node.nodePool)) plan.repairs.push(repair);
    else plan.blocked.push({ ...repair, message: blockedMessage(node.nodePool) });
  }
  return plan;
}

/**
 * The `karpenter.sh/nodeclaim-termination-timestamp` to write on a repaired NodeClaim, as upstream: now, so
 * its pods are not waited for; undefined when an earlier deadline is already set.
 */
export function repairTerminationTimestamp(existing: string | undefined, now: number): string | undefined {
  const current = existing === undefined ? Number.NaN : Date.parse(existing);
  if (!Number.isNaN(current) && current < now) return undefined;
  return new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
