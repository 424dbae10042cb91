/**
 * The devices a node of a GPU flavor publishes through Dynamic Resource Allocation (resource.k8s.io/v1), as
 * NVIDIA's DRA driver (`gpu.nvidia.com`) writes them into the node's ResourceSlice: one device per GPU,
 * named `gpu-<index>`, with the driver's attribute and capacity names. Provisioning matches claims against
 * these before a node exists; the test bed's simulated driver publishes exactly these once it does.
 */
import type { InstanceType } from '../instancetypes/types.js';
import type { GpuName } from '../instancetypes/gpu-mapping.js';

export const nvidiaDriver = 'gpu.nvidia.com';

/** A device attribute value, one of resource.k8s.io/v1 DeviceAttribute's members. */
export type DeviceAttribute = { string: string } | { int: number } | { bool: boolean } | { version: string };

/** A device as a ResourceSlice lists it (`spec.devices[]`): attributes and capacities keyed by the driver's names. */
export interface Device {
  name: string;
  attributes: Readonly<Record<string, DeviceAttribute>>;
  /** Quantities as Kubernetes writes them (`24Gi`). */
  capacity: Readonly<Record<string, { value: string }>>;
}

/** What one node publishes for one driver. */
export interface DriverDevices {
  driver: string;
  devices: readonly Device[];
}

/** Per model: the product name, architecture and CUDA compute capability the NVIDIA driver reports. */
interface NvidiaModelFacts {
  productName: string;
  architecture: string;
  cudaComputeCapability: string;
}

/** From NVIDIA's product pages and CUDA compute capability table (developer.nvidia.com/cuda-gpus). */
const nvidiaFacts: Readonly<Record<GpuName, NvidiaModelFacts>> = {
  l4: { productName: 'NVIDIA L4', architecture: 'Ada Lovelace', cudaComputeCapability: '8.9.0' },
  l40s: { productName: 'NVIDIA L40S', architecture: 'Ada Lovelace', cudaComputeCapability: '8.9.0' },
  l40: { productName: 'NVIDIA L40', architecture: 'Ada Lovelace', cudaComputeCapability: '8.9.0' },
  h100: { productName: 'NVIDIA H100 PCIe', architecture: 'Hopper', cudaComputeCapability: '9.0.0' },
  a100: { productName: 'NVIDIA A100', architecture: 'Ampere', cudaComputeCapability: '8.0.0' },
  a10: { productName: 'NVIDIA A10', architecture: 'Ampere', cudaComputeCapability: '8.6.0' },
  v100: { productName: 'Tesla V100', architecture: 'Volta', cudaComputeCapability: '7.0.0' },
  v100s: { productName: 'Tesla V100S', architecture: 'Volta', cudaComputeCapability: '7.0.0' },
  rtx3070: { productName: 'NVIDIA GeForce RTX 3070', architecture: 'Ampere', cudaComputeCapability: '8.6.0' },
  rtx5000: { productName: 'Quadro RTX 5000', architecture: 'Turing', cudaComputeCapability: '7.5.0' },
  p100: { productName: 'Tesla P100', architecture: 'Pascal', cudaComputeCapability: '6.0.0' },
};

function nvidiaDevice(index: number, facts: NvidiaModelFacts, memoryMiB: number): Device {
  return {
    name: `gpu-${index}`,
    attributes: {
      type: { string: 'gpu' },
      index: { int: index },
      productName: { string: facts.productName },
      brand: { string: 'Nvidia' },
      architecture: { string: facts.architecture },
      cudaComputeCapability: { version: facts.cudaComputeCapability },
    },
    capacity: { memory: { value: `${memoryMiB}Mi` } },
  };
}

/**
 * The devices a node of this instance type publishes, or undefined when it publishes none (no GPU, or a
 * model whose driver facts are unknown).
 */
export function flavorDevices(instanceType: Pick<InstanceType, 'gpu'>): DriverDevices | undefined {
  const gpu = instanceType.gpu;
  if (!gpu || gpu.manufacturer !== 'nvidia' || gpu.count < 1) return undefined;
  const facts = nvidiaFacts[gpu.name as GpuName] as NvidiaModelFacts | undefined;
  if (!facts) return undefined;
  const devices = Array.from({ length: gpu.count }, (_, i) => nvidiaDevice(i, facts, gpu.memoryMiB));
  return { driver: nvidiaDriver, devices };
}
