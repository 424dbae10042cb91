/**
 * kube-scheduler extender wire types (k8s.io/kube-scheduler extender/v1) and the cluster-view port the
 * extender decides against. The wire structs have no json tags, so the scheduler sends and expects the Go
 * field names, capitalised; the embedded Pod and NodeList keep their usual lower-camel fields.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { ResourceList } from '../instancetypes/types.js';
import type { Taint } from '../requirements/taints.js';

/** extender/v1 MinExtenderPriority / MaxExtenderPriority: the scheduler multiplies by weight × 10. */
export const MinExtenderPriority = 0;
export const MaxExtenderPriority = 10;

/** A v1.NodeList as the scheduler sends it: only `items` matters, the rest is echoed back. */
export interface ExtenderNodeList {
  apiVersion?: string;
  kind?: string;
  metadata?: Record<string, unknown>;
  items: V1Node[];
}

/** Nodes is set when nodeCacheCapable=false, NodeNames when nodeCacheCapable=true; the other is null. */
export interface ExtenderArgs {
  Pod: V1Pod;
  Nodes: ExtenderNodeList | null;
  NodeNames: string[] | null;
}

/** nodeName -> message the scheduler shows in the pod's Unschedulable condition. */
export type FailedNodesMap = Record<string, string>;

export interface ExtenderFilterResult {
  Nodes: ExtenderNodeList | null;
  NodeNames: string[] | null;
  /** Unschedulable here: preemption may still try these nodes. */
  FailedNodes: FailedNodesMap;
  /** UnschedulableAndUnresolvable: preemption skips these nodes. */
  FailedAndUnresolvableNodes: FailedNodesMap;
  /** Non-empty = the whole call failed (we never set it: bad input is a 400 or a pass-through). */
  Error: string;
}

export interface HostPriority {
  Host: string;
  Score: number;
}

export type HostPriorityList = HostPriority[];

/**
 * What the autoscaler knows about a node, as the extender needs it:
 * - `disrupting`: chosen by a disruption command (the karpenter.sh/disrupted taint may not be there yet);
 * - `terminating`: being drained and deleted;
 * - `consolidation-candidate` / `drifted`: still usable, but likely to go soon.
 */
export type ExtenderNodeState = 'ok' | 'disrupting' | 'terminating' | 'consolidation-candidate' | 'drifted';

export interface ExtenderNode {
  labels: Readonly<Record<string, string>>;
  taints: readonly Taint[];
  allocatable: ResourceList;
  /** Sum of the scheduling requests of the pods bound to the node (cpu millicores, others base units). */
  requested: ResourceList;
  /** EUR per hour of the node's instance type, undefined when unknown (e.g. a node not from a NodePool). */
  pricePerHour: number | undefined;
  state: ExtenderNodeState;
}

/**
 * The port the service backs with its cluster state (and tests with a Map): node name -> ExtenderNode,
 * undefined for a node it does not know (such nodes are passed through: the scheduler knows better). The
 * service's view also finds nodes by the bytes of their names (src/byte-path/port.ts).
 */
export interface ExtenderClusterView {
  get(nodeName: string): ExtenderNode | undefined;
}
