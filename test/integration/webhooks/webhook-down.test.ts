// The controller's own NodeClaim writes never depend on the admission webhooks: with the chart's webhook
// configurations installed (rendered by real Helm) and nothing serving them, a NodeClaim is still created,
// launched and registered, and a deleted one is still finalized. Users' applies are still refused meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppsV1Api, CustomObjectsApi, type V1Deployment } from '@kubernetes/client-node';
import { Resources } from '../../../src/kube/index.js';
import { ofKind, render, valuesFor } from '../../chart/chart-fixtures.js';
import { deployment, nodePool, type ProvisioningBed, startProvisioningBed } from '../provisioning/harness.js';

let bed: ProvisioningBed;
let custom: CustomObjectsApi;

const refusal = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'accepted',
    (e: { body?: string }) => (JSON.parse(e.body ?? '{}') as { message?: string }).message ?? String(e),
  );

beforeAll(async () => {
  bed = await startProvisioningBed();
  await bed.kube.create(Resources.NodePool, nodePool('default'));
  custom = bed.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  // The chart's webhook configurations; the simulated API server resolves no Service, so every call fails.
  const chart = await render(valuesFor('ovhcloud', 'selfSigned'));
  for (const [kind, plural] of [
    ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
    ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
  ] as const) {
    for (const body of ofKind(chart, kind))
      await custom.createClusterCustomObject({ group: 'admissionregistration.k8s.io', version: 'v1', plural, body });
  }
  await bed.cluster.apiServer.settle();
});

afterAll(async () => {
  await bed?.close();
});

describe('with the admission webhooks down', () => {
  it("refuses users' NodePool applies and hand-made NodeClaims (failurePolicy Fail still holds for them)", async () => {
    expect(await refusal(bed.kube.create(Resources.NodePool, nodePool('second')))).toContain('failed calling webhook');
    const handMade = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'by-hand' },
      spec: { nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' }, requirements: [] },
    };
    expect(
      await refusal(custom.createClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims', body: handMade })),
    ).toContain('failed calling webhook "nodeclaims.validation.karpenter-eu.io"');
  });

  it('the controller still launches a NodeClaim for pending pods and finalizes it once deleted', { timeout: 90_000 }, async () => {
    const web = deployment('web', 2, '500m') as V1Deployment;
    // Pods that stop at once: the drain before finalizing does not wait out the default 30 s grace period.
    (web.spec?.template.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds = 1;
    await bed.cluster.kubeConfig.makeApiClient(AppsV1Api).createNamespacedDeployment({ namespace: 'default', body: web });
    const claim = await bed.until(
      'a NodeClaim launched and registered',
      async () => {
        const found = (await bed.nodeClaims()).find((c) =>
          c.status?.conditions?.some((x) => x.type === 'Registered' && x.status === 'True'),
        );
        return found;
      },
      30_000,
    );
    expect(claim.metadata?.finalizers).toContain('karpenter.sh/termination');
    await bed.until('pods running', async () => (await bed.pods()).filter((p) => p.status?.phase === 'Running').length === 2, 30_000);
    const name = claim.metadata?.name as string;
    await bed.kube.delete(Resources.NodeClaim, { name });
    await bed.until(
      'the NodeClaim finalized and gone',
      async () => !(await bed.nodeClaims()).some((c) => c.metadata?.name === name),
      60_000,
    );
    expect([...bed.provider.instances.values()].some((i) => i.providerID === claim.status?.providerID)).toBe(false);
  });
});
