/**
 * Node repair on the simulated cluster, on one FakeClock: a kubelet stops posting status (its Node turns Ready
 * Unknown while the instance runs on); past the cloud's toleration the NodeClaim is deleted with reason
 * `unhealthy` and provisioning replaces the node for the Deployment's pod — unless more than 20% of the
 * NodePool is unhealthy, or the `NodeRepair` feature gate is off (its default).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppsV1Api, type CoreV1Event, type V1Deployment, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { AnnotationDeletionReason, type NodeClaim, type NodePool } from '../../../src/apis/index.js';
import { fakeInstanceType } from '../../../src/cloudprovider/fake/index.js';
import type { RepairPolicy } from '../../../src/cloudprovider/types.js';
import { createNodeHealthController } from '../../../src/controllers/node/health-controller.js';
import { NotReadyRepairPolicies } from '../../../src/domain/repair/index.js';
import { Resources, type Kube } from '../../../src/kube/index.js';
import { parseOperatorOptions } from '../../../src/operator/options.js';
import { type FakeClockBed, startFakeClockBed } from '../provisioning/fake-clock-bed.js';
import { metricValue } from '../termination/termination-bed.js';

const minute = 60_000;
/** The clouds' own policies: Ready False or Unknown for 30 minutes. */
const policies: RepairPolicy[] = [...NotReadyRepairPolicies];
const toleration = 30 * minute;

const pool = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
        requirements: [],
        expireAfter: 'Never',
      },
    },
  },
} as NodePool;

/** One pod per node (hostname anti-affinity), so each node carries a replica the Deployment puts back. */
function web(replicas: number): V1Deployment {
  const labels = { app: 'web' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: '500m', memory: '256Mi' } } }],
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: labels } },
              ],
            },
          },
        },
      },
    },
  };
}

let bed: FakeClockBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function runningPods(kube: Kube): Promise<V1Pod[]> {
  return (await kube.list<V1Pod>(Resources.Pod, { namespace: 'default' })).items.filter(
    (p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp,
  );
}

function isReady(node: V1Node): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** A NodePool of `replicas` nodes, each Ready and running one pod; returns the bed and the nodes' names. */
async function fleet(replicas: number, nodeRepair: boolean): Promise<{ b: FakeClockBed; nodes: string[] }> {
  bed = await startFakeClockBed({
    instanceTypes: [fakeInstanceType({ name: 'm-2', cpu: 2, memoryMiB: 8192, pricePerHour: 0.04 })],
    bootDelayMs: () => 2_000,
    schedulerBackoffMs: 1_000,
    repairPolicies: policies,
    nodeRepair,
  });
  const b = bed;
  await b.kube.create(Resources.NodePool, pool);
  await b.cluster.kubeConfig.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace: 'default', body: web(replicas) });
  const up = await b.run(async () => (await runningPods(b.kube)).length === replicas, 5 * minute, 500);
  expect(up, `${replicas} pods running`).toBe(true);
  const nodes = (await b.kube.list<V1Node>(Resources.Node)).items
    .filter(isReady)
    .map((n) => n.metadata?.name ?? '')
    .sort();
  expect(nodes).toHaveLength(replicas);
  return { b, nodes };
}

function claimOfNode(b: FakeClockBed, node: string): NodeClaim | undefined {
  return b.state.stateNodes().find((n) => n.node?.metadata?.name === node)?.nodeClaim;
}

async function claimDeleting(b: FakeClockBed, name: string): Promise<boolean> {
  const claim = await b.kube.get<NodeClaim>(Resources.NodeClaim, { name }).catch(() => undefined);
  return claim === undefined || claim.metadata?.deletionTimestamp !== undefined;
}

describe('node repair (NodeRepair feature gate)', () => {
  it('replaces a node whose kubelet stopped reporting once the toleration has passed, not before', async () => {
    const { b, nodes } = await fleet(5, true);
    const sick = nodes[0] as string;
    const claim = claimOfNode(b, sick)?.metadata?.name as string;
    b.cluster.kubelet.stall(sick);
    const notReady = await b.run(
      () => b.state.node(sick)?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'Unknown') ?? false,
      minute,
      500,
    );
    expect(notReady).toBe(true);

    expect(await b.run(() => claimDeleting(b, claim), toleration - 2 * minute, 5_000), 'deleted within the toleration').toBe(false);
    expect(await b.run(() => claimDeleting(b, claim), 4 * minute, 5_000), 'deleted after the toleration').toBe(true);
    expect(b.claimsEver.get(claim)?.metadata?.annotations?.[AnnotationDeletionReason]).toBe('unhealthy');

    const replaced = await b.run(
      async () => {
        const running = await runningPods(b.kube);
        return running.length === 5 && running.every((p) => p.spec?.nodeName !== sick);
      },
      10 * minute,
      1_000,
    );
    expect(replaced, 'the pod runs again on a new node').toBe(true);
    expect(b.provider.launches).toHaveLength(6);
    expect(
      await metricValue(b.metrics, 'karpenter_nodeclaims_unhealthy_disrupted_total', { condition: 'ready', nodepool: 'default' }),
    ).toBe(1);
    expect(await metricValue(b.metrics, 'karpenter_nodeclaims_disrupted_total', { reason: 'unhealthy', nodepool: 'default' })).toBe(1);
  }, 120_000);

  it('holds back while more than 20% of the NodePool is unhealthy (2 of 5), with a NodeRepairBlocked Event', async () => {
    const { b, nodes } = await fleet(5, true);
    const sick = nodes.slice(0, 2);
    const claims = sick.map((n) => claimOfNode(b, n)?.metadata?.name as string);
    for (const n of sick) b.cluster.kubelet.stall(n);
    const deleted = await b.run(
      async () => (await Promise.all(claims.map((c) => claimDeleting(b, c)))).some(Boolean),
      toleration + 10 * minute,
      5_000,
    );
    expect(deleted, 'no unhealthy node replaced').toBe(false);
    expect(b.provider.launches).toHaveLength(5);
    const events = (await b.kube.list<CoreV1Event>(Resources.Event, { namespace: 'default' })).items.filter(
      (e) => e.reason === 'NodeRepairBlocked',
    );
    expect([...new Set(events.map((e) => e.involvedObject.name))].sort()).toEqual(sick);
    expect(events[0]?.type).toBe('Warning');
    expect(events[0]?.message).toBe('more than 20% nodes are unhealthy in the nodepool');
  }, 120_000);

  it('does nothing with the feature gate at its default (off)', async () => {
    const gates = parseOperatorOptions(['--cluster-name', 'test'], {}).featureGates;
    expect(gates.nodeRepair).toBe(false);
    const { b, nodes } = await fleet(5, gates.nodeRepair);
    const sick = nodes[0] as string;
    const claim = claimOfNode(b, sick)?.metadata?.name as string;
    b.cluster.kubelet.stall(sick);
    expect(await b.run(() => claimDeleting(b, claim), toleration + 10 * minute, 5_000)).toBe(false);
    expect(b.provider.launches).toHaveLength(5);
  }, 120_000);

  it('deletes nothing when the fresh read of the unhealthy node fails', async () => {
    const { b, nodes } = await fleet(5, false);
    const sick = nodes[0] as string;
    const claim = claimOfNode(b, sick)?.metadata?.name as string;
    b.cluster.kubelet.stall(sick);
    await b.run(() => false, toleration + minute, 5_000);
    const failingGets: Kube = { ...b.kube, get: () => Promise.reject(new Error('503 service unavailable')) } as Kube;
    const health = createNodeHealthController({
      kube: failingGets,
      state: b.state,
      cloudProvider: b.provider,
      clock: b.clock,
      metrics: b.metrics,
      events: b.events,
    });
    const report = await health.reconcileOnce();
    expect(report.repaired).toEqual([]);
    expect(await claimDeleting(b, claim)).toBe(false);
    const working = createNodeHealthController({
      kube: b.kube,
      state: b.state,
      cloudProvider: b.provider,
      clock: b.clock,
      metrics: b.metrics,
      events: b.events,
    });
    expect((await working.reconcileOnce()).repaired).toEqual([claim]);
  }, 120_000);
});
