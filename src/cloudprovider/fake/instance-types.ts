/**
 * Instance-type fixtures for the fake provider (Karpenter's `fake.NewInstanceType` / `InstanceTypes(n)`):
 * defaults plus overrides, with the labels and the allocatable a real catalog would produce.
 */
import {
  LabelArch,
  LabelCloud,
  LabelInstanceCPU,
  LabelInstanceFamily,
  LabelInstanceGPUCount,
  LabelInstanceGPUName,
  LabelInstanceMemory,
  LabelOS,
  LabelTopologyRegion,
  type CloudName,
} from '../../apis/v1/labels.js';
import type { GpuInfo, InstanceType, Offering } from '../../domain/instancetypes/types.js';

const MiB = 2 ** 20;

export interface FakeInstanceTypeSpec {
  name: string;
  cpu: number;
  memoryMiB: number;
  /** EUR per hour, the same in every zone unless `pricesByZone` says otherwise. */
  pricePerHour: number;
  zones?: readonly string[];
  pricesByZone?: Readonly<Record<string, number>>;
  /** Zones listed here get `available: false`. */
  unavailableZones?: readonly string[];
  arch?: 'amd64' | 'arm64';
  pods?: number;
  cloud?: CloudName;
  region?: string;
  /** GPUs: `nvidia.com/gpu` in capacity and allocatable, and the GPU labels. */
  gpu?: GpuInfo;
}

export const FakeZones: readonly string[] = ['test-zone-a', 'test-zone-b', 'test-zone-c'];
export const FakeRegion = 'test-region';

/** Kubelet overhead, kept simple: 100m CPU per core (max 500m) and 10 % of memory are reserved. */
function allocatableOf(cpuMillis: number, memoryBytes: number): { cpu: number; memory: number } {
  return { cpu: cpuMillis - Math.min(500, cpuMillis / 10), memory: Math.floor(memoryBytes * 0.9) };
}

export function fakeInstanceType(spec: FakeInstanceTypeSpec): InstanceType {
  const zones = spec.zones ?? FakeZones;
  const cpuMillis = spec.cpu * 1000;
  const memoryBytes = spec.memoryMiB * MiB;
  const pods = spec.pods ?? 110;
  const offerings: Offering[] = zones.map((zone) => ({
    zone,
    capacityType: 'on-demand',
    pricePerHour: spec.pricesByZone?.[zone] ?? spec.pricePerHour,
    available: !(spec.unavailableZones ?? []).includes(zone),
  }));
  const region = spec.region ?? FakeRegion;
  const gpus: Record<string, number> = spec.gpu ? { 'nvidia.com/gpu': spec.gpu.count } : {};
  return {
    name: spec.name,
    cloud: spec.cloud ?? 'ovhcloud',
    region,
    labels: {
      [LabelArch]: spec.arch ?? 'amd64',
      [LabelOS]: 'linux',
      [LabelTopologyRegion]: region,
      [LabelCloud]: spec.cloud ?? 'ovhcloud',
      [LabelInstanceFamily]: spec.name.split('-')[0] ?? spec.name,
      [LabelInstanceCPU]: String(spec.cpu),
      [LabelInstanceMemory]: String(spec.memoryMiB),
      ...(spec.gpu ? { [LabelInstanceGPUName]: spec.gpu.name, [LabelInstanceGPUCount]: String(spec.gpu.count) } : {}),
    },
    capacity: { cpu: cpuMillis, memory: memoryBytes, pods, ...gpus },
    allocatable: { ...allocatableOf(cpuMillis, memoryBytes), pods, ...gpus },
    offerings,
    ...(spec.gpu ? { gpu: spec.gpu } : {}),
  };
}

/**
 * `count` instance types `fake-<cpu>` with 1, 2, 4… vCPUs, 4 GiB per vCPU, price proportional to size,
 * in every zone: enough variety for "cheapest that fits" decisions.
 */
export function fakeInstanceTypes(count: number, zones: readonly string[] = FakeZones): InstanceType[] {
  return Array.from({ length: count }, (_, i) => {
    const cpu = 2 ** i;
    return fakeInstanceType({ name: `fake-${cpu}`, cpu, memoryMiB: cpu * 4096, pricePerHour: 0.01 * cpu, zones });
  });
}
