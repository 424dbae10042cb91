// Seed 002's quick start (the existing OVHcloud provider's README), applied as written to the simulated
// cluster with the service running against the OVH emulator: the OVHNodeClass, the NodePool without
// limits and the 5-replica inflate Deployment end with 5 pods running on the b3 flavors the NodePool names.
// The Secret comes from the seed's step 2 (`kubectl create secret generic ovh-credentials -n karpenter …`), as
// written: no label. It is the chart's controller credentials Secret, which the OVHNodeClass may name to use
// the service's own credentials.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, CustomObjectsApi, type KubernetesObject, type V1Secret } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects } from '../../../src/testbed/demo/install.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { readManifestPaths } from '../../../src/util/manifest-files.js';

let env: DemoEnvironment;

/** The seed's `kubectl create secret generic ovh-credentials -n karpenter`, as written: the three keys, no label. */
function seedCredentialsSecret(): V1Secret {
  const c = env.ovhcloud?.credentials;
  if (!c) throw new Error('the OVH emulator is not running');
  const stringData = { applicationKey: c.applicationKey, applicationSecret: c.applicationSecret, consumerKey: c.consumerKey };
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ovh-credentials', namespace: 'karpenter' }, stringData };
}

async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 300): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not reached`);
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
});

afterAll(async () => {
  await env?.close();
});

describe("seed 002's quick start on the simulated cluster", () => {
  it("is admitted as written, its unlabelled Secret the controller's own, and runs the 5 inflate pods on b3 flavors", async () => {
    const { objects, errors } = readManifestPaths(['test/fixtures/seeds/002-ovhcloud-provider-readme.yaml']);
    expect(errors).toEqual([]);
    await applyObjects(env.cluster.kubeConfig, [seedCredentialsSecret(), ...objects.map((o) => o.object as KubernetesObject)]);
    const core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
    const pods = await eventually(async () => {
      const list = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=inflate' })).items;
      return list.length === 5 && list.every((p) => p.status?.phase === 'Running') ? list : undefined;
    }, '5 inflate pods running');
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const claims = (
      (await custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' })) as {
        items: { metadata: { labels?: Record<string, string> } }[];
      }
    ).items;
    expect(claims.length).toBeGreaterThan(0);
    for (const claim of claims) {
      expect(claim.metadata.labels?.['karpenter.sh/nodepool']).toBe('default');
      expect(claim.metadata.labels?.['node.kubernetes.io/instance-type']).toMatch(/^b3-(8|16|32)$/);
    }
    expect(new Set(pods.map((p) => p.spec?.nodeName)).size).toBe(claims.length);
    const ready = await eventually(async () => {
      const nodeClass = (await custom.getClusterCustomObject({
        group: 'karpenter.ovhcloud.sh',
        version: 'v1alpha1',
        plural: 'ovhnodeclasses',
        name: 'default',
      })) as { status?: { conditions?: { type: string; status: string; message?: string }[] } };
      return nodeClass.status?.conditions?.find((c) => c.type === 'Ready');
    }, 'OVHNodeClass default Ready written');
    expect(ready).toMatchObject({
      status: 'True',
      message: expect.stringContaining(
        "using the service's credentials (credentialsSecretRef names its own Secret karpenter/ovh-credentials)",
      ) as unknown,
    });
  });
});
