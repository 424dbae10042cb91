import { afterEach, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { FakeClock } from '../../../src/util/clock.js';
import { StaticInstanceSource, startSimulatedCluster, type SimulatedCluster } from '../../../src/testbed/cluster/index.js';
import { eventually } from './apiserver-fixtures.js';
import { ovhInstance, podOn } from './cluster-fixtures.js';

let cluster: SimulatedCluster | undefined;

afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('simulated cluster', () => {
  it("schedules and runs a Deployment's pods, and an evicted pod vanishes after its grace period", async () => {
    const clock = new FakeClock();
    const source = new StaticInstanceSource('ovhcloud');
    source.add(ovhInstance('n1', { nodeName: 'n1' }));
    cluster = await startSimulatedCluster({ clock, cloudSources: [source], kubelet: { readyDelayMs: 0, podStartDelayMs: 0 } });
    const c = cluster;
    const core = c.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const apps = c.kubeConfig.makeApiClient(k8s.AppsV1Api);
    await c.kubelet.sync();
    await eventually(() => c.scheduler.nodes.get('n1') && !c.scheduler.nodes.get('n1')?.spec?.taints);

    const template = podOn('unused', { terminationGracePeriodSeconds: 30 }, { app: 'inflate' });
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'inflate' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'inflate' } },
          template: { metadata: { labels: { app: 'inflate' } }, spec: template.spec },
        },
      },
    });
    const running = await eventually(async () => {
      await c.kubelet.sync();
      const pods = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=inflate' })).items;
      return pods.length === 2 && pods.every((p) => p.status?.phase === 'Running' && p.spec?.nodeName === 'n1') ? pods : undefined;
    });

    const victim = running[0]?.metadata?.name ?? '';
    await core.createNamespacedPodEviction({
      namespace: 'default',
      name: victim,
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: victim, namespace: 'default' } },
    });
    expect((await core.readNamespacedPod({ namespace: 'default', name: victim })).metadata?.deletionTimestamp).toBeDefined();
    await eventually(() => c.kubelet.pods.get(`default/${victim}`)?.metadata?.deletionTimestamp);
    clock.step(30_000);
    await eventually(async () => {
      await c.kubelet.sync();
      const names = (await core.listNamespacedPod({ namespace: 'default' })).items.map((p) => p.metadata?.name);
      return !names.includes(victim);
    });
    expect(c.kubelet.errors).toEqual([]);
    expect(c.scheduler.errors).toEqual([]);
  });
});
