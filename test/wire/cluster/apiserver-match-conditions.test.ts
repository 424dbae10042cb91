// matchConditions on the simulated API server, as kube-apiserver evaluates them (CEL over object, oldObject and
// request, after the rules and selectors): a false condition skips the webhook (even when another errs), an error
// fails the call and its failurePolicy decides, all true calls it. Last, the chart's own pod condition: only pods
// naming the legacy instance-type label reach the pod webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import https from 'node:https';
import * as k8s from '@kubernetes/client-node';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { createLoopbackCertificate } from '../../../src/util/tls.js';
import { ofKind, render, valuesFor } from '../../chart/chart-fixtures.js';
import { statusOf, unexpectedSuccess } from './apiserver-fixtures.js';

/** Names of the objects each webhook path was called for. */
const called: string[] = [];
let webhook: https.Server;
let url: string;
let caBundle: string;
let server: ApiServer;
let core: k8s.CoreV1Api;
let custom: k8s.CustomObjectsApi;

beforeAll(async () => {
  const cert = await createLoopbackCertificate();
  caBundle = Buffer.from(cert.caPem).toString('base64');
  webhook = https.createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { request } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string; name: string } };
      called.push(request.name);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: request.uid, allowed: true } }),
      );
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(webhook.address() as { port: number }).port}/validate`;
  server = await startApiServer({});
  core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
  custom = server.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
});

afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => webhook.close(() => resolve()));
});

async function configure(name: string, resource: string, hook: Record<string, unknown>): Promise<void> {
  const plural = 'validatingwebhookconfigurations';
  const group = { group: 'admissionregistration.k8s.io', version: 'v1', plural };
  await custom.deleteClusterCustomObject({ ...group, name }).catch(() => undefined);
  await custom.createClusterCustomObject({
    ...group,
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name },
      webhooks: [
        {
          name: `${name}.example.com`,
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          clientConfig: { url, caBundle },
          rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: [resource] }],
          ...hook,
        },
      ],
    },
  });
  await server.settle();
}

const configMap = (name: string, labels: Record<string, string> = {}): k8s.V1ConfigMap => ({ metadata: { name, labels } });

describe('matchConditions', () => {
  it('calls the webhook only when every condition is true, over object, oldObject and request', async () => {
    await configure('conditions', 'configmaps', {
      failurePolicy: 'Fail',
      matchConditions: [
        { name: 'labelled', expression: "has(object.metadata.labels) && 'call' in object.metadata.labels" },
        { name: 'label-changed', expression: "request.operation != 'UPDATE' || object.metadata.labels != oldObject.metadata.labels" },
      ],
    });
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('quiet') });
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('loud', { call: 'yes' }) });
    const loud = await core.readNamespacedConfigMap({ namespace: 'default', name: 'loud' });
    await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'loud', body: { ...loud, data: { only: 'data' } } });
    expect(called.filter((n) => n === 'quiet' || n === 'loud')).toEqual(['loud']);
  });

  it('fails the call on an evaluation error under Fail, skips it under Ignore, and a false condition wins over an error', async () => {
    const erring = { name: 'erring', expression: "object.data.missing == 'x'" };
    await configure('erring', 'configmaps', { failurePolicy: 'Fail', matchConditions: [erring] });
    const failed = await core
      .createNamespacedConfigMap({ namespace: 'default', body: configMap('err-fail') })
      .then(unexpectedSuccess, statusOf);
    expect(failed).toMatchObject({ code: 500, reason: 'InternalError' });
    expect(failed.message).toMatch(
      /^Internal error occurred: failed calling webhook "erring\.example\.com": failed evaluating match conditions: expression 'erring' resulted in error: /,
    );
    await configure('erring', 'configmaps', { failurePolicy: 'Fail', matchConditions: [erring, { name: 'never', expression: 'false' }] });
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('err-false') });
    await configure('erring', 'configmaps', { failurePolicy: 'Ignore', matchConditions: [erring] });
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('err-ignore') });
    expect(called.filter((n) => n.startsWith('err-'))).toEqual([]);
    await custom.deleteClusterCustomObject({
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      plural: 'validatingwebhookconfigurations',
      name: 'erring',
    });
  });

  it("the chart's pod webhook is called only for pods naming the legacy instance-type label", async () => {
    const chart = await render(valuesFor('ovhcloud', 'selfSigned'));
    const podHook = ofKind<{ webhooks: { name: string; matchConditions: unknown }[] }>(chart, 'ValidatingWebhookConfiguration')
      .flatMap((c) => c.webhooks)
      .find((w) => w.name === 'pods.validation.karpenter-eu.io');
    await configure('pods', 'pods', { failurePolicy: 'Fail', matchConditions: podHook?.matchConditions });
    const pod = (name: string, spec: Partial<k8s.V1PodSpec>): k8s.V1Pod => ({
      metadata: { name },
      spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
    });
    const legacyTerm = { matchExpressions: [{ key: 'karpenter.sh/instance-type', operator: 'In', values: ['b3-8'] }] };
    for (const body of [
      pod('plain', {}),
      pod('other-selector', { nodeSelector: { 'kubernetes.io/arch': 'amd64' } }),
      pod('legacy-selector', { nodeSelector: { 'karpenter.sh/instance-type': 'b3-8' } }),
      pod('legacy-affinity', {
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [] }, legacyTerm] } },
        },
      }),
    ])
      await core.createNamespacedPod({ namespace: 'default', body });
    expect(called.filter((n) => ['plain', 'other-selector', 'legacy-selector', 'legacy-affinity'].includes(n))).toEqual([
      'legacy-selector',
      'legacy-affinity',
    ]);
  });
});
