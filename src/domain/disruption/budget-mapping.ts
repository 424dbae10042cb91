/**
 * Allowed disruptions per NodePool and reason for a whole input (upstream BuildDisruptionBudgetMapping).
 */
import type { DisruptionReason } from '../../apis/index.js';
import { NodeClaimConditionTypes } from '../../apis/index.js';
import { allowedDisruptions, type NodePoolDisruptionCounts } from './budgets.js';
import type { DisruptionInput, DisruptionNode } from './types.js';

export interface BudgetMapping {
  /** nodepool -> how many more nodes this reason may disrupt now. */
  allowed: Map<string, number>;
  errors: string[];
}

function isTerminating(node: DisruptionNode): boolean {
  return (node.nodeClaim?.status?.conditions ?? []).some(
    (c) => c.type === NodeClaimConditionTypes.InstanceTerminating && c.status === 'True',
  );
}

function isNotReady(node: DisruptionNode): boolean {
  const ready = node.node?.status?.conditions?.find((c) => c.type === 'Ready');
  return node.node !== undefined && ready?.status !== 'True';
}

export function nodePoolCounts(input: DisruptionInput): Map<string, NodePoolDisruptionCounts> {
  const counts = new Map<string, NodePoolDisruptionCounts>();
  for (const node of input.nodes) {
    if (!node.nodeClaim || node.nodePool === undefined) continue;
    const c = counts.get(node.nodePool) ?? { total: 0, disrupting: 0 };
    if (node.initialized && !isTerminating(node)) c.total += 1;
    if (node.markedForDeletion || isNotReady(node)) c.disrupting += 1;
    counts.set(node.nodePool, c);
  }
  return counts;
}

export function budgetMapping(input: DisruptionInput, reason: DisruptionReason): BudgetMapping {
  const counts = nodePoolCounts(input);
  const out: BudgetMapping = { allowed: new Map(), errors: [] };
  for (const pool of input.nodePools) {
    const name = pool.metadata?.name ?? '';
    const r = allowedDisruptions(pool, reason, counts.get(name) ?? { total: 0, disrupting: 0 }, input.now);
    out.allowed.set(name, r.allowed);
    out.errors.push(...r.errors);
  }
  return out;
}

/** Keeps candidates in order while their NodePool still has budget; consumes the mapping's copy. */
export function withinBudget<T extends { nodePool: string }>(candidates: readonly T[], allowed: ReadonlyMap<string, number>): T[] {
  const left = new Map(allowed);
  const out: T[] = [];
  for (const c of candidates) {
    const n = left.get(c.nodePool) ?? 0;
    if (n <= 0) continue;
    left.set(c.nodePool, n - 1);
    out.push(c);
  }
  return out;
}

/** Every budget reason, for per-reason gauges. */
export const DisruptionReasonsAll: readonly DisruptionReason[] = ['Empty', 'Underutilized', 'Drifted'];
