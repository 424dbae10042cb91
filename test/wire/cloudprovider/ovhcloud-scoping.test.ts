import { afterEach, describe, expect, it } from 'vitest';
import { LabelInstanceType, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import type { OVHNodeClass } from '../../../src/apis/v1alpha1/ovh-nodeclass.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { isNodeClaimNotFoundError } from '../../../src/cloudprovider/errors.js';
import { createOvhCloudProvider, type OvhCloudProvider } from '../../../src/cloudprovider/ovhcloud/index.js';
import type { CloudProviderNodeClaim, CloudProviderRequirement } from '../../../src/cloudprovider/types.js';
import { UnavailableOfferings } from '../../../src/cloudprovider/unavailable-offerings.js';
import { autoAdvancing, FastRetry, liveNodes, MapResolver, OvhClusterName, startOvhTestbed, type OvhTestbed } from './ovhcloud-testbed.js';

const b38: CloudProviderRequirement[] = [
  { key: LabelInstanceType, operator: 'In', values: ['b3-8'] },
  { key: LabelTopologyZone, operator: 'In', values: ['eu-west-par-a'] },
];

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** Lists its NodeClasses, as the operator's informer-backed resolver does. */
class ListingResolver extends MapResolver {
  async listNodeClasses(): Promise<OVHNodeClass[]> {
    return [...this.nodeClasses.values()];
  }
}

/**
 * A provider as `run` builds it after a restart: operator-wide credentials but no operator-wide MKS cluster
 * (no OVH_SERVICE_NAME / OVH_KUBE_ID) — the cluster is named by the NodeClasses only.
 */
function providerOf(bed: OvhTestbed, clusterName: string, nodeClasses: MapResolver, emptyPoolGraceMs?: number): OvhCloudProvider {
  return createOvhCloudProvider({
    clusterName,
    api: bed.api,
    nodeClasses,
    catalog: loadCatalog('ovhcloud'),
    unavailableOfferings: new UnavailableOfferings({ clock: bed.clock }),
    clock: autoAdvancing(bed.clock),
    random: () => 0.5,
    retryPolicy: FastRetry,
    pollIntervalMs: 500,
    launchTimeoutMs: 60_000,
    ...(emptyPoolGraceMs !== undefined ? { emptyPoolGraceMs } : {}),
  });
}

function withNodeClass(nodeClass: OVHNodeClass): ListingResolver {
  const resolver = new ListingResolver();
  resolver.nodeClasses.set(nodeClass.metadata?.name ?? '', nodeClass);
  return resolver;
}

/** What garbage collection hands delete() for an instance no NodeClaim claims: a providerID, no NodeClass. */
function leak(providerID: string): CloudProviderNodeClaim {
  return {
    metadata: { name: providerID },
    spec: { nodeClassRef: { group: '', kind: '', name: '' }, requirements: [] },
    status: { providerID },
  };
}

describe('ovhcloud: accounts resolve from the instance', () => {
  let bed: OvhTestbed;
  afterEach(async () => {
    await bed.close();
  });

  it('deletes a leaked node with no operator-wide MKS cluster, found through the cluster an OVHNodeClass names', async () => {
    bed = await startOvhTestbed();
    const launched = await bed.provider.create(bed.nodeClaim('lost-on-restart', b38));
    const restarted = providerOf(bed, OvhClusterName, withNodeClass(bed.nodeClass));
    expect((await restarted.list()).map((c) => c.providerID)).toEqual([launched.providerID]);
    await restarted.delete(leak(launched.providerID));
    bed.settle();
    expect(liveNodes(bed.emulator)).toEqual([]);
    expect(bed.emulator.state().pools[0]?.desiredNodes).toBe(0);
  });

  it('a 404 for the MKS cluster itself is not "the node is gone": get and delete fail without NodeClaimNotFoundError', async () => {
    bed = await startOvhTestbed();
    const launched = await bed.provider.create(bed.nodeClaim('kept', b38));
    const wrongCluster: OVHNodeClass = {
      ...bed.nodeClass,
      spec: { ...bed.nodeClass.spec, kubeId: '00000000-0000-4000-8000-00000000dead' },
    };
    const restarted = providerOf(bed, OvhClusterName, withNodeClass(wrongCluster));
    for (const failure of [
      await rejection(restarted.get(launched.providerID)),
      await rejection(restarted.delete(leak(launched.providerID))),
    ]) {
      expect(String(failure)).toMatch(/does not exist/);
      expect(isNodeClaimNotFoundError(failure)).toBe(false);
    }
    expect(liveNodes(bed.emulator)).toHaveLength(1);
  });
});

describe("ovhcloud: two clusters pointed at one MKS cluster never touch each other's pools", () => {
  let bed: OvhTestbed;
  afterEach(async () => {
    await bed.close();
  });

  it("each scales and lists its own pool; a delete by the other finds nothing; empty-pool cleanup spares the other's pool", async () => {
    bed = await startOvhTestbed();
    const alpha = providerOf(bed, 'alpha', withNodeClass(bed.nodeClass), 0);
    const beta = providerOf(bed, 'beta', withNodeClass(bed.nodeClass), 0);
    const a = await alpha.create(bed.nodeClaim('alpha-1', b38));
    const b = await beta.create(bed.nodeClaim('beta-1', b38));
    const pools = bed.emulator.state().pools;
    expect(pools).toHaveLength(2);
    expect(pools.map((p) => p.desiredNodes)).toEqual([1, 1]);
    expect((await alpha.list()).map((c) => c.providerID)).toEqual([a.providerID]);
    expect((await beta.list()).map((c) => c.providerID)).toEqual([b.providerID]);
    expect(isNodeClaimNotFoundError(await rejection(beta.delete(leak(a.providerID))))).toBe(true);
    expect(isNodeClaimNotFoundError(await rejection(beta.get(a.providerID)))).toBe(true);

    await alpha.delete(leak(a.providerID));
    bed.settle();
    await beta.list(); // beta's listing deletes its own empty pools only
    expect(
      bed.emulator
        .state()
        .pools.filter((p) => p.status !== 'DELETING')
        .map((p) => p.desiredNodes)
        .sort(),
    ).toEqual([0, 1]);
    await alpha.list();
    bed.settle();
    expect(bed.emulator.state().pools.filter((p) => p.status !== 'DELETING' && p.desiredNodes === 0)).toEqual([]);
    expect(liveNodes(bed.emulator).map((n) => n.providerID)).toEqual([b.providerID]);
  });
});
