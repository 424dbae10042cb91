/**
 * Outscale VMs as the CloudProvider sees them: the tags a launched VM carries (the GC finds VMs by
 * `karpenter.sh/managed-by`, the CCM by `OscK8sClusterID/<id>` and `OscK8sNodeName`), the states that
 * count as live, and a VM → CloudNodeClaim mapping.
 */
import { LabelCapacityType, LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../apis/v1/labels.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import type { CloudNodeClaim, CloudProviderNodeClaim } from '../types.js';
import type { ResourceTag, Vm, VmState } from './api-types.js';
import { parseTinaType } from './instancetypes.js';
import { formatProviderId } from './provider-id.js';

export const TagManagedBy = 'karpenter.sh/managed-by';
export const TagNodeClaim = 'karpenter.sh/nodeclaim';
export const TagNodePool = 'karpenter.sh/nodepool';
/** The instance type launched (differs from the VmType for flexible GPU bundles). */
export const TagInstanceType = 'karpenter-eu.io/instance-type';
export const TagCcmNodeName = 'OscK8sNodeName';
export const ccmClusterTag = (clusterId: string): string => `OscK8sClusterID/${clusterId}`;

/** Every state but `terminated`: shutting-down VMs are still listed (as terminating), as the contract wants. */
export const ListedVmStates: VmState[] = ['pending', 'running', 'stopping', 'stopped', 'shutting-down', 'quarantine'];

export function isGone(vm: Vm): boolean {
  return vm.State === 'terminated';
}

export function isTerminating(vm: Vm): boolean {
  return vm.State === 'shutting-down' || vm.State === 'terminated';
}

/** The name the Node of this VM gets: the private DNS name, which cloud-provider-osc also matches. */
export function nodeNameOf(vm: Vm): string {
  return vm.PrivateDnsName ?? vm.VmId;
}

export interface LaunchTagsInput {
  clusterName: string;
  clusterId: string;
  nodeClaim: CloudProviderNodeClaim;
  instanceType: string;
  nodeClassTags?: Readonly<Record<string, string>>;
}

/** The tags CreateTags writes after CreateVms; NodeClass tags first so they can never override ours. */
export function launchTags(input: LaunchTagsInput, vm: Vm): ResourceTag[] {
  const tags = new Map<string, string>(Object.entries(input.nodeClassTags ?? {}));
  tags.set(TagManagedBy, input.clusterName);
  tags.set(TagNodeClaim, input.nodeClaim.metadata?.name ?? '');
  tags.set(TagNodePool, input.nodeClaim.metadata?.labels?.[LabelNodePool] ?? '');
  tags.set(TagInstanceType, input.instanceType);
  tags.set(ccmClusterTag(input.clusterId), 'owned');
  tags.set(TagCcmNodeName, nodeNameOf(vm));
  return [...tags].map(([Key, Value]) => ({ Key, Value }));
}

/** Tags from `wanted` the VM does not carry with that value yet. */
export function missingTags(vm: Vm, wanted: readonly ResourceTag[]): ResourceTag[] {
  const have = new Map(vm.Tags.map((t) => [t.Key, t.Value]));
  return wanted.filter((t) => have.get(t.Key) !== t.Value);
}

export function tagValue(vm: Vm, key: string): string | undefined {
  return vm.Tags.find((t) => t.Key === key)?.Value;
}

function shapeFromVmType(vm: Vm): Pick<CloudNodeClaim, 'capacity' | 'allocatable'> {
  const tina = parseTinaType(vm.VmType);
  const capacity: Record<string, number> = tina ? { cpu: tina.vcores * 1000, memory: tina.ramGiB * 2 ** 30 } : {};
  return { capacity, allocatable: capacity };
}

/** The VM as a CloudNodeClaim; `instanceTypes` (by name) gives capacity, allocatable and labels. */
export function toCloudNodeClaim(vm: Vm, instanceTypes: ReadonlyMap<string, InstanceType>): CloudNodeClaim {
  const typeName = tagValue(vm, TagInstanceType) ?? vm.VmType;
  const zone = vm.Placement.SubregionName;
  const instanceType = instanceTypes.get(typeName);
  const shape = instanceType ? { capacity: instanceType.capacity, allocatable: instanceType.allocatable } : shapeFromVmType(vm);
  const nodeClaimName = tagValue(vm, TagNodeClaim);
  const nodePoolName = tagValue(vm, TagNodePool);
  const created = Date.parse(vm.CreationDate);
  return {
    providerID: formatProviderId(zone, vm.VmId),
    ...(nodeClaimName ? { nodeClaimName } : {}),
    ...(nodePoolName ? { nodePoolName } : {}),
    instanceType: typeName,
    zone,
    capacityType: 'on-demand',
    imageID: vm.ImageId,
    ...shape,
    labels: { ...instanceType?.labels, [LabelInstanceType]: typeName, [LabelTopologyZone]: zone, [LabelCapacityType]: 'on-demand' },
    createdAt: Number.isFinite(created) ? created : 0,
    ...(isTerminating(vm) ? { terminating: true } : {}),
  };
}
