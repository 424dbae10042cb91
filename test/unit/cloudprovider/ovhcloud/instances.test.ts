import { describe, expect, it } from 'vitest';
import { PermanentCloudError, TransientCloudError } from '../../../../src/cloudprovider/errors.js';
import { OvhApiError } from '../../../../src/cloudprovider/ovhcloud/errors.js';
import type { OvhAccount } from '../../../../src/cloudprovider/ovhcloud/accounts.js';
import type { OvhApi, OvhNode, OvhNodePool } from '../../../../src/cloudprovider/ovhcloud/api.js';
import { readCluster, toCloudNodeClaim } from '../../../../src/cloudprovider/ovhcloud/instances.js';
import { poolTemplate } from '../../../../src/cloudprovider/ovhcloud/pool-naming.js';

const settings = {
  flavor: 'b3-8',
  zone: 'eu-west-par-a',
  monthlyBilled: false,
  antiAffinity: false,
  labels: { 'karpenter.sh/nodepool': 'web' },
  taints: [],
  clusterName: 'prod',
};

function pool(id: string, name: string, managed = true, annotations: Record<string, string> = {}, clusterName = 'prod'): OvhNodePool {
  const template = managed
    ? poolTemplate({ ...settings, clusterName }, annotations)
    : { metadata: { labels: {}, annotations: {}, finalizers: [] }, spec: { taints: [], unschedulable: false } };
  return {
    id,
    name,
    flavor: 'b3-8',
    status: 'READY',
    desiredNodes: 1,
    minNodes: 0,
    maxNodes: 100,
    currentNodes: 1,
    monthlyBilled: false,
    antiAffinity: false,
    availabilityZones: ['eu-west-par-a'],
    template,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
}

function node(id: string, poolId: string, status = 'READY', instanceId: string | null = `i-${id}`): OvhNode {
  return { id, nodePoolId: poolId, name: id, flavor: 'b3-8', instanceId, status, createdAt: '2026-01-01T00:01:00Z' };
}

function account(api: Partial<OvhApi>): OvhAccount {
  return { key: 'k', api: api as OvhApi, target: { serviceName: 's', kubeId: 'k' }, region: 'EU-WEST-PAR' };
}

const direct = <T>(_: string, fn: () => Promise<T>): Promise<T> => fn();

describe('ovhcloud cluster reads', () => {
  it('lists nodes of managed pools only, with their bound NodeClaim, in two calls', async () => {
    let calls = 0;
    const api: Partial<OvhApi> = {
      listNodePools: async () => (
        calls++,
        [pool('p1', 'karpenter-b3-8-eu-west-par-a', true, { 'claims.karpenter-eu.io/web-abc': 'node:n1' }), pool('p2', 'user-pool', false)]
      ),
      listNodes: async () => (
        calls++,
        [node('n1', 'p1'), node('n2', 'p2'), node('n3', 'p1', 'INSTALLING', null), node('n4', 'p1', 'DELETING')]
      ),
    };
    const view = await readCluster(account(api), direct, 'prod');
    expect(calls).toBe(2);
    expect(view.nodes.map((m) => [m.node.id, m.nodeClaimName])).toEqual([
      ['n1', 'web-abc'],
      ['n4', undefined],
    ]);
    const claim = toCloudNodeClaim(view.nodes[1] as never, undefined, 'eu-west-par-a');
    expect(claim).toMatchObject({ providerID: 'openstack:///i-n4', terminating: true, nodePoolName: 'web', zone: 'eu-west-par-a' });
  });

  it('reads a pool the pool list left out, so its nodes are not missing; skips one that is gone', async () => {
    const api: Partial<OvhApi> = {
      listNodePools: async () => [],
      listNodes: async () => [node('n1', 'late'), node('n2', 'gone')],
      getNodePool: async (_, id) => {
        if (id === 'late') return pool('late', 'karpenter-b3-8-eu-west-par-a');
        throw new PermanentCloudError(`reading node pool ${id}: gone`, {
          cause: new OvhApiError({ status: 404, message: 'Node pool gone does not exist' }),
        });
      },
    };
    expect((await readCluster(account(api), direct, 'prod')).nodes.map((m) => m.node.id)).toEqual(['n1']);
  });

  it('leaves out the pools of another cluster sharing the MKS cluster, and pools created before the cluster label', async () => {
    const legacy = pool('p3', 'karpenter-b3-8-eu-west-par-a-0a1b2c', true);
    delete (legacy.template.metadata.labels as Record<string, string>)['karpenter-eu.io/cluster'];
    const api: Partial<OvhApi> = {
      listNodePools: async () => [
        pool('p1', 'karpenter-b3-8-eu-west-par-a'),
        pool('p2', 'karpenter-b3-8-eu-west-par-a-1f2e3d', true, {}, 'staging'),
        legacy,
      ],
      listNodes: async () => [node('n1', 'p1'), node('n2', 'p2'), node('n3', 'p3')],
    };
    expect((await readCluster(account(api), direct, 'prod')).nodes.map((m) => m.node.id)).toEqual(['n1']);
    expect((await readCluster(account(api), direct, 'staging')).nodes.map((m) => m.node.id)).toEqual(['n2']);
  });

  it('throws when any read fails: never a partial view', async () => {
    const api: Partial<OvhApi> = {
      listNodePools: async () => [pool('p1', 'karpenter-b3-8-eu-west-par-a')],
      listNodes: async () => {
        throw new TransientCloudError('listing nodes: http 503');
      },
    };
    await expect(readCluster(account(api), direct, 'prod')).rejects.toBeInstanceOf(TransientCloudError);
  });
});
