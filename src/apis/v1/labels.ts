/** Well-known labels, annotations, taints and finalizers (Karpenter v1 + karpenter-eu's own, DESIGN.md §2). */

export const Group = 'karpenter.sh';

// Upstream Kubernetes
export const LabelHostname = 'kubernetes.io/hostname';
export const LabelInstanceType = 'node.kubernetes.io/instance-type';
export const LabelTopologyZone = 'topology.kubernetes.io/zone';
export const LabelTopologyRegion = 'topology.kubernetes.io/region';
export const LabelArch = 'kubernetes.io/arch';
export const LabelOS = 'kubernetes.io/os';
export const LabelWindowsBuild = 'node.kubernetes.io/windows-build';

// Karpenter
export const LabelCapacityType = 'karpenter.sh/capacity-type';
export const LabelNodePool = 'karpenter.sh/nodepool';
export const LabelNodeInitialized = 'karpenter.sh/initialized';
export const LabelNodeRegistered = 'karpenter.sh/registered';
export const CapacityTypeOnDemand = 'on-demand';
export const CapacityTypeSpot = 'spot';
export const CapacityTypeReserved = 'reserved';

export const AnnotationDoNotDisrupt = 'karpenter.sh/do-not-disrupt';
export const AnnotationNodePoolHash = 'karpenter.sh/nodepool-hash';
export const AnnotationNodePoolHashVersion = 'karpenter.sh/nodepool-hash-version';
export const AnnotationNodeClaimTerminationTimestamp = 'karpenter.sh/nodeclaim-termination-timestamp';
/** On a NodeClaim once a pod other than a DaemonSet's was bound to its Node (when first seen): it did work. */
export const AnnotationWorkloadBound = 'karpenter-eu.io/workload-bound';

export const TaintDisrupted = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' } as const;

/** Whether a taint list holds karpenter.sh/disrupted:NoSchedule (a node chosen for disruption or draining). */
export function hasDisruptedTaint(taints: readonly { key?: string; effect?: string }[] | undefined): boolean {
  return (taints ?? []).some((t) => t.key === TaintDisrupted.key && t.effect === TaintDisrupted.effect);
}
export const TaintUnregistered = { key: 'karpenter.sh/unregistered', effect: 'NoExecute' } as const;
export const FinalizerTermination = 'karpenter.sh/termination';
/**
 * Held on a NodeClass while NodeClaims reference it: its account (credentials Secret, MKS cluster) is how
 * their instances are found, listed and deleted, also after a restart.
 */
export const FinalizerNodeClassInUse = 'karpenter-eu.io/nodeclass-in-use';

// karpenter-eu: present on every instance type and node so one NodePool or pod can select across clouds.
export const LabelCloud = 'karpenter-eu.io/cloud';
export const LabelInstanceFamily = 'karpenter-eu.io/instance-family';
export const LabelInstanceGeneration = 'karpenter-eu.io/instance-generation';
export const LabelInstanceCPU = 'karpenter-eu.io/instance-cpu';
export const LabelInstanceMemory = 'karpenter-eu.io/instance-memory';
export const LabelInstanceGPUCount = 'karpenter-eu.io/instance-gpu-count';
export const LabelInstanceGPUName = 'karpenter-eu.io/instance-gpu-name';
export const LabelInstanceGPUMemory = 'karpenter-eu.io/instance-gpu-memory';
export const LabelInstanceGPUManufacturer = 'karpenter-eu.io/instance-gpu-manufacturer';
export const LabelBilling = 'karpenter-eu.io/billing';

export const ResourceNvidiaGPU = 'nvidia.com/gpu';

export type CloudName = 'ovhcloud' | 'scaleway' | 'outscale';
export const CloudNames: readonly CloudName[] = ['ovhcloud', 'scaleway', 'outscale'];

// More of pkg/apis/v1/labels.go (Karpenter HEAD).
export const LabelDoNotSyncTaints = 'karpenter.sh/do-not-sync-taints';
export const AnnotationNodeClaimMinValuesRelaxed = 'karpenter.sh/nodeclaim-min-values-relaxed';
/**
 * Bumped whenever what the hash covers changes (v4: expireAfter and terminationGracePeriod left out, as upstream
 * does); the NodePool hash controller re-stamps NodeClaims of another version instead of drifting them.
 */
export const NodePoolHashVersion = 'v4';
export const TaintUnregisteredEffect = TaintUnregistered.effect;

/** Node class label `<group>/<lowercase kind>` = nodeClassRef.name (NodeClassLabelKey). */
export function nodeClassLabelKey(group: string, kind: string): string {
  return `${group}/${kind.toLowerCase()}`;
}
