/**
 * The plain data disruption decides on. The controller maps its cluster snapshot into `DisruptionInput`
 * (prices and drift reasons resolved through the cloud providers) and gets `DisruptionCommand`s back.
 */
import type { V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { DisruptionReason, NodeClaim, NodePool } from '../../apis/index.js';
import type { PlannedNodeClaim, PodLike, SchedulingNodePool } from '../scheduling/types.js';

/** A Node, possibly with the NodeClaim that launched it (unmanaged nodes are capacity only). */
export interface DisruptionNode {
  /** The Node's name (or the NodeClaim's while it has no Node). */
  name: string;
  node?: V1Node;
  nodeClaim?: NodeClaim;
  nodePool?: string;
  /** Non-terminal pods bound there. */
  pods: readonly V1Pod[];
  initialized: boolean;
  /** Chosen by a running command, or deleting. */
  markedForDeletion: boolean;
  /** Pods were nominated to it: not a candidate. */
  nominated: boolean;
  /** Price of its instance type in its zone, EUR/hour (undefined when unknown: then it is not a candidate). */
  pricePerHour?: number;
  /** Last time a pod was bound to or left the node (epoch ms); consolidateAfter counts from here. */
  lastPodEventAt?: number;
  /** `CloudProvider.isDrifted`'s answer, resolved by the controller. */
  cloudDriftReason?: string;
}

export interface DisruptionInput {
  now: number;
  nodes: readonly DisruptionNode[];
  /** Pending pods: consolidation must still place them. */
  pendingPods: readonly PodLike[];
  nodePools: readonly NodePool[];
  /** The same NodePools in the scheduling simulation's shape, with their instance types. */
  schedulingNodePools: readonly SchedulingNodePool[];
  daemonSets?: readonly PodLike[];
  podDisruptionBudgets?: readonly V1PodDisruptionBudget[];
}

export type DisruptionDecision = 'delete' | 'replace';
export type ConsolidationType = 'empty' | 'single' | 'multi' | '';

/** A node that may be disrupted, with what the decision needs. */
export interface Candidate {
  name: string;
  nodeClaimName: string;
  nodePool: string;
  instanceType: string;
  zone: string;
  pricePerHour: number;
  /** Pods that must land elsewhere (no DaemonSet, mirror or terminal pods). */
  reschedulablePods: readonly V1Pod[];
  /** Upstream's disruption cost: Σ pod eviction cost × remaining lifetime fraction. */
  disruptionCost: number;
  node: DisruptionNode;
}

export interface DisruptionCommand {
  reason: DisruptionReason;
  decision: DisruptionDecision;
  consolidationType: ConsolidationType;
  /** Candidate NodeClaim names. */
  candidates: string[];
  /** Nodes behind the candidates. */
  candidateNodes: string[];
  nodePools: string[];
  /** New NodeClaims to launch (and see Initialized) before the candidates are deleted. */
  replacements: PlannedNodeClaim[];
  pricePerHourBefore: number;
  pricePerHourAfter: number;
  /** Human-readable why, for Events and logs. */
  message: string;
  /** Drift reason when reason is Drifted. */
  driftReason?: string;
}
