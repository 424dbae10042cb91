/**
 * The drain of one node as upstream's terminator does it (`pkg/controllers/node/termination/terminator`):
 * which pods wait for eviction, the group evicted now (one group finishes before the next starts), the pods
 * the drain only waits for, and — once the NodeClaim's terminationGracePeriod runs out — the pods deleted
 * outright, bypassing PDBs and do-not-disrupt. Plain data in, a plan out; the controller executes it.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { TaintDisrupted } from '../../apis/v1/labels.js';
import { hasActiveDoNotDisrupt } from '../disruption/pod-facts.js';
import { isDaemonSetPod, isMirrorPod, isTerminal, isTerminating } from '../pods/facts.js';
import { toleratesAny } from '../requirements/index.js';

/** A pod stuck this long past its deletionTimestamp no longer holds the drain (upstream IsStuckTerminating). */
export const StuckTerminatingMs = 60_000;
/** A forced deletion never gets less than this grace period (upstream's minimum of 1 s). */
export const MinForcedGracePeriodSeconds = 1;
const CriticalPriorityClasses: ReadonlySet<string> = new Set(['system-cluster-critical', 'system-node-critical']);
const DefaultPodGracePeriodSeconds = 30;

/** Eviction order: the first non-empty group is drained before the next is touched. */
export const DrainGroups = ['non-critical', 'non-critical-daemonset', 'critical', 'critical-daemonset'] as const;
export type DrainGroup = (typeof DrainGroups)[number];

export interface PodRef {
  namespace: string;
  name: string;
  uid?: string;
}

export interface ForcedDeletion extends PodRef {
  gracePeriodSeconds: number;
}

export interface DrainPlan {
  /** Evict these now through the Eviction API (PDBs may still answer 429). */
  evict: PodRef[];
  /** Delete these now: the termination deadline forces them. */
  forceDelete: ForcedDeletion[];
  /** Pods the drain waits for without acting: already terminating, or protected by do-not-disrupt. */
  waitingFor: PodRef[];
  /** The group being drained, when pods remain. */
  group?: DrainGroup;
  /** No pod holds the node any more: the instance may be deleted. */
  drained: boolean;
}

export interface DrainInput {
  pods: readonly V1Pod[];
  now: number;
  /** When the NodeClaim's terminationGracePeriod runs out (epoch ms); no forcing when unset. */
  terminationDeadline?: number;
}

export function podRef(pod: V1Pod): PodRef {
  const ref: PodRef = { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' };
  if (pod.metadata?.uid) ref.uid = pod.metadata.uid;
  return ref;
}

export function isCriticalPod(pod: V1Pod): boolean {
  return CriticalPriorityClasses.has(pod.spec?.priorityClassName ?? '');
}

export function drainGroupOf(pod: V1Pod): DrainGroup {
  const daemon = isDaemonSetPod(pod);
  if (isCriticalPod(pod)) return daemon ? 'critical-daemonset' : 'critical';
  return daemon ? 'non-critical-daemonset' : 'non-critical';
}

function deletionTime(pod: V1Pod): number | undefined {
  const stamp = pod.metadata?.deletionTimestamp;
  if (stamp === undefined || stamp === null) return undefined;
  const ms = Date.parse(String(stamp));
  return Number.isNaN(ms) ? undefined : ms;
}

export function isStuckTerminating(pod: V1Pod, now: number): boolean {
  const deleted = deletionTime(pod);
  return deleted !== undefined && now - deleted > StuckTerminatingMs;
}

/** Pods that hold the node: upstream's "waiting eviction" filter. */
export function holdsDrain(pod: V1Pod, now: number): boolean {
  if (isTerminal(pod) || isMirrorPod(pod)) return false;
  // A pod that tolerates the disrupted taint would only be scheduled back onto the node.
  if (toleratesAny(pod.spec?.tolerations, TaintDisrupted)) return false;
  return !isStuckTerminating(pod, now);
}

/** The grace period a forced deletion gets: the pod's own, clamped to what is left before the deadline. */
export function forcedGracePeriodSeconds(pod: V1Pod, now: number, deadline: number): number {
  const own = pod.spec?.terminationGracePeriodSeconds ?? DefaultPodGracePeriodSeconds;
  const left = Math.floor((deadline - now) / 1000);
  return Math.max(MinForcedGracePeriodSeconds, Math.min(own, left));
}

/** Upstream deletes a pod once `now ≥ deadline − its own terminationGracePeriodSeconds`, so it ends by the deadline. */
export function mustForceDelete(pod: V1Pod, now: number, deadline: number | undefined): boolean {
  if (deadline === undefined) return false;
  const own = pod.spec?.terminationGracePeriodSeconds ?? DefaultPodGracePeriodSeconds;
  return now >= deadline - own * 1000;
}

export function planDrain(input: DrainInput): DrainPlan {
  const { now, terminationDeadline } = input;
  const holding = input.pods.filter((pod) => holdsDrain(pod, now));
  const plan: DrainPlan = { evict: [], forceDelete: [], waitingFor: [], drained: holding.length === 0 };
  const forced = new Set<V1Pod>();
  for (const pod of holding) {
    // A pod already deleting with a grace period that ends by the deadline needs no second deletion.
    if (!mustForceDelete(pod, now, terminationDeadline) || endsByDeadline(pod, terminationDeadline)) continue;
    forced.add(pod);
    plan.forceDelete.push({ ...podRef(pod), gracePeriodSeconds: forcedGracePeriodSeconds(pod, now, terminationDeadline as number) });
  }
  const group = DrainGroups.find((g) => holding.some((pod) => drainGroupOf(pod) === g));
  if (group !== undefined) plan.group = group;
  for (const pod of holding) {
    if (forced.has(pod) || drainGroupOf(pod) !== group) continue;
    if (isTerminating(pod) || hasActiveDoNotDisrupt(pod, now)) plan.waitingFor.push(podRef(pod));
    else plan.evict.push(podRef(pod));
  }
  return plan;
}

function endsByDeadline(pod: V1Pod, deadline: number | undefined): boolean {
  const deleted = deletionTime(pod);
  return deleted !== undefined && deadline !== undefined && deleted <= deadline;
}
