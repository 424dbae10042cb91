import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, type V1Secret } from '@kubernetes/client-node';
import { NodeClassNotReadyError } from '../../../src/cloudprovider/errors.js';
import { NodeClassSecretLabel, type SecretAccessPolicy } from '../../../src/domain/secrets/secret-access.js';
import { createKube, Resources } from '../../../src/kube/index.js';
import { stateNodeClassResolver } from '../../../src/views/nodeclass-resolver.js';
import { ClusterState } from '../../../src/state/index.js';
import type { ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { startClusterWithCrds } from './kube-fixtures.js';

const policy: SecretAccessPolicy = {
  namespaces: ['karpenter'],
  label: NodeClassSecretLabel,
  forbidden: [{ namespace: 'karpenter', name: 'scaleway-credentials' }],
};
const labelled = { [NodeClassSecretLabel.key]: NodeClassSecretLabel.value };
const secret = (namespace: string, name: string, data: Record<string, string>, labels?: Record<string, string>): V1Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace, ...(labels ? { labels } : {}) },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});

describe("NodeClass Secrets read through the API server, within the operator's policy", () => {
  let server: ApiServer;

  beforeAll(async () => {
    server = await startClusterWithCrds();
    const kube = createKube(server.kubeConfig);
    const core = server.kubeConfig.makeApiClient(CoreV1Api);
    for (const name of ['karpenter', 'payments']) await core.createNamespace({ body: { metadata: { name } } });
    await kube.create(Resources.Secret, secret('karpenter', 'scaleway-credentials', { SCW_SECRET_KEY: 'the-operator-key' }, labelled));
    await kube.create(Resources.Secret, secret('karpenter', 'bootstrap-token', { token: 'abcdef.0123456789abcdef' }, labelled));
    await kube.create(Resources.Secret, secret('karpenter', 'webhook-tls', { 'tls.key': 'private' }));
    await kube.create(Resources.Secret, secret('payments', 'db', { password: 'hunter2' }, labelled));
  });
  afterAll(async () => {
    await server.close();
  });

  const resolver = () =>
    stateNodeClassResolver(new ClusterState({ clock: new FakeClock() }), createKube(server.kubeConfig), 'ScalewayNodeClass', policy);

  it.each([
    ["the operator's own credentials (labelled or not)", 'karpenter', 'scaleway-credentials', "holds the operator's own cloud credentials"],
    ['a Secret of another namespace', 'payments', 'db', 'in a namespace NodeClasses may not read from'],
    [
      "an unlabelled Secret of the operator's namespace",
      'karpenter',
      'webhook-tls',
      'does not carry the label karpenter-eu.io/nodeclass-secret=true',
    ],
  ])('refuses %s with a NodeClass error, never returning its data', async (_what, namespace, name, reason) => {
    const read = resolver().getSecretData({ namespace, name });
    await expect(read).rejects.toThrow(NodeClassNotReadyError);
    await expect(resolver().getSecretData({ namespace, name })).rejects.toThrow(reason);
  });

  it('reads a labelled Secret of an allowed namespace', async () => {
    expect(await resolver().getSecretData({ namespace: 'karpenter', name: 'bootstrap-token' })).toEqual({
      token: 'abcdef.0123456789abcdef',
    });
  });
});
