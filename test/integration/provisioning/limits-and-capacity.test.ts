import { afterEach, describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../src/apis/index.js';
import { Resources } from '../../../src/kube/index.js';
import { nodePool, pod, type ProvisioningBed, startProvisioningBed } from './harness.js';

let bed: ProvisioningBed | undefined;

afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const cpuOf = (c: NodeClaim): number => {
  const type = c.spec.requirements.find((r) => r.key === 'node.kubernetes.io/instance-type')?.values?.[0] ?? '';
  return Number(type.split('-')[1] ?? 0);
};

describe('NodePool limits and insufficient capacity', () => {
  it('keeps a NodePool within its limits across back-to-back batches that the cache has not caught up with', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('capped', { cpu: '4' }));
    for (const name of ['a', 'b']) await b.kube.create(Resources.Pod, pod(name, '1500m'));
    await b.until('two pending pods in state', () => b.state.snapshot().pendingPods.length === 2);
    for (const name of ['c', 'd']) await b.kube.create(Resources.Pod, pod(name, '1500m'));
    // Two batches at once: the second runs before the informers have shown the first one's NodeClaim.
    const [first, second] = await Promise.all([b.provisioner.provision(), b.provisioner.provision()]);
    const third = await b.provisioner.provision();
    const claims = await b.nodeClaims();
    const totalCpu = claims.reduce((s, c) => s + cpuOf(c), 0);
    expect(totalCpu).toBeLessThanOrEqual(4);
    expect(claims).toHaveLength(1);
    expect([...first.created, ...second.created, ...third.created]).toHaveLength(1);
    const refused = [...second.unschedulable, ...second.failed, ...third.unschedulable, ...third.failed];
    expect(refused.length).toBeGreaterThan(0);
    const failed = await b.until('a FailedScheduling event on a pod left out', async () =>
      (await b.events('FailedScheduling')).find((e) => e.message?.includes('limit')),
    );
    expect(failed.message).toMatch(/limit/);
  }, 20_000);

  it('marks an out-of-stock offering unavailable, deletes the NodeClaim and launches the next cheapest offering', async () => {
    bed = await startProvisioningBed();
    const b = bed;
    for (const zone of ['test-zone-a', 'test-zone-b', 'test-zone-c']) b.provider.outOfStock.add(`on-demand:m-2:${zone}`);
    await b.kube.create(Resources.NodePool, nodePool('default'));
    await b.kube.create(Resources.Pod, pod('web', '1'));
    const running = await b.until('the pod running', async () => (await b.pods()).find((p) => p.status?.phase === 'Running'), 30_000);
    const launched = [...b.provider.instances.values()];
    expect(launched.map((i) => i.instanceType)).toEqual(['m-4']);
    expect(running.spec?.nodeName).toBe(`node-${launched[0]?.providerID.split('/').pop()}`);
    expect(b.provider.unavailableOfferings.isUnavailable({ instanceType: 'm-2', zone: 'test-zone-a', capacityType: 'on-demand' })).toBe(
      true,
    );
    // One create per out-of-stock zone tried, then the m-4 one; the deleted NodeClaims are gone.
    expect(b.provider.createCalls.length).toBeGreaterThanOrEqual(2);
    expect(await b.nodeClaims()).toHaveLength(1);
    expect((await b.events('InsufficientCapacityError')).length).toBeGreaterThan(0);
  }, 40_000);
});
