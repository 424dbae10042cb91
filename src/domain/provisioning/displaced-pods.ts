/**
 * Pods of nodes being deleted, planned like pending pods (upstream adds "currently reschedulable pods on nodes
 * being deleted" to every provisioning batch): an expiring or user-deleted node's pods get capacity launched while
 * it drains, instead of only after they are evicted and go pending. A node under a disruption command already has
 * its replacement in flight, which the plan fills first, so nothing is launched twice.
 * Displaced = what the drain will evict: not terminal, not a DaemonSet or mirror pod, not already terminating, not
 * tolerating `karpenter.sh/disrupted` (those stay until the node goes).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { TaintDisrupted } from '../../apis/v1/labels.js';
import { isReschedulable } from '../pods/facts.js';
import { toleratesAny } from '../requirements/index.js';

export interface DeletingNodeFacts {
  /** Marked for deletion in state (a disruption command), or its Node/NodeClaim has a deletionTimestamp. */
  markedForDeletion: boolean;
  pods: readonly V1Pod[];
}

/** The displaced pods, unbound (no nodeName), as the plan takes pending pods. */
export function displacedPods(nodes: readonly DeletingNodeFacts[]): V1Pod[] {
  const out: V1Pod[] = [];
  for (const node of nodes) {
    if (!node.markedForDeletion) continue;
    for (const pod of node.pods) {
      if (!isReschedulable(pod) || toleratesAny(pod.spec?.tolerations, TaintDisrupted)) continue;
      const { nodeName: _bound, ...spec } = pod.spec ?? { containers: [] };
      out.push({ ...pod, spec });
    }
  }
  return out;
}
