import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { nodePoolCrd, pod, rawRequest, statusOf, unexpectedSuccess } from './apiserver-fixtures.js';

let server: ApiServer;
let core: k8s.CoreV1Api;
let custom: k8s.CustomObjectsApi;
const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));

beforeAll(async () => {
  server = await startApiServer({ clock });
  core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
  custom = server.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  await core.createNamespace({ body: { metadata: { name: 'crud' } } });
});

afterAll(async () => {
  await server.close();
});

describe('create and read', () => {
  it('stamps uid, creationTimestamp from the clock, generation and a global resourceVersion', async () => {
    const before = Number((await core.listNamespacedPod({ namespace: 'crud' })).metadata?.resourceVersion);
    const created = await core.createNamespacedPod({ namespace: 'crud', body: pod('stamped') });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.creationTimestamp?.getTime()).toBe(clock.now());
    expect(created.metadata?.generation).toBe(1);
    expect(Number(created.metadata?.resourceVersion)).toBeGreaterThan(before);
    expect(created.status?.phase).toBe('Pending');
    const read = await core.readNamespacedPod({ namespace: 'crud', name: 'stamped' });
    expect(read.metadata?.uid).toBe(created.metadata?.uid);
  });

  it('fills the name from generateName', async () => {
    const created = await core.createNamespacedPod({
      namespace: 'crud',
      body: { metadata: { generateName: 'inflate-' }, spec: pod('x').spec },
    });
    expect(created.metadata?.name).toMatch(/^inflate-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('answers 409 AlreadyExists and 404 NotFound with the real wording', async () => {
    await core.createNamespacedConfigMap({ namespace: 'crud', body: { metadata: { name: 'dup' }, data: { a: '1' } } });
    const dup = await core
      .createNamespacedConfigMap({ namespace: 'crud', body: { metadata: { name: 'dup' } } })
      .then(unexpectedSuccess, statusOf);
    expect(dup).toMatchObject({ code: 409, reason: 'AlreadyExists', message: 'configmaps "dup" already exists' });
    const missing = await core.readNamespacedPod({ namespace: 'crud', name: 'ghost' }).then(unexpectedSuccess, statusOf);
    expect(missing).toMatchObject({ code: 404, reason: 'NotFound', message: 'pods "ghost" not found' });
    const noNs = await core.createNamespacedPod({ namespace: 'nowhere', body: pod('p') }).then(unexpectedSuccess, statusOf);
    expect(noNs).toMatchObject({ code: 404, message: 'namespaces "nowhere" not found' });
  });

  it('encodes Secret stringData into data', async () => {
    await core.createNamespacedSecret({ namespace: 'crud', body: { metadata: { name: 'creds' }, stringData: { token: 'abc' } } });
    const secret = await core.readNamespacedSecret({ namespace: 'crud', name: 'creds' });
    expect(secret.data).toEqual({ token: Buffer.from('abc').toString('base64') });
    expect(secret.type).toBe('Opaque');
  });

  it('does not store anything on dryRun=All', async () => {
    const dry = await core.createNamespacedConfigMap({ namespace: 'crud', body: { metadata: { name: 'dry' } }, dryRun: 'All' });
    expect(dry.metadata?.name).toBe('dry');
    expect(await core.readNamespacedConfigMap({ namespace: 'crud', name: 'dry' }).then(unexpectedSuccess, statusOf)).toMatchObject({
      code: 404,
    });
  });
});

describe('list', () => {
  beforeAll(async () => {
    await core.createNamespace({ body: { metadata: { name: 'sel' } } });
    for (const [name, labels, node] of [
      ['a', { app: 'web', tier: 'front' }, 'n1'],
      ['b', { app: 'web', tier: 'back' }, 'n2'],
      ['c', { app: 'db' }, ''],
      ['d', {}, 'n1'],
    ] as const) {
      await core.createNamespacedPod({ namespace: 'sel', body: pod(name, labels, node ? { nodeName: node } : {}) });
    }
  });

  it.each([
    ['app=web', ['a', 'b']],
    ['app==web,tier!=back', ['a']],
    ['app in (web, db)', ['a', 'b', 'c']],
    ['app notin (web)', ['c', 'd']],
    ['tier', ['a', 'b']],
    ['!app', ['d']],
  ])('labelSelector %s', async (labelSelector, names) => {
    const list = await core.listNamespacedPod({ namespace: 'sel', labelSelector });
    expect(list.items.map((p) => p.metadata?.name)).toEqual(names);
  });

  it.each([
    ['spec.nodeName=n1', ['a', 'd']],
    ['spec.nodeName=', ['c']],
    ['spec.nodeName!=,metadata.name!=a', ['b', 'd']],
    ['status.phase=Pending', ['a', 'b', 'c', 'd']],
  ])('fieldSelector %s', async (fieldSelector, names) => {
    const list = await core.listNamespacedPod({ namespace: 'sel', fieldSelector });
    expect(list.items.map((p) => p.metadata?.name)).toEqual(names);
  });

  it('rejects unsupported fields and malformed selectors with 400', async () => {
    expect(
      await core.listNamespacedPod({ namespace: 'sel', fieldSelector: 'spec.bogus=x' }).then(unexpectedSuccess, statusOf),
    ).toMatchObject({ code: 400, message: 'field label not supported: spec.bogus' });
    expect(await core.listNamespacedPod({ namespace: 'sel', labelSelector: 'a in (x' }).then(unexpectedSuccess, statusOf)).toMatchObject({
      code: 400,
    });
  });

  it('pages with limit and continue', async () => {
    const first = await core.listNamespacedPod({ namespace: 'sel', limit: 3 });
    expect(first.items.map((p) => p.metadata?.name)).toEqual(['a', 'b', 'c']);
    expect(first.metadata?.remainingItemCount).toBe(1);
    const second = await core.listNamespacedPod({ namespace: 'sel', limit: 3, _continue: first.metadata?._continue });
    expect(second.items.map((p) => p.metadata?.name)).toEqual(['d']);
    expect(second.metadata?._continue).toBeUndefined();
  });

  it('lists across namespaces', async () => {
    const all = await core.listPodForAllNamespaces({ labelSelector: 'app=web' });
    expect(all.items.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`)).toEqual(['sel/a', 'sel/b']);
  });
});

describe('update', () => {
  it('answers a stale resourceVersion with 409 Conflict and the real message', async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: 'crud', body: { metadata: { name: 'occ' }, data: { v: '1' } } });
    await core.replaceNamespacedConfigMap({ namespace: 'crud', name: 'occ', body: { ...cm, data: { v: '2' } } });
    const stale = await core
      .replaceNamespacedConfigMap({ namespace: 'crud', name: 'occ', body: { ...cm, data: { v: '3' } } })
      .then(unexpectedSuccess, statusOf);
    expect(stale).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "occ": the object has been modified; please apply your changes to the latest version and try again',
    });
    expect((await core.readNamespacedConfigMap({ namespace: 'crud', name: 'occ' })).data).toEqual({ v: '2' });
  });

  it('bumps generation on spec changes only, and keeps status out of the main resource', async () => {
    await custom
      .createClusterCustomObject({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', body: nodePoolCrd })
      .catch(() => undefined);
    const np = (await custom.createClusterCustomObject({
      group: 'karpenter.sh',
      version: 'v1',
      plural: 'nodepools',
      body: { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'gen' }, spec: { weight: 1 }, status: { nodes: 9 } },
    })) as { metadata: { generation: number }; status?: unknown };
    expect(np.metadata.generation).toBe(1);
    expect(np.status).toBeUndefined();
    const statusPatched = (await custom.patchClusterCustomObjectStatus(
      { group: 'karpenter.sh', version: 'v1', plural: 'nodepools', name: 'gen', body: { status: { nodes: 2 }, spec: { weight: 50 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    )) as { metadata: { generation: number }; spec: { weight: number }; status: { nodes: number } };
    expect(statusPatched).toMatchObject({ metadata: { generation: 1 }, spec: { weight: 1 }, status: { nodes: 2 } });
    const specPatched = (await custom.patchClusterCustomObject(
      { group: 'karpenter.sh', version: 'v1', plural: 'nodepools', name: 'gen', body: { spec: { weight: 7 }, status: { nodes: 100 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    )) as { metadata: { generation: number }; spec: { weight: number }; status: { nodes: number } };
    expect(specPatched).toMatchObject({ metadata: { generation: 2 }, spec: { weight: 7 }, status: { nodes: 2 } });
  });
});

describe('patch', () => {
  it('applies JSON patch, merge patch and strategic merge (labels, taints, pod conditions)', async () => {
    await core.createNode({
      body: { metadata: { name: 'patch-node', labels: { a: '1' } }, spec: { taints: [{ key: 'k1', effect: 'NoSchedule' }] } },
    });
    const json = await core.patchNode(
      { name: 'patch-node', body: [{ op: 'add', path: '/metadata/labels/b', value: '2' }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    expect(json.metadata?.labels).toEqual({ a: '1', b: '2' });
    const merge = await core.patchNode(
      { name: 'patch-node', body: { metadata: { labels: { a: null } } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(merge.metadata?.labels).toEqual({ b: '2' });
    const strategic = await core.patchNode(
      {
        name: 'patch-node',
        body: { metadata: { finalizers: ['f1'] }, spec: { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] } },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(strategic.spec?.taints?.map((t) => t.key)).toEqual(['karpenter.sh/disrupted']);
    expect(strategic.metadata?.finalizers).toEqual(['f1']);
    await core.createNamespacedPod({ namespace: 'crud', body: pod('cond') });
    await core.patchNamespacedPodStatus(
      {
        namespace: 'crud',
        name: 'cond',
        body: {
          status: {
            conditions: [
              { type: 'Ready', status: 'False' },
              { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' },
            ],
          },
        },
      },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    const merged = await core.patchNamespacedPodStatus(
      { namespace: 'crud', name: 'cond', body: { status: { conditions: [{ type: 'Ready', status: 'True' }] } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(merged.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=True', 'PodScheduled=False']);
  });

  it('refuses strategic merge on custom resources with 415', async () => {
    await custom
      .createClusterCustomObject({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', body: nodePoolCrd })
      .catch(() => undefined);
    await custom.createClusterCustomObject({
      group: 'karpenter.sh',
      version: 'v1',
      plural: 'nodepools',
      body: { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'smp' }, spec: {} },
    });
    const res = await rawRequest(
      `${server.url}/apis/karpenter.sh/v1/nodepools/smp`,
      'PATCH',
      '{"spec":{}}',
      'application/strategic-merge-patch+json',
    );
    expect(res.status).toBe(415);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType' });
  });
});

describe('finalizers', () => {
  it('hold deletion with a deletionTimestamp until the last finalizer goes', async () => {
    await core.createNamespacedConfigMap({
      namespace: 'crud',
      body: { metadata: { name: 'held', finalizers: ['karpenter.sh/termination', 'other'] } },
    });
    clock.step(5_000);
    const deleting = await core.deleteNamespacedConfigMap({ namespace: 'crud', name: 'held' });
    const held = await core.readNamespacedConfigMap({ namespace: 'crud', name: 'held' });
    expect(held.metadata?.deletionTimestamp?.getTime()).toBe(clock.now());
    expect(held.metadata?.deletionTimestamp?.getTime()).toBeGreaterThan(held.metadata?.creationTimestamp?.getTime() ?? Infinity);
    expect(deleting).toBeDefined();
    const late = await core
      .patchNamespacedConfigMap(
        { namespace: 'crud', name: 'held', body: { metadata: { finalizers: ['karpenter.sh/termination', 'other', 'new'] } } },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
      )
      .then(unexpectedSuccess, statusOf);
    expect(late).toMatchObject({ code: 422 });
    await core.patchNamespacedConfigMap(
      { namespace: 'crud', name: 'held', body: [{ op: 'remove', path: '/metadata/finalizers/1' }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    expect((await core.readNamespacedConfigMap({ namespace: 'crud', name: 'held' })).metadata?.finalizers).toEqual([
      'karpenter.sh/termination',
    ]);
    await core.patchNamespacedConfigMap(
      { namespace: 'crud', name: 'held', body: { metadata: { finalizers: null } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    expect(await core.readNamespacedConfigMap({ namespace: 'crud', name: 'held' }).then(unexpectedSuccess, statusOf)).toMatchObject({
      code: 404,
    });
  });
});

describe('bad input', () => {
  beforeAll(async () => {
    await core.createNamespacedConfigMap({ namespace: 'crud', body: { metadata: { name: 'target' }, data: { a: '1' } } });
  });

  it.each([
    ['POST', '/api/v1/namespaces/crud/configmaps', '{not json', 'application/json', 400],
    ['POST', '/api/v1/namespaces/crud/configmaps', '[1,2]', 'application/json', 400],
    [
      'POST',
      '/api/v1/namespaces/crud/configmaps',
      '{"apiVersion":"apps/v1","kind":"ConfigMap","metadata":{"name":"x"}}',
      'application/json',
      400,
    ],
    ['POST', '/api/v1/namespaces/crud/configmaps', 'x', 'text/plain', 415],
    ['POST', '/api/v1/namespaces/crud/configmaps', '{"metadata":{"name":"Bad_Name"}}', 'application/json', 422],
    ['POST', '/api/v1/namespaces/crud/configmaps', '{"metadata":{}}', 'application/json', 422],
    ['POST', '/api/v1/namespaces/crud/pods', '{"metadata":{"name":"nocontainers"},"spec":{}}', 'application/json', 422],
    ['PATCH', '/api/v1/namespaces/crud/configmaps/target', '{}', 'application/xml', 415],
    [
      'PATCH',
      '/api/v1/namespaces/crud/configmaps/target',
      '[{"op":"test","path":"/data/a","value":"nope"}]',
      'application/json-patch+json',
      422,
    ],
    ['PUT', '/api/v1/namespaces/crud/configmaps', '{}', 'application/json', 405],
    ['GET', '/api/v1/nothings', undefined, 'application/json', 404],
    ['GET', '/apis/nope.example/v1', undefined, 'application/json', 404],
    ['PUT', '/api/v1/namespaces/crud/configmaps/target', '{"metadata":{"name":"other"}}', 'application/json', 400],
    ['GET', '/api/v1/pods?limit=-1', undefined, 'application/json', 400],
    ['POST', '/api/v1/namespaces/crud/configmaps?dryRun=Some', '{"metadata":{"name":"d"}}', 'application/json', 400],
  ])('%s %s (%s) → Status %i', async (method, path, body, contentType, code) => {
    const res = await rawRequest(`${server.url}${path}`, method, body, contentType);
    expect(res.status).toBe(code);
    expect(res.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code });
    expect(typeof res.json.message).toBe('string');
  });
});

describe('discovery', () => {
  it('serves /api, /apis, group/version resource lists and /version', async () => {
    expect((await rawRequest(`${server.url}/api`, 'GET')).json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const groups = (await rawRequest(`${server.url}/apis`, 'GET')).json as { groups: Array<{ name: string }> };
    expect(groups.groups.map((g) => g.name)).toEqual(
      expect.arrayContaining(['apps', 'policy', 'coordination.k8s.io', 'apiextensions.k8s.io', 'admissionregistration.k8s.io']),
    );
    const core = (await rawRequest(`${server.url}/api/v1`, 'GET')).json as { resources: Array<{ name: string; namespaced: boolean }> };
    expect(core.resources.map((r) => r.name)).toEqual(
      expect.arrayContaining(['pods', 'pods/status', 'pods/binding', 'pods/eviction', 'nodes', 'nodes/status', 'events', 'secrets']),
    );
    expect((await rawRequest(`${server.url}/version`, 'GET')).json).toMatchObject({ major: '1' });
  });
});
