import type { V1Pod } from '@kubernetes/client-node';
import type { InstanceType } from '../../../../src/domain/instancetypes/types.js';
import type { SchedulingNodePool } from '../../../../src/domain/scheduling/types.js';

const GiB = 2 ** 30;

/** A type with `cpu` cores and `memGiB`; allocatable = capacity − 100m / 0 (easy arithmetic in tests). */
export function instanceType(
  name: string,
  cpu: number,
  memGiB: number,
  price: number,
  opts: { zones?: string[]; labels?: Record<string, string>; gpu?: number; unavailable?: string[] } = {},
): InstanceType {
  const zones = opts.zones ?? ['z-a', 'z-b', 'z-c'];
  const capacity: Record<string, number> = { cpu: cpu * 1000, memory: memGiB * GiB, pods: 110 };
  if (opts.gpu) capacity['nvidia.com/gpu'] = opts.gpu;
  return {
    name,
    cloud: 'ovhcloud',
    region: 'test',
    labels: {
      'node.kubernetes.io/instance-type': name,
      'kubernetes.io/arch': 'amd64',
      'karpenter-eu.io/instance-family': name.split('-')[0] as string,
      ...(opts.labels ?? {}),
    },
    capacity,
    allocatable: { ...capacity, cpu: cpu * 1000 - 100 },
    offerings: zones.map((zone) => ({
      zone,
      capacityType: 'on-demand',
      pricePerHour: price,
      available: !(opts.unavailable ?? []).includes(zone),
    })),
  };
}

export const smallTypes = (): InstanceType[] => [
  instanceType('s-2', 2, 4, 0.05),
  instanceType('s-4', 4, 8, 0.1),
  instanceType('s-8', 8, 16, 0.2),
  instanceType('s-16', 16, 32, 0.4),
];

export function nodePool(name: string, types: InstanceType[], extra: Partial<SchedulingNodePool> = {}): SchedulingNodePool {
  return { name, nodeClassRef: { kind: 'OVHNodeClass', name: 'default' }, requirements: [], instanceTypes: types, ...extra };
}

export function pod(
  name: string,
  cpu: string,
  memory: string,
  spec: Partial<NonNullable<V1Pod['spec']>> = {},
  labels: Record<string, string> = {},
): V1Pod {
  return {
    metadata: { name, namespace: 'default', labels },
    spec: { ...spec, containers: [{ name: 'c', image: 'i', resources: { requests: { cpu, memory } }, ...(spec.containers?.[0] ?? {}) }] },
  };
}

export const GiBytes = GiB;
