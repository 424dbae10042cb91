/**
 * The NodeClaim lifecycle as data (Karpenter's `nodeclaim/lifecycle`): Launched → Registered → Initialized,
 * read from and written to the NodeClaim's conditions, and the liveness timeouts after which the NodeClaim
 * is deleted. Pure: times are passed in, conditions are returned as new arrays.
 */
import type { Condition } from '../../apis/v1/common.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { DeletionReasons } from '../../apis/v1/deletion-reasons.js';

export const ConditionLaunched = 'Launched';
export const ConditionRegistered = 'Registered';
export const ConditionInitialized = 'Initialized';
export const ConditionReady = 'Ready';

export interface LifecycleTimeouts {
  /** From creation to a successful cloud create (upstream LaunchTimeout, 5 min). */
  launchMs: number;
  /** From launch to a Node registering (upstream registrationTimeout, 15 min). */
  registrationMs: number;
}

export const DefaultLifecycleTimeouts: LifecycleTimeouts = { launchMs: 5 * 60_000, registrationMs: 15 * 60_000 };

export type LifecyclePhase = 'deleting' | 'launching' | 'registering' | 'initializing' | 'initialized';

export interface ConditionUpdate {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

export type LivenessTimeout = {
  reason: typeof DeletionReasons.launchTimeout | typeof DeletionReasons.registrationTimeout;
  message: string;
};

function timeOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isNaN(ms) ? undefined : ms;
}

export function findCondition(claim: NodeClaim, type: string): Condition | undefined {
  return (claim.status?.conditions ?? []).find((c) => c.type === type);
}

export function isConditionTrue(claim: NodeClaim, type: string): boolean {
  return findCondition(claim, type)?.status === 'True';
}

/** Where the NodeClaim is in its lifecycle, from its deletionTimestamp and conditions. */
export function lifecyclePhase(claim: NodeClaim): LifecyclePhase {
  if (claim.metadata?.deletionTimestamp) return 'deleting';
  if (!isConditionTrue(claim, ConditionLaunched)) return 'launching';
  if (!isConditionTrue(claim, ConditionRegistered)) return 'registering';
  if (!isConditionTrue(claim, ConditionInitialized)) return 'initializing';
  return 'initialized';
}

/**
 * `conditions` with `update` applied: lastTransitionTime moves only when the status changes (metav1
 * semantics), so repeated reconciles do not rewrite history.
 */
export function setCondition(conditions: readonly Condition[] | undefined, update: ConditionUpdate, now: number): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === update.type);
  const previous = index >= 0 ? list[index] : undefined;
  const transitioned = previous?.status !== update.status;
  const next: Condition = {
    type: update.type,
    status: update.status,
    reason: update.reason ?? update.type,
    message: update.message ?? '',
    lastTransitionTime: transitioned || !previous ? new Date(now).toISOString() : previous.lastTransitionTime,
  };
  if (index >= 0) list[index] = next;
  else list.push(next);
  return list;
}

/**
 * Whether the NodeClaim outlived a liveness timeout: not launched `launchMs` after creation, or not
 * registered `registrationMs` after it launched (after creation when the launch time is unknown).
 */
export function livenessTimeout(claim: NodeClaim, now: number, timeouts: LifecycleTimeouts): LivenessTimeout | undefined {
  const phase = lifecyclePhase(claim);
  const createdAt = timeOf(claim.metadata?.creationTimestamp);
  if (phase === 'launching' && createdAt !== undefined && now - createdAt >= timeouts.launchMs) {
    return { reason: DeletionReasons.launchTimeout, message: `not launched within ${formatMinutes(timeouts.launchMs)} of creation` };
  }
  if (phase === 'registering') {
    const launchedAt = timeOf(findCondition(claim, ConditionLaunched)?.lastTransitionTime) ?? createdAt;
    if (launchedAt !== undefined && now - launchedAt >= timeouts.registrationMs) {
      return {
        reason: DeletionReasons.registrationTimeout,
        message: `no node registered within ${formatMinutes(timeouts.registrationMs)} of launch`,
      };
    }
  }
  return undefined;
}

/** When the next liveness deadline falls, so a controller can requeue exactly then. */
export function nextLivenessDeadline(claim: NodeClaim, timeouts: LifecycleTimeouts): number | undefined {
  const phase = lifecyclePhase(claim);
  const createdAt = timeOf(claim.metadata?.creationTimestamp);
  if (phase === 'launching') return createdAt === undefined ? undefined : createdAt + timeouts.launchMs;
  if (phase === 'registering') {
    const launchedAt = timeOf(findCondition(claim, ConditionLaunched)?.lastTransitionTime) ?? createdAt;
    return launchedAt === undefined ? undefined : launchedAt + timeouts.registrationMs;
  }
  return undefined;
}

function formatMinutes(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`;
}
