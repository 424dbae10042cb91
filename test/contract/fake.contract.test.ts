import { FakeCloudProvider, FakeNodeClass, fakeInstanceTypes } from '../../src/cloudprovider/fake/index.js';
import { TransientCloudError } from '../../src/cloudprovider/errors.js';
import { offeringCacheKey } from '../../src/cloudprovider/unavailable-offerings.js';
import type { CloudProviderNodePool } from '../../src/cloudprovider/types.js';
import { FakeClock } from '../../src/util/clock.js';
import { describeCloudProviderContract, type ContractSubject } from './cloudprovider.contract.js';

const nodeClassRef = { group: FakeNodeClass.group, kind: FakeNodeClass.kind, name: 'default' };

const nodePool: CloudProviderNodePool = {
  metadata: { name: 'default' },
  spec: { template: { spec: { nodeClassRef, requirements: [] } } },
};

async function fakeSubject(): Promise<ContractSubject> {
  const provider = new FakeCloudProvider({ instanceTypes: fakeInstanceTypes(4), clock: new FakeClock() });
  let uid = 0;
  return {
    provider,
    nodePool,
    nodeClaim: (name, requirements = []) => ({
      metadata: { name, uid: `uid-${++uid}`, labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: { nodeClassRef, requirements, resources: { requests: { cpu: '100m', memory: '128Mi' } } },
    }),
    cloud: {
      liveInstanceCount: async () => provider.instances.size,
      failReads: (mode) => {
        if (mode === 'all') provider.listError = new Error('injected 503');
        else {
          provider.listPageSize = 1;
          provider.failListPage = 2;
        }
        return () => {
          provider.listError = undefined;
          provider.failListPage = undefined;
        };
      },
      outOfStock: ({ instanceType, zone }) => {
        provider.outOfStock.add(offeringCacheKey({ instanceType, zone, capacityType: 'on-demand' }));
      },
      settle: async () => {},
      // The fake's create is one step: a process stopped before it made no instance, one stopped after it a whole one.
      haltAfterCalls: (calls) => {
        if (calls === 0) provider.nextCreateError = new TransientCloudError('injected: the process stopped before its first call');
        return () => undefined;
      },
      unfinished: async (providerID) => (provider.instances.has(providerID) ? [] : ['no such instance']),
    },
    // The fake is its own cloud: a restarted process finds the same one.
    restart: () => provider,
    close: async () => provider.reset(),
  };
}

describeCloudProviderContract('fake', fakeSubject);
