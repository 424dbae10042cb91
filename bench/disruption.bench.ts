/**
 * Consolidation decision time with 500 candidate nodes: a cluster of 500 under-used Scaleway nodes (fr-par
 * catalog, every type of the bundled catalog offered as replacements), all consolidatable, 100% budget.
 * Times each method of one disruption pass — emptiness, multi-node (binary search over the 100 cheapest-to-
 * disrupt candidates, upstream's cap) and single-node (first valid candidate; worst case all 500) — and the
 * validation re-check, over RUNS runs. Upstream bounds multi-node at 100 candidates / 1 min and single-node at 3 min.
 * Run: npm run bench:disruption   (NODES=1000 RUNS=5 to change the size)
 */
import os from 'node:os';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { NodeClaim, NodePool } from '../src/apis/index.js';
import { loadCatalog } from '../src/catalog/index.js';
import {
  computeEmptiness,
  computeMultiNodeConsolidation,
  computeSingleNodeConsolidation,
  decide,
  type DisruptionInput,
  type DisruptionNode,
  validateCommand,
} from '../src/domain/disruption/index.js';
import { buildInstanceTypes } from '../src/domain/instancetypes/build.js';
import type { InstanceType } from '../src/domain/instancetypes/types.js';

const nodeCount = Number(process.env.NODES ?? 500);
const runs = Number(process.env.RUNS ?? 3);
const now = Date.UTC(2026, 0, 5, 12);

const types = buildInstanceTypes(loadCatalog('scaleway'), 'fr-par').filter((t) => !t.gpu && t.offerings.some((o) => o.available));
const byCpu = [...types]
  .filter((t) => (t.capacity.cpu ?? 0) >= 4000)
  .sort((a, b) => (a.offerings[0]?.pricePerHour ?? 0) - (b.offerings[0]?.pricePerHour ?? 0));

function pod(name: string, cpu: string, memory: string): V1Pod {
  return {
    metadata: { name, namespace: 'bench', uid: name },
    spec: { nodeName: '', containers: [{ name: 'c', image: 'i', resources: { requests: { cpu, memory } } }] },
    status: { phase: 'Running' },
  };
}

function node(i: number, type: InstanceType, packed: boolean): DisruptionNode {
  const name = `node-${String(i).padStart(4, '0')}`;
  const offering = type.offerings.find((o) => o.available) ?? type.offerings[0];
  const labels = {
    ...type.labels,
    'topology.kubernetes.io/zone': offering?.zone ?? '',
    'karpenter.sh/nodepool': 'default',
    'kubernetes.io/hostname': name,
  };
  const alloc = { cpu: `${type.allocatable.cpu}m`, memory: String(type.allocatable.memory), pods: String(type.allocatable.pods ?? 110) };
  const created = new Date(now - 86_400_000).toISOString();
  // 1–3 small pods: 10–40 % used, the shape consolidation exists for.
  const pods = (
    packed
      ? [pod(`${name}-p0`, `${Math.floor((type.allocatable.cpu ?? 0) * 0.85)}m`, '512Mi')]
      : Array.from({ length: 1 + (i % 3) }, (_, k) => pod(`${name}-p${k}`, `${250 + 125 * ((i + k) % 4)}m`, `${256 + 128 * (k % 3)}Mi`))
  ).map((p) => ({ ...p, spec: { ...p.spec, containers: p.spec?.containers ?? [], nodeName: name } }));
  return {
    name,
    node: {
      metadata: { name, labels },
      spec: { providerID: `scaleway://instance/${name}` },
      status: { allocatable: alloc, capacity: alloc, conditions: [{ type: 'Ready', status: 'True' }] },
    } as V1Node,
    nodeClaim: {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: `claim-${name}`, labels, creationTimestamp: created },
      spec: { nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' }, requirements: [] },
      status: { conditions: [{ type: 'Initialized', status: 'True', lastTransitionTime: created, reason: 'Initialized', message: '' }] },
    } as unknown as NodeClaim,
    nodePool: 'default',
    pods,
    initialized: true,
    markedForDeletion: false,
    nominated: false,
    pricePerHour: offering?.pricePerHour,
    lastPodEventAt: now - 3_600_000,
  };
}

function input(packed: boolean): DisruptionInput {
  const pool = {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s', budgets: [{ nodes: '100%' }] },
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.scaleway.sh', kind: 'ScalewayNodeClass', name: 'default' },
          requirements: [],
          expireAfter: 'Never',
        },
      },
    },
  } as NodePool;
  const nodes = Array.from({ length: nodeCount }, (_, i) => node(i, byCpu[i % Math.min(6, byCpu.length)] as InstanceType, packed));
  return {
    now,
    nodes,
    pendingPods: [],
    nodePools: [pool],
    schedulingNodePools: [
      { name: 'default', nodeClassRef: { kind: 'ScalewayNodeClass', name: 'default' }, requirements: [], instanceTypes: types },
    ],
  };
}

function time<T>(fn: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = fn();
  return { ms: performance.now() - t0, value };
}

function summary(label: string, samples: number[], extra = ''): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  console.log(
    `${label.padEnd(34)} median ${median.toFixed(0).padStart(6)} ms  max ${(sorted.at(-1) ?? 0).toFixed(0).padStart(6)} ms  ${extra}`,
  );
}

function scenario(label: string, data: DisruptionInput): void {
  console.log(
    `\n${label}: ${nodeCount} candidate nodes, ${data.nodes.reduce((s, n) => s + n.pods.length, 0)} pods, ${types.length} instance types; ${os.cpus().length} CPUs, node ${process.version}`,
  );
  const samples: Record<string, number[]> = { emptiness: [], multi: [], single: [], decide: [], validate: [] };
  let last = 'no multi-node command';
  for (let r = 0; r < runs; r++) {
    samples.emptiness?.push(time(() => computeEmptiness(data)).ms);
    const multi = time(() => computeMultiNodeConsolidation(data));
    samples.multi?.push(multi.ms);
    samples.single?.push(time(() => computeSingleNodeConsolidation(data)).ms);
    const d = time(() => decide(data));
    samples.decide?.push(d.ms);
    const cmd = d.value?.command;
    if (cmd) samples.validate?.push(time(() => validateCommand(cmd, data)).ms);
    if (multi.value)
      last = `${multi.value.decision} ${multi.value.candidates.length} nodes, ${multi.value.pricePerHourBefore.toFixed(3)} → ${multi.value.pricePerHourAfter.toFixed(3)} EUR/h`;
  }
  summary('emptiness', samples.emptiness ?? []);
  summary('multi-node (≤100 candidates)', samples.multi ?? [], last);
  summary('single-node', samples.single ?? []);
  summary('full pass (decide)', samples.decide ?? []);
  if ((samples.validate ?? []).length > 0) summary('validation re-check', samples.validate ?? []);
}

scenario('under-used cluster (a command exists)', input(false));
scenario('packed cluster (worst case: every simulation fails, single-node tries all 500)', input(true));
