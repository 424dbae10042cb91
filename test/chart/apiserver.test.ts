import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/testbed/cluster/apiserver/index.js';
import { type ResourceType } from '../../src/testbed/cluster/apiserver/resource-type.js';
import { render, valuesFor } from './chart-fixtures.js';

/** Kinds the simulated API server does not serve by default: RBAC is built in on a real cluster, the rest come with add-ons. */
const extraTypes: Array<Omit<ResourceType, 'listKind' | 'singular' | 'shortNames' | 'categories' | 'subresources' | 'strategicMerge'>> = [
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false },
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false },
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true },
  { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true },
  { group: 'cert-manager.io', version: 'v1', kind: 'Issuer', plural: 'issuers', namespaced: true },
  { group: 'cert-manager.io', version: 'v1', kind: 'Certificate', plural: 'certificates', namespaced: true },
  { group: 'monitoring.coreos.com', version: 'v1', kind: 'ServiceMonitor', plural: 'servicemonitors', namespaced: true },
];

let apiServer: ApiServer;
let objects: k8s.KubernetesObjectApi;
let installed: k8s.KubernetesObject[] = [];
const created: k8s.KubernetesObject[] = [];
const resolved: Array<{ name: string; namespace: string; path?: string; port?: number }> = [];

beforeAll(async () => {
  apiServer = await startApiServer({
    namespaces: ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'karpenter'],
    // Records where the API server would send admission requests; nothing listens there, as before the pods are up.
    resolveService: (service) => {
      resolved.push(service);
      return undefined;
    },
  });
  for (const type of extraTypes) {
    apiServer.registry.add({
      ...type,
      listKind: `${type.kind}List`,
      singular: type.kind.toLowerCase(),
      shortNames: [],
      categories: [],
      subresources: [],
      strategicMerge: false,
    });
  }
  objects = k8s.KubernetesObjectApi.makeApiClient(apiServer.kubeConfig);
  const chart = await render(valuesFor('ovhcloud', 'certManager', { serviceMonitor: { enabled: true } }));
  const crds = chart.documents.filter((d) => d.source.startsWith('crds/')).map((d) => d.object as k8s.KubernetesObject);
  const templates = chart.documents.filter((d) => !d.source.startsWith('crds/')).map((d) => d.object as k8s.KubernetesObject);
  installed = [...crds, ...templates];
  for (const object of crds) created.push(await objects.create(object));
  await apiServer.settle();
  for (const object of templates) created.push(await objects.create(object));
  await apiServer.settle();
});

afterAll(async () => {
  await apiServer.close();
});

describe('the rendered chart on the simulated API server', () => {
  it('accepts every object, CRDs first as Helm installs them, and the Deployment starts two pods', async () => {
    expect(created.map((c) => c.kind)).toEqual(installed.map((o) => o.kind));
    for (const object of created) expect(object.metadata?.uid, object.kind).toBeTruthy();
    expect(apiServer.controllerErrors()).toEqual([]);
    const served = ['NodePool', 'NodeClaim'].map((kind) => apiServer.typeOf('karpenter.sh/v1', kind).plural);
    expect(served).toEqual(['nodepools', 'nodeclaims']);
    expect(apiServer.typeOf('karpenter.ovhcloud.sh/v1alpha1', 'OVHNodeClass').plural).toBe('ovhnodeclasses');
    const pods = await apiServer.kubeConfig.makeApiClient(k8s.CoreV1Api).listNamespacedPod({ namespace: 'karpenter' });
    expect(pods.items).toHaveLength(2);
    expect(pods.items[0]?.spec?.containers[0]?.securityContext?.readOnlyRootFilesystem).toBe(true);
    expect(pods.items[0]?.spec?.serviceAccountName).toBe('karpenter-eu');
  });

  it('routes NodePool admission to the chart Service, refusing the apply while nothing answers (failurePolicy Fail)', async () => {
    const custom = apiServer.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const body = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'default' },
      spec: {
        template: { spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] } },
      },
    };
    const failure = await custom.createClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', body }).then(
      () => undefined,
      (e: unknown) => e as { code?: number; body?: string },
    );
    expect(failure?.code).toBe(500);
    expect((JSON.parse(failure?.body ?? '{}') as { message?: string }).message).toContain(
      'failed calling webhook "defaulting.karpenter-eu.io"',
    );
    expect(resolved).toContainEqual(expect.objectContaining({ name: 'karpenter-eu', namespace: 'karpenter', path: '/mutate', port: 8443 }));
  });

  it('never blocks pods when the service is down, and calls it only for pods naming the legacy label (matchConditions)', async () => {
    const core = apiServer.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const calls = (): number => resolved.filter((r) => r.name === 'karpenter-eu' && r.path === '/validate').length;
    const before = calls();
    const plain = await core.createNamespacedPod({
      namespace: 'default',
      body: { metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }] } },
    });
    expect(plain.metadata?.uid).toBeTruthy();
    expect(calls()).toBe(before);
    const legacy = await core.createNamespacedPod({
      namespace: 'default',
      body: {
        metadata: { name: 'legacy' },
        spec: { nodeSelector: { 'karpenter.sh/instance-type': 'b3-8' }, containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }] },
      },
    });
    expect(legacy.metadata?.uid).toBeTruthy();
    expect(calls()).toBe(before + 1);
  });
});
