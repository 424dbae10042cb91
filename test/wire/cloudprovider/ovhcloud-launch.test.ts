import { afterEach, describe, expect, it } from 'vitest';
import { LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import { isNodeClaimNotFoundError, isQuotaExceededError } from '../../../src/cloudprovider/errors.js';
import type { CloudProviderNodeClaim, CloudProviderRequirement } from '../../../src/cloudprovider/types.js';
import { liveNodes, startOvhTestbed, type OvhTestbed } from './ovhcloud-testbed.js';

function pin(flavor: string, zones: string[]): CloudProviderRequirement[] {
  return [
    { key: LabelInstanceType, operator: 'In', values: [flavor] },
    { key: LabelTopologyZone, operator: 'In', values: zones },
  ];
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('ovhcloud provider: node pools against the emulator', () => {
  let bed: OvhTestbed;

  afterEach(async () => {
    await bed.close();
  });

  it('launches a NodeClaim into a karpenter-{flavor}-{zone} pool and returns the node’s MKS providerID', async () => {
    bed = await startOvhTestbed();
    const launched = await bed.provider.create(bed.nodeClaim('web-1', pin('b3-8', ['eu-west-par-b'])));
    const [pool] = bed.emulator.state().pools;
    expect(pool?.name).toBe('karpenter-b3-8-eu-west-par-b');
    expect(pool).toMatchObject({
      flavor: 'b3-8',
      desiredNodes: 1,
      availabilityZones: ['eu-west-par-b'],
      antiAffinity: false,
      monthlyBilled: false,
    });
    expect(pool?.labels).toMatchObject({ [LabelNodePool]: 'default', team: 'platform', 'karpenter-eu.io/managed-by': 'karpenter-eu' });
    const [node] = bed.emulator.state().instances;
    expect(launched.providerID).toBe(`openstack:///${node?.instanceId}`);
    expect(launched).toMatchObject({ instanceType: 'b3-8', zone: 'eu-west-par-b', nodeClaimName: 'web-1', nodePoolName: 'default' });
    expect((await bed.provider.list()).map((c) => c.nodeClaimName)).toEqual(['web-1']);
  });

  it('a NodePool with another template gets its own pool of the same flavor and zone', async () => {
    bed = await startOvhTestbed();
    await bed.provider.create(bed.nodeClaim('a-0', pin('b3-8', ['eu-west-par-a'])));
    const tainted = bed.nodeClaim('b-0', pin('b3-8', ['eu-west-par-a']));
    tainted.spec.taints = [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }];
    await bed.provider.create(tainted);
    await bed.provider.create(bed.nodeClaim('a-1', pin('b3-8', ['eu-west-par-a'])));
    const pools = bed.emulator.state().pools.sort((x, y) => x.name.localeCompare(y.name));
    expect(pools.map((p) => p.name)).toEqual([
      'karpenter-b3-8-eu-west-par-a',
      expect.stringMatching(/^karpenter-b3-8-eu-west-par-a-[0-9a-f]{6}$/),
    ]);
    expect(pools.map((p) => p.desiredNodes)).toEqual([2, 1]);
    const taintedNode = bed.emulator.state().instances.find((i) => i.nodePoolName === pools[1]?.name);
    expect(taintedNode?.taints).toEqual([{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }]);
  });

  it('concurrent NodeClaims of one offering share one pool and never lose an increment', async () => {
    bed = await startOvhTestbed();
    const claims = Array.from({ length: 6 }, (_, i) => bed.nodeClaim(`burst-${i}`, pin('b3-16', ['eu-west-par-a'])));
    const launched = await Promise.all(claims.map((c) => bed.provider.create(c)));
    const pools = bed.emulator.state().pools;
    expect(pools).toHaveLength(1);
    expect(pools[0]?.desiredNodes).toBe(6);
    expect(new Set(launched.map((l) => l.providerID)).size).toBe(6);
    expect(liveNodes(bed.emulator)).toHaveLength(6);
    const listed = await bed.provider.list();
    expect(new Set(listed.map((c) => c.nodeClaimName))).toEqual(new Set(claims.map((c) => c.metadata?.name)));
  });

  it('delete removes exactly the chosen node (nodesToRemove), not the newest', async () => {
    bed = await startOvhTestbed();
    const claims = [0, 1, 2].map((i) => bed.nodeClaim(`pick-${i}`, pin('b3-8', ['eu-west-par-a'])));
    const launched: CloudProviderNodeClaim[] = [];
    for (const claim of claims) {
      const created = await bed.provider.create(claim);
      launched.push({ ...claim, status: { providerID: created.providerID } });
      bed.settle(2_000);
    }
    await bed.provider.delete(launched[0] as CloudProviderNodeClaim);
    bed.settle();
    const remaining = liveNodes(bed.emulator)
      .map((n) => n.providerID)
      .sort();
    expect(remaining).toEqual([launched[1]?.status?.providerID, launched[2]?.status?.providerID].sort());
    expect(bed.emulator.state().pools[0]?.desiredNodes).toBe(2);
    expect(isNodeClaimNotFoundError(await rejection(bed.provider.delete(launched[0] as CloudProviderNodeClaim)))).toBe(true);
  });

  it('deletes an empty pool once the grace period has passed, not before', async () => {
    bed = await startOvhTestbed({ emptyPoolGraceMs: 300_000 });
    const claim = bed.nodeClaim('short-lived', pin('b3-8', ['eu-west-par-a']));
    const created = await bed.provider.create(claim);
    await bed.provider.delete({ ...claim, status: { providerID: created.providerID } });
    bed.settle();
    await bed.provider.list();
    expect(bed.emulator.state().pools).toHaveLength(1);
    bed.settle(300_000);
    await bed.provider.list();
    bed.settle();
    expect(bed.emulator.state().pools).toHaveLength(0);
  });

  it('opens another pool when an anti-affinity pool holds 5 nodes', async () => {
    bed = await startOvhTestbed({ nodeClass: { antiAffinity: true } });
    const claims = Array.from({ length: 7 }, (_, i) => bed.nodeClaim(`spread-${i}`, pin('b3-8', ['eu-west-par-a'])));
    await Promise.all(claims.map((c) => bed.provider.create(c)));
    const pools = bed.emulator.state().pools.sort((a, b) => a.name.localeCompare(b.name));
    expect(pools.map((p) => p.desiredNodes)).toEqual([5, 2]);
    expect(pools.every((p) => p.antiAffinity && p.maxNodes <= 5)).toBe(true);
    expect(pools.map((p) => p.name)).toEqual(['karpenter-b3-8-eu-west-par-a-aa', 'karpenter-b3-8-eu-west-par-a-aa-p2']);
  });

  it('the cluster node cap surfaces as QuotaExceededError naming it', async () => {
    bed = await startOvhTestbed({ emulator: { maxNodesPerCluster: 2 } });
    await bed.provider.create(bed.nodeClaim('cap-0', pin('b3-8', ['eu-west-par-a'])));
    await bed.provider.create(bed.nodeClaim('cap-1', pin('b3-8', ['eu-west-par-a'])));
    const error = await rejection(bed.provider.create(bed.nodeClaim('cap-2', pin('b3-8', ['eu-west-par-a']))));
    expect(isQuotaExceededError(error)).toBe(true);
    expect(String(error)).toMatch(/limited to 2 nodes/);
    expect(liveNodes(bed.emulator)).toHaveLength(2);
  });

  it('a project quota refusal (USER_QUOTA_ERROR node) is QuotaExceededError and leaves no failed node', async () => {
    bed = await startOvhTestbed({ emulator: { quota: { instances: 1 } } });
    await bed.provider.create(bed.nodeClaim('q-0', pin('b3-8', ['eu-west-par-a'])));
    const error = await rejection(bed.provider.create(bed.nodeClaim('q-1', pin('b3-8', ['eu-west-par-a']))));
    expect(isQuotaExceededError(error)).toBe(true);
    bed.settle();
    expect(bed.emulator.state().instances.filter((i) => i.state !== 'DELETED' && i.state !== 'DELETING')).toHaveLength(1);
    expect(bed.emulator.state().pools[0]?.desiredNodes).toBe(1);
  });

  it('reads region and prices live: region detected from the cluster, b3-8 priced from the order catalog', async () => {
    bed = await startOvhTestbed();
    const types = await bed.provider.getInstanceTypes(bed.nodePool);
    const b38 = types.find((t) => t.name === 'b3-8');
    expect(b38?.region).toBe('EU-WEST-PAR');
    expect(b38?.offerings.map((o) => o.zone)).toEqual(['eu-west-par-a', 'eu-west-par-b', 'eu-west-par-c']);
    expect(b38?.offerings[0]?.pricePerHour).toBeCloseTo(0.0508, 6);
    const calls = bed.emulator.calls.count({ action: 'listCapabilityFlavors' });
    await bed.provider.getInstanceTypes(bed.nodePool);
    expect(bed.emulator.calls.count({ action: 'listCapabilityFlavors' })).toBe(calls);
  });

  it('monthly billing offers only flavors with a monthly plan and creates monthly pools', async () => {
    bed = await startOvhTestbed({ nodeClass: { monthlyBilled: true } });
    const types = await bed.provider.getInstanceTypes(bed.nodePool);
    expect(types.length).toBeGreaterThan(0);
    expect(types.every((t) => t.labels['karpenter-eu.io/billing'] === 'monthly')).toBe(true);
    const flavor = types.find((t) => t.offerings.length > 0)?.name ?? '';
    await bed.provider.create(bed.nodeClaim('monthly-0', pin(flavor, ['eu-west-par-a'])));
    expect(bed.emulator.state().pools[0]).toMatchObject({ flavor, monthlyBilled: true });
  });

  it('isDrifted reports a NodeClass whose antiAffinity changed after launch', async () => {
    bed = await startOvhTestbed();
    const claim = bed.nodeClaim('drift-0', pin('b3-8', ['eu-west-par-a']));
    const created = await bed.provider.create(claim);
    const launched = { ...claim, status: { providerID: created.providerID } };
    expect(await bed.provider.isDrifted(launched)).toBeUndefined();
    bed.resolver.nodeClasses.set('default', { ...bed.nodeClass, spec: { ...bed.nodeClass.spec, antiAffinity: true } });
    expect(await bed.provider.isDrifted(launched)).toBe('AntiAffinityDrifted');
  });
});
