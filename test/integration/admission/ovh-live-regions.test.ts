// The OVH region list is read with the OVHNodeClasses' own projects and credentials (the service has no
// operator-wide OVH_SERVICE_NAME here, as most installs): once one class exists, `kubectl apply` of an
// OVHNodeClass naming a region MKS does not offer is denied, naming the value and the regions that exist —
// not admitted with a warning and left to fail at launch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects, readManifest } from '../../../src/testbed/demo/install.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

let env: DemoEnvironment;

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['ovhcloud'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
  });
  await applyObjects(env.cluster.kubeConfig, readManifest('manifests/examples/ovhcloud/nodeclass.yaml'));
});

afterAll(async () => {
  await env?.close();
});

const messageOf = (error: unknown): string => {
  const body = (error as { body?: unknown }).body;
  return typeof body === 'string' ? ((JSON.parse(body) as { message?: string }).message ?? '') : String(error);
};

describe('OVH region list read with the NodeClass credentials', () => {
  it('denies region MARS1 at apply, naming it and the regions MKS offers the project', { timeout: 120_000 }, async () => {
    const custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    const body = (n: number) => ({
      apiVersion: 'karpenter.ovhcloud.sh/v1alpha1',
      kind: 'OVHNodeClass',
      metadata: { name: `mars-${n}` },
      spec: {
        serviceName: '0123456789abcdef0123456789abcdef',
        region: 'MARS1',
        credentialsSecretRef: { name: 'ovh-nodeclass-credentials', namespace: 'karpenter' },
      },
    });
    // Read at start, when no class could read it, and again as the example class appears (not after the 30 s
    // backoff): the denial comes once that read is done.
    let message = '';
    for (let n = 0; n < 90 && !message; n++) {
      try {
        await custom.createClusterCustomObject({
          group: 'karpenter.ovhcloud.sh',
          version: 'v1alpha1',
          plural: 'ovhnodeclasses',
          body: body(n),
        });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      } catch (error) {
        message = messageOf(error);
      }
    }
    expect(message).toContain('spec.region: Unsupported value: "MARS1": unknown ovhcloud region');
    expect(message).toMatch(/accepted: .*"EU-WEST-PAR"/);
  });
});
