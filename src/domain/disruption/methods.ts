/**
 * The disruption methods in upstream v1.0 order: Drift, Emptiness, Multi-node, Single-node consolidation.
 * The first method that finds a command acts (one method per loop, as upstream); expiration is separate.
 */
import {
  computeMultiNodeConsolidation,
  computeSingleNodeConsolidation,
  type ConsolidationOptions,
  consolidationCandidates,
} from './consolidation.js';
import { computeDrift, driftedCandidates } from './drift.js';
import { computeEmptiness, emptyCandidates } from './emptiness.js';
import type { DisruptionCommand, DisruptionInput } from './types.js';

export type DisruptionMethodName = 'drift' | 'emptiness' | 'multi-node-consolidation' | 'single-node-consolidation';

export interface DisruptionMethod {
  name: DisruptionMethodName;
  compute(input: DisruptionInput, options: ConsolidationOptions): DisruptionCommand | undefined;
}

export const DisruptionMethods: readonly DisruptionMethod[] = [
  { name: 'drift', compute: (input) => computeDrift(input) },
  { name: 'emptiness', compute: (input) => computeEmptiness(input) },
  { name: 'multi-node-consolidation', compute: computeMultiNodeConsolidation },
  { name: 'single-node-consolidation', compute: computeSingleNodeConsolidation },
];

export interface Decision {
  method: DisruptionMethodName;
  command: DisruptionCommand;
}

export function decide(input: DisruptionInput, options: ConsolidationOptions = {}): Decision | undefined {
  for (const method of DisruptionMethods) {
    const command = method.compute(input, options);
    if (command) return { method: method.name, command };
  }
  return undefined;
}

export function methodNamed(name: DisruptionMethodName): DisruptionMethod {
  return DisruptionMethods.find((m) => m.name === name) as DisruptionMethod;
}

/**
 * Upstream's validation after the TTL: the same method on a fresh input must produce a command over the same
 * candidates, with the same decision, and replacement types a subset of the fresh simulation's.
 */
export function stillValid(original: DisruptionCommand, fresh: DisruptionCommand | undefined): boolean {
  if (!fresh || fresh.decision !== original.decision) return false;
  const same = new Set(fresh.candidates);
  if (!original.candidates.every((c) => same.has(c)) || original.candidates.length !== fresh.candidates.length) return false;
  if (original.replacements.length !== fresh.replacements.length) return false;
  return original.replacements.every((r, i) => {
    const freshNames = new Set((fresh.replacements[i]?.instanceTypeOptions ?? []).map((o) => o.name));
    return r.instanceTypeOptions.every((o) => freshNames.has(o.name));
  });
}

/** Upstream's `reason` label of the eligible-nodes gauge: the lowercase disruption reason. */
export type EligibleReason = 'drifted' | 'empty' | 'underutilized';

/** How many nodes each method could take now (upstream's `voluntary_disruption_eligible_nodes`), before budgets. */
export function eligibleNodes(input: DisruptionInput): Record<EligibleReason, number> {
  return {
    drifted: driftedCandidates(input).length,
    empty: emptyCandidates(input).length,
    underutilized: consolidationCandidates(input).length,
  };
}
