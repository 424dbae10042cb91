/**
 * Consolidation (upstream computeConsolidation, MultiNodeConsolidation, SingleNodeConsolidation): remove
 * candidates when their pods fit on the remaining capacity, or replace them with ONE strictly cheaper node.
 * Every decision is a run of the scheduling simulation (`simulateWithout`), never a separate packing model.
 */
import type { NodePool } from '../../apis/index.js';
import { LabelInstanceType } from '../../apis/index.js';
import type { InstanceTypeOption, PlannedNodeClaim } from '../scheduling/types.js';
import { budgetMapping, withinBudget } from './budget-mapping.js';
import { allowsUnderutilizedConsolidation, findCandidates, isConsolidatable } from './candidates.js';
import { buildCommand, priceOf } from './command.js';
import { byDisruptionOrder, interleaveByNodePool } from './order.js';
import { simulateWithout } from './simulate.js';
import type { Candidate, ConsolidationType, DisruptionCommand, DisruptionInput } from './types.js';

export interface ConsolidationOptions {
  /** Multi-node considers at most this many candidates (upstream 100). */
  maxMultiNodeCandidates?: number;
  /** Single-node stops after this many simulations. */
  maxSingleNodeSimulations?: number;
  /**
   * The clock's reading in milliseconds. Given, each search stops once its timeout has passed since it began
   * (upstream: multi-node 1 min, single-node 3 min), read between simulations; absent, searches run to the end.
   */
  now?: () => number;
  multiNodeTimeoutMs?: number;
  singleNodeTimeoutMs?: number;
}

/** What a search found, and whether its timeout cut it short (upstream's consolidation_timeouts_total). */
export interface ConsolidationSearch {
  command: DisruptionCommand | undefined;
  timedOut: boolean;
}

export const MultiNodeConsolidationTimeoutMs = 60_000;
export const SingleNodeConsolidationTimeoutMs = 3 * 60_000;

/** True once `timeoutMs` has passed since this call, on the passed clock; never without one. */
function deadline(now: (() => number) | undefined, timeoutMs: number): () => boolean {
  if (!now) return () => false;
  const end = now() + timeoutMs;
  return () => now() > end;
}

export const DefaultMaxMultiNodeCandidates = 100;

/**
 * Upstream filterOutSameInstanceType: when a replacement option is a type the candidates already run, every
 * option must be cheaper than the dearest such candidate — N nodes are never replaced by one of the same type
 * unless it is really cheaper.
 */
export function filterOutSameInstanceType(options: readonly InstanceTypeOption[], candidates: readonly Candidate[]): InstanceTypeOption[] {
  const existing = new Map<string, number>();
  for (const c of candidates) existing.set(c.instanceType, Math.max(existing.get(c.instanceType) ?? 0, c.pricePerHour));
  let maxPrice = Number.POSITIVE_INFINITY;
  for (const o of options) {
    const price = existing.get(o.name);
    if (price !== undefined) maxPrice = maxPrice === Number.POSITIVE_INFINITY ? price : Math.max(maxPrice, price);
  }
  return options.filter((o) => o.pricePerHour < maxPrice);
}

function narrowed(claim: PlannedNodeClaim, options: InstanceTypeOption[]): PlannedNodeClaim {
  const names = options.map((o) => o.name);
  const requirements = claim.requirements.map((r) => (r.key === LabelInstanceType ? { ...r, operator: 'In' as const, values: names } : r));
  const first = options[0] as InstanceTypeOption;
  return { ...claim, instanceTypeOptions: options, instanceType: first.name, pricePerHour: first.pricePerHour, requirements };
}

/** The command for removing exactly these candidates, or undefined when it would not be valid. */
export function computeConsolidation(
  candidates: readonly Candidate[],
  input: DisruptionInput,
  type: ConsolidationType,
): DisruptionCommand | undefined {
  if (candidates.length === 0) return undefined;
  const sim = simulateWithout(candidates, input);
  if (!sim.allScheduled) return undefined;
  const before = priceOf(candidates);
  const names = candidates.map((c) => c.name).join(', ');
  if (sim.result.newNodeClaims.length === 0) {
    return buildCommand({
      reason: 'Underutilized',
      consolidationType: type,
      candidates,
      replacements: [],
      message: `deleting ${names}: pods fit on the remaining nodes, saving ${before.toFixed(4)} EUR/h`,
    });
  }
  if (sim.result.newNodeClaims.length > 1) return undefined;
  const claim = sim.result.newNodeClaims[0] as PlannedNodeClaim;
  const options = filterOutSameInstanceType(
    claim.instanceTypeOptions.filter((o) => o.pricePerHour < before),
    candidates,
  );
  if (options.length === 0) return undefined;
  const replacement = narrowed(claim, options);
  return buildCommand({
    reason: 'Underutilized',
    consolidationType: type,
    candidates,
    replacements: [replacement],
    message: `replacing ${names} (${before.toFixed(4)} EUR/h) with ${replacement.instanceType} (${replacement.pricePerHour.toFixed(4)} EUR/h)`,
  });
}

/** Consolidatable candidates of pools whose policy allows consolidating underutilized nodes. */
export function consolidationCandidates(input: DisruptionInput): Candidate[] {
  const pools = new Map(input.nodePools.map((p) => [p.metadata?.name ?? '', p]));
  return findCandidates(input)
    .candidates.filter((c) => {
      const pool = pools.get(c.nodePool) as NodePool;
      return allowsUnderutilizedConsolidation(pool) && isConsolidatable(c, pool, input.now);
    })
    .sort(byDisruptionOrder);
}

/**
 * Binary search on the prefix length of the budget-filtered, cost-sorted candidates (at most
 * `maxMultiNodeCandidates`): a valid command moves the lower bound up, an invalid one the upper bound down.
 * Takes O(log n) simulations. At the timeout it returns the best command found so far, as upstream.
 */
export function searchMultiNodeConsolidation(input: DisruptionInput, options: ConsolidationOptions = {}): ConsolidationSearch {
  const cap = options.maxMultiNodeCandidates ?? DefaultMaxMultiNodeCandidates;
  const candidates = withinBudget(consolidationCandidates(input), budgetMapping(input, 'Underutilized').allowed).slice(0, cap);
  const expired = deadline(options.now, options.multiNodeTimeoutMs ?? MultiNodeConsolidationTimeoutMs);
  let min = 1;
  let max = candidates.length - 1;
  let best: DisruptionCommand | undefined;
  while (min <= max) {
    if (expired()) return { command: best, timedOut: true };
    const mid = Math.floor((min + max) / 2);
    const command = computeConsolidation(candidates.slice(0, mid + 1), input, 'multi');
    if (command) {
      best = command;
      min = mid + 1;
    } else max = mid - 1;
  }
  return { command: best, timedOut: false };
}

export function computeMultiNodeConsolidation(input: DisruptionInput, options: ConsolidationOptions = {}): DisruptionCommand | undefined {
  return searchMultiNodeConsolidation(input, options).command;
}

/**
 * The first candidate (interleaved across NodePools) that can be deleted or replaced by a cheaper node; at the
 * timeout the search gives up with nothing, as upstream.
 */
export function searchSingleNodeConsolidation(input: DisruptionInput, options: ConsolidationOptions = {}): ConsolidationSearch {
  const allowed = budgetMapping(input, 'Underutilized').allowed;
  const limit = options.maxSingleNodeSimulations ?? Number.POSITIVE_INFINITY;
  const expired = deadline(options.now, options.singleNodeTimeoutMs ?? SingleNodeConsolidationTimeoutMs);
  let simulations = 0;
  for (const c of interleaveByNodePool(consolidationCandidates(input))) {
    if ((allowed.get(c.nodePool) ?? 0) <= 0) continue;
    if (simulations++ >= limit) break;
    if (expired()) return { command: undefined, timedOut: true };
    const command = computeConsolidation([c], input, 'single');
    if (command) return { command, timedOut: false };
  }
  return { command: undefined, timedOut: false };
}

export function computeSingleNodeConsolidation(input: DisruptionInput, options: ConsolidationOptions = {}): DisruptionCommand | undefined {
  return searchSingleNodeConsolidation(input, options).command;
}
