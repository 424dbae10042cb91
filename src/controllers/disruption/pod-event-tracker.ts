/**
 * Keeps, per node, the last pod event domain/disruption/pod-events.ts reads off what it is shown. It is shown
 * every change ClusterState reports for a node (a pod bound, terminating or gone), so a pod that comes and goes
 * between two disruption passes still restarts the node's consolidateAfter; each pass shows it again with the
 * time the NodeClaim carries.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { nextPodEvent, type PodEventRecord } from '../../domain/disruption/index.js';

export class PodEventTracker {
  private readonly seen = new Map<string, PodEventRecord>();

  /** The last pod event time for `node`, updating the record with the pods seen now. */
  observe(node: string, pods: readonly V1Pod[], now: number, recorded?: number): number {
    const next = nextPodEvent(this.seen.get(node), pods, now, recorded);
    this.seen.set(node, next);
    return next.at;
  }

  /** Drops nodes no longer in the cluster. */
  retain(nodes: ReadonlySet<string>): void {
    for (const name of this.seen.keys()) if (!nodes.has(name)) this.seen.delete(name);
  }
}
