/**
 * The merge pass, which makes the plan better than first-fit-decreasing: take planned NodeClaims from the
 * cheapest up and try to move all of a claim's pods into the other claims (whose instance types may grow
 * to a bigger, still-fitting type). The move is kept only when the total price drops, so the result is
 * never above the FFD plan; every constraint is re-checked as for a normal placement. Work is bounded by
 * MERGE_ATTEMPT_BUDGET placement checks so a 20,000-pod solve stays fast.
 */
import { type ClaimSlot, reserveLimits } from './claim-slot.js';
import type { PodInfo } from './pod-info.js';
import { adjustNodeCount, type SchedulingState } from './state.js';

/** Placement checks the pass may spend (each is one ClaimSlot.tryAdd), enough for thousands of claims. */
export const MERGE_ATTEMPT_BUDGET = 400_000;
/** Claims with more pods than this are not emptied: moving them rarely pays and costs the most checks. */
const MAX_PODS_MOVED = 32;
const EPSILON = 1e-9;

interface Attempt {
  clones: Map<ClaimSlot, ClaimSlot>;
  checks: number;
}

export function mergeClaims(state: SchedulingState, budget = MERGE_ATTEMPT_BUDGET): void {
  const order = [...state.claims].sort((a, b) => a.price - b.price || a.pods.length - b.pods.length);
  const replaced = new Map<ClaimSlot, ClaimSlot>(); // claim -> the clone that took pods into it
  let spent = 0;
  for (const planned of order) {
    if (spent >= budget) break;
    let source = planned;
    while (replaced.has(source)) source = replaced.get(source) as ClaimSlot;
    if (source.pods.length > MAX_PODS_MOVED || source.pods.some(holdsSharedClaim)) continue;
    const targets = state.claims.filter((c) => c !== source);
    const attempt = tryEmpty(state, source, targets);
    spent += attempt.checks;
    if (attempt.saving > EPSILON) {
      commit(state, source, attempt.clones);
      for (const [original, clone] of attempt.clones) replaced.set(original, clone);
    }
  }
}

/** Pods moved one by one could split a shared DRA claim's pods over several nodes: such claims stay put. */
function holdsSharedClaim(pod: PodInfo): boolean {
  return pod.dra !== undefined && (pod.dra.pinned.length > 0 || pod.dra.claims.some((c) => c.shared));
}

function tryEmpty(state: SchedulingState, source: ClaimSlot, targets: readonly ClaimSlot[]): Attempt & { saving: number } {
  const remainingBefore = new Map(state.pools.map((p) => [p, { ...p.remaining }]));
  for (const pod of source.pods) state.topology.record(pod, source.domainOf, -1);
  reserveLimits(source.pool, source.reserved, {});
  const attempt: Attempt = { clones: new Map(), checks: 0 };
  const placedAll = source.pods.every((pod) => moveInto(state, pod, targets, attempt));
  const added = [...attempt.clones].reduce((sum, [original, clone]) => sum + clone.price - original.price, 0);
  const saving = placedAll ? source.price - added : 0;
  if (saving > EPSILON) return { ...attempt, saving };
  rollback(state, source, attempt, remainingBefore);
  return { ...attempt, saving: 0 };
}

function moveInto(state: SchedulingState, pod: PodInfo, targets: readonly ClaimSlot[], attempt: Attempt): boolean {
  for (const original of targets) {
    const target = attempt.clones.get(original) ?? original;
    attempt.checks++;
    const narrowed = target.tryAdd(pod, state.topology);
    if ('message' in narrowed) continue;
    const clone = attempt.clones.get(original) ?? original.clone();
    attempt.clones.set(original, clone);
    clone.add(pod, narrowed, state.topology);
    return true;
  }
  return false;
}

function rollback(
  state: SchedulingState,
  source: ClaimSlot,
  attempt: Attempt,
  remainingBefore: Map<ClaimSlot['pool'], Record<string, number>>,
): void {
  for (const [original, clone] of attempt.clones) {
    for (const pod of clone.pods.slice(original.pods.length)) state.topology.record(pod, clone.domainOf, -1);
  }
  for (const [pool, remaining] of remainingBefore) Object.assign(pool.remaining, remaining);
  for (const pod of source.pods) state.topology.record(pod, source.domainOf, 1);
}

function commit(state: SchedulingState, source: ClaimSlot, clones: Map<ClaimSlot, ClaimSlot>): void {
  state.claims = state.claims.filter((c) => c !== source).map((c) => clones.get(c) ?? c);
  adjustNodeCount(state, source.pool, -1);
}
