// End to end: the simulated API server (src/testbed) calls our webhook server through the shipped webhook
// configurations (manifests/webhooks), as kube-apiserver would, with the generated CRDs installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { createLoopbackCertificate } from '../../../src/util/tls.js';
import { createAdmissionServer, InMemoryContextProvider, type RunningAdmissionServer } from '../../../webhooks/admission/index.js';
import { catalogs, defaults, nodePool, ovhClass, req } from '../../unit/domain/admission/fixtures.js';

let apiServer: ApiServer;
let webhooks: RunningAdmissionServer;
let custom: k8s.CustomObjectsApi;

const yamlDocs = (file: string): Record<string, unknown>[] =>
  parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Record<string, unknown>);
const statusOf = (err: unknown): { code?: number; message?: string } => {
  const body = (err as { body?: unknown }).body;
  return typeof body === 'string'
    ? (JSON.parse(body) as { code?: number; message?: string })
    : ((body as { code?: number; message?: string }) ?? {});
};

beforeAll(async () => {
  const cert = await createLoopbackCertificate();
  const contextProvider = new InMemoryContextProvider({ objects: [ovhClass('default')], catalogs, defaults });
  webhooks = await createAdmissionServer({ tls: cert, contextProvider }).listen(0);
  apiServer = await startApiServer({
    resolveService: (svc) => (svc.name === 'karpenter-eu' ? `${webhooks.url}${svc.path ?? '/'}` : undefined),
  });
  custom = apiServer.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  for (const file of ['manifests/crds/karpenter.sh_nodepools.yaml', 'manifests/crds/karpenter.ovhcloud.sh_ovhnodeclasses.yaml']) {
    for (const body of yamlDocs(file))
      await custom.createClusterCustomObject({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', body });
  }
  const caBundle = Buffer.from(cert.caPem).toString('base64');
  for (const config of yamlDocs('manifests/webhooks/webhook-configurations.yaml')) {
    for (const hook of config.webhooks as { clientConfig: { caBundle: string } }[]) hook.clientConfig.caBundle = caBundle;
    const plural = config.kind === 'MutatingWebhookConfiguration' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
    await custom.createClusterCustomObject({ group: 'admissionregistration.k8s.io', version: 'v1', plural, body: config });
  }
});

afterAll(async () => {
  await apiServer.close();
  await webhooks.close();
});

describe('kubectl apply through the simulated API server', () => {
  it('rejects an invalid NodePool with the kube-apiserver denial text', async () => {
    const body = nodePool('bad-zone', { requirements: [req('topology.kubernetes.io/zone', 'In', 'eu-west-par-d')] });
    const err = statusOf(
      await custom.createClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', body }).then(
        () => ({}),
        (e: unknown) => e,
      ),
    );
    expect(err.code).toBe(403);
    expect(err.message).toContain(
      'admission webhook "validation.karpenter-eu.io" denied the request: spec.template.spec.requirements[0].values[0]: Unsupported value: "eu-west-par-d"',
    );
    expect(err.message).toContain('did you mean "eu-west-par-a"');
  });

  it('stores a valid NodePool as written: the defaults are read by the service, not stored', async () => {
    await custom.createClusterCustomObject({
      group: 'karpenter.sh',
      version: 'v1',
      plural: 'nodepools',
      body: nodePool('good', { requirements: [req('node.kubernetes.io/instance-type', 'In', 'B3-8')] }),
    });
    const stored = (await custom.getClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', name: 'good' })) as {
      spec: { template: { spec: { requirements: unknown[] } } };
    };
    expect(stored.spec.template.spec.requirements).toEqual([req('node.kubernetes.io/instance-type', 'In', 'B3-8')]);
  });

  it('refuses a static NodePool (spec.replicas) at apply with what to do instead, rather than admitting one it never provisions', async () => {
    const [body] = parseAllDocuments(`
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: { name: static }
spec:
  replicas: 3
  template:
    spec:
      nodeClassRef: { group: karpenter.ovhcloud.sh, kind: OVHNodeClass, name: default }
      requirements: [{ key: node.kubernetes.io/instance-type, operator: In, values: [b3-8] }]
`).map((d) => d.toJS() as Record<string, unknown>);
    const err = statusOf(
      await custom.createClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', body }).then(
        () => ({}),
        (e: unknown) => e,
      ),
    );
    expect(err.code).toBe(403);
    expect(err.message).toContain(
      'admission webhook "validation.karpenter-eu.io" denied the request: spec.replicas: Unsupported value: 3: static NodePools are not supported yet',
    );
    expect(err.message).toContain('remove spec.replicas');
    await expect(
      custom.getClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', name: 'static' }),
    ).rejects.toThrow();
  });
});
