/**
 * Input and output of the scheduling simulation (Karpenter's Scheduler.Solve): plain data, no I/O. Provisioning
 * calls it with the pending pods; consolidation calls it with "these nodes removed" snapshots.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { InstanceType, RequirementSpec, ResourceList } from '../instancetypes/types.js';
import type { Taint } from '../requirements/index.js';
import type { DraObjects, DriverDevices } from '../dra/index.js';

export type PodLike = Pick<V1Pod, 'metadata' | 'spec'>;

/** A Node (or an in-flight NodeClaim with a known type and zone) that pods may land on. */
export interface ExistingNode {
  name: string;
  labels: Readonly<Record<string, string>>;
  taints?: readonly Taint[];
  allocatable: ResourceList;
  /** Pods already bound there (their requests are used, their labels count in topology). */
  pods: readonly PodLike[];
  /** Being deleted (disrupted / consolidation candidate): not used for placement, its pods not counted. */
  markedForDeletion?: boolean;
  /** An in-flight NodeClaim: DaemonSet pods are not bound yet, so their overhead is reserved. */
  inFlight?: boolean;
  /** For NodePool `limits.nodes` and cloud caps accounting of in-flight claims. */
  nodePool?: string;
  pricePerHour?: number;
  /**
   * The DRA devices of each instance type it may become (one entry once launched): used until a ResourceSlice of
   * the node's is in `SchedulingInput.dra`. A pod's claims must be allocatable on every entry, whichever launches.
   */
  deviceOptions?: readonly (readonly DriverDevices[])[];
}

export interface NodeClassRef {
  group?: string;
  kind: string;
  name: string;
}

export interface SchedulingNodePool {
  name: string;
  /** 1..100, higher first (Karpenter); undefined counts as 0. */
  weight?: number;
  nodeClassRef: NodeClassRef;
  requirements: readonly RequirementSpec[];
  labels?: Readonly<Record<string, string>>;
  taints?: readonly Taint[];
  /** Ignored for fit (they are removed once the node is initialized). */
  startupTaints?: readonly Taint[];
  /** `limits` of the NodePool, incl. `nodes`; cpu in millicores, the rest in base units. */
  limits?: ResourceList;
  /** What the NodePool already has (status.resources + `nodes`). */
  usage?: ResourceList;
  instanceTypes: readonly InstanceType[];
}

export interface SchedulingOptions {
  /** `Ignore` drops every preference up front (Karpenter PREFERENCE_POLICY). */
  preferencePolicy?: 'Respect' | 'Ignore';
  /** Most nodes a cloud accepts in the cluster (e.g. MKS's node cap), keyed by cloud name; existing nodes count. */
  cloudNodeCaps?: Readonly<Record<string, number>>;
  /** false = plain first-fit-decreasing (the baseline); true (default) adds the merge pass. */
  optimize?: boolean;
  /**
   * `full` (default): the whole portfolio of orderings, then the exact repacking of small groups. `quick`: first-fit
   * and cost-aware passes only — consolidation simulates once per candidate, so milliseconds add up to seconds
   * on 500 nodes, and it needs the plan's feasibility and replacement count more than its last percent.
   */
  effort?: 'full' | 'quick';
}

export interface SchedulingInput {
  pods: readonly PodLike[];
  existingNodes?: readonly ExistingNode[];
  nodePools: readonly SchedulingNodePool[];
  /** DaemonSet pod templates: their requests are reserved on every new node they would run on. */
  daemonSets?: readonly PodLike[];
  /**
   * Pod key → the existing node (by `ExistingNode.name`) an earlier pass placed the pod on: such a pod keeps that
   * place while it still fits there, before any other pod is placed, so capacity launched for it is not taken by
   * others and it is not planned again.
   */
  nominations?: Readonly<Record<string, string>>;
  /**
   * The ResourceClaims, ResourceClaimTemplates, DeviceClasses and ResourceSlices pods' `resourceClaims` are read
   * against: a pod with claims fits only where its devices can be allocated; one whose objects are missing is
   * unschedulable.
   */
  dra?: DraObjects;
  options?: SchedulingOptions;
}

export interface InstanceTypeOption {
  name: string;
  pricePerHour: number;
}

export interface PlannedNodeClaim {
  /** Placeholder hostname used for hostname topology (`hostname-placeholder-NNNN`, as upstream). */
  hostname: string;
  nodePool: string;
  nodeClassRef: NodeClassRef;
  /** Every instance type that still fits the pods, cheapest first (what the cloud provider may launch). */
  instanceTypeOptions: InstanceTypeOption[];
  instanceType: string;
  zone: string;
  capacityType: 'on-demand';
  pricePerHour: number;
  allocatable: ResourceList;
  /** The NodeClaim's requirements (NodePool's ∩ pods', instance types and zone pinned). */
  requirements: RequirementSpec[];
  /** Summed pod requests plus the DaemonSet overhead. */
  requests: ResourceList;
  pods: string[];
}

export interface UnschedulablePod {
  pod: string;
  reason: string;
}

export interface SchedulingResult {
  newNodeClaims: PlannedNodeClaim[];
  existingNodeAssignments: { node: string; pods: string[] }[];
  unschedulable: UnschedulablePod[];
  totalPricePerHour: number;
}
