/**
 * Emptiness: every consolidatable candidate without reschedulable pods, within each NodePool's `Empty` budget,
 * deleted in ONE command (any consolidation policy; `consolidateAfter: Never` disables it).
 */
import type { NodePool } from '../../apis/index.js';
import { budgetMapping, withinBudget } from './budget-mapping.js';
import { byDisruptionOrder } from './order.js';
import { findCandidates, isConsolidatable, isEmpty } from './candidates.js';
import { buildCommand } from './command.js';
import type { Candidate, DisruptionCommand, DisruptionInput } from './types.js';

/** The candidates the Emptiness method may take: empty and consolidatable, in disruption order. */
export function emptyCandidates(input: DisruptionInput): Candidate[] {
  const pools = new Map(input.nodePools.map((p) => [p.metadata?.name ?? '', p]));
  return findCandidates(input)
    .candidates.filter((c) => isEmpty(c) && isConsolidatable(c, pools.get(c.nodePool) as NodePool, input.now))
    .sort(byDisruptionOrder);
}

export function computeEmptiness(input: DisruptionInput): DisruptionCommand | undefined {
  const empty = emptyCandidates(input);
  const chosen = withinBudget(empty, budgetMapping(input, 'Empty').allowed);
  if (chosen.length === 0) return undefined;
  return buildCommand({
    reason: 'Empty',
    consolidationType: 'empty',
    candidates: chosen,
    replacements: [],
    message: `deleting ${chosen.length} empty node(s)`,
  });
}
