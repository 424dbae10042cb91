import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { createKube, ResourceInformer, Resources } from '../../../src/kube/index.js';
import type { ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { SystemClock } from '../../../src/util/clock.js';
import { eventually, type FaultProxy, pod, startClusterWithCrds, startFaultProxy } from './kube-fixtures.js';

let server: ApiServer;
let proxy: FaultProxy;
const informers: ResourceInformer<V1Pod>[] = [];

beforeEach(async () => {
  server = await startClusterWithCrds({ watchCacheSize: 20 });
  proxy = await startFaultProxy(server.url);
});

afterEach(async () => {
  for (const i of informers.splice(0)) await i.stop();
  await proxy.close();
  await server.close();
});

function podInformer(fieldSelector?: string): { informer: ResourceInformer<V1Pod>; log: string[]; restarts: () => number } {
  let restarts = 0;
  const informer = new ResourceInformer<V1Pod>({
    kubeConfig: proxy.kubeConfig,
    kube: createKube(proxy.kubeConfig),
    resource: Resources.Pod,
    ...(fieldSelector ? { fieldSelector } : {}),
    clock: new SystemClock(),
    restartBackoff: { baseDelayMs: 5, maxDelayMs: 20 },
    random: () => 0.5,
    onRestart: () => restarts++,
  });
  const log: string[] = [];
  informer.on({
    onAdd: (p) => log.push(`add ${p.metadata?.name ?? ''}`),
    onUpdate: (p) => log.push(`update ${p.metadata?.name ?? ''}`),
    onDelete: (p) => log.push(`delete ${p.metadata?.name ?? ''}`),
  });
  informers.push(informer);
  return { informer, log, restarts: () => restarts };
}

const listRequests = (): string[] => proxy.requests.filter((r) => r.startsWith('GET /api/v1/pods') && !r.includes('watch=true'));
const kube = (): ReturnType<typeof createKube> => createKube(server.kubeConfig);

describe('ResourceInformer', () => {
  it('with a field selector lists, watches and caches only matching objects; one that stops matching is deleted', async () => {
    await kube().create(Resources.Pod, { ...pod('bound'), spec: { ...pod('bound').spec, nodeName: 'n1' } } as V1Pod);
    await kube().create(Resources.Pod, pod('pending'));
    const { informer, log } = podInformer('spec.nodeName=');
    await informer.start();
    await informer.waitForSync();
    expect(informer.list().map((p) => p.metadata?.name)).toEqual(['pending']);
    await kube().create(Resources.Pod, pod('later'));
    await server.kubeConfig
      .makeApiClient(CoreV1Api)
      .createNamespacedBinding({ namespace: 'default', body: { metadata: { name: 'pending' }, target: { kind: 'Node', name: 'n1' } } });
    await eventually(() => log.length >= 3);
    expect(log).toEqual(['add pending', 'add later', 'delete pending']);
    expect(informer.list().map((p) => p.metadata?.name)).toEqual(['later']);
  });

  it('syncs with the initial list and then sees adds, updates and deletes', async () => {
    await kube().create(Resources.Pod, pod('before'));
    const { informer, log } = podInformer();
    expect(informer.hasSynced()).toBe(false);
    await informer.start();
    await informer.waitForSync();
    expect(informer.hasSynced()).toBe(true);
    expect(informer.list().map((p) => p.metadata?.name)).toEqual(['before']);
    await kube().create(Resources.Pod, pod('after'));
    await kube().patch(
      Resources.Pod,
      { name: 'after', namespace: 'default' },
      { type: 'merge', body: { metadata: { labels: { v: '2' } } } },
    );
    await kube().delete(Resources.Pod, { name: 'before', namespace: 'default' });
    await eventually(() => log.length >= 4);
    expect(log).toEqual(['add before', 'add after', 'update after', 'delete before']);
    expect(informer.get('after', 'default')?.metadata?.labels).toEqual({ v: '2' });
  });

  it('restarts with backoff after the initial list fails, then syncs', async () => {
    proxy.failNext(2, 500, /^\/api\/v1\/pods(?!.*watch=true)/);
    const { informer, restarts } = podInformer();
    await informer.start();
    expect(informer.hasSynced()).toBe(false);
    await informer.waitForSync();
    expect(proxy.faultsServed).toBe(2);
    expect(restarts()).toBe(2);
    expect(listRequests()).toHaveLength(3);
  });

  it('restarts after a watch fails with a 503 and keeps seeing changes without relisting', async () => {
    const { informer, log, restarts } = podInformer();
    await informer.start();
    await informer.waitForSync();
    proxy.failNext(1, 503, /watch=true/);
    server.dropWatches();
    await eventually(() => restarts() === 1);
    await kube().create(Resources.Pod, pod('later'));
    await eventually(() => log.includes('add later'));
    // Resumed from the last resourceVersion: one list only.
    expect(listRequests()).toHaveLength(1);
    expect(informer.hasSynced()).toBe(true);
  });

  it('relists after 410 Gone and reports what changed meanwhile', async () => {
    await kube().create(Resources.Pod, pod('kept'));
    const { informer, log } = podInformer();
    await informer.start();
    await informer.waitForSync();
    // Many changes the pod watch never sees push its resourceVersion out of the watch cache.
    for (let i = 0; i < 30; i++)
      await kube().create(Resources.Secret, { apiVersion: 'v1', kind: 'Secret', metadata: { name: `s-${i}`, namespace: 'default' } });
    server.store.compact();
    server.dropWatches();
    await eventually(() => listRequests().length === 2);
    await kube().delete(Resources.Pod, { name: 'kept', namespace: 'default' });
    await eventually(() => log.includes('delete kept'));
    expect(informer.list()).toEqual([]);
  });

  it('waitForSync rejects when aborted or stopped before syncing', async () => {
    proxy.failNext(1000, 500);
    const { informer } = podInformer();
    await informer.start();
    const controller = new AbortController();
    const waiting = informer.waitForSync(controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
    const stopped = informer.waitForSync();
    await informer.stop();
    await expect(stopped).rejects.toThrow(/stopped/);
  });
});
