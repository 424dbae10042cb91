/**
 * The plain-data view of the cluster that pure scheduling and disruption code consumes. Objects are the
 * informers' own (shared, not copied): treat everything here as read-only.
 */
import type { DraObjects } from '../domain/dra/index.js';
import type { V1DaemonSet, V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { NodeClaim, NodePool } from '../apis/index.js';
import type { NodePoolUsage } from '../domain/nodepool/limits.js';

/** A NodeClass with the kind it came from (the three kinds share names). */
export interface NodeClassEntry {
  kind: string;
  name: string;
  object: { metadata?: { name?: string }; spec?: unknown; status?: unknown };
}

/**
 * A Node, a NodeClaim, or both joined by providerID (Karpenter's StateNode). A NodeClaim without a Node is
 * in flight; a Node without a NodeClaim is not managed by us.
 */
export interface StateNode {
  /** providerID when known, else `node/<name>` or `nodeclaim/<name>`; what the marks refer to. */
  key: string;
  /** The Node's name, or the NodeClaim's name while no Node registered. */
  name: string;
  providerID?: string;
  node?: V1Node;
  nodeClaim?: NodeClaim;
  nodePool?: string;
  /** Non-terminal pods bound to the node. */
  pods: V1Pod[];
  /** Marked in state (disruption chose it), or the Node/NodeClaim has a deletionTimestamp. */
  markedForDeletion: boolean;
  /** Pods were nominated to it within the nomination window: don't disrupt it. */
  nominated: boolean;
  /** `karpenter.sh/initialized=true` on the Node. */
  initialized: boolean;
  /** Has a NodeClaim (we launched it). */
  managed: boolean;
}

/** Summed capacity of the pool's nodes (Node capacity, else the NodeClaim's status capacity) and their count. */
export type { NodePoolUsage };

export interface ClusterSnapshot {
  /** Clock time the snapshot was taken. */
  takenAt: number;
  synced: boolean;
  /** Sorted by name. */
  nodes: StateNode[];
  /** Pods Karpenter should provision for (domain/provisioning isProvisionable). */
  pendingPods: V1Pod[];
  nodePools: NodePool[];
  nodeClasses: NodeClassEntry[];
  daemonSets: V1DaemonSet[];
  podDisruptionBudgets: V1PodDisruptionBudget[];
  /** nodepool name -> usage, for NodePool limits. */
  nodePoolUsage: Record<string, NodePoolUsage>;
  /** The resource.k8s.io objects, when they are watched (the DynamicResourceAllocation gate); else undefined. */
  dra?: DraObjects;
}
