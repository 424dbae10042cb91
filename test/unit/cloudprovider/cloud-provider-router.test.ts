import { describe, expect, it } from 'vitest';
import {
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
  PermanentCloudError,
  TransientCloudError,
} from '../../../src/cloudprovider/errors.js';
import type {
  ClaimResource,
  CloudNodeClaim,
  CloudProvider,
  CloudProviderNodeClaim,
  NodeClassKind,
} from '../../../src/cloudprovider/types.js';
import { CloudProviderRouter, routedByName } from '../../../src/cloudprovider/cloud-provider-router.js';

const scwKind: NodeClassKind = { group: 'karpenter.scaleway.sh', version: 'v1alpha1', kind: 'ScalewayNodeClass' };
const oscKind: NodeClassKind = { group: 'karpenter.outscale.sh', version: 'v1alpha1', kind: 'OutscaleNodeClass' };

function instance(providerID: string): CloudNodeClaim {
  return { providerID, instanceType: 't', zone: 'z', capacityType: 'on-demand', capacity: {}, allocatable: {}, labels: {}, createdAt: 0 };
}

/** A provider that records which calls reached it. */
function recording(name: string, kind: NodeClassKind, listed: CloudNodeClaim[] | Error): CloudProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    name,
    calls,
    create: (c) => (calls.push(`create ${c.metadata?.name}`), Promise.resolve(instance(`${name}-new`))),
    delete: (c) => (calls.push(`delete ${c.metadata?.name}`), Promise.resolve()),
    get: (id) => (calls.push(`get ${id}`), Promise.resolve(instance(id))),
    list: () => (listed instanceof Error ? Promise.reject(listed) : Promise.resolve(listed)),
    getInstanceTypes: () => (calls.push('getInstanceTypes'), Promise.resolve([])),
    isDrifted: () => (calls.push('isDrifted'), Promise.resolve(undefined)),
    getSupportedNodeClasses: () => [kind],
    repairPolicies: () => [{ conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 1000 }],
  };
}

function claim(name: string, kind: NodeClassKind, providerID?: string): CloudProviderNodeClaim {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name },
    spec: { nodeClassRef: { group: kind.group, kind: kind.kind, name: 'default' }, requirements: [] },
    ...(providerID ? { status: { providerID } } : {}),
  } as CloudProviderNodeClaim;
}

describe('CloudProviderRouter', () => {
  const setup = (oscList: CloudNodeClaim[] | Error = [instance('aws:///eu-west-2a/i-1')]) => {
    const scw = recording('scaleway', scwKind, [instance('scaleway://instance/fr-par-1/a')]);
    const osc = recording('outscale', oscKind, oscList);
    return { scw, osc, router: new CloudProviderRouter([routedByName(scw), routedByName(osc)]) };
  };

  it('routes NodeClaim calls by the NodeClass kind', async () => {
    const { scw, osc, router } = setup();
    await router.create(claim('a', scwKind));
    await router.create(claim('b', oscKind));
    await router.isDrifted(claim('c', oscKind));
    expect(scw.calls).toEqual(['create a']);
    expect(osc.calls).toEqual(['create b', 'isDrifted']);
  });

  it('routes providerID calls by the providerID scheme, the NodeClass kind when there is none', async () => {
    const { scw, osc, router } = setup();
    await router.get('aws:///eu-west-2a/i-1');
    await router.delete(claim('x', oscKind, 'scaleway://instance/fr-par-1/a'));
    await router.delete(claim('y', oscKind));
    expect(osc.calls).toEqual(['get aws:///eu-west-2a/i-1', 'delete y']);
    expect(scw.calls).toEqual(['delete x']);
    await expect(router.get('openstack:///abc')).rejects.toThrow(NodeClaimNotFoundError);
  });

  it('names the unserved kind and the accepted ones', async () => {
    const { router } = setup();
    const ovh = claim('o', { group: 'karpenter.ovhcloud.sh', version: 'v1alpha1', kind: 'OVHNodeClass' });
    await expect(router.create(ovh)).rejects.toThrow(NodeClassNotReadyError);
    await expect(router.create(ovh)).rejects.toThrow(
      'nodeClassRef karpenter.ovhcloud.sh/OVHNodeClass has no configured cloud; accepted: karpenter.scaleway.sh/ScalewayNodeClass, karpenter.outscale.sh/OutscaleNodeClass',
    );
  });

  it('lists every cloud, and fails the whole list when one cloud fails (never partial)', async () => {
    expect((await setup().router.list()).map((i) => i.providerID)).toEqual(['scaleway://instance/fr-par-1/a', 'aws:///eu-west-2a/i-1']);
    await expect(setup(new TransientCloudError('listing vms: 503')).router.list()).rejects.toThrow(TransientCloudError);
  });

  it('merges supported NodeClasses and de-duplicates repair policies', () => {
    const { router } = setup();
    expect(router.getSupportedNodeClasses()).toEqual([scwKind, oscKind]);
    expect(router.repairPolicies()).toHaveLength(1);
  });

  describe('claim resources', () => {
    const gpu: ClaimResource = { id: 'fgpu-1', kind: 'flexible-gpu', provider: 'outscale', nodeClaimName: 'gone', attached: false };
    /** Outscale with flexible GPUs (or failing to list them), Scaleway with none. */
    const withGpus = (listed: ClaimResource[] | Error = [gpu]) => {
      const { scw, osc } = setup();
      const gpus: CloudProvider = {
        ...osc,
        listClaimResources: () => (listed instanceof Error ? Promise.reject(listed) : Promise.resolve(listed)),
        deleteClaimResource: (r) => (osc.calls.push(`deleteClaimResource ${r.id}`), Promise.resolve()),
      };
      return { scw, osc, router: new CloudProviderRouter([routedByName(scw), routedByName(gpus)]) };
    };

    it('lists those of every cloud that has some, and fails the whole list when one cloud fails (never partial)', async () => {
      expect(await withGpus().router.listClaimResources()).toEqual([gpu]);
      await expect(withGpus(new TransientCloudError('reading flexible gpus: 503')).router.listClaimResources()).rejects.toThrow(
        TransientCloudError,
      );
      expect(await setup().router.listClaimResources()).toEqual([]);
    });

    it('deletes each in the cloud that listed it, and names the accepted clouds for one no configured cloud listed', async () => {
      const { scw, osc, router } = withGpus();
      await router.deleteClaimResource(gpu);
      expect(osc.calls).toEqual(['deleteClaimResource fgpu-1']);
      expect(scw.calls).toEqual([]);
      await expect(router.deleteClaimResource({ ...gpu, provider: 'scaleway' })).rejects.toThrow(PermanentCloudError);
      await expect(router.deleteClaimResource({ ...gpu, provider: 'ovhcloud' })).rejects.toThrow(
        'deleting flexible-gpu fgpu-1: provider "ovhcloud" is not configured or has no claim resources; accepted: outscale',
      );
    });
  });
});
