/** A flavor's capacity as its kubelet reports it: vCPUs, memory, the default 110 pod slots, and GPUs. */
import { ResourceNvidiaGPU } from '../../../../apis/v1/labels.js';
import { type CatalogFile, type CatalogFlavor } from '../../../../catalog/index.js';

export const DefaultMaxPods = 110;

export function flavorCapacity(flavor: Pick<CatalogFlavor, 'vcpus' | 'memoryMiB' | 'gpu'>): Record<string, string> {
  const capacity: Record<string, string> = {
    cpu: String(flavor.vcpus),
    memory: `${flavor.memoryMiB}Mi`,
    pods: String(DefaultMaxPods),
    'ephemeral-storage': '100Gi',
  };
  if (flavor.gpu && flavor.gpu.manufacturer === 'nvidia') capacity[ResourceNvidiaGPU] = String(flavor.gpu.count);
  return capacity;
}

/** Looks flavors up by name; an unknown flavor gets no capacity rather than an invented one. */
export function flavorIndex(catalog: CatalogFile): Map<string, CatalogFlavor> {
  return new Map(catalog.flavors.map((f) => [f.name, f]));
}
