/**
 * `karpenter_pods_startup_duration_seconds` as upstream's pod metrics controller observes it: a pod seen Pending
 * that later turns Ready counts once, from its creation to its Ready condition's transition. Pods first seen
 * already running (listed at start-up) and pods that end without being Ready are not observed.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Summary } from 'prom-client';
import { isTerminal } from '../domain/pods/index.js';

export interface PodStartupTracker {
  observe(pod: V1Pod, deleted: boolean): void;
  /** Observing starts (true) and stops (false) with leadership; pending pods are remembered on every replica. */
  setActive(active: boolean): void;
}

/** Seconds from the pod's creation to its Ready condition turning True, or undefined when it is not Ready. */
export function podStartupSeconds(pod: V1Pod): number | undefined {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  const created = pod.metadata?.creationTimestamp;
  if (!ready?.lastTransitionTime || !created) return undefined;
  return Math.max(0, (new Date(ready.lastTransitionTime).getTime() - new Date(created).getTime()) / 1000);
}

export function podStartupTracker(summary: Summary<never>): PodStartupTracker {
  const pending = new Set<string>();
  let active = false;
  return {
    setActive: (next) => void (active = next),
    observe: (pod, deleted) => {
      const key = `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
      if (deleted) {
        pending.delete(key);
        return;
      }
      if (pod.status?.phase === 'Pending' || pod.status?.phase === undefined) {
        pending.add(key);
        return;
      }
      if (!pending.has(key)) return;
      const seconds = podStartupSeconds(pod);
      if (seconds !== undefined) {
        if (active) summary.observe(seconds);
        pending.delete(key);
      } else if (isTerminal(pod)) pending.delete(key);
    },
  };
}
