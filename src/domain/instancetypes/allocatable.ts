/**
 * The allocatable model: what the kubelet leaves to pods once it has reserved room for itself, the OS and
 * the eviction threshold. Karpenter computes `allocatable = capacity − (kubeReserved + systemReserved +
 * evictionThreshold)` (core `pkg/cloudprovider/types.go`); the numbers below say where each figure comes from.
 *
 * - CPU kube-reserved: the tiered formula GKE documents and Karpenter's AWS provider uses
 *   (`pkg/providers/instancetype/types.go`): 6 % of the first core, 1 % of the second, 0.5 % of cores 3–4,
 *   0.25 % of every core above 4.
 * - Memory kube-reserved, OVHcloud MKS: MKS manages the kubelet and does not publish its reservations, so the
 *   conservative EKS/Karpenter-AWS formula `11 MiB × maxPods + 255 MiB` is used.
 * - Memory kube-reserved, Scaleway and Outscale: the nodes are bootstrapped by karpenter-eu's own cloud-init,
 *   which configures the GKE tiers (25 % of the first 4 GiB, 20 % of the next 4, 10 % of the next 8, 6 % of the
 *   next 112, 2 % above 128 GiB; 255 MiB below 1 GiB).
 * - System-reserved: OVHcloud 100m / 100Mi as karpenter-provider-ovhcloud models a node's overhead; on the
 *   clouds we bootstrap, 100m / 100Mi for systemd, sshd and containerd.
 * - Eviction threshold: kubelet's hard defaults, memory.available < 100Mi and nodefs.available < 10 %.
 * - Memory capacity: the guest sees less than the flavor's nominal RAM; Karpenter's default
 *   VM_MEMORY_OVERHEAD_PERCENT 7.5 % is used on every cloud (none of the sources gives a per-cloud figure).
 * - Max pods: 110 on OVHcloud MKS ("Known limits"), and the kubelet default 110 on the nodes we bootstrap.
 */
import type { CloudName } from '../../apis/v1/labels.js';
import type { ResourceList } from './types.js';

export const MiB = 2 ** 20;
export const GiB = 2 ** 30;

export interface OverheadProfile {
  maxPods: number;
  memoryKubeReserved: 'eks' | 'gke';
  systemReserved: { cpuMillis: number; memoryMiB: number };
  evictionMemoryMiB: number;
  evictionNodefsPercent: number;
  vmMemoryOverheadPercent: number;
  ephemeralKubeReservedGiB: number;
  /** Root disk when the flavor has no local disk (block-storage boot), GiB. */
  defaultRootVolumeGiB: number;
}

const common = {
  systemReserved: { cpuMillis: 100, memoryMiB: 100 },
  evictionMemoryMiB: 100,
  evictionNodefsPercent: 10,
  vmMemoryOverheadPercent: 0.075,
  ephemeralKubeReservedGiB: 1,
} as const;

/** Per-cloud profiles; root volume defaults are what the example NodeClasses use (50 GiB; Scaleway SBS 20 GiB). */
export const overheadProfiles: Readonly<Record<CloudName, OverheadProfile>> = {
  ovhcloud: { ...common, maxPods: 110, memoryKubeReserved: 'eks', defaultRootVolumeGiB: 50 },
  scaleway: { ...common, maxPods: 110, memoryKubeReserved: 'gke', defaultRootVolumeGiB: 20 },
  outscale: { ...common, maxPods: 110, memoryKubeReserved: 'gke', defaultRootVolumeGiB: 50 },
};

/** Kube-reserved CPU in millicores for a number of vCPUs (GKE / Karpenter AWS tiers). */
export function kubeReservedCpuMillis(vcpus: number): number {
  const tiers: Array<[from: number, to: number, fraction: number]> = [
    [0, 1, 0.06],
    [1, 2, 0.01],
    [2, 4, 0.005],
    [4, Infinity, 0.0025],
  ];
  let millis = 0;
  for (const [from, to, fraction] of tiers) {
    const cores = Math.max(0, Math.min(vcpus, to) - from);
    millis += cores * 1000 * fraction;
  }
  return Math.round(millis);
}

/** GKE's tiered memory reservation, MiB, for a machine with `memoryMiB` of memory. */
export function gkeKubeReservedMemoryMiB(memoryMiB: number): number {
  if (memoryMiB < 1024) return 255;
  const tiers: Array<[fromGiB: number, toGiB: number, fraction: number]> = [
    [0, 4, 0.25],
    [4, 8, 0.2],
    [8, 16, 0.1],
    [16, 128, 0.06],
    [128, Infinity, 0.02],
  ];
  let reserved = 0;
  for (const [from, to, fraction] of tiers) {
    const mib = Math.max(0, Math.min(memoryMiB, to * 1024) - from * 1024);
    reserved += mib * fraction;
  }
  return Math.ceil(reserved);
}

/** EKS / Karpenter AWS memory reservation, MiB. */
export function eksKubeReservedMemoryMiB(maxPods: number): number {
  return 11 * maxPods + 255;
}

export interface NodeShape {
  vcpus: number;
  memoryMiB: number;
  /** Local disk GiB, when the flavor has one; else the profile's root volume. */
  localDiskGiB?: number;
  gpuCount?: number;
}

export interface Overhead {
  kubeReserved: ResourceList;
  systemReserved: ResourceList;
  evictionThreshold: ResourceList;
}

/** Capacity as the node will report it: cpu in millicores, memory/ephemeral-storage in bytes. */
export function nodeCapacity(shape: NodeShape, profile: OverheadProfile): ResourceList {
  const memoryMiB = shape.memoryMiB - Math.ceil(shape.memoryMiB * profile.vmMemoryOverheadPercent);
  const capacity: Record<string, number> = {
    cpu: shape.vcpus * 1000,
    memory: memoryMiB * MiB,
    'ephemeral-storage': (shape.localDiskGiB ?? profile.defaultRootVolumeGiB) * GiB,
    pods: profile.maxPods,
  };
  if (shape.gpuCount) capacity['nvidia.com/gpu'] = shape.gpuCount;
  return capacity;
}

export function nodeOverhead(shape: NodeShape, profile: OverheadProfile): Overhead {
  const memoryMiB =
    profile.memoryKubeReserved === 'eks' ? eksKubeReservedMemoryMiB(profile.maxPods) : gkeKubeReservedMemoryMiB(shape.memoryMiB);
  const diskBytes = (shape.localDiskGiB ?? profile.defaultRootVolumeGiB) * GiB;
  return {
    kubeReserved: {
      cpu: kubeReservedCpuMillis(shape.vcpus),
      memory: memoryMiB * MiB,
      'ephemeral-storage': profile.ephemeralKubeReservedGiB * GiB,
    },
    systemReserved: { cpu: profile.systemReserved.cpuMillis, memory: profile.systemReserved.memoryMiB * MiB },
    evictionThreshold: {
      memory: profile.evictionMemoryMiB * MiB,
      'ephemeral-storage': Math.ceil((diskBytes * profile.evictionNodefsPercent) / 100),
    },
  };
}

/** capacity − (kubeReserved + systemReserved + evictionThreshold), floored at 0 per resource. */
export function allocatableOf(capacity: ResourceList, overhead: Overhead): ResourceList {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(capacity)) {
    const reserved = (overhead.kubeReserved[name] ?? 0) + (overhead.systemReserved[name] ?? 0) + (overhead.evictionThreshold[name] ?? 0);
    out[name] = Math.max(0, value - reserved);
  }
  return out;
}

export function nodeAllocatable(
  shape: NodeShape,
  cloud: CloudName,
): { capacity: ResourceList; allocatable: ResourceList; overhead: Overhead } {
  const profile = overheadProfiles[cloud];
  const capacity = nodeCapacity(shape, profile);
  const overhead = nodeOverhead(shape, profile);
  return { capacity, allocatable: allocatableOf(capacity, overhead), overhead };
}
