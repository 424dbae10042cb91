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
