import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import https from 'node:https';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { type ApiServer, startApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { createLoopbackCertificate } from '../../../src/util/tls.js';
import { nodePoolCrd, pod, rawRequest, statusOf, unexpectedSuccess } from './apiserver-fixtures.js';

const run = promisify(execFile);
const kubectl = '/usr/bin/kubectl';
const hasKubectl = existsSync(kubectl);
const denialMessage = 'spec.disruption.budgets[0].nodes: "lots" is not a number or a percentage';

interface Review {
  request: {
    uid: string;
    operation: string;
    kind: { kind: string };
    resource: { resource: string };
    subResource?: string;
    name: string;
    namespace?: string;
    object: { metadata: { labels?: Record<string, string> } } | null;
    oldObject: unknown;
    dryRun: boolean;
    userInfo: { username: string };
  };
}

const received: Review[] = [];
let webhookServer: https.Server;
let webhookUrl: string;
let caBundle: string;
let server: ApiServer;
let core: k8s.CoreV1Api;
let custom: k8s.CustomObjectsApi;
let workDir: string;

function reply(uid: string, response: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid, ...response } });
}

async function startWebhook(): Promise<void> {
  const cert = await createLoopbackCertificate();
  caBundle = Buffer.from(cert.caPem).toString('base64');
  webhookServer = https.createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
      received.push(review);
      const { uid, object } = review.request;
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/mutate')) {
        const patch = object?.metadata.labels
          ? [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]
          : [{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }];
        const warnings = ['defaulted "mutated" label', ...(object?.metadata.labels?.utf8 ? ['by the bundled catalog — admitted'] : [])];
        res.end(
          reply(uid, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64'), warnings }),
        );
      } else if (object?.metadata.labels?.deny === 'true') {
        res.end(reply(uid, { allowed: false, status: { code: 403, reason: 'Forbidden', message: denialMessage } }));
      } else {
        res.end(reply(uid, { allowed: true }));
      }
    });
  });
  await new Promise<void>((resolve) => webhookServer.listen(0, '127.0.0.1', resolve));
  webhookUrl = `https://127.0.0.1:${(webhookServer.address() as { port: number }).port}`;
}

function webhookConfig(
  kind: 'Validating' | 'Mutating',
  name: string,
  hook: Record<string, unknown>,
  resources: string[],
  group = 'karpenter.sh',
): object {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: [
      {
        name,
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        rules: [{ apiGroups: [group], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources }],
        ...hook,
      },
    ],
  };
}

async function createConfig(kind: 'Validating' | 'Mutating', body: object): Promise<void> {
  const plural = kind === 'Validating' ? 'validatingwebhookconfigurations' : 'mutatingwebhookconfigurations';
  await custom.createClusterCustomObject({ group: 'admissionregistration.k8s.io', version: 'v1', plural, body });
}

beforeAll(async () => {
  await startWebhook();
  server = await startApiServer({
    kubeconfig: true,
    resolveService: (svc) => (svc.name === 'karpenter-eu-webhook' ? `${webhookUrl}${svc.path ?? '/'}` : undefined),
  });
  core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
  custom = server.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  workDir = await mkdtemp(join(tmpdir(), 'apiserver-admission-'));
  await custom.createClusterCustomObject({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    body: nodePoolCrd,
  });
  await createConfig(
    'Validating',
    webhookConfig(
      'Validating',
      'validation.karpenter-eu.io',
      {
        clientConfig: { service: { namespace: 'karpenter', name: 'karpenter-eu-webhook', path: '/validate' }, caBundle },
        failurePolicy: 'Fail',
      },
      ['nodepools'],
    ),
  );
  await createConfig(
    'Mutating',
    webhookConfig(
      'Mutating',
      'defaulting.karpenter-eu.io',
      { clientConfig: { url: `${webhookUrl}/mutate`, caBundle }, objectSelector: { matchLabels: { mutate: 'true' } } },
      ['nodepools'],
    ),
  );
});

afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => webhookServer.close(() => resolve()));
  await rm(workDir, { recursive: true, force: true });
});

const nodePool = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name, labels },
  spec: { template: { spec: {} } },
});

describe('admission webhooks', () => {
  it('sends an AdmissionReview v1 and denies with the exact kube-apiserver wording', async () => {
    const err = await custom
      .createClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', body: nodePool('denied', { deny: 'true' }) })
      .then(unexpectedSuccess, statusOf);
    expect(err).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: `admission webhook "validation.karpenter-eu.io" denied the request: ${denialMessage}`,
    });
    const review = received.find((r) => r.request.name === 'denied');
    expect(review?.request).toMatchObject({
      operation: 'CREATE',
      kind: { kind: 'NodePool' },
      resource: { resource: 'nodepools' },
      dryRun: false,
      oldObject: null,
      userInfo: { username: 'kubernetes-admin' },
    });
    expect(
      await custom
        .getClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', name: 'denied' })
        .then(unexpectedSuccess, statusOf),
    ).toMatchObject({ code: 404 });
  });

  it('applies the JSON patch of a mutating webhook and returns its warnings as Warning headers', async () => {
    const res = await rawRequest(
      `${server.url}/apis/karpenter.sh/v1/nodepools`,
      'POST',
      JSON.stringify(nodePool('mutated', { mutate: 'true' })),
    );
    expect(res.status).toBe(201);
    expect((res.json.metadata as { labels: Record<string, string> }).labels).toEqual({ mutate: 'true', mutated: 'yes' });
    expect(res.headers.get('warning')).toBe('299 - "defaulted \\"mutated\\" label"');
    const update = received.filter((r) => r.request.name === 'mutated').map((r) => r.request.operation);
    expect(update).toEqual(['CREATE', 'CREATE']);
  });

  it('sends a warning with non-ASCII text as its UTF-8 bytes, as kube-apiserver does, instead of failing the request', async () => {
    const res = await rawRequest(
      `${server.url}/apis/karpenter.sh/v1/nodepools`,
      'POST',
      JSON.stringify(nodePool('utf8-warning', { mutate: 'true', utf8: 'true' })),
    );
    expect(res.status).toBe(201);
    // fetch reads header bytes as Latin-1: undo that to get the bytes the server sent.
    expect(Buffer.from(res.headers.get('warning') ?? '', 'latin1').toString('utf8')).toContain('299 - "by the bundled catalog — admitted"');
  });

  it('passes oldObject on UPDATE and dryRun through', async () => {
    await custom.createClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodepools', body: nodePool('updated', {}) });
    await custom.patchClusterCustomObject(
      { group: 'karpenter.sh', version: 'v1', plural: 'nodepools', name: 'updated', body: { spec: { weight: 3 } }, dryRun: 'All' },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch),
    );
    const review = received.filter((r) => r.request.name === 'updated').at(-1);
    expect(review?.request).toMatchObject({ operation: 'UPDATE', dryRun: true });
    expect(review?.request.oldObject).toMatchObject({ metadata: { name: 'updated' } });
  });

  it('honours failurePolicy: Fail rejects with "failed calling webhook", Ignore lets the request through', async () => {
    await createConfig(
      'Validating',
      webhookConfig(
        'Validating',
        'broken.fail.example',
        { clientConfig: { url: 'https://127.0.0.1:1/validate', caBundle }, failurePolicy: 'Fail' },
        ['configmaps'],
        '',
      ),
    );
    const failed = await core
      .createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'blocked' } } })
      .then(unexpectedSuccess, statusOf);
    expect(failed).toMatchObject({ code: 500, reason: 'InternalError' });
    expect(failed.message).toMatch(
      /^Internal error occurred: failed calling webhook "broken\.fail\.example": failed to call webhook: Post "https:\/\/127\.0\.0\.1:1\/validate\?timeout=10s": /,
    );
    await custom.deleteClusterCustomObject({
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      plural: 'validatingwebhookconfigurations',
      name: 'broken.fail.example',
    });
    await createConfig(
      'Validating',
      webhookConfig(
        'Validating',
        'broken.ignore.example',
        { clientConfig: { url: 'https://127.0.0.1:1/validate', caBundle }, failurePolicy: 'Ignore' },
        ['configmaps'],
        '',
      ),
    );
    const ok = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'allowed' } } });
    expect(ok.metadata?.name).toBe('allowed');
  });

  it('rejects a webhook whose certificate does not match the caBundle', async () => {
    const other = await createLoopbackCertificate();
    await createConfig(
      'Validating',
      webhookConfig(
        'Validating',
        'wrong-ca.example',
        { clientConfig: { url: `${webhookUrl}/validate`, caBundle: Buffer.from(other.caPem).toString('base64') } },
        ['pods'],
        '',
      ),
    );
    const err = await core.createNamespacedPod({ namespace: 'default', body: pod('ca-check') }).then(unexpectedSuccess, statusOf);
    expect(err.code).toBe(500);
    expect(err.message).toContain('failed calling webhook "wrong-ca.example"');
    await custom.deleteClusterCustomObject({
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      plural: 'validatingwebhookconfigurations',
      name: 'wrong-ca.example',
    });
  });

  it.skipIf(!hasKubectl)('kubectl apply of a denied NodePool prints the kube-apiserver denial', async () => {
    const file = join(workDir, 'nodepool.yaml');
    await writeFile(
      file,
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: kubectl-denied\n  labels:\n    deny: "true"\nspec:\n  template:\n    spec: {}\n',
    );
    const result = await run(kubectl, ['--kubeconfig', server.kubeconfigPath ?? '', 'apply', '-f', file]).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Error from server (Forbidden): error when creating "${file}": admission webhook "validation.karpenter-eu.io" denied the request: ${denialMessage}`,
    );
  });

  it.skipIf(!hasKubectl)('kubectl apply, get and delete an admitted NodePool', async () => {
    const file = join(workDir, 'ok.yaml');
    await writeFile(file, 'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: kubectl-ok\nspec:\n  template:\n    spec: {}\n');
    const kc = ['--kubeconfig', server.kubeconfigPath ?? ''];
    expect((await run(kubectl, [...kc, 'apply', '-f', file])).stdout.trim()).toBe('nodepool.karpenter.sh/kubectl-ok created');
    expect((await run(kubectl, [...kc, 'apply', '-f', file])).stdout.trim()).toBe('nodepool.karpenter.sh/kubectl-ok unchanged');
    expect((await run(kubectl, [...kc, 'get', 'nodepools', '-o', 'name'])).stdout).toContain('nodepool.karpenter.sh/kubectl-ok');
    expect((await run(kubectl, [...kc, 'delete', '-f', file])).stdout.trim()).toBe('nodepool.karpenter.sh "kubectl-ok" deleted');
  });
});
