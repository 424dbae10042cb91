/**
 * Carries out one pass of a DrainPlan: evictions through the Eviction API (a PDB's 429 is "try again on a
 * later pass", never a reason to delete), and the deletions the termination deadline forces.
 */
import { isKubeConflict, isKubeNotFound, isKubeTooManyRequests } from '../../kube/errors.js';
import { Resources } from '../../kube/resources.js';
import type { Kube } from '../../kube/types.js';
import type { DrainPlan, ForcedDeletion, PodRef } from '../../domain/termination/index.js';

export interface DrainPassResult {
  evicted: PodRef[];
  /** Refused by a PodDisruptionBudget (429): retried on a later pass. */
  blockedByBudget: PodRef[];
  forceDeleted: ForcedDeletion[];
  /** Other failures (the API unreachable…): retried on a later pass. */
  failed: Array<{ pod: PodRef; error: unknown }>;
}

const maxConcurrentWrites = 16;

async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(workers);
}

export async function executeDrainPass(kube: Kube, plan: DrainPlan): Promise<DrainPassResult> {
  const result: DrainPassResult = { evicted: [], blockedByBudget: [], forceDeleted: [], failed: [] };
  await forEachBounded(plan.forceDelete, maxConcurrentWrites, async (pod) => {
    try {
      await kube.delete(
        Resources.Pod,
        { namespace: pod.namespace, name: pod.name },
        {
          gracePeriodSeconds: pod.gracePeriodSeconds,
          ...(pod.uid ? { preconditions: { uid: pod.uid } } : {}),
        },
      );
      result.forceDeleted.push(pod);
    } catch (error) {
      if (isKubeNotFound(error) || isKubeConflict(error)) result.forceDeleted.push(pod);
      else result.failed.push({ pod, error });
    }
  });
  await forEachBounded(plan.evict, maxConcurrentWrites, async (pod) => {
    try {
      await kube.evict({ namespace: pod.namespace, name: pod.name }, pod.uid ? { preconditions: { uid: pod.uid } } : {});
      result.evicted.push(pod);
    } catch (error) {
      // 404: already gone; 409: a different pod now holds the name (upstream counts both as done).
      if (isKubeNotFound(error) || isKubeConflict(error)) result.evicted.push(pod);
      else if (isKubeTooManyRequests(error)) result.blockedByBudget.push(pod);
      else result.failed.push({ pod, error });
    }
  });
  return result;
}
