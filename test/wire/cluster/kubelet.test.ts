import { afterEach, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { FakeClock } from '../../../src/util/clock.js';
import { buildInstanceTypes } from '../../../src/domain/instancetypes/build.js';
import { parseResourceList } from '../../../src/domain/quantity/index.js';
import {
  scalewayInstanceSource,
  StaticInstanceSource,
  startSimulatedCluster,
  type SimulatedCluster,
} from '../../../src/testbed/cluster/index.js';
import { startScalewayEmulator, type ScalewayEmulator } from '../../../src/testbed/emulators/scaleway/index.js';
import { clientsFor, raw, testCatalog } from '../emulators/scaleway-fixture.js';
import { eventually } from './apiserver-fixtures.js';
import { ovhInstance, podOn, readyStatus } from './cluster-fixtures.js';

let cluster: SimulatedCluster | undefined;
let emulator: ScalewayEmulator | undefined;

afterEach(async () => {
  await cluster?.close();
  await emulator?.close();
  cluster = undefined;
  emulator = undefined;
});

async function readNode(core: k8s.CoreV1Api, name: string): Promise<k8s.V1Node | undefined> {
  return core.readNode({ name }).catch(() => undefined);
}

describe('kubelet simulator', () => {
  it('registers a booted Scaleway server as a NotReady Node with its providerID, labels and launch taints, then Ready', async () => {
    const clock = new FakeClock();
    emulator = await startScalewayEmulator({ clock, catalog: testCatalog, timings: { startingMs: 10_000 } });
    cluster = await startSimulatedCluster({
      clock,
      cloudSources: [scalewayInstanceSource(emulator, testCatalog)],
      kubelet: { readyDelayMs: 5_000 },
    });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const { instance } = clientsFor(emulator);
    const { server } = await instance.createServer({
      zone: 'fr-par-1',
      name: 'scw-default-abc123',
      commercialType: 'PRO2-S',
      image: 'ubuntu_jammy',
      protected: false,
    });
    const userData =
      '#!/bin/sh\nkubelet --node-labels=karpenter.sh/nodepool=default,team=a --register-with-taints=example.com/startup=true:NoSchedule\n';
    const set = await raw(emulator, 'PATCH', `/instance/v1/zones/fr-par-1/servers/${server!.id}/user_data/cloud-init`, {
      body: userData,
      contentType: 'text/plain',
    });
    expect(set.status).toBe(204);
    await instance.serverAction({ zone: 'fr-par-1', serverId: server!.id, action: 'poweron' });

    await cluster.kubelet.sync();
    expect(await readNode(core, 'scw-default-abc123')).toBeUndefined(); // still starting
    clock.step(10_000);
    await cluster.kubelet.sync();
    const node = await eventually(() => readNode(core, 'scw-default-abc123'));
    expect(node.spec?.providerID).toBe(`scaleway://instance/fr-par-1/${server!.id}`);
    expect(node.metadata?.labels).toMatchObject({
      'kubernetes.io/hostname': 'scw-default-abc123',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
      'node.kubernetes.io/instance-type': 'PRO2-S',
      'topology.kubernetes.io/zone': 'fr-par-1',
      'topology.kubernetes.io/region': 'fr-par',
      'karpenter.sh/nodepool': 'default',
      team: 'a',
    });
    // What the planner counted on for a PRO2-S is what the kubelet reports (kube-/system-reserved, eviction).
    const model = buildInstanceTypes(testCatalog, 'fr-par').find((t) => t.name === 'PRO2-S');
    expect(parseResourceList(node.status?.capacity)).toEqual(model?.capacity);
    expect(parseResourceList(node.status?.allocatable)).toEqual(model?.allocatable);
    expect(node.spec?.taints?.map((t) => t.key).sort()).toEqual(['example.com/startup', 'node.kubernetes.io/not-ready']);
    expect(readyStatus(node)).toBe('False');

    clock.step(5_000);
    await cluster.kubelet.sync();
    const ready = await eventually(async () => {
      const n = await readNode(core, 'scw-default-abc123');
      return n && readyStatus(n) === 'True' ? n : undefined;
    });
    expect(ready.spec?.taints?.map((t) => t.key)).toEqual(['example.com/startup']);
    expect(cluster.kubelet.errors).toEqual([]);
  });

  it('runs bound pods, removes deleted pods after their grace period, and takes a vanished instance NotReady then away', async () => {
    const clock = new FakeClock();
    const source = new StaticInstanceSource('ovhcloud');
    source.add(ovhInstance('a1b2'));
    cluster = await startSimulatedCluster({
      clock,
      cloudSources: [source],
      kubelet: { readyDelayMs: 1_000, podStartDelayMs: 2_000, nodeRemovalDelayMs: 30_000 },
    });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    await cluster.kubelet.sync();
    const node = await eventually(() => readNode(core, 'pool-a-node-a1b2'));
    expect(node.spec?.providerID).toBe('openstack:///a1b2');
    clock.step(1_000);
    await cluster.kubelet.sync();
    await eventually(async () => (await readNode(core, 'pool-a-node-a1b2'))?.spec?.taints === undefined);

    await core.createNamespacedPod({
      namespace: 'default',
      body: podOn('web', { nodeName: 'pool-a-node-a1b2', terminationGracePeriodSeconds: 20 }),
    });
    await eventually(() => cluster!.kubelet.pods.get('default/web'));
    await cluster.kubelet.sync();
    clock.step(2_000);
    await cluster.kubelet.sync();
    const running = await eventually(async () => {
      const p = await core.readNamespacedPod({ namespace: 'default', name: 'web' });
      return p.status?.phase === 'Running' ? p : undefined;
    });
    expect(running.status?.podIP).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(running.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(running.status?.containerStatuses?.[0]).toMatchObject({ name: 'app', ready: true, started: true });

    await core.deleteNamespacedPod({ namespace: 'default', name: 'web' });
    const terminating = await core.readNamespacedPod({ namespace: 'default', name: 'web' });
    expect(terminating.metadata?.deletionTimestamp).toBeDefined();
    await eventually(() => cluster!.kubelet.pods.get('default/web')?.metadata?.deletionTimestamp);
    await cluster.kubelet.sync();
    expect((await core.listNamespacedPod({ namespace: 'default' })).items).toHaveLength(1);
    clock.step(20_000);
    await cluster.kubelet.sync();
    await eventually(async () => (await core.listNamespacedPod({ namespace: 'default' })).items.length === 0);

    source.remove('openstack:///a1b2');
    await cluster.kubelet.sync();
    const lost = await eventually(async () => {
      const n = await readNode(core, 'pool-a-node-a1b2');
      return n && readyStatus(n) === 'Unknown' ? n : undefined;
    });
    expect(lost.spec?.taints?.map((t) => t.key)).toContain('node.kubernetes.io/not-ready');
    clock.step(30_000);
    await cluster.kubelet.sync();
    await eventually(async () => (await readNode(core, 'pool-a-node-a1b2')) === undefined);
    expect(cluster.kubelet.errors).toEqual([]);
  });
});
