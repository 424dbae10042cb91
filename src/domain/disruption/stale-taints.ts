/**
 * Nodes left cordoned by a disruption command that never finished (the process restarted between tainting a
 * candidate and deleting it, or a rollback failed): upstream removes `karpenter.sh/disrupted` from every managed
 * node that is not marked for deletion, or the node would stay unschedulable forever.
 */
import { hasDisruptedTaint } from '../../apis/v1/labels.js';

export interface TaintedNodeFacts {
  name: string;
  /** Has a NodeClaim: only nodes karpenter-eu manages are touched. */
  managed: boolean;
  /** A command in flight chose it, or its Node/NodeClaim is being deleted (termination taints those). */
  markedForDeletion: boolean;
  taints: readonly { key: string; effect?: string }[];
}

/** Names of the nodes whose disrupted taint nothing stands behind any more. */
export function staleDisruptedTaints(nodes: readonly TaintedNodeFacts[]): string[] {
  return nodes
    .filter((n) => n.managed && !n.markedForDeletion && hasDisruptedTaint(n.taints))
    .map((n) => n.name)
    .sort();
}
