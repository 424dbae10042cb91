/**
 * Remembers, per node, when its set of pods last changed (a pod bound or gone): `consolidateAfter` counts
 * from there (upstream's lastPodEventTime). A node seen for the first time starts at its newest pod's start.
 */
import type { V1Pod } from '@kubernetes/client-node';

interface Seen {
  signature: string;
  at: number;
}

function podStart(pod: V1Pod): number {
  const t = Date.parse(String(pod.status?.startTime ?? pod.metadata?.creationTimestamp ?? ''));
  return Number.isNaN(t) ? 0 : t;
}

export class PodEventTracker {
  private readonly seen = new Map<string, Seen>();

  /** The last pod event time for `node`, updating the record with the pods seen now. */
  observe(node: string, pods: readonly V1Pod[], now: number): number {
    const signature = pods
      .map((p) => p.metadata?.uid ?? `${p.metadata?.namespace}/${p.metadata?.name}`)
      .sort()
      .join(',');
    const previous = this.seen.get(node);
    if (previous?.signature === signature) return previous.at;
    const at = previous === undefined ? Math.max(0, ...pods.map(podStart)) : now;
    this.seen.set(node, { signature, at });
    return at;
  }

  /** Drops nodes no longer in the cluster. */
  retain(nodes: ReadonlySet<string>): void {
    for (const name of this.seen.keys()) if (!nodes.has(name)) this.seen.delete(name);
  }
}
