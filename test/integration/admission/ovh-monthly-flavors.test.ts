// A monthly-billed OVHNodeClass lists only the gen2 flavors (the ones with a monthly plan). Once the service
// has provisioned from such a class, that list must not be taken for every flavor of the region: the example
// hourly NodePool, asking for b3 flavors of the same region, is still admitted, and provisions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, CustomObjectsApi, type KubernetesObject } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { apiErrorMessage, applyObjects, readManifest } from '../../../src/testbed/demo/install.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

let env: DemoEnvironment;

const examplePool = (name: string): KubernetesObject => {
  const pool = readManifest('manifests/examples/ovhcloud/nodepools.yaml').find((o) => o.kind === 'NodePool' && o.metadata?.name === name);
  if (!pool) throw new Error(`no NodePool ${name} in the OVHcloud examples`);
  return pool;
};

async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: not reached in ${timeoutMs} ms`);
}

async function nodeClaimOf(pool: string): Promise<string | undefined> {
  const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  const list = (await custom.listClusterCustomObject({
    group: 'karpenter.sh',
    version: 'v1',
    plural: 'nodeclaims',
    labelSelector: `karpenter.sh/nodepool=${pool}`,
  })) as { items: { metadata: { name: string } }[] };
  return list.items[0]?.metadata.name;
}

function podFor(name: string, nodeSelector: Record<string, string>, tolerations: { key: string; value: string }[] = []) {
  return {
    metadata: { name, namespace: 'default' },
    spec: {
      nodeSelector,
      tolerations: tolerations.map((t) => ({ ...t, operator: 'Equal', effect: 'NoSchedule' })),
      containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
    },
  };
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
  await applyObjects(env.cluster.kubeConfig, [...readManifest('manifests/examples/ovhcloud/nodeclass.yaml'), examplePool('monthly')]);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe('OVH flavors read for a monthly-billed class', () => {
  it('still admit and provision the hourly b3 NodePool of the same region', { timeout: 200_000 }, async () => {
    const core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
    // Provisioning from the monthly class: the service has read that class's (gen2-only) flavors by now.
    await core.createNamespacedPod({
      namespace: 'default',
      body: podFor('steady', { billing: 'monthly' }, [{ key: 'billing', value: 'monthly' }]),
    });
    await eventually(() => nodeClaimOf('monthly'), 'a NodeClaim of the monthly pool');

    let refusal = '';
    try {
      await applyObjects(env.cluster.kubeConfig, [examplePool('default')]);
    } catch (error) {
      refusal = apiErrorMessage(error);
    }
    expect(refusal).toBe('');

    await core.createNamespacedPod({ namespace: 'default', body: podFor('burst', { 'karpenter.sh/nodepool': 'default' }) });
    await eventually(() => nodeClaimOf('default'), 'a NodeClaim of the default pool');
  });
});
