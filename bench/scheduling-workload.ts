/**
 * Upstream Karpenter's scheduling benchmark workload (scheduling_benchmark_test.go) rebuilt: 400 instance
 * types (type i: i+1 vCPU, 2(i+1) GiB, 10(i+1) pods, price 0.1·cpu + 0.1·GiB, overhead 100m cpu / 10Mi),
 * 5 offerings each (the three test zones, as upstream's on-demand + spot pairs collapse to on-demand here:
 * test-zone-1..3 plus two extra zones, all available), and pods split in five kinds: plain, zone
 * topology spread, hostname topology spread, zone pod affinity, hostname anti-affinity (maxSkew 1,
 * DoNotSchedule, random `my-label` / `my-affininity` selectors from a..g), seeded random requests.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { InstanceType } from '../src/domain/instancetypes/types.js';
import type { SchedulingNodePool } from '../src/domain/scheduling/types.js';
import { seededRandom } from '../src/util/seeded-random.js';

const GiB = 2 ** 30;
const MiB = 2 ** 20;
export const BENCH_ZONES = ['test-zone-1', 'test-zone-2', 'test-zone-3', 'test-zone-4', 'test-zone-5'];

export function benchInstanceTypes(count = 400, zones = BENCH_ZONES): InstanceType[] {
  const types: InstanceType[] = [];
  for (let i = 0; i < count; i++) {
    const cpu = i + 1;
    const memGiB = 2 * (i + 1);
    const price = Math.round((0.1 * cpu + 0.1 * memGiB) * 1e6) / 1e6;
    const capacity = { cpu: cpu * 1000, memory: memGiB * GiB, pods: 10 * (i + 1) };
    types.push({
      name: `fake-it-${i}`,
      cloud: 'ovhcloud',
      region: 'test',
      labels: {
        'node.kubernetes.io/instance-type': `fake-it-${i}`,
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'karpenter.sh/capacity-type': 'on-demand',
      },
      capacity,
      allocatable: { cpu: capacity.cpu - 100, memory: capacity.memory - 10 * MiB, pods: capacity.pods },
      offerings: zones.map((zone) => ({ zone, capacityType: 'on-demand', pricePerHour: price, available: true })),
    });
  }
  return types;
}

export function benchNodePool(instanceTypes: InstanceType[]): SchedulingNodePool {
  return {
    name: 'default',
    nodeClassRef: { kind: 'OVHNodeClass', name: 'default' },
    requirements: [],
    limits: { cpu: 10_000_000 * 1000, memory: 10_000_000 * GiB },
    instanceTypes,
  };
}

type Kind = 'plain' | 'zone-spread' | 'hostname-spread' | 'zone-affinity' | 'hostname-anti-affinity';

function pod(name: string, random: () => number, labels: Record<string, string>, spec: Partial<NonNullable<V1Pod['spec']>>): V1Pod {
  const cpu = ['100m', '250m', '500m', '1', '1500m'][Math.floor(random() * 5)] as string;
  const memory = `${[100, 256, 512, 1024, 2048, 4096][Math.floor(random() * 6)]}Mi`;
  return {
    metadata: { name, namespace: 'default', labels },
    spec: { ...spec, containers: [{ name: 'app', image: 'pause', resources: { requests: { cpu, memory } } }] },
  };
}

function pick(random: () => number): string {
  return 'abcdefg'[Math.floor(random() * 7)] as string;
}

function makePod(kind: Kind, name: string, random: () => number): V1Pod {
  switch (kind) {
    case 'plain':
      return pod(name, random, { 'my-label': pick(random) }, {});
    case 'zone-spread':
    case 'hostname-spread': {
      const topologyKey = kind === 'zone-spread' ? 'topology.kubernetes.io/zone' : 'kubernetes.io/hostname';
      const labels = { 'my-label': pick(random) };
      return pod(name, random, labels, {
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { 'my-label': pick(random) } } },
        ],
      });
    }
    case 'zone-affinity': {
      const labels = { 'my-affininity': pick(random) };
      const term = { topologyKey: 'topology.kubernetes.io/zone', labelSelector: { matchLabels: { 'my-affininity': pick(random) } } };
      return pod(name, random, labels, { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } });
    }
    case 'hostname-anti-affinity': {
      const term = { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'nginx' } } };
      return pod(
        name,
        random,
        { app: 'nginx' },
        { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } },
      );
    }
  }
}

/** makeDiversePods with the five kinds: n/5 of each, the remainder plain. */
export function makeDiversePods(count: number, seed = 42): V1Pod[] {
  const random = seededRandom(seed);
  const kinds: Kind[] = ['plain', 'zone-spread', 'hostname-spread', 'zone-affinity', 'hostname-anti-affinity'];
  const pods: V1Pod[] = [];
  const each = Math.floor(count / kinds.length);
  for (const kind of kinds) for (let i = 0; i < each; i++) pods.push(makePod(kind, `${kind}-${i}`, random));
  for (let i = pods.length; i < count; i++) pods.push(makePod('plain', `plain-extra-${i}`, random));
  return pods;
}

/** How a GPU pod of the GPU variant asks for its GPU. */
export type GpuRequest = 'extended-resource' | 'resource-claim';

const gpuModels = [
  { name: 'l4', memoryMiB: 24576, price: 0.75 },
  { name: 'l40s', memoryMiB: 49152, price: 1.4 },
];

/** benchInstanceTypes plus GPU flavors (1, 2, 4, 8 × L4 or L40S), which publish `nvidia.com/gpu` and DRA devices. */
export function benchGpuInstanceTypes(): InstanceType[] {
  const types = benchInstanceTypes();
  for (const model of gpuModels) {
    for (const count of [1, 2, 4, 8]) {
      const name = `fake-${model.name}-${count}`;
      const capacity = { cpu: 8000 * count, memory: 64 * count * GiB, pods: 110, 'nvidia.com/gpu': count };
      types.push({
        name,
        cloud: 'ovhcloud',
        region: 'test',
        labels: { 'node.kubernetes.io/instance-type': name, 'kubernetes.io/arch': 'amd64', 'karpenter.sh/capacity-type': 'on-demand' },
        capacity,
        allocatable: { ...capacity, cpu: capacity.cpu - 100, memory: capacity.memory - 10 * MiB },
        gpu: { count, name: model.name, memoryMiB: model.memoryMiB, manufacturer: 'nvidia' },
        offerings: BENCH_ZONES.map((zone) => ({ zone, capacityType: 'on-demand', pricePerHour: model.price * count, available: true })),
      });
    }
  }
  return types;
}

/** The DRA objects the claim variant's pods read: NVIDIA's DeviceClass and one template asking ≥ 20 GiB of GPU memory. */
export const benchDraObjects = {
  deviceClasses: [
    { metadata: { name: 'gpu.nvidia.com' }, spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.nvidia.com"' } }] } },
  ],
  resourceClaimTemplates: [
    {
      metadata: { name: 'one-gpu', namespace: 'default' },
      spec: {
        spec: {
          devices: {
            requests: [
              {
                name: 'gpu',
                exactly: {
                  deviceClassName: 'gpu.nvidia.com',
                  count: 1,
                  selectors: [{ cel: { expression: 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("20Gi")) >= 0' } }],
                },
              },
            ],
          },
        },
      },
    },
  ],
  resourceClaims: [],
  resourceSlices: [],
};

/** makeDiversePods with every tenth pod a plain one asking one GPU, by extended resource or through a claim. */
export function makeGpuPods(count: number, request: GpuRequest, seed = 42): V1Pod[] {
  return makeDiversePods(count, seed).map((p, i) => {
    if (i % 10 !== 0) return p;
    const container = { ...(p.spec?.containers[0] as NonNullable<V1Pod['spec']>['containers'][number]) };
    const requests = { ...container.resources?.requests };
    if (request === 'extended-resource') {
      return {
        metadata: { ...p.metadata, name: `gpu-${i}` },
        spec: { containers: [{ ...container, resources: { requests: { ...requests, 'nvidia.com/gpu': '1' } } }] },
      };
    }
    return {
      metadata: { ...p.metadata, name: `gpu-${i}` },
      spec: {
        resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'one-gpu' }],
        containers: [{ ...container, resources: { requests, claims: [{ name: 'gpu' }] } }],
      },
    };
  });
}
