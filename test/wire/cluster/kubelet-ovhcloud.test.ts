import { afterEach, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { FakeClock } from '../../../src/util/clock.js';
import { ovhcloudInstanceSource, startSimulatedCluster, type SimulatedCluster } from '../../../src/testbed/cluster/index.js';
import { startOvhcloudEmulator, type OvhcloudEmulator } from '../../../src/testbed/emulators/ovhcloud/index.js';
import { kubePath, ovhClient, trustEmulatorCa } from '../emulators/ovhcloud-fixture.js';
import { eventually } from './apiserver-fixtures.js';
import { readyStatus } from './cluster-fixtures.js';

let cluster: SimulatedCluster | undefined;
let emulator: OvhcloudEmulator | undefined;
let untrust: (() => void) | undefined;

afterEach(async () => {
  untrust?.();
  await cluster?.close();
  await emulator?.close();
  cluster = undefined;
  emulator = undefined;
  untrust = undefined;
});

const readNode = (core: k8s.CoreV1Api, name: string) => core.readNode({ name }).catch(() => undefined);

describe('kubelet simulator with the OVHcloud MKS emulator', () => {
  it('registers a READY pool node under its MKS name with openstack:/// providerID, pool-template labels and taints, and removes it with the node', async () => {
    const clock = new FakeClock(Date.now());
    emulator = await startOvhcloudEmulator({ clock, seed: 7 });
    untrust = trustEmulatorCa(emulator);
    cluster = await startSimulatedCluster({
      clock,
      cloudSources: [ovhcloudInstanceSource(emulator)],
      kubelet: { readyDelayMs: 1_000, nodeRemovalDelayMs: 10_000 },
    });
    const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const client = ovhClient(emulator);
    const pool = (await client.requestPromised('POST', kubePath(emulator, '/nodepool'), {
      name: 'default-b3-8',
      flavorName: 'b3-8',
      desiredNodes: 1,
      autoscale: false,
      availabilityZones: ['eu-west-par-b'],
      template: {
        metadata: { labels: { 'karpenter.sh/nodepool': 'default' }, annotations: {}, finalizers: [] },
        spec: { taints: [{ key: 'example.com/dedicated', value: 'batch', effect: 'NoSchedule' }], unschedulable: false },
      },
    })) as { id: string };

    await cluster.kubelet.sync();
    expect((await core.listNode()).items).toEqual([]); // the pool is still installing: no machine yet
    clock.step(10_000);
    await cluster.kubelet.sync();
    const mksNode = emulator.state().instances.find((n) => n.nodePoolId === pool.id)!;
    expect(mksNode.state).toBe('READY');
    const node = await eventually(() => readNode(core, mksNode.name));
    expect(node.spec?.providerID).toBe(`openstack:///${mksNode.instanceId}`);
    expect(node.metadata?.labels).toMatchObject({
      'karpenter.sh/nodepool': 'default',
      nodepool: 'default-b3-8',
      'node.kubernetes.io/instance-type': 'b3-8',
      'topology.kubernetes.io/zone': 'eu-west-par-b',
      'kubernetes.io/hostname': mksNode.name,
    });
    expect(node.status?.capacity).toMatchObject({ cpu: '2', pods: '110' });
    expect(node.spec?.taints?.map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`)).toContain('example.com/dedicated=batch:NoSchedule');

    clock.step(1_000);
    await cluster.kubelet.sync();
    await eventually(async () => {
      const n = await readNode(core, mksNode.name);
      return n !== undefined && readyStatus(n) === 'True';
    });

    await client.requestPromised('DELETE', kubePath(emulator, `/node/${mksNode.id}`));
    clock.step(60_000);
    await cluster.kubelet.sync();
    clock.step(10_000);
    await cluster.kubelet.sync();
    await eventually(async () => (await readNode(core, mksNode.name)) === undefined);
    expect(cluster.kubelet.errors).toEqual([]);
  });
});
