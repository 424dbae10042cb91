/**
 * When a node last had a pod event (upstream's NodeClaim lastPodEventTime): a pod bound to it, or a pod leaving
 * it — terminating (its deletion requested), terminal or gone. `consolidateAfter` counts from there, so a node
 * becomes consolidatable only that long after it last became empty or underutilized, whichever cloud runs it.
 * A pod counts as gone from its deletion request on, as emptiness counts it: a node whose pods are all
 * terminating is empty, and its clock must have started when they began to terminate.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { isTerminal, isTerminating, podKey } from '../pods/facts.js';

/** What was seen on a node: the pods it serves and when that set last changed (epoch ms). */
export interface PodEventRecord {
  pods: string;
  at: number;
}

/** The pods a node serves: bound there, neither finished nor being deleted. Their arrival or departure is a pod event. */
function servedPods(pods: readonly V1Pod[]): string {
  return pods
    .filter((p) => !isTerminal(p) && !isTerminating(p))
    .map((p) => p.metadata?.uid || podKey(p))
    .sort()
    .join(',');
}

function time(value: Date | string | undefined | null): number {
  const t = value === undefined || value === null ? Number.NaN : new Date(value).getTime();
  return Number.isNaN(t) ? 0 : t;
}

/** When the pod arrived (started, else created) or, once it is being deleted, when its deletion was requested. */
function lastEventOf(pod: V1Pod): number {
  const arrived = time(pod.status?.startTime ?? pod.metadata?.creationTimestamp);
  if (!isTerminating(pod)) return arrived;
  // deletionTimestamp is when the grace period ends; the request was that many seconds earlier.
  const requested = time(pod.metadata?.deletionTimestamp) - (pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
  return Math.max(arrived, requested);
}

/**
 * The record after seeing `pods` on the node at `now`. `recorded` is the time the NodeClaim already carries
 * (written by this or an earlier leader), never moved back. On a node seen for the first time the last event is
 * read off the pods themselves (the newest arrival or deletion request); a pod gone before then leaves only
 * `recorded` behind.
 */
export function nextPodEvent(previous: PodEventRecord | undefined, pods: readonly V1Pod[], now: number, recorded?: number): PodEventRecord {
  const served = servedPods(pods);
  let at: number;
  if (previous === undefined) at = Math.max(0, ...pods.map(lastEventOf));
  else at = previous.pods === served ? previous.at : now;
  return { pods: served, at: Math.max(at, recorded ?? 0) };
}
