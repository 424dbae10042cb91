import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { FakeClock } from '../../../src/util/clock.js';
import {
  StaticInstanceSource,
  startSimulatedCluster,
  type CloudInstance,
  type ExtenderConfig,
  type SimulatedCluster,
} from '../../../src/testbed/cluster/index.js';
import { eventually } from './apiserver-fixtures.js';
import { ovhInstance, podOn, podScheduled } from './cluster-fixtures.js';

let cluster: SimulatedCluster | undefined;
const servers: http.Server[] = [];

afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A cluster whose nodes are all Ready, as seen by the scheduler, before the test creates pods. */
async function readyCluster(
  instances: CloudInstance[],
  extender?: ExtenderConfig,
): Promise<{ cluster: SimulatedCluster; core: k8s.CoreV1Api; clock: FakeClock; source: StaticInstanceSource }> {
  const clock = new FakeClock();
  const source = new StaticInstanceSource('ovhcloud');
  for (const i of instances) source.add(i);
  cluster = await startSimulatedCluster({
    clock,
    cloudSources: [source],
    kubelet: { readyDelayMs: 0, podStartDelayMs: 0 },
    ...(extender ? { extender } : {}),
  });
  await cluster.kubelet.sync();
  const c = cluster;
  await eventually(
    () =>
      c.scheduler.nodes.size === instances.length &&
      [...c.scheduler.nodes.values()].every((n) => !n.spec?.taints?.some((t) => t.key === 'node.kubernetes.io/not-ready')),
  );
  return { cluster: c, core: c.kubeConfig.makeApiClient(k8s.CoreV1Api), clock, source };
}

async function boundNode(core: k8s.CoreV1Api, name: string): Promise<string> {
  return eventually(async () => (await core.readNamespacedPod({ namespace: 'default', name })).spec?.nodeName);
}

async function unschedulableMessage(core: k8s.CoreV1Api, name: string): Promise<string> {
  return eventually(async () => {
    const c = podScheduled(await core.readNamespacedPod({ namespace: 'default', name }));
    return c?.status === 'False' && c.reason === 'Unschedulable' ? c.message : undefined;
  });
}

const small = ovhInstance('small', { nodeName: 'small', capacity: { cpu: '1', memory: '4Gi', pods: '110' } });
const large = ovhInstance('large', { nodeName: 'large', capacity: { cpu: '4', memory: '16Gi', pods: '110' } });

describe('scheduler simulator', () => {
  it('binds a pod to the node it fits on, and the kubelet runs it', async () => {
    const { cluster: c, core } = await readyCluster([small, large]);
    await core.createNamespacedPod({ namespace: 'default', body: podOn('big', {}, {}, '2') });
    expect(await boundNode(core, 'big')).toBe('large');
    await eventually(() => c.kubelet.pods.get('default/big')?.spec?.nodeName);
    await c.kubelet.sync();
    await eventually(async () => (await core.readNamespacedPod({ namespace: 'default', name: 'big' })).status?.phase === 'Running');
    expect(c.scheduler.stats.scheduled).toBe(1);
  });

  it("marks a pod that fits nowhere PodScheduled=False/Unschedulable with kube-scheduler's message", async () => {
    const { core } = await readyCluster([small, large]);
    await core.createNamespacedPod({ namespace: 'default', body: podOn('huge', {}, {}, '16') });
    expect(await unschedulableMessage(core, 'huge')).toBe(
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
  });

  it('honours taints, tolerations and nodeSelector', async () => {
    const tainted = ovhInstance('gpu', {
      nodeName: 'gpu',
      labels: { pool: 'gpu' },
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    });
    const { core, clock } = await readyCluster([tainted, large]);
    await core.createNamespacedPod({ namespace: 'default', body: podOn('picky', { nodeSelector: { pool: 'gpu' } }) });
    expect(await unschedulableMessage(core, 'picky')).toBe(
      "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    );
    await core.createNamespacedPod({
      namespace: 'default',
      body: podOn('tolerant', {
        nodeSelector: { pool: 'gpu' },
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
      }),
    });
    expect(await boundNode(core, 'tolerant')).toBe('gpu');
    await core.createNamespacedPod({ namespace: 'default', body: podOn('plain') });
    expect(await boundNode(core, 'plain')).toBe('large');
    clock.step(10_000);
    const picky = await core.readNamespacedPod({ namespace: 'default', name: 'picky' });
    expect(picky.spec?.nodeName).toBeUndefined();
  });

  it('spreads pods across zones and keeps anti-affine pods on separate hosts', async () => {
    const zoneA = [ovhInstance('a1', { nodeName: 'a1', zone: 'zone-a' }), ovhInstance('a2', { nodeName: 'a2', zone: 'zone-a' })];
    const zoneB = [ovhInstance('b1', { nodeName: 'b1', zone: 'zone-b' })];
    const { cluster: c, core } = await readyCluster([...zoneA, ...zoneB]);
    const spread = {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
        },
      ],
    };
    for (const name of ['web-1', 'web-2', 'web-3', 'web-4']) {
      await core.createNamespacedPod({ namespace: 'default', body: podOn(name, spread, { app: 'web' }) });
      await boundNode(core, name);
      await eventually(() => c.scheduler.pods.get(`default/${name}`)?.spec?.nodeName);
    }
    const zones = await Promise.all(
      ['web-1', 'web-2', 'web-3', 'web-4'].map(async (n) => ((await boundNode(core, n)) === 'b1' ? 'b' : 'a')),
    );
    expect(zones.filter((z) => z === 'b')).toHaveLength(2);

    const anti = {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'db' } } },
          ],
        },
      },
    };
    const hosts = new Set<string>();
    for (const name of ['db-1', 'db-2', 'db-3']) {
      await core.createNamespacedPod({ namespace: 'default', body: podOn(name, anti, { app: 'db' }) });
      hosts.add(await boundNode(core, name));
      await eventually(() => c.scheduler.pods.get(`default/${name}`)?.spec?.nodeName);
    }
    expect(hosts.size).toBe(3);
    await core.createNamespacedPod({ namespace: 'default', body: podOn('db-4', anti, { app: 'db' }) });
    expect(await unschedulableMessage(core, 'db-4')).toContain("3 node(s) didn't match pod anti-affinity rules");
  });

  it("calls the extender with kube-scheduler's wire body and honours its filter result", async () => {
    const bodies: Array<{ path: string; body: Record<string, unknown> }> = [];
    const extenderServer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { NodeNames: string[] };
        bodies.push({ path: req.url ?? '', body });
        res.setHeader('Content-Type', 'application/json');
        if (req.url?.endsWith('/filter')) {
          res.end(
            JSON.stringify({
              Nodes: null,
              NodeNames: body.NodeNames.filter((n) => n !== 'large'),
              FailedNodes: { large: 'no capacity type offering for this node' },
              FailedAndUnresolvableNodes: {},
              Error: '',
            }),
          );
        } else {
          res.end(JSON.stringify(body.NodeNames.map((n) => ({ Host: n, Score: n === 'small' ? 10 : 0 }))));
        }
      });
    });
    servers.push(extenderServer);
    await new Promise<void>((resolve) => extenderServer.listen(0, '127.0.0.1', resolve));
    const port = (extenderServer.address() as { port: number }).port;
    const second = ovhInstance('other', { nodeName: 'other', capacity: { cpu: '1', memory: '4Gi', pods: '110' } });
    const { cluster: c, core } = await readyCluster([small, large, second], {
      urlPrefix: `http://127.0.0.1:${port}/scheduler/`,
      filterVerb: 'filter',
      prioritizeVerb: 'prioritize',
      weight: 2,
      nodeCacheCapable: true,
      httpTimeoutMs: 2_000,
    });
    await core.createNamespacedPod({ namespace: 'default', body: podOn('ext') });
    expect(await boundNode(core, 'ext')).toBe('small');
    const filter = bodies.find((b) => b.path === '/scheduler/filter');
    expect(filter?.body.Nodes).toBeNull();
    expect([...(filter?.body.NodeNames as string[])].sort()).toEqual(['large', 'other', 'small']);
    expect((filter?.body.Pod as k8s.V1Pod).metadata?.name).toBe('ext');
    const prioritize = bodies.find((b) => b.path === '/scheduler/prioritize');
    expect([...(prioritize?.body.NodeNames as string[])].sort()).toEqual(['other', 'small']);
    expect(c.scheduler.stats).toMatchObject({ extenderFilterCalls: 1, extenderPrioritizeCalls: 1 });

    await core.createNamespacedPod({ namespace: 'default', body: podOn('too-big', {}, {}, '3') });
    expect(await unschedulableMessage(core, 'too-big')).toBe(
      '0/3 nodes are available: 1 no capacity type offering for this node, 2 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });

  it('reports SchedulerError when a non-ignorable extender fails, and skips an ignorable one', async () => {
    const failing = http.createServer((_req, res) => {
      res.statusCode = 500;
      res.end('boom');
    });
    servers.push(failing);
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const urlPrefix = `http://127.0.0.1:${(failing.address() as { port: number }).port}`;
    const { core } = await readyCluster([large], { urlPrefix, filterVerb: 'filter' });
    await core.createNamespacedPod({ namespace: 'default', body: podOn('stuck') });
    const condition = await eventually(async () => {
      const c = podScheduled(await core.readNamespacedPod({ namespace: 'default', name: 'stuck' }));
      return c?.reason === 'SchedulerError' ? c : undefined;
    });
    expect(condition.message).toBe(`failed filter with extender at URL ${urlPrefix}/filter, code 500`);
    await cluster?.close();
    const ignorable = await readyCluster([large], { urlPrefix, filterVerb: 'filter', ignorable: true });
    await ignorable.core.createNamespacedPod({ namespace: 'default', body: podOn('through') });
    expect(await boundNode(ignorable.core, 'through')).toBe('large');
  });

  it('retries an unschedulable pod once a node joins and its backoff is over', async () => {
    const { cluster: c, core, clock, source } = await readyCluster([small]);
    await core.createNamespacedPod({ namespace: 'default', body: podOn('waits', {}, {}, '2') });
    await unschedulableMessage(core, 'waits');
    source.add(large);
    await c.kubelet.sync();
    await eventually(() => c.scheduler.nodes.get('large') && !c.scheduler.nodes.get('large')?.spec?.taints);
    clock.step(1_000);
    expect(await boundNode(core, 'waits')).toBe('large');
  });
});
