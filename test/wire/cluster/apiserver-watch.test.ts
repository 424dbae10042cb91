import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { eventually, pod } from './apiserver-fixtures.js';

let server: ApiServer;
let core: k8s.CoreV1Api;
let clock: FakeClock;
type PodInformer = k8s.Informer<k8s.V1Pod> & k8s.ObjectCache<k8s.V1Pod>;
const informers: PodInformer[] = [];

beforeEach(async () => {
  clock = new FakeClock();
  server = await startApiServer({ clock, watchCacheSize: 20, bookmarkIntervalMs: 1_000 });
  core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
});

afterEach(async () => {
  for (const informer of informers.splice(0)) await informer.stop();
  await server.close();
});

function podInformer(): { informer: PodInformer; log: string[]; connects: () => number } {
  const informer = k8s.makeInformer(server.kubeConfig, '/api/v1/namespaces/default/pods', () =>
    core.listNamespacedPod({ namespace: 'default' }),
  );
  const log: string[] = [];
  let connects = 0;
  informer.on('add', (p) => log.push(`add ${p.metadata?.name ?? ''}`));
  informer.on('update', (p) => log.push(`update ${p.metadata?.name ?? ''} ${JSON.stringify(p.metadata?.labels ?? {})}`));
  informer.on('delete', (p) => log.push(`delete ${p.metadata?.name ?? ''}`));
  informer.on('connect', () => connects++);
  informer.on('error', (err) => log.push(`error ${String(err)}`));
  informers.push(informer);
  return { informer, log, connects: () => connects };
}

/** Raw watch lines from the server, for assertions on the wire format itself. */
async function watchLines(
  path: string,
  count: number,
): Promise<Array<{ type: string; object: { metadata?: { resourceVersion?: string; name?: string }; code?: number; reason?: string } }>> {
  const res = await fetch(`${server.url}${path}`);
  const reader = res.body!.getReader();
  const lines: string[] = [];
  let buffer = '';
  while (lines.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += Buffer.from(value).toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts.filter((l) => l !== ''));
  }
  await reader.cancel();
  return lines.slice(0, count).map((l) => JSON.parse(l) as never);
}

describe('informers over the simulated API', () => {
  it('see adds, updates and deletes', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: pod('before') });
    const { informer, log } = podInformer();
    await informer.start();
    await eventually(() => log.includes('add before'));
    await core.createNamespacedPod({ namespace: 'default', body: pod('after') });
    await core.patchNamespacedPod(
      { namespace: 'default', name: 'after', body: { metadata: { labels: { v: '2' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await core.deleteNamespacedPod({ namespace: 'default', name: 'before' });
    await eventually(() => log.length >= 4);
    expect(log).toEqual(['add before', 'add after', 'update after {"v":"2"}', 'delete before']);
    expect(informer.list().map((p) => p.metadata?.name)).toEqual(['after']);
  });

  it('resume from the last resourceVersion after the server drops the connection', async () => {
    const { informer, log, connects } = podInformer();
    await informer.start();
    await core.createNamespacedPod({ namespace: 'default', body: pod('one') });
    await eventually(() => log.includes('add one'));
    server.dropWatches();
    await eventually(() => connects() >= 2);
    await core.createNamespacedPod({ namespace: 'default', body: pod('two') });
    await eventually(() => log.includes('add two'));
    // No relist happened: 'one' was not re-announced.
    expect(log.filter((l) => l === 'add one')).toHaveLength(1);
  });

  it('relist after 410 Gone when the version they resume from was compacted', async () => {
    const { informer, log, connects } = podInformer();
    await informer.start();
    await core.createNamespacedPod({ namespace: 'default', body: pod('kept') });
    await eventually(() => log.includes('add kept'));
    // Offline while changes happen and get compacted away; it then resumes from a version that is gone.
    await informer.stop();
    const offlineFrom = (informer as k8s.ListWatch<k8s.V1Pod>).latestResourceVersion();
    await core.deleteNamespacedPod({ namespace: 'default', name: 'kept' });
    await core.createNamespacedPod({ namespace: 'default', body: pod('fresh') });
    server.store.compact();
    expect(Number(offlineFrom)).toBeLessThan(server.store.oldestResumableVersion);
    await informer.start();
    await eventually(() => log.includes('add fresh') && log.includes('delete kept'));
    expect(connects()).toBeGreaterThanOrEqual(2);
    expect(informer.list().map((p) => p.metadata?.name)).toEqual(['fresh']);
  });
});

describe('watch wire format', () => {
  it('answers a too-old resourceVersion with an ERROR event carrying 410 Expired', async () => {
    for (let i = 0; i < 30; i++) await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: `cm-${i}` } } });
    const [event] = await watchLines('/api/v1/namespaces/default/pods?watch=true&resourceVersion=1', 1);
    expect(event).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
  });

  it('replays from a resourceVersion, sends BOOKMARKs on the clock and filters by selector', async () => {
    const start = (await core.listNamespacedPod({ namespace: 'default' })).metadata?.resourceVersion ?? '';
    await core.createNamespacedPod({ namespace: 'default', body: pod('web-1', { app: 'web' }) });
    await core.createNamespacedPod({ namespace: 'default', body: pod('db-1', { app: 'db' }) });
    const pending = watchLines(
      `/api/v1/namespaces/default/pods?watch=true&resourceVersion=${start}&labelSelector=app%3Dweb&allowWatchBookmarks=true`,
      3,
    );
    await eventually(() => clock.waiting > 0);
    clock.step(1_000);
    await core.patchNamespacedPod(
      { namespace: 'default', name: 'web-1', body: { metadata: { labels: { app: 'other' } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    const events = await pending;
    expect(events.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}`)).toEqual(['ADDED web-1', 'BOOKMARK ', 'DELETED web-1']);
    expect(Number(events[1]?.object.metadata?.resourceVersion)).toBeGreaterThan(Number(start));
  });

  it('ends the stream after timeoutSeconds of clock time', async () => {
    const res = await fetch(`${server.url}/api/v1/pods?watch=true&timeoutSeconds=5`);
    await eventually(() => clock.waiting > 0);
    clock.step(5_000);
    expect(await res.text()).toBe('');
  });
});

describe('watch delivery delays', () => {
  it('hold a resource’s events for the set delay on the server clock, in order, while other resources flow', async () => {
    const pods = podInformer();
    const configMaps: string[] = [];
    const cmInformer = k8s.makeInformer(server.kubeConfig, '/api/v1/namespaces/default/configmaps', () =>
      core.listNamespacedConfigMap({ namespace: 'default' }),
    );
    cmInformer.on('add', (c) => configMaps.push(c.metadata?.name ?? ''));
    await Promise.all([pods.informer.start(), cmInformer.start()]);
    server.watchDelays.set('pods', { minMs: 3_000, maxMs: 3_000 });
    await core.createNamespacedPod({ namespace: 'default', body: pod('late-1') });
    await core.createNamespacedPod({ namespace: 'default', body: pod('late-2') });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'prompt' } } });
    await eventually(() => configMaps.includes('prompt'));
    await new Promise((r) => setTimeout(r, 50));
    expect(pods.log).toEqual([]);
    clock.step(2_999);
    await new Promise((r) => setTimeout(r, 50));
    expect(pods.log).toEqual([]);
    clock.step(1);
    await eventually(() => pods.log.length === 2);
    expect(pods.log).toEqual(['add late-1', 'add late-2']);
    await cmInformer.stop();
  });

  it('are seeded: the same seed gives the same delays, bursts included', async () => {
    const { WatchDelays } = await import('../../../src/testbed/cluster/apiserver/index.js');
    const profile = { minMs: 10, maxMs: 200, burstChance: 0.2, burstMs: 1_000, burstDelayMs: 5_000 };
    const draw = (seed: number) => {
      const d = new WatchDelays({ seed, profiles: { '*': profile } });
      return Array.from({ length: 50 }, (_, i) => d.delayFor('nodeclaims', i * 100));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(Math.max(...draw(7))).toBeGreaterThan(200);
    expect(Math.min(...draw(7))).toBeGreaterThanOrEqual(10);
  });

  it('refuse a profile that makes no sense, naming the field', () => {
    expect(() => server.watchDelays.set('pods', { minMs: 5, maxMs: 1 })).toThrow('watch delay of pods: maxMs 1 is below minMs 5');
    expect(() => server.watchDelays.set('pods', { minMs: -1, maxMs: 1 })).toThrow('minMs is -1');
  });
});
