import { afterEach, describe, expect, it } from 'vitest';
import { LabelInstanceGPUName, LabelInstanceType, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import { createOvhCloudProvider } from '../../../src/cloudprovider/ovhcloud/index.js';
import {
  isCreateError,
  isInsufficientCapacityError,
  isNodeClassNotReadyError,
  isNodeClaimNotFoundError,
  isTransientCloudError,
} from '../../../src/cloudprovider/errors.js';
import type { CloudProviderRequirement } from '../../../src/cloudprovider/types.js';
import { UnavailableOfferings } from '../../../src/cloudprovider/unavailable-offerings.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { autoAdvancing, FastRetry, liveNodes, OvhClusterName, startOvhTestbed, type OvhTestbed } from './ovhcloud-testbed.js';

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

describe('ovhcloud provider under faults', () => {
  let bed: OvhTestbed;

  afterEach(async () => {
    await bed.close();
  });

  it('rides out 5xx and 429 on the scale-up PUT without adding a second node', async () => {
    bed = await startOvhTestbed();
    await bed.provider.create(bed.nodeClaim('warm', pin('b3-8', ['eu-west-par-a'])));
    bed.emulator.faults.add({ match: { action: 'updateNodePool' }, fault: { kind: 'server-error', status: 503 }, times: 1 });
    bed.emulator.faults.add({ match: { action: 'updateNodePool' }, fault: { kind: 'throttle', retryAfterSeconds: 0 }, times: 1 });
    await bed.provider.create(bed.nodeClaim('after-faults', pin('b3-8', ['eu-west-par-a'])));
    expect(bed.emulator.state().pools[0]?.desiredNodes).toBe(2);
    expect(liveNodes(bed.emulator)).toHaveLength(2);
  });

  it('a pool create answered too late is retried into a 409 and converges on one node', async () => {
    bed = await startOvhTestbed({ callTimeoutMs: 150 });
    // The first POST is held (fake time) past the client deadline; the retry creates the pool; the held
    // one lands later and is refused as a duplicate.
    bed.emulator.faults.add({ match: { action: 'createNodePool' }, fault: { kind: 'slow', delayMs: 1_000 }, times: 1 });
    const created = await bed.provider.create(bed.nodeClaim('late', pin('b3-8', ['eu-west-par-a'])));
    bed.settle();
    expect(bed.emulator.state().pools).toHaveLength(1);
    expect(liveNodes(bed.emulator).map((n) => n.providerID)).toEqual([created.providerID]);
    expect(bed.emulator.calls.count({ action: 'createNodePool' })).toBe(2);
  });

  it('a scale-up PUT answered too late and retried lands twice without adding a second node', async () => {
    bed = await startOvhTestbed({ callTimeoutMs: 150 });
    await bed.provider.create(bed.nodeClaim('warm', pin('b3-8', ['eu-west-par-a'])));
    bed.emulator.faults.add({ match: { action: 'updateNodePool' }, fault: { kind: 'slow', delayMs: 1_000 }, times: 1 });
    const created = await bed.provider.create(bed.nodeClaim('late-put', pin('b3-8', ['eu-west-par-a'])));
    bed.settle();
    expect(bed.emulator.state().pools[0]?.desiredNodes).toBe(2);
    expect(liveNodes(bed.emulator).map((n) => n.providerID)).toContain(created.providerID);
    expect(liveNodes(bed.emulator)).toHaveLength(2);
    expect((await bed.provider.list()).map((c) => c.nodeClaimName).sort()).toEqual(['late-put', 'warm']);
  });

  it('a new pool invisible for a while (eventual consistency) still gets exactly one node per NodeClaim', async () => {
    bed = await startOvhTestbed({ emulator: { consistencyDelayMs: 5_000 } });
    const claims = [0, 1, 2].map((i) => bed.nodeClaim(`ec-${i}`, pin('b3-8', ['eu-west-par-c'])));
    const launched = await Promise.all(claims.map((c) => bed.provider.create(c)));
    expect(new Set(launched.map((l) => l.providerID)).size).toBe(3);
    expect(bed.emulator.state().pools).toHaveLength(1);
    expect(liveNodes(bed.emulator)).toHaveLength(3);
  });

  it('a restart mid-create (record on the pool, node not there yet) resumes the same launch', async () => {
    bed = await startOvhTestbed({ emulator: { timings: { instanceIdMs: 30_000, nodeReadyMs: 30_000 } } });
    const claim = bed.nodeClaim('restart', pin('b3-8', ['eu-west-par-a']));
    const impatient = createOvhCloudProvider({
      clusterName: OvhClusterName,
      api: bed.api,
      nodeClasses: bed.resolver,
      catalog: loadCatalog('ovhcloud'),
      unavailableOfferings: new UnavailableOfferings({ clock: bed.clock }),
      clock: autoAdvancing(bed.clock),
      random: () => 0.5,
      retryPolicy: FastRetry,
      pollIntervalMs: 1_000,
      launchTimeoutMs: 10_000,
    });
    expect(isCreateError(await rejection(impatient.create(claim)))).toBe(true);
    const resumed = await bed.provider.create(claim);
    expect(bed.emulator.state().pools[0]?.desiredNodes).toBe(1);
    expect(liveNodes(bed.emulator).map((n) => n.providerID)).toEqual([resumed.providerID]);
  });

  it('deleting a NodeClaim whose launch never returned removes its node through the pool record', async () => {
    bed = await startOvhTestbed({ emulator: { timings: { instanceIdMs: 30_000, nodeReadyMs: 30_000 } } });
    const claim = bed.nodeClaim('abandoned', pin('b3-8', ['eu-west-par-a']));
    const impatient = createOvhCloudProvider({
      clusterName: OvhClusterName,
      api: bed.api,
      nodeClasses: bed.resolver,
      catalog: loadCatalog('ovhcloud'),
      unavailableOfferings: new UnavailableOfferings({ clock: bed.clock }),
      clock: autoAdvancing(bed.clock),
      random: () => 0.5,
      retryPolicy: FastRetry,
      pollIntervalMs: 1_000,
      launchTimeoutMs: 10_000,
    });
    expect(isCreateError(await rejection(impatient.create(claim)))).toBe(true);
    await bed.provider.delete(claim);
    bed.settle();
    expect(liveNodes(bed.emulator)).toHaveLength(0);
    expect(bed.emulator.state().pools[0]?.desiredNodes).toBe(0);
    expect(isNodeClaimNotFoundError(await rejection(bed.provider.delete(claim)))).toBe(true);
  });

  it('out of stock in one zone: that offering is marked unavailable, the next cheapest used, no failed node left', async () => {
    bed = await startOvhTestbed();
    bed.emulator.setOutOfStock('b3-8', 'eu-west-par-a');
    const launched = await bed.provider.create(bed.nodeClaim('ice', pin('b3-8', ['eu-west-par-a', 'eu-west-par-b'])));
    expect(launched.zone).toBe('eu-west-par-b');
    expect(bed.unavailable.isUnavailable({ instanceType: 'b3-8', zone: 'eu-west-par-a', capacityType: 'on-demand' })).toBe(true);
    bed.settle();
    const state = bed.emulator.state();
    expect(state.instances.filter((i) => i.state !== 'DELETED')).toHaveLength(1);
    expect(state.pools.find((p) => p.availabilityZones[0] === 'eu-west-par-a')?.desiredNodes).toBe(0);
  });

  it('every offering out of stock: InsufficientCapacityError naming them', async () => {
    bed = await startOvhTestbed();
    bed.emulator.setOutOfStock('b3-8');
    const error = await rejection(bed.provider.create(bed.nodeClaim('ice-all', pin('b3-8', ['eu-west-par-a', 'eu-west-par-b']))));
    expect(isInsufficientCapacityError(error)).toBe(true);
    expect(String(error)).toMatch(/b3-8\/eu-west-par-a.*b3-8\/eu-west-par-b|b3-8\/eu-west-par-b.*b3-8\/eu-west-par-a/);
  });

  it('a GPU requirement never launches a CPU flavor', async () => {
    bed = await startOvhTestbed();
    const gpu = [{ key: LabelInstanceGPUName, operator: 'In' as const, values: ['v100'] }];
    // EU-WEST-PAR has no V100 flavor: the claim must fail, not fall back to a CPU flavor.
    const error = await rejection(bed.provider.create(bed.nodeClaim('gpu', gpu)));
    expect(isCreateError(error) || isInsufficientCapacityError(error)).toBe(true);
    expect(bed.emulator.state().instances).toHaveLength(0);
  });

  it('list() throws on a timed-out node listing instead of returning a partial list', async () => {
    bed = await startOvhTestbed({ callTimeoutMs: 150 });
    await bed.provider.create(bed.nodeClaim('listed', pin('b3-8', ['eu-west-par-a'])));
    const rule = bed.emulator.faults.add({ match: { action: 'listNodes' }, fault: { kind: 'timeout', afterMs: 60_000 } });
    const error = await rejection(bed.provider.list());
    expect(isTransientCloudError(error)).toBe(true);
    expect(isNodeClaimNotFoundError(error)).toBe(false);
    bed.emulator.faults.remove(rule);
    expect(await bed.provider.list()).toHaveLength(1);
  });

  it('list() without any known MKS cluster throws instead of answering an empty list', async () => {
    bed = await startOvhTestbed();
    const bare = createOvhCloudProvider({
      clusterName: OvhClusterName,
      api: bed.api,
      nodeClasses: bed.resolver,
      catalog: loadCatalog('ovhcloud'),
      unavailableOfferings: new UnavailableOfferings({ clock: bed.clock }),
      clock: autoAdvancing(bed.clock),
      random: () => 0.5,
      retryPolicy: FastRetry,
    });
    await bed.provider.create(bed.nodeClaim('exists', pin('b3-8', ['eu-west-par-a'])));
    expect(String(await rejection(bare.list()))).toMatch(/no MKS cluster is known yet/);
    await bare.getInstanceTypes(bed.nodePool);
    expect(await bare.list()).toHaveLength(1);
  });

  it('list() after a restart reads the cluster of every existing OVHNodeClass; with none at all, an empty list', async () => {
    bed = await startOvhTestbed();
    const b = bed;
    await b.provider.create(b.nodeClaim('exists', pin('b3-8', ['eu-west-par-a'])));
    const listing = Object.assign(Object.create(b.resolver) as typeof b.resolver, {
      listNodeClasses: async () => [...b.resolver.nodeClasses.values()],
    });
    const restarted = () =>
      createOvhCloudProvider({
        clusterName: OvhClusterName,
        api: b.api,
        nodeClasses: listing,
        catalog: loadCatalog('ovhcloud'),
        unavailableOfferings: new UnavailableOfferings({ clock: b.clock }),
        clock: autoAdvancing(b.clock),
        random: () => 0.5,
        retryPolicy: FastRetry,
      });
    // Nothing launched by this process yet: the NodeClass alone makes its cluster known.
    expect(await restarted().list()).toHaveLength(1);
    // No operator-wide cluster, no OVHNodeClass: nothing of ours can exist on OVH.
    b.resolver.nodeClasses.clear();
    expect(await restarted().list()).toEqual([]);
  });

  it('falls back to the bundled catalog, with a warning, when flavors cannot be read', async () => {
    bed = await startOvhTestbed();
    bed.emulator.faults.add({ match: { action: 'listCapabilityFlavors' }, fault: { kind: 'server-error', status: 500 } });
    const types = await bed.provider.getInstanceTypes(bed.nodePool);
    expect(types.find((t) => t.name === 'b3-8')?.offerings.length).toBe(3);
    expect(bed.warnings.some((w) => w.includes('bundled catalog'))).toBe(true);
  });

  it('a NodeClass Secret without the needed keys makes create fail with NodeClassNotReadyError naming them', async () => {
    bed = await startOvhTestbed();
    bed.resolver.secrets.set('karpenter/ovh', { applicationKey: 'ak' });
    bed.resolver.nodeClasses.set('default', {
      ...bed.nodeClass,
      spec: { ...bed.nodeClass.spec, credentialsSecretRef: { name: 'ovh', namespace: 'karpenter' } },
    });
    const error = await rejection(bed.provider.create(bed.nodeClaim('secret', pin('b3-8', ['eu-west-par-a']))));
    expect(isNodeClassNotReadyError(error)).toBe(true);
    expect(String(error)).toMatch(/applicationSecret, consumerKey/);
  });
});
