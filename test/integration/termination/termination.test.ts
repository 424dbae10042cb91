import { afterEach, describe, expect, it } from 'vitest';
import type { CoreV1Event, V1Node, V1Pod } from '@kubernetes/client-node';
import { FinalizerTermination, LabelCapacityType, LabelTopologyZone, TaintDisrupted } from '../../../src/apis/v1/labels.js';
import type { NodeClaim } from '../../../src/apis/v1/nodeclaim.js';
import { TransientCloudError } from '../../../src/cloudprovider/errors.js';
import { FakeCloudProvider, fakeInstanceTypes } from '../../../src/cloudprovider/fake/index.js';
import type { CloudProviderNodeClaim } from '../../../src/cloudprovider/types.js';
import { createTerminationController, type TerminationController } from '../../../src/controllers/termination/termination-controller.js';
import { AnnotationDeletionReason } from '../../../src/apis/v1/deletion-reasons.js';
import { isKubeNotFound, Resources } from '../../../src/kube/index.js';
import {
  eventually,
  isReady,
  launchNodeClaim,
  metricValue,
  nodeClaimManifest,
  registerNode,
  startTerminationBed,
  type TerminationBed,
} from './termination-bed.js';

let bed: TerminationBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

function controllerFor(b: TerminationBed): TerminationController {
  return createTerminationController({
    kube: b.kube,
    state: b.state,
    cloudProvider: b.cloud,
    clock: b.clock,
    logger: b.logger,
    metrics: b.metrics,
    events: b.events,
    random: () => 0.5,
    options: { cloudDeleteBackoff: { baseDelayMs: 1_000, maxDelayMs: 1_000 } },
  });
}

function webPod(name: string, nodeName: string, extra: Partial<V1Pod['spec']> = {}, annotations: Record<string, string> = {}): V1Pod {
  return {
    metadata: { name, namespace: 'default', labels: { app: 'web' }, annotations },
    spec: { nodeName, terminationGracePeriodSeconds: 0, containers: [{ name: 'app', image: 'pause' }], ...extra },
  };
}

async function exists(b: TerminationBed, resource: typeof Resources.Node | typeof Resources.NodeClaim, name: string): Promise<boolean> {
  return b.kube.get(resource, { name }).then(
    () => true,
    (err: unknown) => (isKubeNotFound(err) ? false : Promise.reject(err)),
  );
}

async function podReady(b: TerminationBed, name: string): Promise<boolean> {
  const pod = await b.kube.get<V1Pod>(Resources.Pod, { namespace: 'default', name }).catch(() => undefined);
  return (
    pod?.metadata?.deletionTimestamp === undefined &&
    (pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false)
  );
}

async function readyWebPods(b: TerminationBed): Promise<number> {
  const pods = (await b.kube.list<V1Pod>(Resources.Pod, { namespace: 'default', labelSelector: 'app=web' })).items;
  return pods.filter(
    (p) => p.metadata?.deletionTimestamp === undefined && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
}

async function eventReasons(b: TerminationBed): Promise<string[]> {
  return (await b.kube.list<CoreV1Event>(Resources.Event, { namespace: 'default' })).items.map(
    (e) => `${e.involvedObject.kind}/${e.reason ?? ''}`,
  );
}

/** Deletes the NodeClaim as disruption would, and waits until ClusterState sees the deletionTimestamp. */
async function deleteNodeClaim(b: TerminationBed, name: string, reason?: string): Promise<void> {
  if (reason)
    await b.kube.patch(
      Resources.NodeClaim,
      { name },
      { type: 'merge', body: { metadata: { annotations: { [AnnotationDeletionReason]: reason } } } },
    );
  await b.kube.delete(Resources.NodeClaim, { name });
  await eventually(() => b.state.nodeClaim(name)?.metadata?.deletionTimestamp !== undefined);
}

/** Runs kubelet passes until `check` holds (pods start and finish their deletion on kubelet passes). */
async function untilKubelet(b: TerminationBed, check: () => boolean | Promise<boolean>): Promise<void> {
  await eventually(async () => {
    await b.cluster.kubelet.sync();
    return check();
  });
}

/** Lets the kubelet finish deletions and the informers catch up. */
async function settle(b: TerminationBed): Promise<void> {
  await b.cluster.kubelet.sync();
  await b.cluster.apiServer.settle();
  await new Promise((resolve) => setTimeout(resolve, 30));
}

describe('termination on the simulated cluster', () => {
  it('taints, drains through the Eviction API without ever violating a PDB, deletes the instance, then the Node and the NodeClaim', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const a = await launchNodeClaim(b, nodeClaimManifest('nc-a'));
    const other = await launchNodeClaim(b, nodeClaimManifest('nc-b'));
    const nodeA = await registerNode(b, a.providerID);
    const nodeB = await registerNode(b, other.providerID);
    for (const [name, node] of [
      ['web-0', nodeA],
      ['web-1', nodeA],
      ['web-2', nodeB],
    ] as const)
      await b.kube.create(Resources.Pod, webPod(name, node));
    await b.kube.create(Resources.PodDisruptionBudget, {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
    });
    await untilKubelet(b, async () => (await readyWebPods(b)) === 3 && b.state.podsOnNode(nodeA).length === 2);
    await b.cluster.apiServer.settle();

    await deleteNodeClaim(b, 'nc-a', 'underutilized');
    const controller = controllerFor(b);
    await controller.reconcileOnce();

    const tainted = await b.kube.get<V1Node>(Resources.Node, { name: nodeA });
    expect(tainted.spec?.taints).toContainEqual(expect.objectContaining({ key: TaintDisrupted.key, effect: TaintDisrupted.effect }));
    // The budget let exactly one of the two replicas go; the other waits.
    const left = [await podReady(b, 'web-0'), await podReady(b, 'web-1')].filter(Boolean).length;
    expect(left).toBe(1);
    expect(await readyWebPods(b)).toBe(2);

    // Nothing changes while no other replica is Ready: still blocked, never forced.
    await settle(b);
    await controller.reconcileOnce();
    await settle(b);
    expect(await readyWebPods(b)).toBe(2);
    expect(b.cloud.deleteCalls).toHaveLength(0);
    expect(await eventReasons(b)).toContain('Node/FailedDraining');

    // A new replica becomes Ready elsewhere: the budget allows the last eviction.
    await b.kube.create(Resources.Pod, webPod('web-3', nodeB));
    await untilKubelet(b, async () => (await readyWebPods(b)) === 3);
    await b.cluster.apiServer.settle();
    await controller.reconcileOnce();
    expect(await readyWebPods(b)).toBeGreaterThanOrEqual(2);
    await untilKubelet(b, () => b.state.podsOnNode(nodeA).length === 0);

    // Drained: the instance is deleted until the cloud says not found, then Node and NodeClaim go.
    await controller.reconcileOnce();
    expect(b.cloud.instances.has(a.providerID)).toBe(false);
    await controller.reconcileOnce();
    expect(await exists(b, Resources.Node, nodeA)).toBe(false);
    expect(await exists(b, Resources.NodeClaim, 'nc-a')).toBe(false);
    expect(await exists(b, Resources.NodeClaim, 'nc-b')).toBe(true);
    expect(b.cloud.instances.has(other.providerID)).toBe(true);

    expect(
      await metricValue(b.metrics, 'karpenter_eu_nodeclaims_terminated_by_reason_total', { reason: 'underutilized', nodepool: 'default' }),
    ).toBe(1);
    expect(await metricValue(b.metrics, 'karpenter_nodes_terminated_total', { nodepool: 'default' })).toBe(1);
    expect(
      b.logLines.some(
        (l) =>
          l.message === 'terminated nodeclaim' &&
          l.reason === 'underutilized' &&
          (l.NodeClaim as { name?: string } | undefined)?.name === 'nc-a',
      ),
    ).toBe(true);
    const reasons = await eventReasons(b);
    expect(reasons).toEqual(expect.arrayContaining(['NodeClaim/Terminating', 'NodeClaim/Terminated']));

    // Reported once: a later pass over stale state counts nothing again.
    await controller.reconcileOnce();
    expect(
      await metricValue(b.metrics, 'karpenter_eu_nodeclaims_terminated_by_reason_total', { reason: 'underutilized', nodepool: 'default' }),
    ).toBe(1);
  });

  it('holds a do-not-disrupt pod until the terminationGracePeriod deadline, then deletes it', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const a = await launchNodeClaim(b, nodeClaimManifest('nc-tgp', {}, { terminationGracePeriod: '10m' }));
    const node = await registerNode(b, a.providerID);
    // The NodeClaim carries its instance's zone and capacity type, as the lifecycle controller writes them.
    const zone = (await b.kube.get<V1Node>(Resources.Node, { name: node })).metadata?.labels?.[LabelTopologyZone] ?? '';
    expect(zone).not.toBe('');
    const placement = { zone, capacity_type: 'on-demand' };
    await b.kube.patch(
      Resources.NodeClaim,
      { name: 'nc-tgp' },
      {
        type: 'merge',
        body: { metadata: { labels: { [LabelTopologyZone]: placement.zone, [LabelCapacityType]: placement.capacity_type } } },
      },
    );
    await b.kube.create(
      Resources.Pod,
      webPod('precious', node, { terminationGracePeriodSeconds: 30 }, { 'karpenter.sh/do-not-disrupt': 'true' }),
    );
    await untilKubelet(b, async () => (await podReady(b, 'precious')) && b.state.podsOnNode(node).length === 1);

    await deleteNodeClaim(b, 'nc-tgp', 'drifted');
    const controller = controllerFor(b);
    await controller.reconcileOnce();
    await settle(b);
    expect(await podReady(b, 'precious')).toBe(true);
    expect(b.cloud.deleteCalls).toHaveLength(0);

    b.clock.step(10 * 60_000 - 30_000); // the deadline minus the pod's own grace period
    await controller.reconcileOnce();
    const deleting = await b.kube.get<V1Pod>(Resources.Pod, { namespace: 'default', name: 'precious' });
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();
    b.clock.step(30_000);
    await untilKubelet(b, () => b.state.podsOnNode(node).length === 0);
    await controller.reconcileOnce();
    await controller.reconcileOnce();
    expect(await exists(b, Resources.NodeClaim, 'nc-tgp')).toBe(false);
    expect(
      await metricValue(b.metrics, 'karpenter_eu_nodeclaims_terminated_by_reason_total', { reason: 'drifted', nodepool: 'default' }),
    ).toBe(1);
    // Upstream's count, labeled by the NodeClaim's pool and placement; and one duration: deletion to gone, the 10m deadline.
    const terminated = (await b.metrics.registry.getSingleMetric('karpenter_nodeclaims_terminated_total')?.get())?.values ?? [];
    expect(terminated.map((v) => [v.labels, v.value])).toEqual([[{ nodepool: 'default', ...placement }, 1]]);
    const duration: { labels: object; value: number; metricName?: string }[] =
      (await b.metrics.registry.getSingleMetric('karpenter_nodeclaims_termination_duration_seconds')?.get())?.values ?? [];
    const sample = (suffix: string) => duration.find((v) => v.metricName === `karpenter_nodeclaims_termination_duration_seconds_${suffix}`);
    expect(sample('count')).toMatchObject({ labels: { nodepool: 'default' }, value: 1 });
    expect(sample('sum')?.value).toBe(600);
  });

  it("waits for the drained node's volumes to detach before deleting the instance, except volumes of pods that stay", async () => {
    bed = await startTerminationBed();
    const b = bed;
    const a = await launchNodeClaim(b, nodeClaimManifest('nc-vol'));
    const node = await registerNode(b, a.providerID);
    // A log agent that tolerates the disrupted taint stays on the node: its volume never detaches.
    await b.kube.create(Resources.PersistentVolumeClaim, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'logs', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeName: 'pv-logs' },
    });
    await b.kube.create(
      Resources.Pod,
      webPod('log-agent', node, {
        tolerations: [{ key: TaintDisrupted.key, operator: 'Exists' }],
        volumes: [{ name: 'logs', persistentVolumeClaim: { claimName: 'logs' } }],
      }),
    );
    await untilKubelet(b, async () => (await podReady(b, 'log-agent')) && b.state.podsOnNode(node).length === 1);
    const attachment = (name: string, pv: string) => ({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name },
      spec: { attacher: 'csi.test', nodeName: node, source: { persistentVolumeName: pv } },
    });
    await b.kube.create(Resources.VolumeAttachment, attachment('va-data', 'pv-data'));
    await b.kube.create(Resources.VolumeAttachment, attachment('va-logs', 'pv-logs'));

    await deleteNodeClaim(b, 'nc-vol', 'drifted');
    const controller = controllerFor(b);
    await controller.reconcileOnce();
    await controller.reconcileOnce();
    // Drained (the agent stays), but pv-data is still attached: the instance is kept.
    expect(b.cloud.deleteCalls).toHaveLength(0);
    expect(await eventReasons(b)).toContain('Node/AwaitingVolumeDetachment');
    expect(b.logLines.filter((l) => l.message === 'waiting for volumes to detach before deleting the instance')).toHaveLength(1);
    expect(b.logLines.find((l) => l.message === 'waiting for volumes to detach before deleting the instance')?.volumeAttachments).toEqual([
      'va-data',
    ]);

    // The CSI driver detaches pv-data: only the agent's volume is left, which is not waited for.
    await b.kube.delete(Resources.VolumeAttachment, { name: 'va-data' });
    await controller.reconcileOnce();
    expect(b.cloud.deleteCalls).toHaveLength(1);
    expect(b.cloud.instances.has(a.providerID)).toBe(false);
  });

  it('stops waiting for attached volumes once the terminationGracePeriod deadline has passed', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const a = await launchNodeClaim(b, nodeClaimManifest('nc-stuck', {}, { terminationGracePeriod: '5m' }));
    const node = await registerNode(b, a.providerID);
    await b.kube.create(Resources.VolumeAttachment, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va-stuck' },
      spec: { attacher: 'csi.test', nodeName: node, source: { persistentVolumeName: 'pv-stuck' } },
    });
    await deleteNodeClaim(b, 'nc-stuck', 'expired');
    const controller = controllerFor(b);
    await controller.reconcileOnce();
    expect(b.cloud.deleteCalls).toHaveLength(0);
    b.clock.step(5 * 60_000);
    await controller.reconcileOnce();
    expect(b.cloud.deleteCalls).toHaveLength(1);
    expect(b.logLines.some((l) => l.message === 'termination grace period over, deleting the instance with volumes still attached')).toBe(
      true,
    );
  });

  it('keeps the finalizer while the cloud delete fails, retries with backoff, and finishes once it succeeds', async () => {
    class FlakyDeleteCloud extends FakeCloudProvider {
      failuresLeft = 2;
      override async delete(nodeClaim: CloudProviderNodeClaim): Promise<void> {
        if (this.failuresLeft > 0) {
          this.failuresLeft -= 1;
          this.deleteCalls.push(nodeClaim);
          throw new TransientCloudError('deleting server: 503 service unavailable');
        }
        return super.delete(nodeClaim);
      }
    }
    bed = await startTerminationBed((clock) => new FlakyDeleteCloud({ instanceTypes: fakeInstanceTypes(3), clock }));
    const b = bed;
    const a = await launchNodeClaim(b, nodeClaimManifest('nc-flaky'));
    await eventually(() => b.state.nodeClaim('nc-flaky')?.status?.providerID === a.providerID);
    await deleteNodeClaim(b, 'nc-flaky', 'expired');
    const controller = controllerFor(b);

    await controller.reconcileOnce();
    expect(b.cloud.deleteCalls).toHaveLength(1);
    const kept = await b.kube.get<NodeClaim>(Resources.NodeClaim, { name: 'nc-flaky' });
    expect(kept.metadata?.finalizers).toContain(FinalizerTermination);
    await controller.reconcileOnce(); // within the backoff: no new call
    expect(b.cloud.deleteCalls).toHaveLength(1);

    b.clock.step(1_000);
    await controller.reconcileOnce();
    expect(b.cloud.deleteCalls).toHaveLength(2);
    expect(await exists(b, Resources.NodeClaim, 'nc-flaky')).toBe(true);
    b.clock.step(1_000);
    await controller.reconcileOnce(); // succeeds: termination under way
    expect(b.cloud.instances.has(a.providerID)).toBe(false);
    expect(await exists(b, Resources.NodeClaim, 'nc-flaky')).toBe(true);
    await controller.reconcileOnce(); // NodeClaimNotFound: done
    expect(b.cloud.deleteCalls).toHaveLength(4);
    expect(await exists(b, Resources.NodeClaim, 'nc-flaky')).toBe(false);
    expect(await eventReasons(b)).toContain('NodeClaim/FailedTerminating');
    expect(
      await metricValue(b.metrics, 'karpenter_eu_nodeclaims_terminated_by_reason_total', { reason: 'expired', nodepool: 'default' }),
    ).toBe(1);
  });

  it('deletes the NodeClaim (reason user) when its Node is deleted directly', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const a = await launchNodeClaim(b, nodeClaimManifest('nc-user'));
    const node = await registerNode(b, a.providerID);
    await b.kube.delete(Resources.Node, { name: node });
    await eventually(() => b.state.node(node)?.metadata?.deletionTimestamp !== undefined);
    const controller = controllerFor(b);
    await controller.reconcileOnce();
    const claim = await b.kube.get<NodeClaim>(Resources.NodeClaim, { name: 'nc-user' });
    expect(claim.metadata?.deletionTimestamp).toBeDefined();
    expect(claim.metadata?.annotations?.[AnnotationDeletionReason]).toBe('user');
    await eventually(() => b.state.nodeClaim('nc-user')?.metadata?.deletionTimestamp !== undefined);
    await controller.reconcileOnce();
    await controller.reconcileOnce();
    expect(await exists(b, Resources.NodeClaim, 'nc-user')).toBe(false);
    expect(await exists(b, Resources.Node, node)).toBe(false);
    expect(b.cloud.instances.size).toBe(0);
  });

  it('skips the drain of a NotReady Node whose instance the cloud no longer has', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const a = await launchNodeClaim(b, nodeClaimManifest('nc-lost'));
    const node = await registerNode(b, a.providerID);
    await b.kube.create(Resources.Pod, webPod('stuck', node, {}, { 'karpenter.sh/do-not-disrupt': 'true' }));
    await untilKubelet(b, async () => (await podReady(b, 'stuck')) && b.state.podsOnNode(node).length === 1);
    b.cloud.instances.delete(a.providerID); // the machine died
    await untilKubelet(b, () => !isReady(b.state.node(node)));
    await deleteNodeClaim(b, 'nc-lost', 'unhealthy');
    const controller = controllerFor(b);
    await controller.reconcileOnce();
    expect(await exists(b, Resources.NodeClaim, 'nc-lost')).toBe(false);
    expect(await exists(b, Resources.Node, node)).toBe(false);
    expect(
      await metricValue(b.metrics, 'karpenter_eu_nodeclaims_terminated_by_reason_total', { reason: 'unhealthy', nodepool: 'default' }),
    ).toBe(1);
    expect(await metricValue(b.metrics, 'karpenter_nodes_terminated_total', { nodepool: 'default' })).toBe(1);
  });
});
