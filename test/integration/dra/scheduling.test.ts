/**
 * Dynamic Resource Allocation on the simulated cluster, as kube-apiserver, the resourceclaim controller, the
 * NVIDIA DRA driver and kube-scheduler's DynamicResources plugin behave: slices published from the flavor,
 * claims generated from templates, allocated on binding, shared, released, and refused with an event.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type * as k8s from '@kubernetes/client-node';
import { claimTemplate, type DraBed, driver, gpuClass, podWithClaim, scalewayMachine, startDraBed } from './dra-bed.js';

let bed: DraBed | undefined;

afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const isL4 = `device.attributes["${driver}"].productName == "NVIDIA L4"`;
const atLeast40Gi = `device.capacity["${driver}"].memory.compareTo(quantity("40Gi")) >= 0`;

async function podNamed(b: DraBed, name: string): Promise<k8s.V1Pod> {
  return b.core.readNamespacedPod({ namespace: 'default', name });
}

describe('DRA on the simulated cluster', () => {
  it("publishes each GPU node's devices from its flavor and nothing for a CPU node; the slice goes with its node", async () => {
    bed = await startDraBed([scalewayMachine('gpu-1', 'L4-1-24G'), scalewayMachine('cpu-1', 'PRO2-S')]);
    const b = bed;
    const slices = (await b.resource.listResourceSlice()).items;
    expect(slices).toHaveLength(1);
    const slice = slices[0] as k8s.V1ResourceSlice;
    expect(slice.metadata?.name).toMatch(/^gpu-1-gpu\.nvidia\.com-[a-z0-9]{5}$/);
    expect(slice.spec).toMatchObject({ driver, nodeName: 'gpu-1', pool: { name: 'gpu-1', generation: 1, resourceSliceCount: 1 } });
    expect(
      slice.spec.devices?.map((d) => [d.name, d.attributes?.productName?.string, d.attributes?.index?._int, d.capacity?.memory?.value]),
    ).toEqual([['gpu-0', 'NVIDIA L4', 0, '24576Mi']]);
    expect(slice.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'gpu-1' });

    b.source.remove('scaleway://instance/fr-par-2/gpu-1');
    await b.until('the slice gone with its node', async () => (await b.resource.listResourceSlice()).items.length === 0);
  }, 60_000);

  it('gives a pod with a claim template for an L4 its own claim, allocated gpu-0 on the L4 node, and runs it', async () => {
    bed = await startDraBed([scalewayMachine('gpu-1', 'L4-1-24G'), scalewayMachine('cpu-1', 'PRO2-S')]);
    const b = bed;
    await b.resource.createDeviceClass({ body: gpuClass });
    await b.resource.createNamespacedResourceClaimTemplate({ namespace: 'default', body: claimTemplate('one-l4', isL4) });
    await b.core.createNamespacedPod({ namespace: 'default', body: podWithClaim('trainer', { resourceClaimTemplateName: 'one-l4' }) });

    const running = await b.until('the pod running', async () => {
      const pod = await podNamed(b, 'trainer');
      return pod.status?.phase === 'Running' ? pod : undefined;
    });
    expect(running.spec?.nodeName).toBe('gpu-1');
    const claimName = running.status?.resourceClaimStatuses?.[0]?.resourceClaimName ?? '';
    expect(running.status?.resourceClaimStatuses).toEqual([{ name: 'gpu', resourceClaimName: claimName }]);
    expect(claimName).toMatch(/^trainer-gpu-[a-z0-9]{5}$/);
    const claim = await b.resource.readNamespacedResourceClaim({ namespace: 'default', name: claimName });
    expect(claim.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ apiVersion: 'v1', kind: 'Pod', name: 'trainer', uid: running.metadata?.uid, controller: true }),
    ]);
    expect(claim.metadata?.annotations?.['resource.kubernetes.io/pod-claim-name']).toBe('gpu');
    expect(claim.status?.allocation?.devices?.results).toEqual([{ request: 'gpu', driver, pool: 'gpu-1', device: 'gpu-0' }]);
    expect(claim.status?.allocation?.nodeSelector?.nodeSelectorTerms[0]?.matchFields).toEqual([
      { key: 'metadata.name', operator: 'In', values: ['gpu-1'] },
    ]);
    expect(claim.status?.reservedFor).toEqual([{ resource: 'pods', name: 'trainer', uid: running.metadata?.uid }]);

    // The pod goes: its claim goes with it and gpu-0 is free for the next one.
    await b.core.deleteNamespacedPod({ namespace: 'default', name: 'trainer', gracePeriodSeconds: 0 });
    await b.until(
      'the generated claim deleted',
      async () => (await b.resource.listNamespacedResourceClaim({ namespace: 'default' })).items.length === 0,
    );
    await b.core.createNamespacedPod({ namespace: 'default', body: podWithClaim('next', { resourceClaimTemplateName: 'one-l4' }) });
    const next = await b.until('the next pod bound', async () => (await podNamed(b, 'next')).spec?.nodeName);
    expect(next).toBe('gpu-1');
  }, 60_000);

  it('puts two pods sharing one claim on the same node with a single allocation reserved for both', async () => {
    bed = await startDraBed([
      scalewayMachine('gpu-1', 'L4-1-24G'),
      scalewayMachine('gpu-2', 'L4-1-24G'),
      scalewayMachine('cpu-1', 'PRO2-S'),
    ]);
    const b = bed;
    await b.resource.createDeviceClass({ body: gpuClass });
    await b.resource.createNamespacedResourceClaim({
      namespace: 'default',
      body: {
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceClaim',
        metadata: { name: 'shared-l4' },
        spec: {
          devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: driver, selectors: [{ cel: { expression: isL4 } }] } }] },
        },
      },
    });
    await b.core.createNamespacedPod({ namespace: 'default', body: podWithClaim('reader-a', { resourceClaimName: 'shared-l4' }) });
    await b.core.createNamespacedPod({ namespace: 'default', body: podWithClaim('reader-b', { resourceClaimName: 'shared-l4' }) });

    const nodes = await b.until('both pods bound', async () => {
      const [a, c] = await Promise.all([podNamed(b, 'reader-a'), podNamed(b, 'reader-b')]);
      return a.spec?.nodeName && c.spec?.nodeName ? [a.spec.nodeName, c.spec.nodeName] : undefined;
    });
    expect(nodes[0]).toBe(nodes[1]);
    const claim = await b.until('both reservations written', async () => {
      const c = await b.resource.readNamespacedResourceClaim({ namespace: 'default', name: 'shared-l4' });
      return (c.status?.reservedFor?.length ?? 0) === 2 ? c : undefined;
    });
    expect(claim.status?.allocation?.devices?.results).toEqual([{ request: 'gpu', driver, pool: nodes[0], device: 'gpu-0' }]);
    expect(claim.status?.reservedFor?.map((r) => r.name).sort()).toEqual(['reader-a', 'reader-b']);
    expect(claim.metadata?.finalizers).toEqual(['resource.kubernetes.io/delete-protection']);

    // Both gone: the claim is deallocated and its finalizer removed.
    await b.core.deleteNamespacedPod({ namespace: 'default', name: 'reader-a', gracePeriodSeconds: 0 });
    await b.core.deleteNamespacedPod({ namespace: 'default', name: 'reader-b', gracePeriodSeconds: 0 });
    const released = await b.until('the claim deallocated', async () => {
      const c = await b.resource.readNamespacedResourceClaim({ namespace: 'default', name: 'shared-l4' });
      return c.status?.allocation === undefined ? c : undefined;
    });
    expect(released.status?.reservedFor).toBeUndefined();
    expect(released.metadata?.finalizers ?? []).toEqual([]);
  }, 60_000);

  it('leaves a pod whose claim no node satisfies Pending, with a FailedScheduling event and no allocation', async () => {
    bed = await startDraBed([scalewayMachine('gpu-1', 'L4-1-24G'), scalewayMachine('cpu-1', 'PRO2-S')]);
    const b = bed;
    await b.resource.createDeviceClass({ body: gpuClass });
    await b.resource.createNamespacedResourceClaimTemplate({ namespace: 'default', body: claimTemplate('big-gpu', atLeast40Gi) });
    await b.core.createNamespacedPod({ namespace: 'default', body: podWithClaim('llm', { resourceClaimTemplateName: 'big-gpu' }) });

    const expected =
      '0/2 nodes are available: 2 cannot allocate all claims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
    const event = await b.until('a FailedScheduling event', async () =>
      (await b.core.listNamespacedEvent({ namespace: 'default' })).items.find(
        (e) => e.reason === 'FailedScheduling' && e.involvedObject.name === 'llm',
      ),
    );
    expect(event).toMatchObject({ type: 'Warning', message: expected, source: { component: 'default-scheduler' } });
    const pod = await podNamed(b, 'llm');
    expect(pod.spec?.nodeName).toBeUndefined();
    expect(pod.status?.phase).toBe('Pending');
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: expected,
    });
    const claims = (await b.resource.listNamespacedResourceClaim({ namespace: 'default' })).items;
    expect(claims.map((c) => [c.metadata?.name?.startsWith('llm-gpu-'), c.status?.allocation])).toEqual([[true, undefined]]);

    // A second L4 pod takes the one L4 while a third must wait for it: devices are never handed out twice.
    await b.resource.createNamespacedResourceClaimTemplate({ namespace: 'default', body: claimTemplate('one-l4', isL4) });
    await b.core.createNamespacedPod({ namespace: 'default', body: podWithClaim('first', { resourceClaimTemplateName: 'one-l4' }) });
    await b.until('first bound', async () => (await podNamed(b, 'first')).spec?.nodeName);
    await b.core.createNamespacedPod({ namespace: 'default', body: podWithClaim('second', { resourceClaimTemplateName: 'one-l4' }) });
    const waiting = await b.until('second refused', async () => {
      const c = (await podNamed(b, 'second')).status?.conditions?.find((x) => x.type === 'PodScheduled');
      return c?.reason === 'Unschedulable' ? c.message : undefined;
    });
    expect(waiting).toBe(expected);
  }, 60_000);
});
