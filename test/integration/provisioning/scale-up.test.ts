import { afterEach, describe, expect, it } from 'vitest';
import { AppsV1Api, type V1Deployment, type V1Node } from '@kubernetes/client-node';
import { Resources } from '../../../src/kube/index.js';
import { deployment, nodePool, pod, type ProvisioningBed, startProvisioningBed } from './harness.js';

let bed: ProvisioningBed | undefined;

afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

describe('provisioning on the simulated cluster', () => {
  it('scales a Deployment: NodeClaims of the cheapest fitting type, Nodes Ready and initialized, pods bound', async () => {
    bed = await startProvisioningBed();
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    // 6 × 1.5 CPU: the cheapest cover is m-8 (7.5 CPU allocatable: 5 pods) + m-2 (1.8 CPU: 1 pod) = 0.20 €/h,
    // cheaper than 3 × m-4 (0.24) or 6 × m-2 (0.24).
    await b.cluster.kubeConfig
      .makeApiClient(AppsV1Api)
      .createNamespacedDeployment({ namespace: 'default', body: deployment('web', 6, '1500m') as V1Deployment });
    const pods = await b.until(
      'all pods bound and running',
      async () => {
        const list = await b.pods();
        return list.length === 6 && list.every((p) => p.spec?.nodeName && p.status?.phase === 'Running') && list;
      },
      30_000,
    );
    const claims = await b.nodeClaims();
    expect(claims.length).toBeGreaterThan(0);
    expect(new Set(pods.map((p) => p.spec?.nodeName)).size).toBe(claims.length);
    for (const c of claims) {
      expect(c.metadata?.generateName).toBe('default-');
      expect(c.metadata?.labels?.['karpenter.sh/nodepool']).toBe('default');
      expect(c.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'NodePool', name: 'default' });
      expect(c.status?.providerID).toMatch(/^fake:\/\/\//);
      expect(c.status?.nodeName).toBeTruthy();
      expect(c.status?.imageID).toBe('fake-image-1');
      expect(c.metadata?.finalizers).toContain('karpenter.sh/termination');
      for (const type of ['Launched', 'Registered', 'Initialized', 'Ready'])
        expect(c.status?.conditions?.find((x) => x.type === type)?.status, type).toBe('True');
    }
    // The cheapest cover: the simulation's pick (sum of prices) is what the cloud launched.
    const launchedTypes = [...b.provider.instances.values()].map((i) => i.instanceType);
    const cost = launchedTypes.reduce((s, t) => s + ({ 'm-2': 0.04, 'm-4': 0.08, 'm-8': 0.16 }[t] ?? 1), 0);
    expect(cost).toBeCloseTo(0.2, 5);
    expect(launchedTypes.sort()).toEqual(['m-2', 'm-8']);
    expect(b.provider.createCalls.length).toBe(claims.length);
    const nodes = (await b.kube.list<V1Node>(Resources.Node)).items;
    for (const n of nodes) {
      expect(n.metadata?.labels).toMatchObject({
        'karpenter.sh/nodepool': 'default',
        'karpenter.sh/registered': 'true',
        'karpenter.sh/initialized': 'true',
      });
      expect(n.metadata?.finalizers).toContain('karpenter.sh/termination');
      expect((n.spec?.taints ?? []).map((t) => t.key)).not.toContain('karpenter.sh/unregistered');
    }
    const nominated = await b.events('Nominated');
    expect(nominated.length).toBeGreaterThanOrEqual(6);
    expect(
      (await b.metrics.registry.getSingleMetric('karpenter_nodeclaims_created_total')?.get())?.values.reduce((s, v) => s + v.value, 0),
    ).toBe(claims.length);
  }, 40_000);

  it('writes a FailedScheduling Event and creates no NodeClaim for a pod no instance type fits', async () => {
    bed = await startProvisioningBed();
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    await b.kube.create(Resources.Pod, pod('huge', '64'));
    const failed = await b.until('a FailedScheduling event from karpenter', async () => {
      const events = await b.events('FailedScheduling');
      return events.find((e) => e.involvedObject?.name === 'huge' && e.message?.startsWith('Failed to schedule pod'));
    });
    expect(failed.message).toMatch(/instance type/);
    expect(await b.nodeClaims()).toEqual([]);
    expect(b.provider.createCalls).toEqual([]);
  }, 20_000);

  it('launches capacity for the pods of a node being deleted while it drains (a PDB holds the pod there)', async () => {
    bed = await startProvisioningBed();
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    const web = pod('web', '1500m');
    web.metadata = { ...web.metadata, labels: { app: 'web' } };
    await b.kube.create(Resources.Pod, web);
    const first = await b.until(
      'web running',
      async () => {
        const [p] = await b.pods();
        return p?.status?.phase === 'Running' && p.spec?.nodeName;
      },
      20_000,
    );
    // The budget refuses every eviction: without the displaced-pods rule the pod would never go pending.
    await b.kube.create(Resources.PodDisruptionBudget, {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    });
    const [claim] = await b.nodeClaims();
    await b.kube.delete(Resources.NodeClaim, { name: claim?.metadata?.name ?? '' });

    const replacement = await b.until(
      'a replacement NodeClaim',
      async () => (await b.nodeClaims()).find((c) => c.metadata?.name !== claim?.metadata?.name),
      20_000,
    );
    expect(replacement.metadata?.labels?.['karpenter.sh/nodepool']).toBe('default');
    const [still] = await b.pods();
    expect(still?.spec?.nodeName).toBe(first);
    expect(still?.metadata?.deletionTimestamp).toBeUndefined();
    // Planned once: later passes put the pod on the in-flight replacement, not on yet another NodeClaim.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await b.nodeClaims()).length).toBe(2);
  }, 40_000);
});
