/**
 * Re-checking a command after the validation delay (upstream Validator): the candidates must still be
 * disruptable, fit the budgets, and the fresh simulation must still support the same decision.
 */
import type { NodePool } from '../../apis/index.js';
import { budgetMapping } from './budget-mapping.js';
import { findCandidates, isConsolidatable, isEmpty } from './candidates.js';
import { computeConsolidation } from './consolidation.js';
import { driftReason } from './drift.js';
import { stillValid } from './methods.js';
import { simulateWithout } from './simulate.js';
import type { DisruptionCommand, DisruptionInput } from './types.js';

export type Validation = { valid: true } | { valid: false; reason: string };

function invalid(reason: string): Validation {
  return { valid: false, reason };
}

export function validateCommand(command: DisruptionCommand, input: DisruptionInput): Validation {
  const wanted = new Set(command.candidates);
  const candidates = findCandidates(input).candidates.filter((c) => wanted.has(c.nodeClaimName));
  if (candidates.length !== wanted.size) return invalid('a candidate is no longer disruptable (deleted, nominated, do-not-disrupt or PDB)');
  const allowed = budgetMapping(input, command.reason).allowed;
  const perPool = new Map<string, number>();
  for (const c of candidates) perPool.set(c.nodePool, (perPool.get(c.nodePool) ?? 0) + 1);
  for (const [pool, n] of perPool) {
    if (n > (allowed.get(pool) ?? 0))
      return invalid(`NodePool ${pool} budget for ${command.reason} now allows ${allowed.get(pool) ?? 0}, the command needs ${n}`);
  }
  const pools = new Map(input.nodePools.map((p) => [p.metadata?.name ?? '', p]));
  if (command.reason === 'Empty') {
    const ok = candidates.every((c) => isEmpty(c) && isConsolidatable(c, pools.get(c.nodePool) as NodePool, input.now));
    return ok ? { valid: true } : invalid('a candidate is no longer empty');
  }
  if (command.reason === 'Drifted') {
    if (!candidates.every((c) => driftReason(c.node, pools.get(c.nodePool) as NodePool) !== undefined))
      return invalid('a candidate is no longer drifted');
    const sim = simulateWithout(candidates, input);
    if (!sim.allScheduled) return invalid('pods of the candidate no longer schedule');
    return sim.result.newNodeClaims.length === command.replacements.length ? { valid: true } : invalid('the replacements needed changed');
  }
  if (!candidates.every((c) => isConsolidatable(c, pools.get(c.nodePool) as NodePool, input.now)))
    return invalid('a candidate had pod events since');
  const fresh = computeConsolidation(candidates, input, command.consolidationType);
  return stillValid(command, fresh) ? { valid: true } : invalid('the fresh simulation no longer supports the decision');
}
