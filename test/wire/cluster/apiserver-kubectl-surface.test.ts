/**
 * What kubectl relies on beyond CRUD, on the simulated API server: CRD structural defaulting on create and
 * update, the scale subresource (autoscaling/v1 Scale), Table options and cells, and the OpenAPI v3 schemas
 * `kubectl explain` reads. Each as kube-apiserver answers it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { buildCrd, CrdDefinitions } from '../../../src/apis/index.js';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { rawRequest } from './apiserver-fixtures.js';

let server: ApiServer;
const clock = new FakeClock(Date.UTC(2026, 0, 1, 12));

/** A CRD whose schema has defaults at every level structural defaulting reaches. */
const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
        },
        additionalPrinterColumns: [
          { name: 'Type', type: 'string', jsonPath: '.metadata.labels.node\\.kubernetes\\.io/instance-type' },
          { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                default: {},
                properties: {
                  replicas: { type: 'integer', default: 1 },
                  mode: { type: 'string', default: 'fast' },
                  policy: {
                    type: 'object',
                    default: { window: '5m' },
                    properties: { window: { type: 'string' }, burst: { type: 'integer', default: 2 } },
                  },
                  rules: { type: 'array', items: { type: 'object', properties: { weight: { type: 'integer', default: 10 } } } },
                  limits: {
                    type: 'object',
                    additionalProperties: { type: 'object', properties: { unit: { type: 'string', default: 'count' } } },
                  },
                  note: { type: 'string', default: 'none' },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

const widgets = () => `${server.url}/apis/example.com/v1/namespaces/default/widgets`;
/** A decoded JSON reply, read field by field in the assertions (expect() checks each shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped JSON by design
type Reply = any;

const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

async function request(url: string, init: { method?: string; body?: unknown; contentType?: string; accept?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  if (init.accept) headers.accept = init.accept;
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as Reply };
}

beforeAll(async () => {
  server = await startApiServer({ clock });
  const custom = server.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  const crdPlural = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };
  await custom.createClusterCustomObject({ ...crdPlural, body: widgetCrd });
  const nodePool = CrdDefinitions.map((d) => buildCrd(d) as { metadata: { name: string } }).find(
    (c) => c.metadata.name === 'nodepools.karpenter.sh',
  );
  await custom.createClusterCustomObject({ ...crdPlural, body: nodePool });
  await server.settle();
});

afterAll(async () => {
  await server.close();
});

describe('CRD structural defaulting', () => {
  it('fills absent fields, null non-nullable ones, array items and map values on create, leaving set values', async () => {
    const body = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { mode: 'slow', note: null, rules: [{}, { weight: 3 }], limits: { cpu: {}, pods: { unit: 'pods' } } },
    };
    const { status, json } = await request(widgets(), { method: 'POST', body });
    expect(status).toBe(201);
    expect(json.spec).toEqual({
      replicas: 1,
      mode: 'slow',
      note: 'none',
      policy: { window: '5m', burst: 2 },
      rules: [{ weight: 10 }, { weight: 3 }],
      limits: { cpu: { unit: 'count' }, pods: { unit: 'pods' } },
    });
  });

  it('defaults a whole absent spec, then the defaults inside it', async () => {
    const { json } = await request(widgets(), { method: 'POST', body: { metadata: { name: 'w2' } } });
    expect(json.spec).toEqual({ replicas: 1, mode: 'fast', note: 'none', policy: { window: '5m', burst: 2 } });
  });

  it('defaults again on update: a PUT without a defaulted field stores the default', async () => {
    const created = (await request(widgets(), { method: 'POST', body: { metadata: { name: 'w3' }, spec: { mode: 'slow' } } })).json;
    const { status, json } = await request(`${widgets()}/w3`, {
      method: 'PUT',
      body: { ...created, spec: { mode: 'slow', replicas: 4 } },
    });
    expect(status).toBe(200);
    expect(json.spec).toMatchObject({ replicas: 4, mode: 'slow', policy: { window: '5m', burst: 2 }, note: 'none' });
  });

  it("applies the project's NodePool CRD defaults: one 10% budget, expireAfter 720h, consolidation", async () => {
    const body = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'pool' },
      spec: {
        template: { spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] } },
      },
    };
    const { json } = await request(`${server.url}/apis/karpenter.sh/v1/nodepools`, { method: 'POST', body });
    expect(json.spec.disruption).toEqual({
      budgets: [{ nodes: '10%' }],
      consolidateAfter: '0s',
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
    });
    expect(json.spec.template.spec.expireAfter).toBe('720h');
  });
});

describe('the scale subresource', () => {
  beforeAll(async () => {
    const apps = server.kubeConfig.makeApiClient(k8s.AppsV1Api);
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] },
          template: { metadata: { labels: { app: 'web', tier: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
        },
      },
    });
  });
  const scaleUrl = () => `${server.url}/apis/apps/v1/namespaces/default/deployments/web/scale`;

  it('reads a Deployment as an autoscaling/v1 Scale with its selector in string form', async () => {
    const { status, json } = await request(scaleUrl());
    expect(status).toBe(200);
    expect(json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web', namespace: 'default' } });
    const deployment = (await request(`${server.url}/apis/apps/v1/namespaces/default/deployments/web`)).json;
    expect(json.spec).toEqual({ replicas: deployment.spec.replicas });
    expect(json.metadata.uid).toBe(deployment.metadata.uid);
    expect(json.status.selector).toBe('app=web,tier in (a,b)');
  });

  it('writes replicas by merge patch (kubectl scale) and by PUT, bumping the generation', async () => {
    const patched = await request(scaleUrl(), {
      method: 'PATCH',
      body: { spec: { replicas: 5 } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.json.spec).toEqual({ replicas: 5 });
    const put = await request(scaleUrl(), {
      method: 'PUT',
      body: { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web' }, spec: { replicas: 3 } },
    });
    expect(put.status).toBe(200);
    const deployment = (await request(`${server.url}/apis/apps/v1/namespaces/default/deployments/web`)).json;
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.metadata.generation).toBe(3);
  });

  it('refuses a stale resourceVersion (409) and negative replicas (422), naming the field', async () => {
    const stale = await request(scaleUrl(), {
      method: 'PUT',
      body: { metadata: { name: 'web', resourceVersion: '1' }, spec: { replicas: 1 } },
    });
    expect(stale.status).toBe(409);
    const negative = await request(scaleUrl(), { method: 'PUT', body: { metadata: { name: 'web' }, spec: { replicas: -1 } } });
    expect(negative.status).toBe(422);
    expect(negative.json.message).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it("serves a CRD's declared scale paths, and discovery lists deployments/scale as autoscaling/v1 Scale", async () => {
    await request(widgets(), { method: 'POST', body: { metadata: { name: 'scaled' } } });
    const patched = await request(`${widgets()}/scaled/scale`, {
      method: 'PATCH',
      body: { spec: { replicas: 7 } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.json).toMatchObject({ kind: 'Scale', spec: { replicas: 7 }, status: { replicas: 0 } });
    expect((await request(`${widgets()}/scaled`)).json.spec.replicas).toBe(7);
    const discovery = (await request(`${server.url}/apis/apps/v1`)).json as { resources: Array<Record<string, unknown>> };
    expect(discovery.resources.find((r) => r.name === 'deployments/scale')).toMatchObject({
      kind: 'Scale',
      group: 'autoscaling',
      version: 'v1',
      verbs: ['get', 'patch', 'update'],
    });
  });
});

describe('Tables', () => {
  beforeAll(async () => {
    await request(widgets(), {
      method: 'POST',
      body: { metadata: { name: 'labelled', labels: { 'node.kubernetes.io/instance-type': 'b3-8' } }, spec: { replicas: 2 } },
    });
  });

  it('reads CRD columns through escaped keys and filters; absent values are null cells; dates are ages', async () => {
    clock.step(90_000);
    const { json } = await request(`${widgets()}/labelled`, { accept: tableAccept });
    expect(json.columnDefinitions.map((c: { name: string; type: string }) => `${c.name}:${c.type}`)).toEqual([
      'Name:string',
      'Type:string',
      'Ready:string',
      'Replicas:integer',
      'Age:date',
    ]);
    expect(json.rows[0].cells).toEqual(['labelled', 'b3-8', null, 2, '90s']);
    expect(json.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'labelled' } });
  });

  it('carries the whole object for includeObject=Object (kubectl --sort-by), none for None, and refuses other values', async () => {
    const full = await request(`${widgets()}?includeObject=Object`, { accept: tableAccept });
    expect(full.json.rows.find((r: { cells: unknown[] }) => r.cells[0] === 'labelled').object).toMatchObject({
      kind: 'Widget',
      spec: { replicas: 2 },
    });
    const none = await request(`${widgets()}?includeObject=None`, { accept: tableAccept });
    expect(none.json.rows[0].object).toBeUndefined();
    const bad = await request(`${widgets()}?includeObject=Everything`, { accept: tableAccept });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('invalid includeObject: "Everything"; accepted: None, Metadata, Object');
  });

  it("prints events with kube-apiserver's event columns, and kinds without a printer as Name and Created At", async () => {
    const core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const at = new Date(clock.now() - 30_000);
    await core.createNamespacedEvent({
      namespace: 'default',
      body: {
        metadata: { name: 'web.1' },
        involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'default' },
        reason: 'Scheduled',
        message: 'assigned',
        type: 'Normal',
        source: { component: 'scheduler' },
        firstTimestamp: at,
        lastTimestamp: at,
        count: 2,
      },
    });
    const events = (await request(`${server.url}/api/v1/namespaces/default/events`, { accept: tableAccept })).json;
    expect(events.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}/${c.priority}`)).toEqual([
      'Last Seen/0',
      'Type/0',
      'Reason/0',
      'Object/0',
      'Subobject/1',
      'Source/1',
      'Message/0',
      'First Seen/1',
      'Count/1',
      'Name/1',
    ]);
    expect(events.rows[0].cells).toEqual(['30s', 'Normal', 'Scheduled', 'pod/web-1', '', 'scheduler', 'assigned', '30s', 2, 'web.1']);
    const crds = (await request(`${server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, { accept: tableAccept })).json;
    expect(crds.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Created At']);
    expect(crds.rows[0].cells[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});

describe('RBAC, stored and served (not enforced)', () => {
  it('keeps ClusterRoles and RoleBindings a chart installs, and prints them as kubectl get does on a real cluster', async () => {
    const rbac = `${server.url}/apis/rbac.authorization.k8s.io/v1`;
    const role = { metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] };
    expect((await request(`${rbac}/clusterroles`, { method: 'POST', body: role })).status).toBe(201);
    const binding = {
      metadata: { name: 'read' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'app', namespace: 'default' }],
    };
    expect((await request(`${rbac}/namespaces/default/rolebindings`, { method: 'POST', body: binding })).status).toBe(201);
    const roles = (await request(`${rbac}/clusterroles`, { accept: tableAccept })).json;
    expect(roles.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Created At']);
    const bindings = (await request(`${rbac}/namespaces/default/rolebindings`, { accept: tableAccept })).json;
    expect(bindings.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name',
      'Role',
      'Age',
      'Users',
      'Groups',
      'ServiceAccounts',
    ]);
    expect(bindings.rows[0].cells).toEqual(['read', 'ClusterRole/reader', expect.stringMatching(/^\d+s$/), '', '', 'default:app']);
  });
});

describe('OpenAPI v3', () => {
  it("publishes each CRD version's schema tagged with its group, version and kind, as kubectl explain looks it up", async () => {
    const index = (await rawRequest(`${server.url}/openapi/v3`, 'GET')).json as { paths: Record<string, { serverRelativeURL: string }> };
    const url = index.paths['apis/karpenter.sh/v1']?.serverRelativeURL ?? '';
    expect(url).toMatch(/^\/openapi\/v3\/apis\/karpenter\.sh\/v1\?hash=/);
    const doc = (await rawRequest(`${server.url}${url}`, 'GET')).json as { components: { schemas: Record<string, Reply> } };
    const schema = doc.components.schemas['sh.karpenter.v1.NodePool'];
    expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'karpenter.sh', version: 'v1', kind: 'NodePool' }]);
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'metadata', 'spec', 'status']));
    expect(schema.properties.spec.properties.disruption.properties.budgets.default).toEqual([{ nodes: '10%' }]);
  });
});
