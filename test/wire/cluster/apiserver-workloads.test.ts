import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { nodePoolCrd, pod, rawRequest, statusOf, unexpectedSuccess } from './apiserver-fixtures.js';

let server: ApiServer;
let core: k8s.CoreV1Api;
let apps: k8s.AppsV1Api;
let policy: k8s.PolicyV1Api;
let custom: k8s.CustomObjectsApi;

beforeAll(async () => {
  server = await startApiServer({ clock: new FakeClock() });
  core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
  apps = server.kubeConfig.makeApiClient(k8s.AppsV1Api);
  policy = server.kubeConfig.makeApiClient(k8s.PolicyV1Api);
  custom = server.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});

afterAll(async () => {
  await server.close();
});

async function markReady(namespace: string, name: string): Promise<void> {
  await core.patchNamespacedPodStatus(
    { namespace, name, body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } } },
    k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
  );
}

describe('deployments', () => {
  it('keep replicas as owned pods named <deployment>-<hash>-<rand>, scaling up and down', async () => {
    await core.createNamespace({ body: { metadata: { name: 'deploy' } } });
    await apps.createNamespacedDeployment({
      namespace: 'deploy',
      body: {
        metadata: { name: 'inflate' },
        spec: {
          replicas: 3,
          selector: { matchLabels: { app: 'inflate' } },
          template: { metadata: { labels: { app: 'inflate' } }, spec: pod('x').spec! },
        },
      },
    });
    await server.settle();
    const [rs] = (await apps.listNamespacedReplicaSet({ namespace: 'deploy' })).items;
    const pods = (await core.listNamespacedPod({ namespace: 'deploy', labelSelector: 'app=inflate' })).items;
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata?.name).toMatch(new RegExp(`^${rs?.metadata?.name ?? '?'}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(p.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet', name: rs?.metadata?.name, controller: true });
      expect(p.metadata?.labels?.['pod-template-hash']).toBe(rs?.metadata?.labels?.['pod-template-hash']);
    }
    await apps.patchNamespacedDeployment(
      { namespace: 'deploy', name: 'inflate', body: { spec: { replicas: 1 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    await server.settle();
    expect((await core.listNamespacedPod({ namespace: 'deploy' })).items).toHaveLength(1);
    const deployment = await apps.readNamespacedDeployment({ namespace: 'deploy', name: 'inflate' });
    expect(deployment.status).toMatchObject({ replicas: 1, observedGeneration: 2 });
    expect(server.controllerErrors()).toEqual([]);
  });

  it('cascade: deleting the deployment removes its replicaset and pods', async () => {
    await core.createNamespace({ body: { metadata: { name: 'cascade' } } });
    await apps.createNamespacedDeployment({
      namespace: 'cascade',
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: pod('x').spec! },
        },
      },
    });
    await server.settle();
    expect((await core.listNamespacedPod({ namespace: 'cascade' })).items).toHaveLength(2);
    await apps.deleteNamespacedDeployment({ namespace: 'cascade', name: 'web' });
    await server.settle();
    expect((await apps.listNamespacedReplicaSet({ namespace: 'cascade' })).items).toHaveLength(0);
    expect((await core.listNamespacedPod({ namespace: 'cascade' })).items).toHaveLength(0);
  });

  it('statefulsets get ordinal pods', async () => {
    await apps.createNamespacedStatefulSet({
      namespace: 'default',
      body: {
        metadata: { name: 'db' },
        spec: {
          serviceName: 'db',
          replicas: 2,
          selector: { matchLabels: { app: 'db' } },
          template: { metadata: { labels: { app: 'db' } }, spec: pod('x').spec! },
        },
      },
    });
    await server.settle();
    expect((await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=db' })).items.map((p) => p.metadata?.name)).toEqual([
      'db-0',
      'db-1',
    ]);
  });
});

describe('evictions and PodDisruptionBudgets', () => {
  it('computes PDB status and answers 429 with the real message when the budget blocks', async () => {
    await core.createNamespace({ body: { metadata: { name: 'pdb' } } });
    for (const name of ['a', 'b', 'c']) {
      await core.createNamespacedPod({ namespace: 'pdb', body: pod(name, { app: 'guarded' }, { nodeName: 'n1' }) });
      await markReady('pdb', name);
    }
    await policy.createNamespacedPodDisruptionBudget({
      namespace: 'pdb',
      body: { metadata: { name: 'guard' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'guarded' } } } },
    });
    await server.settle();
    const pdb = await policy.readNamespacedPodDisruptionBudget({ namespace: 'pdb', name: 'guard' });
    expect(pdb.status).toMatchObject({ currentHealthy: 3, desiredHealthy: 2, disruptionsAllowed: 1, expectedPods: 3 });

    await core.createNamespacedPodEviction({
      namespace: 'pdb',
      name: 'a',
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'a', namespace: 'pdb' } },
    });
    expect(await core.readNamespacedPod({ namespace: 'pdb', name: 'a' }).then(unexpectedSuccess, statusOf)).toMatchObject({ code: 404 });
    await server.settle();

    const blocked = await core
      .createNamespacedPodEviction({
        namespace: 'pdb',
        name: 'b',
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'b', namespace: 'pdb' } },
      })
      .then(unexpectedSuccess, statusOf);
    expect(blocked).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
    });
    expect(blocked.details?.causes?.[0]?.message).toBe('The disruption budget guard needs 2 healthy pods and has 2 currently');
    expect((await core.readNamespacedPod({ namespace: 'pdb', name: 'b' })).metadata?.deletionTimestamp).toBeUndefined();
  });

  it('lets pending pods go regardless of budgets', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: pod('pending-one', { app: 'strict' }) });
    await policy.createNamespacedPodDisruptionBudget({
      namespace: 'default',
      body: { metadata: { name: 'strict' }, spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'strict' } } } },
    });
    await core.createNamespacedPodEviction({ namespace: 'default', name: 'pending-one', body: { metadata: { name: 'pending-one' } } });
    expect(await core.readNamespacedPod({ namespace: 'default', name: 'pending-one' }).then(unexpectedSuccess, statusOf)).toMatchObject({
      code: 404,
    });
  });
});

describe('pods/binding', () => {
  it('binds once and answers 409 to a second binding', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: pod('to-bind') });
    await core.createNamespacedBinding({
      namespace: 'default',
      body: { metadata: { name: 'to-bind' }, target: { kind: 'Node', name: 'node-a' } },
    });
    const bound = await core.readNamespacedPod({ namespace: 'default', name: 'to-bind' });
    expect(bound.spec?.nodeName).toBe('node-a');
    expect(bound.status?.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True' })]);
    const again = await rawRequest(
      `${server.url}/api/v1/namespaces/default/pods/to-bind/binding`,
      'POST',
      JSON.stringify({ metadata: { name: 'to-bind' }, target: { name: 'node-b' } }),
    );
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(
      'Operation cannot be fulfilled on pods/binding "to-bind": pod to-bind is already assigned to node "node-a"',
    );
  });
});

describe('custom resources', () => {
  it('a CRD makes its kind served, discoverable and Established; deleting it removes the objects', async () => {
    expect(
      await custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools' }).then(unexpectedSuccess, statusOf),
    ).toMatchObject({ code: 404 });
    await custom.createClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      body: nodePoolCrd,
    });
    await custom.createClusterCustomObject({
      group: 'karpenter.sh',
      version: 'v1',
      plural: 'nodepools',
      body: { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'default' }, spec: {} },
    });
    const list = (await custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools' })) as {
      kind: string;
      items: unknown[];
    };
    expect(list).toMatchObject({
      kind: 'NodePoolList',
      items: [expect.objectContaining({ metadata: expect.objectContaining({ name: 'default' }) })],
    });
    const discovery = (await rawRequest(`${server.url}/apis/karpenter.sh/v1`, 'GET')).json as { resources: Array<{ name: string }> };
    expect(discovery.resources.map((r) => r.name)).toEqual(['nodepools', 'nodepools/status']);
    await server.settle();
    const crd = (await custom.getClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      name: 'nodepools.karpenter.sh',
    })) as { status: { conditions: Array<{ type: string; status: string }> } };
    expect(crd.status.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Established', status: 'True' })]));
    await custom.deleteClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      name: 'nodepools.karpenter.sh',
    });
    expect(
      await custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools' }).then(unexpectedSuccess, statusOf),
    ).toMatchObject({ code: 404 });
  });

  it('rejects a CRD whose name does not match its names with 422', async () => {
    const bad = { ...nodePoolCrd, metadata: { name: 'wrong.karpenter.sh' } };
    const err = await custom
      .createClusterCustomObject({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', body: bad })
      .then(unexpectedSuccess, statusOf);
    expect(err).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(err.message).toContain('must be spec.names.plural+"."+spec.group');
  });
});

describe('leases and namespaces', () => {
  it('creates, renews and conflicts on leases as leader election expects', async () => {
    const coordination = server.kubeConfig.makeApiClient(k8s.CoordinationV1Api);
    const lease = await coordination.createNamespacedLease({
      namespace: 'kube-system',
      body: { metadata: { name: 'karpenter-leader' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
    });
    const renewed = await coordination.replaceNamespacedLease({
      namespace: 'kube-system',
      name: 'karpenter-leader',
      body: { ...lease, spec: { ...lease.spec, holderIdentity: 'a', leaseTransitions: 0 } },
    });
    expect(renewed.spec?.holderIdentity).toBe('a');
    const stolen = await coordination
      .replaceNamespacedLease({ namespace: 'kube-system', name: 'karpenter-leader', body: { ...lease, spec: { holderIdentity: 'b' } } })
      .then(unexpectedSuccess, statusOf);
    expect(stolen).toMatchObject({ code: 409, reason: 'Conflict' });
  });

  it('a deleted namespace is emptied, then removed', async () => {
    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'cm' } } });
    await core.deleteNamespace({ name: 'doomed' });
    const creating = await core
      .createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'late' } } })
      .then(unexpectedSuccess, statusOf);
    expect([403, 404]).toContain(creating.code);
    await server.settle();
    expect(await core.readNamespace({ name: 'doomed' }).then(unexpectedSuccess, statusOf)).toMatchObject({ code: 404 });
  });
});
