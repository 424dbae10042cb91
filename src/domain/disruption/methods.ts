/**
 * The disruption methods in upstream v1.0 order: Drift, Emptiness, Multi-node, Single-node consolidation.
 * The first method that finds a command acts (one method per loop, as upstream); expiration is separate.
 */
import {
  type ConsolidationOptions,
  type ConsolidationSearch,
  consolidationCandidates,
  searchMultiNodeConsolidation,
  searchSingleNodeConsolidation,
} from './consolidation.js';
import { computeDrift, driftedCandidates } from './drift.js';
import { computeEmptiness, emptyCandidates } from './emptiness.js';
import type { ConsolidationType, DisruptionCommand, DisruptionInput } from './types.js';

export type DisruptionMethodName = 'drift' | 'emptiness' | 'multi-node-consolidation' | 'single-node-consolidation';

export interface DisruptionMethod {
  name: DisruptionMethodName;
  /** Upstream's labels of a method's evaluation metrics: the lowercase reason and the consolidation type. */
  labels: { reason: 'drifted' | 'empty' | 'underutilized'; consolidation_type: ConsolidationType };
  /** `timeout` names the consolidation type whose search its timeout cut short. */
  compute(input: DisruptionInput, options: ConsolidationOptions): { command: DisruptionCommand | undefined; timeout?: ConsolidationType };
}

function timed(type: ConsolidationType, search: ConsolidationSearch): ReturnType<DisruptionMethod['compute']> {
  return search.timedOut ? { command: search.command, timeout: type } : { command: search.command };
}

export const DisruptionMethods: readonly DisruptionMethod[] = [
  { name: 'drift', labels: { reason: 'drifted', consolidation_type: '' }, compute: (input) => ({ command: computeDrift(input) }) },
  {
    name: 'emptiness',
    labels: { reason: 'empty', consolidation_type: 'empty' },
    compute: (input) => ({ command: computeEmptiness(input) }),
  },
  {
    name: 'multi-node-consolidation',
    labels: { reason: 'underutilized', consolidation_type: 'multi' },
    compute: (input, options) => timed('multi', searchMultiNodeConsolidation(input, options)),
  },
  {
    name: 'single-node-consolidation',
    labels: { reason: 'underutilized', consolidation_type: 'single' },
    compute: (input, options) => timed('single', searchSingleNodeConsolidation(input, options)),
  },
];

export interface Decision {
  method: DisruptionMethodName;
  command: DisruptionCommand;
}

export interface Evaluation {
  decision: Decision | undefined;
  /** The consolidation searches their timeout cut short on the way, in the order they ran. */
  timeouts: ConsolidationType[];
  /** Each method that ran, in order, with how long it took by the `elapsedMs` passed in. */
  ran: { method: DisruptionMethod; ms: number }[];
}

/** Tries the methods in order until one finds a command; `elapsedMs` (a monotonic clock) times each. */
export function evaluate(input: DisruptionInput, options: ConsolidationOptions = {}, elapsedMs: () => number = () => 0): Evaluation {
  const timeouts: ConsolidationType[] = [];
  const ran: Evaluation['ran'] = [];
  for (const method of DisruptionMethods) {
    const began = elapsedMs();
    const { command, timeout } = method.compute(input, options);
    ran.push({ method, ms: elapsedMs() - began });
    if (timeout) timeouts.push(timeout);
    if (command) return { decision: { method: method.name, command }, timeouts, ran };
  }
  return { decision: undefined, timeouts, ran };
}

export function decide(input: DisruptionInput, options: ConsolidationOptions = {}): Decision | undefined {
  return evaluate(input, options).decision;
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
