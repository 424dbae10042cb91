import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { V1Node, V1Pod, V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { NodeClaim } from '../../../src/apis/index.js';
import {
  createKube,
  ignoreKubeNotFound,
  type Kube,
  KubeAlreadyExists,
  KubeConflict,
  KubeInvalid,
  KubeNotFound,
  KubeTooManyRequests,
  KubeUnreachable,
  Resources,
} from '../../../src/kube/index.js';
import type { ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { kubeConfigFor } from '../../../src/testbed/cluster/apiserver/kubeconfig.js';
import { pod, startClusterWithCrds } from './kube-fixtures.js';
import { nodeClaim } from './kube-fixtures-objects.js';

let server: ApiServer;
let kube: Kube;

beforeEach(async () => {
  server = await startClusterWithCrds();
  kube = createKube(server.kubeConfig);
});

afterEach(async () => {
  await server.close();
});

describe('Kube over client-node against the simulated API server', () => {
  it('creates, gets and lists built-in and custom kinds as plain wire JSON', async () => {
    await kube.create(Resources.Pod, pod('web-1'));
    await kube.create(Resources.NodeClaim, nodeClaim('default-abc', 'default'));
    const got = await kube.get<V1Pod>(Resources.Pod, { name: 'web-1', namespace: 'default' });
    // Timestamps stay RFC 3339 strings (the typed API would have made a Date).
    expect(typeof got.metadata?.creationTimestamp).toBe('string');
    const pods = await kube.list<V1Pod>(Resources.Pod);
    expect(pods.items.map((p) => p.metadata?.name)).toEqual(['web-1']);
    expect(Number(pods.resourceVersion)).toBeGreaterThan(0);
    const claims = await kube.list<NodeClaim>(Resources.NodeClaim);
    expect(claims.items.map((c) => c.metadata?.name)).toEqual(['default-abc']);
  });

  it('generates a name from generateName', async () => {
    const created = await kube.create<NodeClaim>(Resources.NodeClaim, {
      ...nodeClaim('', 'default'),
      metadata: { generateName: 'default-', labels: {} },
    });
    expect(created.metadata?.name).toMatch(/^default-[a-z0-9]{5}$/);
  });

  it('maps 404, 409 and 422 to typed errors', async () => {
    await expect(kube.get(Resources.Node, { name: 'missing' })).rejects.toBeInstanceOf(KubeNotFound);
    await expect(kube.delete(Resources.NodeClaim, { name: 'missing' })).rejects.toBeInstanceOf(KubeNotFound);
    expect(await kube.delete(Resources.Pod, { name: 'missing', namespace: 'default' }).catch(ignoreKubeNotFound)).toBeUndefined();
    await kube.create(Resources.Pod, pod('dup'));
    const clash = await kube.create(Resources.Pod, pod('dup')).catch((e: unknown) => e);
    expect(clash).toBeInstanceOf(KubeAlreadyExists);
    expect(clash).toBeInstanceOf(KubeConflict);
    expect((clash as KubeConflict).code).toBe(409);
    expect((clash as Error).message).toMatch(/^creating pod default\/dup: /);
    const invalid = await kube.create(Resources.Pod, pod('Not_A_DNS_Name')).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(KubeInvalid);
  });

  it('answers a stale resourceVersion on replace with KubeConflict', async () => {
    const created = await kube.create<V1Node>(Resources.Node, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    await kube.replace(Resources.Node, { ...created, metadata: { ...created.metadata, labels: { a: '1' } } });
    const stale = await kube
      .replace(Resources.Node, { ...created, metadata: { ...created.metadata, labels: { a: '2' } } })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(KubeConflict);
    expect(stale).not.toBeInstanceOf(KubeAlreadyExists);
  });

  it('applies merge and JSON patches, on objects and on status', async () => {
    await kube.create(Resources.NodeClaim, nodeClaim('c1', 'default'));
    const merged = await kube.patch<NodeClaim>(
      Resources.NodeClaim,
      { name: 'c1' },
      { type: 'merge', body: { metadata: { labels: { extra: 'yes' } } } },
    );
    expect(merged.metadata?.labels).toMatchObject({ 'karpenter.sh/nodepool': 'default', extra: 'yes' });
    const status = await kube.patch<NodeClaim>(
      Resources.NodeClaim,
      { name: 'c1' },
      { type: 'merge', body: { status: { providerID: 'scaleway://fr-par-1/abc' } } },
      { status: true },
    );
    expect(status.status?.providerID).toBe('scaleway://fr-par-1/abc');
    const json = await kube.patch<NodeClaim>(
      Resources.NodeClaim,
      { name: 'c1' },
      {
        type: 'json',
        body: [
          { op: 'test', path: '/metadata/labels/extra', value: 'yes' },
          { op: 'remove', path: '/metadata/labels/extra' },
        ],
      },
    );
    expect(json.metadata?.labels).toEqual({ 'karpenter.sh/nodepool': 'default' });
    const failedTest = await kube
      .patch(Resources.NodeClaim, { name: 'c1' }, { type: 'json', body: [{ op: 'test', path: '/metadata/labels/extra', value: 'yes' }] })
      .catch((e: unknown) => e);
    expect(failedTest).toBeInstanceOf(Error);
    expect((failedTest as KubeInvalid).code).toBeGreaterThanOrEqual(400);
    await kube.create<V1Node>(Resources.Node, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' }, spec: { unschedulable: false } });
    const node = await kube.patch<V1Node>(
      Resources.Node,
      { name: 'n2' },
      { type: 'json', body: [{ op: 'add', path: '/spec/taints', value: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] }] },
    );
    expect(node.spec?.taints).toEqual([{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }]);
  });

  it('evicts through the Eviction API, and a PDB refusal is KubeTooManyRequests', async () => {
    await kube.create<V1Node>(Resources.Node, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    await kube.create(Resources.Pod, pod('free', { spec: { nodeName: 'n1', containers: [{ name: 'a', image: 'x' }] } }));
    await kube.create(
      Resources.Pod,
      pod('guarded', {
        metadata: { name: 'guarded', labels: { app: 'db' } },
        spec: { nodeName: 'n1', containers: [{ name: 'a', image: 'x' }] },
      }),
    );
    const pdb: V1PodDisruptionBudget = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'db', namespace: 'default' },
      spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'db' } } },
    };
    await kube.create(Resources.PodDisruptionBudget, pdb);
    await kube.patch(
      Resources.Pod,
      { name: 'guarded', namespace: 'default' },
      { type: 'merge', body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } } },
      { status: true },
    );
    await server.settle();
    await kube.evict({ name: 'free', namespace: 'default' });
    await expect(kube.get(Resources.Pod, { name: 'free', namespace: 'default' })).rejects.toBeInstanceOf(KubeNotFound);
    const refused = await kube.evict({ name: 'guarded', namespace: 'default' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KubeTooManyRequests);
    expect((refused as KubeTooManyRequests).code).toBe(429);
  });

  it('reports an unreachable server as KubeUnreachable', async () => {
    const dead = createKube(kubeConfigFor('http://127.0.0.1:1'));
    await expect(dead.list(Resources.Node)).rejects.toBeInstanceOf(KubeUnreachable);
  });

  it('gives up on a server that accepts the request and never answers (KubeUnreachable naming the call)', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const hung = createKube(kubeConfigFor(`http://127.0.0.1:${port}`), { requestTimeoutMs: 200 });
      const failure = await hung.get(Resources.NodeClaim, { name: 'default-abc' }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(KubeUnreachable);
      expect(String((failure as Error).message)).toBe('getting nodeclaim default-abc: no answer from the API server within 0.2s');
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
