// `/metrics` as Prometheus scrapes it, after a scenario on the simulated cluster and the Scaleway emulator: every
// state gauge has series whose values match what the API server holds, and each event metric moves when its event
// happens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, CustomObjectsApi, type V1Pod } from '@kubernetes/client-node';
import { loadCatalog } from '../../../src/catalog/index.js';
import { nodeCapacity, overheadProfiles } from '../../../src/domain/instancetypes/allocatable.js';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects } from '../../../src/testbed/demo/install.js';
import { nodeClassesFor, nodePoolsFor } from '../../../src/testbed/demo/demo-manifests.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { VERSION } from '../../../src/util/version.js';
import { labelNamesOf, type ScrapedFamily, scrape } from '../../metrics-scrape.js';
import upstream from '../../fixtures/metrics-upstream.json' with { type: 'json' };

let env: DemoEnvironment;
let core: CoreV1Api;
let custom: CustomObjectsApi;

async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs / 1000}s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The series of `family` whose labels include `match`. */
function series(families: Map<string, ScrapedFamily>, family: string, match: Record<string, string> = {}, sample = family) {
  return (families.get(family)?.samples ?? []).filter(
    (s) => s.name === sample && Object.entries(match).every(([k, v]) => s.labels[k] === v),
  );
}

function value(
  families: Map<string, ScrapedFamily>,
  family: string,
  match: Record<string, string> = {},
  sample = family,
): number | undefined {
  return series(families, family, match, sample)[0]?.value;
}

function cpuCores(quantity: string | undefined): number {
  if (quantity === undefined) return 0;
  return quantity.endsWith('m') ? Number(quantity.slice(0, -1)) / 1000 : Number(quantity);
}

function bytes(quantity: string | undefined): number {
  const units: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 };
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|k|M|G)?$/.exec(quantity ?? '');
  if (!match) throw new Error(`unexpected memory quantity ${quantity}`);
  return Number(match[1]) * (units[match[2] ?? ''] ?? 1);
}

type Claim = { metadata: { name: string; labels?: Record<string, string> }; status?: { nodeName?: string; conditions?: Condition[] } };
type Condition = { type: string; status: string; reason?: string };

async function nodeClaims(): Promise<Claim[]> {
  const list = (await custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' })) as { items: Claim[] };
  return list.items;
}

const web: V1Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  // Consolidation must not move it while the tests read its node.
  metadata: { name: 'web', namespace: 'default', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } },
  spec: { containers: [{ name: 'web', image: 'nginx', resources: { requests: { cpu: '1', memory: '1Gi' } } }] },
};

async function webRunning(): Promise<V1Pod> {
  return eventually('web running', async () => {
    const p = await core.readNamespacedPod({ name: 'web', namespace: 'default' });
    return p.status?.phase === 'Running' ? p : undefined;
  });
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['scaleway'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
  await applyObjects(env.cluster.kubeConfig, [...nodeClassesFor('scaleway', env), ...nodePoolsFor('scaleway')]);
  core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
  custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  await core.createNamespacedPod({ namespace: 'default', body: web });
  await webRunning();
}, 90_000);

afterAll(async () => {
  await env?.close();
});

// One scenario, read in steps: the order matters (the last step terminates the node the others read).
describe('/metrics after a scenario on the simulated cluster', { shuffle: false }, () => {
  it('reports the cluster state: node count, NodePool usage and limits, pod states', async () => {
    const nodes = (await core.listNode()).items;
    const families = await eventually('node count matches', async () => {
      const f = await scrape(env.operator.metricsUrl);
      return value(f, 'karpenter_cluster_state_node_count') === nodes.length ? f : undefined;
    });
    expect(nodes.length).toBeGreaterThan(0);

    const pooled = nodes.filter((n) => n.metadata?.labels?.['karpenter.sh/nodepool'] === 'scaleway-default');
    const cpu = pooled.reduce((sum, n) => sum + cpuCores(n.status?.capacity?.cpu), 0);
    expect(value(families, 'karpenter_nodepools_usage', { nodepool: 'scaleway-default', resource_type: 'cpu' })).toBe(cpu);
    expect(value(families, 'karpenter_nodepools_usage', { nodepool: 'scaleway-default', resource_type: 'nodes' })).toBe(pooled.length);
    // The NodePool's spec.limits, as applied (cpu "64"; the GPU pool's nvidia.com/gpu "8").
    expect(value(families, 'karpenter_nodepools_limit', { nodepool: 'scaleway-default', resource_type: 'cpu' })).toBe(64);
    expect(
      series(families, 'karpenter_nodepools_limit', { nodepool: 'scaleway-gpu' }).map((s) => [s.labels.resource_type, s.value]),
    ).toEqual([['nvidia.com/gpu', 8]]);

    // Each node the scenario launched was counted once as it registered, in its NodePool and zone.
    const zones = new Map<string, number>();
    for (const n of pooled) {
      const zone = n.metadata?.labels?.['topology.kubernetes.io/zone'] ?? '';
      zones.set(zone, (zones.get(zone) ?? 0) + 1);
    }
    expect(
      new Map(series(families, 'karpenter_nodes_created_total', { nodepool: 'scaleway-default' }).map((s) => [s.labels.zone, s.value])),
    ).toEqual(zones);
    // Per node, capacity minus allocatable: the kubelet's and the system's reservations.
    for (const n of nodes) {
      const overhead = (resource_type: string) =>
        value(families, 'karpenter_nodes_system_overhead', { node_name: n.metadata?.name ?? '', resource_type });
      const cpu = cpuCores(n.status?.capacity?.cpu) - cpuCores(n.status?.allocatable?.cpu);
      expect(overhead('cpu')).toBeCloseTo(cpu);
      expect(cpu).toBeGreaterThan(0);
      expect(overhead('memory')).toBe(bytes(n.status?.capacity?.memory) - bytes(n.status?.allocatable?.memory));
    }

    const pod = await webRunning();
    const node = nodes.find((n) => n.metadata?.name === pod.spec?.nodeName);
    const state = series(families, 'karpenter_pods_state', { name: 'web', namespace: 'default' });
    expect(state).toHaveLength(1);
    expect(state[0]?.value).toBe(1);
    expect(state[0]?.labels).toMatchObject({
      node: pod.spec?.nodeName,
      scheduled: 'true',
      phase: 'Running',
      ready: 'true',
      managed: 'true',
      nodepool: 'scaleway-default',
      zone: node?.metadata?.labels?.['topology.kubernetes.io/zone'],
      instance_type: node?.metadata?.labels?.['node.kubernetes.io/instance-type'],
      capacity_type: node?.metadata?.labels?.['karpenter.sh/capacity-type'],
      arch: 'amd64',
      owner: '',
    });
    // One series per pod in the cluster.
    const pods = (await core.listPodForAllNamespaces()).items;
    expect(new Set(series(families, 'karpenter_pods_state').map((s) => `${s.labels.namespace}/${s.labels.name}`))).toEqual(
      new Set(pods.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`)),
    );
  });

  it('reports each status condition of NodePools, NodeClaims and NodeClasses as the objects carry them', async () => {
    type Conditioned = { metadata: { name: string }; status?: { conditions?: Condition[] } };
    const read = async (group: string, version: string, plural: string, name: string): Promise<Conditioned> =>
      (await custom.getClusterCustomObject({ group, version, plural, name })) as Conditioned;
    // The objects and a scrape taken after them: equal once no condition changed in between.
    const mismatches = async (): Promise<string[]> => {
      const pool = await read('karpenter.sh', 'v1', 'nodepools', 'scaleway-default');
      const nodeClass = await read('karpenter.scaleway.sh', 'v1alpha1', 'scalewaynodeclasses', 'default');
      const claim = (await nodeClaims()).find((c) => c.status?.nodeName) as Conditioned | undefined;
      const families = await scrape(env.operator.metricsUrl);
      const wanted: [string, Conditioned | undefined, Record<string, string>][] = [
        ['operator_nodepool_status_condition_count', pool, {}],
        ['operator_scalewaynodeclass_status_condition_count', nodeClass, {}],
        ['operator_nodeclaim_status_condition_count', claim, { karpenter_sh_nodepool: 'scaleway-default' }],
      ];
      const missing: string[] = [];
      for (const [family, object, extra] of wanted) {
        if (!object?.status?.conditions?.length) missing.push(`${family}: object has no conditions`);
        for (const c of object?.status?.conditions ?? []) {
          const labels = { name: object?.metadata.name ?? '', type: c.type, status: c.status, reason: c.reason ?? '', ...extra };
          if (value(families, family, labels) !== 1) missing.push(`${family} ${JSON.stringify(labels)}`);
          if (!((value(families, family.replace('_count', '_current_status_seconds'), labels) ?? -1) >= 0))
            missing.push(`seconds ${c.type}`);
        }
        const series_ = series(families, family, { name: object?.metadata.name ?? '' });
        if (series_.length !== (object?.status?.conditions?.length ?? 0)) missing.push(`${family}: ${series_.length} series`);
      }
      return missing;
    };
    let last: string[] = [];
    await eventually('status condition series match the objects', async () => (last = await mismatches()).length === 0).catch(() =>
      expect(last).toEqual([]),
    );
    // The conditions the NodeClaim went through as it launched, registered and initialized were counted.
    const families = await scrape(env.operator.metricsUrl);
    for (const type of ['Launched', 'Registered', 'Initialized'])
      expect(value(families, 'operator_nodeclaim_status_condition_transitions_total', { type, status: 'True' }), type).toBeGreaterThan(0);
  });

  it('reports the leader, the build, the start-up time of the pod it launched for, and its controllers and queue', async () => {
    const families = await scrape(env.operator.metricsUrl);
    expect(value(families, 'leader_election_master_status', { name: 'karpenter-eu-leader-election' })).toBe(1);
    expect(series(families, 'karpenter_build_info', { version: VERSION, goversion: process.version, goarch: process.arch })).toHaveLength(
      1,
    );

    // The web pod was Pending, then Ready on the new node: one observation, as upstream's summary quantiles.
    expect(families.get('karpenter_pods_startup_duration_seconds')?.type).toBe('summary');
    expect(value(families, 'karpenter_pods_startup_duration_seconds', {}, 'karpenter_pods_startup_duration_seconds_count')).toBeGreaterThan(
      0,
    );
    expect(value(families, 'karpenter_pods_startup_duration_seconds', { quantile: '0.5' })).toBeGreaterThan(0);

    expect(value(families, 'controller_runtime_reconcile_total', { controller: 'nodeclaim.lifecycle', result: 'success' })).toBeGreaterThan(
      0,
    );
    expect(
      value(families, 'controller_runtime_reconcile_total', { controller: 'nodepool.status', result: 'requeue_after' }),
    ).toBeGreaterThan(0);
    expect(
      value(
        families,
        'controller_runtime_reconcile_time_seconds',
        { controller: 'nodeclaim.lifecycle' },
        'controller_runtime_reconcile_time_seconds_count',
      ),
    ).toBeGreaterThan(0);
    const queue = { name: 'nodeclaim.lifecycle', controller: 'nodeclaim.lifecycle' };
    expect(value(families, 'workqueue_adds_total', queue)).toBeGreaterThan(0);
    expect(value(families, 'workqueue_work_duration_seconds', queue, 'workqueue_work_duration_seconds_count')).toBeGreaterThan(0);
    expect(value(families, 'workqueue_queue_duration_seconds', queue, 'workqueue_queue_duration_seconds_count')).toBeGreaterThan(0);
    expect(value(families, 'workqueue_depth', queue)).toBeGreaterThanOrEqual(0);

    // The provisioning pass that placed the web pod: its queue emptied.
    const depth = series(families, 'karpenter_scheduler_queue_depth', { controller: 'provisioner' });
    expect(depth).toHaveLength(1);
    expect(depth[0]?.labels.scheduling_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(depth[0]?.value).toBe(0);

    // The only node runs a do-not-disrupt pod: no method may take it.
    for (const reason of ['drifted', 'empty', 'underutilized'])
      expect(value(families, 'karpenter_voluntary_disruption_eligible_nodes', { reason }), reason).toBe(0);
  });

  it("reports the instance types provisioning planned with, as the cloud's catalog lists them", async () => {
    const pod = await webRunning();
    const node = await core.readNode({ name: pod.spec?.nodeName ?? '' });
    const labels = node.metadata?.labels ?? {};
    const flavorName = labels['node.kubernetes.io/instance-type'] ?? '';
    const zone = labels['topology.kubernetes.io/zone'] ?? '';
    const region = labels['topology.kubernetes.io/region'] ?? '';
    // The emulator answers from the bundled catalog: the gauges must carry its figures for the flavor launched.
    const flavor = loadCatalog('scaleway').flavors.find((f) => f.name === flavorName);
    const hourly = flavor?.prices.find((p) => p.region === region || p.region === '*')?.hourly;
    expect(flavor, flavorName).toBeDefined();
    expect(hourly).toEqual(expect.any(Number));
    const families = await scrape(env.operator.metricsUrl);
    const it_ = { instance_type: flavorName };
    expect(value(families, 'karpenter_cloudprovider_instance_type_cpu_cores', it_)).toBe(flavor?.vcpus);
    // Memory as upstream reports it: the capacity planned with, the flavor's memory less the VM overhead.
    const capacity = nodeCapacity({ vcpus: flavor?.vcpus ?? 0, memoryMiB: flavor?.memoryMiB ?? 0 }, overheadProfiles.scaleway);
    expect(value(families, 'karpenter_cloudprovider_instance_type_memory_bytes', it_)).toBe(capacity.memory);
    const offering = { instance_type: flavorName, capacity_type: 'on-demand', zone };
    expect(value(families, 'karpenter_cloudprovider_instance_type_offering_price_estimate', offering)).toBe(hourly);
    expect(value(families, 'karpenter_cloudprovider_instance_type_offering_available', offering)).toBe(1);
    // Every flavor of the region the NodePool may use has its series, not only the one launched.
    expect(series(families, 'karpenter_cloudprovider_instance_type_cpu_cores').length).toBeGreaterThan(1);
  });

  it('counts the pods no NodePool can place while they wait, and none once they are gone', async () => {
    const unschedulable = (): Promise<number | undefined> =>
      scrape(env.operator.metricsUrl).then((f) => value(f, 'karpenter_scheduler_unschedulable_pods_count', { controller: 'provisioner' }));
    const claimsBefore = (await nodeClaims()).length;
    const huge: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'too-big', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1000' } } }] },
    };
    await core.createNamespacedPod({ namespace: 'default', body: huge });
    await eventually('unschedulable pod counted', async () => (await unschedulable()) === 1);
    expect((await nodeClaims()).length).toBe(claimsBefore);
    await core.deleteNamespacedPod({ name: 'too-big', namespace: 'default', gracePeriodSeconds: 0 });
    await eventually('count back to 0', async () => (await unschedulable()) === 0);
  }, 90_000);

  it('counts the pending pods it ignores: those that require a node Karpenter did not launch', async () => {
    const ignored: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'on-unmanaged', namespace: 'default' },
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'karpenter.sh/nodepool', operator: 'DoesNotExist' }] }],
            },
          },
        },
        containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }],
      },
    };
    const claimsBefore = (await nodeClaims()).length;
    await core.createNamespacedPod({ namespace: 'default', body: ignored });
    await eventually(
      'ignored pod counted',
      async () => value(await scrape(env.operator.metricsUrl), 'karpenter_scheduler_ignored_pods_count') === 1,
    );
    expect((await nodeClaims()).length).toBe(claimsBefore);
    await core.deleteNamespacedPod({ name: 'on-unmanaged', namespace: 'default', gracePeriodSeconds: 0 });
    await eventually(
      'ignored count back to 0',
      async () => value(await scrape(env.operator.metricsUrl), 'karpenter_scheduler_ignored_pods_count') === 0,
    );
  }, 90_000);

  it("exposes every upstream family with upstream's name, type and label names, and only its own under other names", async () => {
    const families = await scrape(env.operator.metricsUrl);
    const nodeClassKinds = ['ovhnodeclass', 'scalewaynodeclass', 'outscalenodeclass'];
    const nodeClassLabels = [
      'karpenter_ovhcloud_sh_ovhnodeclass',
      'karpenter_scaleway_sh_scalewaynodeclass',
      'karpenter_outscale_sh_outscalenodeclass',
    ];
    const table = new Map<string, { type: string; labels: string[] }>();
    for (const f of upstream.families) {
      const labels = f.labels.flatMap((l) => (l === '{nodeclass_labels}' ? nodeClassLabels : [l])).sort();
      const names = f.name.includes('{nodeclass}') ? nodeClassKinds.map((k) => f.name.replace('{nodeclass}', k)) : [f.name];
      for (const name of names) table.set(name, { type: f.type, labels });
    }
    const differences: string[] = [];
    for (const family of families.values()) {
      const want = table.get(family.name);
      if (!want) {
        // Ours alone: karpenter-eu's own families and Node.js's process metrics (upstream's Go runtime has go_*).
        if (!/^(karpenter_eu_|process_|nodejs_)/.test(family.name))
          differences.push(`${family.name}: not upstream's and not karpenter_eu_*`);
        continue;
      }
      if (family.type !== want.type) differences.push(`${family.name}: type ${family.type}, upstream ${want.type}`);
      // Label names as the series carry them; a family with no series yet, as it is declared.
      const declared =
        (env.operator.metrics.registry.getSingleMetric(family.name) as unknown as { labelNames?: string[] }).labelNames ?? [];
      const labels = family.samples.length > 0 ? labelNamesOf(family) : [...declared].sort();
      if (labels.join(',') !== want.labels.join(','))
        differences.push(`${family.name}: labels ${labels.join(',')}, upstream ${want.labels.join(',')}`);
    }
    expect(differences).toEqual([]);
    // Every family of the table is exported.
    expect([...table.keys()].filter((name) => !families.has(name))).toEqual([]);
  });

  it('observes node termination as a summary, as upstream', async () => {
    await core.deleteNamespacedPod({ name: 'web', namespace: 'default', gracePeriodSeconds: 0 });
    const claim = (await nodeClaims()).find((c) => c.status?.nodeName);
    expect(claim).toBeDefined();
    await custom.deleteClusterCustomObject({
      group: 'karpenter.sh',
      version: 'v1',
      plural: 'nodeclaims',
      name: claim?.metadata.name ?? '',
    });
    const count = 'karpenter_nodes_termination_duration_seconds_count';
    const families = await eventually('node termination observed', async () => {
      const f = await scrape(env.operator.metricsUrl);
      return (value(f, 'karpenter_nodes_termination_duration_seconds', { nodepool: 'scaleway-default' }, count) ?? 0) > 0 ? f : undefined;
    });
    expect(families.get('karpenter_nodes_termination_duration_seconds')?.type).toBe('summary');
    const quantiles = series(families, 'karpenter_nodes_termination_duration_seconds', { nodepool: 'scaleway-default' }).map(
      (s) => s.labels.quantile,
    );
    expect(quantiles).toEqual(['0', '0.5', '0.9', '0.99', '1']);
    // The node is gone from cluster state and from the node count.
    await eventually('node count follows', async () => {
      const f = await scrape(env.operator.metricsUrl);
      return value(f, 'karpenter_cluster_state_node_count') === (await core.listNode()).items.length;
    });
  }, 90_000);

  it('counts an informer restarted after a failed list, by resource', async () => {
    // The node list of the next operator to start comes back cut in the middle of its JSON, once.
    const rule = env.cluster.apiServer.faults.add({
      match: { method: 'GET', path: '/api/v1/nodes' },
      fault: { kind: 'truncated-body' },
      times: 1,
    });
    try {
      await env.restartOperator();
      const restarts = await eventually('restart counted', async () => {
        const v = value(await scrape(env.operator.metricsUrl), 'karpenter_eu_informer_restarts_total', { resource: 'nodes' });
        return v !== undefined && v > 0 ? v : undefined;
      });
      expect(restarts).toBe(1);
      // It healed: cluster state synced again with the nodes the API server holds.
      await eventually('synced after the restart', async () => {
        const f = await scrape(env.operator.metricsUrl);
        return (
          value(f, 'karpenter_cluster_state_synced') === 1 &&
          value(f, 'karpenter_cluster_state_node_count') === (await core.listNode()).items.length
        );
      });
    } finally {
      env.cluster.apiServer.faults.remove(rule);
    }
  }, 90_000);

  it('counts a reconcile that fails and its requeue: a NodeClaim read that fails once', async () => {
    const lifecycle = { controller: 'nodeclaim.lifecycle' };
    const read = async () => {
      const f = await scrape(env.operator.metricsUrl);
      return {
        errors: value(f, 'controller_runtime_reconcile_errors_total', lifecycle) ?? 0,
        errorResults: value(f, 'controller_runtime_reconcile_total', { ...lifecycle, result: 'error' }) ?? 0,
        retries: value(f, 'workqueue_retries_total', { name: 'nodeclaim.lifecycle', ...lifecycle }) ?? 0,
      };
    };
    const before = await read();
    // The first read of a NodeClaim by name comes back cut in the middle of its JSON, once: the lifecycle
    // controller's read of the NodeClaim the provisioner creates for the pod below.
    const faults = env.cluster.apiServer.faults;
    const rule = faults.add({
      match: { method: 'GET', path: /^\/apis\/karpenter\.sh\/v1\/nodeclaims\/[^/]+$/ },
      fault: { kind: 'truncated-body' },
      times: 1,
    });
    try {
      await core.createNamespacedPod({ namespace: 'default', body: { ...web, metadata: { ...web.metadata, name: 'after-failed-read' } } });
      await eventually(
        'pod running on a node launched after the failed read',
        async () => (await core.readNamespacedPod({ name: 'after-failed-read', namespace: 'default' })).status?.phase === 'Running',
        90_000,
      );
    } finally {
      faults.remove(rule);
    }
    const after = await read();
    expect(after.errors - before.errors).toBe(1);
    expect(after.errorResults - before.errorResults).toBe(1);
    // Delayed adds: the failed NodeClaim's backoff requeue among them (upstream counts RequeueAfter adds too).
    expect(after.retries - before.retries).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
