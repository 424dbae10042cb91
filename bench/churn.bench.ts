/**
 * An hour of churn on the simulated cluster and the fake clock: five Deployments, one per constraint kind of
 * upstream's benchmark (plain, zone spread, hostname spread, zone affinity, hostname anti-affinity), scaled up
 * and down at random every few minutes; the real provisioning, lifecycle, consolidation and termination
 * controllers with their production windows. Each minute it compares the cluster's hourly price with one
 * `solve()` of the pods running then on an empty cluster, and it counts the node-hours of nodes on which no
 * workload pod was ever seen running (sampled each minute).
 * It runs twice on the same seeded workload: once with watches that deliver at once, once with every watch of
 * the simulated API server delivering late (random delays with bursts, seeded), as a loaded API server does.
 * Run: npm run bench:churn   (MINUTES=60 SEED=1 to change; WORLD=instant or WORLD=slow for one run; VERBOSE=1
 * prints every minute)
 */
import type { V1Deployment, V1Node, V1Pod } from '@kubernetes/client-node';
import { AppsV1Api } from '@kubernetes/client-node';
import type { NodePool } from '../src/apis/index.js';
import { fakeInstanceType } from '../src/cloudprovider/fake/index.js';
import { schedulingNodePool } from '../src/controllers/provisioning/scheduling-input.js';
import { solve } from '../src/domain/scheduling/index.js';
import { Resources } from '../src/kube/index.js';
import { seededRandom } from '../src/util/seeded-random.js';
import { startFakeClockBed } from '../test/integration/provisioning/fake-clock-bed.js';

const minutes = Number(process.env.MINUTES ?? 60);
const seed = Number(process.env.SEED ?? 1);
const verbose = process.env.VERBOSE === '1';
const worlds = process.env.WORLD === 'instant' ? [false] : process.env.WORLD === 'slow' ? [true] : [false, true];
if (process.env.WORLD !== undefined && !['instant', 'slow'].includes(process.env.WORLD)) {
  console.error(`WORLD is ${JSON.stringify(process.env.WORLD)}; accepted: instant, slow (unset runs both)`);
  process.exit(2);
}

/** Late watch events on every resource: up to 1.5 s, and bursts of 5 s more now and then. */
const slowWatches = { seed, profiles: { '*': { minMs: 0, maxMs: 1_500, burstChance: 0.02, burstMs: 10_000, burstDelayMs: 5_000 } } };

const instanceTypes = [
  fakeInstanceType({ name: 'm-2', cpu: 2, memoryMiB: 8192, pricePerHour: 0.04 }),
  fakeInstanceType({ name: 'm-4', cpu: 4, memoryMiB: 16384, pricePerHour: 0.08 }),
  fakeInstanceType({ name: 'm-8', cpu: 8, memoryMiB: 32768, pricePerHour: 0.16 }),
];
const pool = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '30s' },
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
        requirements: [],
        expireAfter: 'Never',
      },
    },
  },
} as NodePool;

const kinds = ['plain', 'zone-spread', 'hostname-spread', 'zone-affinity', 'hostname-anti-affinity'] as const;

function deployment(kind: (typeof kinds)[number]): V1Deployment {
  const selector = { matchLabels: { app: kind } };
  const spec: NonNullable<V1Pod['spec']> = {
    terminationGracePeriodSeconds: 0,
    containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: kind === 'plain' ? '700m' : '400m', memory: '512Mi' } } }],
  };
  if (kind === 'zone-spread' || kind === 'hostname-spread') {
    spec.topologySpreadConstraints = [
      {
        maxSkew: 1,
        topologyKey: kind === 'zone-spread' ? 'topology.kubernetes.io/zone' : 'kubernetes.io/hostname',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: selector,
      },
    ];
  }
  if (kind === 'zone-affinity') spec.nodeSelector = { 'topology.kubernetes.io/zone': 'test-zone-a' };
  if (kind === 'hostname-anti-affinity')
    spec.affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: selector }],
      },
    };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: kind, namespace: 'default' },
    spec: { replicas: 0, selector, template: { metadata: { labels: { app: kind } }, spec } },
  };
}

async function runWorld(slow: boolean): Promise<void> {
  /** Seeded, so a run can be repeated (and both worlds get the same workload). */
  const random = seededRandom(seed);
  // One boot delay per instance, from its own sequence: the kubelet asks at every poll, and how often it asks or
  // how many instances launch must not change the workload (before/after runs compare the same one).
  const boots = seededRandom(seed + 1);
  const bootDelays = new Map<string, number>();
  const bootDelayOf = (providerID: string): number => {
    if (!bootDelays.has(providerID)) bootDelays.set(providerID, 5_000 + Math.floor(boots() * 15_000));
    return bootDelays.get(providerID) as number;
  };
  const bed = await startFakeClockBed({
    instanceTypes,
    bootDelayMs: bootDelayOf,
    schedulerBackoffMs: 2_000,
    ...(slow ? { watchDelays: slowWatches } : {}),
  });
  const apps = bed.cluster.kubeConfig.makeApiClient(AppsV1Api);
  await bed.kube.create(Resources.NodePool, pool);
  for (const kind of kinds) await apps.createNamespacedDeployment({ namespace: 'default', body: deployment(kind) });

  const started = bed.clock.now();
  const priceOf = (type: string, zone: string): number =>
    instanceTypes.find((t) => t.name === type)?.offerings.find((o) => o.zone === zone)?.pricePerHour ?? 0;
  const schedulingPool = schedulingNodePool(pool, instanceTypes, {});
  if (!schedulingPool) throw new Error('the bench NodePool is not schedulable');

  /** Instance lifetimes, and whether a workload pod was ever seen running on their node (sampled each minute). */
  const lifetimes = new Map<string, { from: number; to?: number; used: boolean }>();
  function observeInstances(now: number, pods: readonly V1Pod[], nodes: readonly V1Node[]): void {
    const live = new Set(bed.provider.instances.keys());
    for (const id of live) if (!lifetimes.has(id)) lifetimes.set(id, { from: now, used: false });
    for (const [id, l] of lifetimes) if (l.to === undefined && !live.has(id)) l.to = now;
    const providerOf = new Map(nodes.map((n) => [n.metadata?.name ?? '', n.spec?.providerID ?? '']));
    for (const p of pods) {
      const l = lifetimes.get(providerOf.get(p.spec?.nodeName ?? '') ?? '');
      if (l) l.used = true;
    }
  }

  let weightedActual = 0;
  let weightedOptimal = 0;
  const rows: string[] = [];
  const wallStart = performance.now();
  for (let minute = 1; minute <= minutes; minute++) {
    if (minute === 1 || random() < 0.4) {
      const kind = kinds[Math.floor(random() * kinds.length)] as (typeof kinds)[number];
      const replicas = Math.floor(random() * 9);
      await apps
        .patchNamespacedDeployment({ name: kind, namespace: 'default', body: { spec: { replicas } } }, {
          headers: { 'Content-Type': 'application/merge-patch+json' },
        } as never)
        .catch(async () => {
          const current = await apps.readNamespacedDeployment({ name: kind, namespace: 'default' });
          current.spec = { ...current.spec!, replicas };
          await apps.replaceNamespacedDeployment({ name: kind, namespace: 'default', body: current });
        });
    }
    await bed.run(() => false, 60_000, 1_000);
    const pods = (await bed.kube.list<V1Pod>(Resources.Pod, { namespace: 'default' })).items.filter(
      (p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp,
    );
    observeInstances(bed.clock.now(), pods, (await bed.kube.list<V1Node>(Resources.Node)).items);
    const actual = [...bed.provider.instances.values()].reduce((sum, i) => sum + priceOf(i.instanceType, i.zone), 0);
    const unbound = pods.map((p) => ({ metadata: p.metadata, spec: { ...p.spec, nodeName: undefined } }) as V1Pod);
    const optimal = unbound.length === 0 ? 0 : solve({ pods: unbound, nodePools: [schedulingPool] }).totalPricePerHour;
    weightedActual += actual;
    weightedOptimal += optimal;
    const row = `${String(minute).padStart(3)}  pods ${String(pods.length).padStart(3)}  nodes ${String(bed.provider.instances.size).padStart(3)}  €${actual.toFixed(2)}/h  optimum €${optimal.toFixed(2)}/h  ratio ${optimal > 0 ? (actual / optimal).toFixed(2) : '—'}`;
    rows.push(row);
    if (verbose) console.log(row);
  }
  const end = bed.clock.now();
  const unusedNodeHours = [...lifetimes.values()].filter((l) => !l.used).reduce((sum, l) => sum + ((l.to ?? end) - l.from) / 3_600_000, 0);
  const unusedCount = [...lifetimes.values()].filter((l) => !l.used).length;
  await bed.close();

  if (!verbose) for (const row of rows.filter((_, i) => i % 5 === 4)) console.log(row);
  const ratio = weightedOptimal > 0 ? weightedActual / weightedOptimal : 1;
  console.log(
    `\nchurn (${slow ? 'slow watches: 0–1.5 s, bursts +5 s' : 'instant watches'}) over ${minutes} fake minutes (seed ${process.env.SEED ?? 1}), ${((performance.now() - wallStart) / 1000).toFixed(0)} s wall, ${(end - started) / 60_000} fake minutes`,
  );
  console.log(`instances launched: ${lifetimes.size}; never ran a workload pod: ${unusedCount} (${unusedNodeHours.toFixed(3)} node-hours)`);
  console.log(`time-weighted price / optimum: ${ratio.toFixed(3)} (target ≤ 1.10)`);
}

for (const slow of worlds) await runWorld(slow);
