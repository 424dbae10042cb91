/**
 * What an OutscaleNodeClass means for a launch — the CreateVms fields it fixes (image, subnet per subregion,
 * security groups, keypair, block devices, user data) — and drift: which of those a running VM no longer
 * matches (Karpenter's static drift; checked field by field rather than by hash, so the reason is precise).
 */
import type { OutscaleNodeClass } from '../../apis/v1alpha1/outscale-nodeclass.js';
import { NodeClassNotReadyError } from '../errors.js';
import type { DriftReason, NodeClassResolver } from '../types.js';
import type { BlockDeviceMappingVmCreation, CreateVmsRequest, Vm } from './api-types.js';

export const DriftReasons = {
  image: 'ImageDrifted',
  securityGroups: 'SecurityGroupsDrifted',
  subnet: 'SubnetDrifted',
  userData: 'UserDataDrifted',
  tags: 'TagsDrifted',
} as const;

export function subregionsOf(nodeClass: OutscaleNodeClass): string[] {
  return nodeClass.spec.subnets.map((s) => s.subregion);
}

/** The NodeClass's subnet in this subregion. Errors: NodeClassNotReadyError when it has none. */
export function subnetFor(nodeClass: OutscaleNodeClass, subregion: string): string {
  const subnet = nodeClass.spec.subnets.find((s) => s.subregion === subregion);
  if (!subnet) {
    const accepted = subregionsOf(nodeClass).join(', ');
    throw new NodeClassNotReadyError(
      `choosing a subnet: OutscaleNodeClass ${nodeClass.metadata?.name ?? ''} has no subnet in subregion ${subregion}; spec.subnets covers: ${accepted}`,
    );
  }
  return subnet.subnetId;
}

function blockDevices(nodeClass: OutscaleNodeClass): BlockDeviceMappingVmCreation[] | undefined {
  const mappings = nodeClass.spec.blockDeviceMappings;
  if (!mappings || mappings.length === 0) return undefined;
  return mappings.map((m) => ({
    DeviceName: m.deviceName,
    Bsu: {
      VolumeSize: m.bsu.volumeSize,
      VolumeType: m.bsu.volumeType ?? 'gp2',
      DeleteOnVmDeletion: m.bsu.deleteOnVmDeletion ?? true,
      ...(m.bsu.iops !== undefined ? { Iops: m.bsu.iops } : {}),
    },
  }));
}

/** The user data to boot with, base64-encoded as CreateVms wants it, or undefined when the NodeClass has none. */
export async function resolveUserData(
  nodeClass: OutscaleNodeClass,
  resolver: NodeClassResolver<OutscaleNodeClass>,
): Promise<string | undefined> {
  const userData = nodeClass.spec.userData;
  if (!userData) return undefined;
  if (userData.content !== undefined) return Buffer.from(userData.content, 'utf8').toString('base64');
  const ref = userData.secretRef;
  if (!ref) return undefined;
  const data = await resolver.getSecretData({ name: ref.name, namespace: ref.namespace });
  const value = data[ref.key];
  if (value === undefined) {
    throw new NodeClassNotReadyError(
      `reading user data: secret ${ref.namespace}/${ref.name} has no key ${JSON.stringify(ref.key)}; accepted: ${Object.keys(data).join(', ') || 'none'}`,
    );
  }
  return Buffer.from(value, 'utf8').toString('base64');
}

/** The CreateVms fields fixed by the NodeClass for a launch in `subregion`. */
export function launchFields(nodeClass: OutscaleNodeClass, subregion: string, userData: string | undefined): CreateVmsRequest {
  const spec = nodeClass.spec;
  const devices = blockDevices(nodeClass);
  return {
    ImageId: spec.imageId,
    SubnetId: subnetFor(nodeClass, subregion),
    SecurityGroupIds: [...spec.securityGroupIds],
    Placement: { SubregionName: subregion },
    ...(spec.keypairName ? { KeypairName: spec.keypairName } : {}),
    ...(userData ? { UserData: userData } : {}),
    ...(devices ? { BlockDeviceMappings: devices } : {}),
  };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((v) => right.has(v));
}

/** The first way the VM differs from what the NodeClass would launch now, or undefined. */
export function driftReasonOf(vm: Vm, nodeClass: OutscaleNodeClass, expectedUserData: string | undefined): DriftReason | undefined {
  const spec = nodeClass.spec;
  if (vm.ImageId !== spec.imageId) return DriftReasons.image;
  if (
    !sameSet(
      vm.SecurityGroups.map((g) => g.SecurityGroupId),
      spec.securityGroupIds,
    )
  )
    return DriftReasons.securityGroups;
  const subnet = spec.subnets.find((s) => s.subregion === vm.Placement.SubregionName);
  if (!subnet || (vm.SubnetId !== undefined && vm.SubnetId !== subnet.subnetId)) return DriftReasons.subnet;
  if ((vm.UserData ?? '') !== (expectedUserData ?? '')) return DriftReasons.userData;
  const tags = new Map(vm.Tags.map((t) => [t.Key, t.Value]));
  if (Object.entries(spec.tags ?? {}).some(([k, v]) => tags.get(k) !== v)) return DriftReasons.tags;
  return undefined;
}
