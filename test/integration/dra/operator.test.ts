// Dynamic Resource Allocation end to end with the operator as `karpenter-eu run --feature-gates
// DynamicResourceAllocation=true` builds it, the Scaleway emulator and the example GPU NodePool: a pod whose claim
// asks for a GPU with at least 40 GiB gets an L40S node (the L4 has 24 GB), the node's DRA driver publishes its
// slice, the scheduler allocates the claim there and the pod runs; a claim no flavor satisfies is reported on the
// pod and launches nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api, CustomObjectsApi, ResourceV1Api, type V1Pod } from '@kubernetes/client-node';
import { defaultControllers } from '../../../src/operator/default-controllers.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/testbed/demo/environment.js';
import { applyObjects } from '../../../src/testbed/demo/install.js';
import { nodeClassesFor, nodePoolsFor } from '../../../src/testbed/demo/demo-manifests.js';
import { SystemClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';
import { claimTemplate, driver, gpuClass, podWithClaim } from './dra-bed.js';

let env: DemoEnvironment;
let core: CoreV1Api;
let resource: ResourceV1Api;
let custom: CustomObjectsApi;

async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A pod of the example GPU pool (which taints its nodes) with one claim from a template. */
function gpuPod(name: string, template: string): V1Pod {
  const pod = podWithClaim(name, { resourceClaimTemplateName: template });
  pod.spec = {
    ...pod.spec,
    containers: pod.spec?.containers ?? [],
    tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
  };
  return pod;
}

async function nodeClaims(): Promise<{ metadata: { name: string; labels?: Record<string, string> } }[]> {
  const list = (await custom.listClusterCustomObject({ group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' })) as {
    items: { metadata: { name: string; labels?: Record<string, string> } }[];
  };
  return list.items;
}

beforeAll(async () => {
  env = await startDemoEnvironment({
    clouds: ['scaleway'],
    clock: new SystemClock(),
    logger: silentLogger,
    controllers: defaultControllers,
    kubeconfig: true,
    featureGates: 'DynamicResourceAllocation=true',
  });
  core = env.cluster.kubeConfig.makeApiClient(CoreV1Api);
  resource = env.cluster.kubeConfig.makeApiClient(ResourceV1Api);
  custom = env.cluster.kubeConfig.makeApiClient(CustomObjectsApi);
  await applyObjects(env.cluster.kubeConfig, [...nodeClassesFor('scaleway', env), ...nodePoolsFor('scaleway')]);
  await resource.createDeviceClass({ body: gpuClass });
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe('DRA with the operator on the simulated cluster', () => {
  it('launches an L40S-1-48G for a claim asking at least 40 GiB of GPU memory; the claim is allocated there and the pod runs', async () => {
    const atLeast40Gi = `device.capacity["${driver}"].memory.compareTo(quantity("40Gi")) >= 0`;
    await resource.createNamespacedResourceClaimTemplate({ namespace: 'default', body: claimTemplate('big-gpu', atLeast40Gi) });
    await core.createNamespacedPod({ namespace: 'default', body: gpuPod('trainer', 'big-gpu') });

    const running = await eventually(async () => {
      const pod = await core.readNamespacedPod({ namespace: 'default', name: 'trainer' });
      return pod.status?.phase === 'Running' ? pod : undefined;
    }, 'the pod running');
    const node = await core.readNode({ name: running.spec?.nodeName ?? '' });
    expect(node.metadata?.labels?.['node.kubernetes.io/instance-type']).toBe('L40S-1-48G');
    expect((await nodeClaims()).map((c) => c.metadata.labels?.['node.kubernetes.io/instance-type'])).toEqual(['L40S-1-48G']);

    const slices = (await resource.listResourceSlice()).items.filter((s) => s.spec.nodeName === node.metadata?.name);
    expect(slices.map((s) => s.spec.devices?.map((d) => d.attributes?.productName?.string))).toEqual([['NVIDIA L40S']]);
    const claimName = running.status?.resourceClaimStatuses?.[0]?.resourceClaimName ?? '';
    const claim = await resource.readNamespacedResourceClaim({ namespace: 'default', name: claimName });
    expect(claim.status?.allocation?.devices?.results).toEqual([
      expect.objectContaining({ request: 'gpu', driver, pool: node.metadata?.name, device: 'gpu-0' }),
    ]);
  }, 180_000);

  it('reports a claim no flavor satisfies on the pod and launches nothing for it', async () => {
    const before = (await nodeClaims()).length;
    const tooBig = `device.capacity["${driver}"].memory.compareTo(quantity("1Ti")) >= 0`;
    await resource.createNamespacedResourceClaimTemplate({ namespace: 'default', body: claimTemplate('huge-gpu', tooBig) });
    await core.createNamespacedPod({ namespace: 'default', body: gpuPod('dreamer', 'huge-gpu') });

    const event = await eventually(async () => {
      const events = await core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=dreamer' });
      return events.items.find((e) => e.source?.component === 'karpenter' && /resource claims/.test(e.message ?? ''));
    }, 'an event on the pod about its claims');
    expect(event.reason).toBe('FailedScheduling');
    expect(event.message).toMatch(/no instance type publishes devices that satisfy the pod's resource claims/);
    expect((await nodeClaims()).length).toBe(before);
    const pod = await core.readNamespacedPod({ namespace: 'default', name: 'dreamer' });
    expect(pod.spec?.nodeName).toBeUndefined();
  }, 180_000);
});
