/**
 * Disruption budgets (Karpenter `BuildDisruptionBudgetMapping`): per NodePool and reason, the minimum over the
 * active budgets that apply to the reason; percentages round up over the NodePool's managed, initialized nodes;
 * nodes already disrupting (marked for deletion, or NotReady) are subtracted; floored at 0. A budget whose
 * schedule or duration cannot be parsed fails CLOSED: it allows 0 and says why.
 */
import type { Budget, DisruptionReason, NodePool } from '../../apis/index.js';
import { cronWindowActive, parseCron } from './cron.js';
import { parseDurationMs } from './duration.js';

/** Upstream's default when a NodePool has no budgets. */
export const DefaultBudget: Budget = { nodes: '10%' };

export interface NodePoolDisruptionCounts {
  /** Managed, initialized nodes of the NodePool that are not terminating. */
  total: number;
  /** Of those (or in flight), how many are already being disrupted or are NotReady. */
  disrupting: number;
}

export interface AllowedDisruptions {
  allowed: number;
  /** Budgets that failed closed, e.g. `budget 1: parsing budget schedule "x": …`. */
  errors: string[];
}

/** A budget's node count for `total` nodes; percentages round up (GetScaledValueFromIntOrPercent(…, true)). */
export function budgetNodes(nodes: string, total: number): number {
  const percent = /^(\d+)%$/.exec(nodes.trim());
  if (percent) return Math.ceil((Number(percent[1]) * total) / 100);
  if (/^\d+$/.test(nodes.trim())) return Number(nodes.trim());
  throw new Error(`parsing budget nodes "${nodes}": accepted: a non-negative integer or a percentage such as 10%`);
}

export function budgetApplies(budget: Budget, reason: DisruptionReason): boolean {
  return budget.reasons === undefined || budget.reasons.length === 0 || budget.reasons.includes(reason);
}

/** Whether the budget is in force at `now`; throws on a bad schedule/duration (the caller fails closed). */
export function budgetActive(budget: Budget, now: number): boolean {
  if (budget.schedule === undefined && budget.duration === undefined) return true;
  if (budget.schedule === undefined || budget.duration === undefined) throw new Error('schedule and duration must be set together');
  return cronWindowActive(parseCron(budget.schedule), parseDurationMs('duration', budget.duration), now);
}

export function allowedDisruptions(
  nodePool: NodePool,
  reason: DisruptionReason,
  counts: NodePoolDisruptionCounts,
  now: number,
): AllowedDisruptions {
  const budgets = nodePool.spec.disruption?.budgets ?? [DefaultBudget];
  let allowed = Number.POSITIVE_INFINITY;
  const errors: string[] = [];
  budgets.forEach((budget, i) => {
    if (!budgetApplies(budget, reason)) return;
    try {
      if (budgetActive(budget, now)) allowed = Math.min(allowed, budgetNodes(budget.nodes, counts.total));
    } catch (err) {
      errors.push(`NodePool ${nodePool.metadata?.name ?? ''} budget ${i + 1}: ${err instanceof Error ? err.message : String(err)}`);
      allowed = 0;
    }
  });
  if (allowed === Number.POSITIVE_INFINITY) allowed = counts.total;
  return { allowed: Math.max(0, allowed - counts.disrupting), errors };
}
