/**
 * Emptiness: every consolidatable candidate without reschedulable pods, within each NodePool's `Empty` budget,
 * deleted in ONE command (any consolidation policy; `consolidateAfter: Never` disables it).
 */
import type { NodePool } from '../../apis/index.js';
import { budgetMapping, withinBudget } from './budget-mapping.js';
import { byDisruptionOrder } from './order.js';
import { findCandidates, isConsolidatable, isEmpty } from './candidates.js';
import { buildCommand } from './command.js';
import type { DisruptionCommand, DisruptionInput } from './types.js';

export function computeEmptiness(input: DisruptionInput): DisruptionCommand | undefined {
  const pools = new Map(input.nodePools.map((p) => [p.metadata?.name ?? '', p]));
  const empty = findCandidates(input)
    .candidates.filter((c) => isEmpty(c) && isConsolidatable(c, pools.get(c.nodePool) as NodePool, input.now))
    .sort(byDisruptionOrder);
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
