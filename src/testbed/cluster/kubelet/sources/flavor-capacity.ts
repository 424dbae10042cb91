/**
 * A flavor's capacity and allocatable as its kubelet reports them. A real node's kubelet reports what the flags
 * karpenter-eu's bootstrap (or MKS) sets leave: capacity minus kube-reserved, system-reserved and the eviction
 * threshold — the catalog's allocatable model (domain/instancetypes/allocatable.ts), so what the planner counted
 * on for an in-flight NodeClaim is what the Node offers once it registers.
 */
import { type CloudName } from '../../../../apis/v1/labels.js';
import { type CatalogFile, type CatalogFlavor } from '../../../../catalog/index.js';
import { nodeAllocatable, type NodeShape } from '../../../../domain/instancetypes/allocatable.js';
import type { GpuInfo, ResourceList } from '../../../../domain/instancetypes/types.js';

export interface KubeletResources {
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
}

/** Quantities as the kubelet writes them: whole cores as `2`, else millicores; the rest as plain integers. */
function asQuantities(list: ResourceList): Record<string, string> {
  return Object.fromEntries(
    Object.entries(list).map(([name, value]) => [
      name,
      name !== 'cpu' ? String(Math.floor(value)) : value % 1000 === 0 ? String(value / 1000) : `${value}m`,
    ]),
  );
}

export function kubeletResources(shape: NodeShape, cloud: CloudName): KubeletResources {
  const { capacity, allocatable } = nodeAllocatable(shape, cloud);
  return { capacity: asQuantities(capacity), allocatable: asQuantities(allocatable) };
}

/** The catalog flavor's shape, as the catalog's instance types take it (domain/instancetypes/build.ts). */
export function flavorResources(
  flavor: Pick<CatalogFlavor, 'vcpus' | 'memoryMiB' | 'gpu' | 'localDiskGiB'>,
  cloud: CloudName,
): KubeletResources {
  const gpuCount = flavor.gpu?.count;
  return kubeletResources(
    {
      vcpus: flavor.vcpus,
      memoryMiB: flavor.memoryMiB,
      ...(flavor.localDiskGiB !== undefined ? { localDiskGiB: flavor.localDiskGiB } : {}),
      ...(gpuCount ? { gpuCount } : {}),
    },
    cloud,
  );
}

/** Looks flavors up by name; an unknown flavor gets no capacity rather than an invented one. */
export function flavorIndex(catalog: CatalogFile): Map<string, CatalogFlavor> {
  return new Map(catalog.flavors.map((f) => [f.name, f]));
}

/** The flavor's GPUs as the catalog's instance types carry them (domain/instancetypes/build.ts), when it has any. */
export function flavorGpu(flavor: Pick<CatalogFlavor, 'gpu'> | undefined): { gpu: GpuInfo } | Record<string, never> {
  const gpu = flavor?.gpu;
  return gpu ? { gpu: { count: gpu.count, name: gpu.name, memoryMiB: gpu.memoryMiB, manufacturer: gpu.manufacturer } } : {};
}
