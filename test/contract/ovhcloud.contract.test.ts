import { describeCloudProviderContract, type ContractSubject } from './cloudprovider.contract.js';
import { haltAfter } from '../../src/testbed/emulators/faults.js';
import { liveNodes, startOvhTestbed } from '../wire/cloudprovider/ovhcloud-testbed.js';

async function ovhSubject(): Promise<ContractSubject> {
  const bed = await startOvhTestbed();
  return {
    provider: bed.provider,
    nodePool: bed.nodePool,
    nodeClaim: (name, requirements = []) => bed.nodeClaim(name, requirements),
    cloud: {
      liveInstanceCount: async () => liveNodes(bed.emulator).length,
      failReads: (mode) => {
        const fault = { kind: 'server-error', status: 503 } as const;
        // partial: the pool list reads fine, the node list fails.
        const actions = mode === 'all' ? ['listNodePools', 'listNodes', 'getNodePool', 'listNodePoolNodes'] : ['listNodes'];
        const rules = actions.map((action) => bed.emulator.faults.add({ match: { action }, fault }));
        return () => rules.forEach((id) => bed.emulator.faults.remove(id));
      },
      outOfStock: ({ instanceType, zone }) => {
        bed.emulator.setOutOfStock(instanceType, zone);
      },
      settle: async () => bed.settle(),
      haltAfterCalls: (calls) => {
        const rule = bed.emulator.faults.add(haltAfter(calls));
        return () => bed.emulator.faults.remove(rule);
      },
      unfinished: async (providerID) => {
        const state = bed.emulator.state();
        const node = state.instances.find((i) => i.providerID === providerID);
        if (!node) return ['no such node'];
        const pool = state.pools.find((p) => p.id === node.nodePoolId);
        const inPool = state.instances.filter(
          (i) => i.nodePoolId === node.nodePoolId && (i.state === 'READY' || i.state === 'INSTALLING'),
        ).length;
        return [
          ...(node.state === 'READY' || node.state === 'INSTALLING' ? [] : [node.state]),
          ...(pool?.desiredNodes === inPool ? [] : [`pool desiredNodes ${pool?.desiredNodes ?? 'gone'} for ${inPool} nodes`]),
        ];
      },
    },
    restart: () => bed.restart(),
    close: () => bed.close(),
  };
}

describeCloudProviderContract('ovhcloud (emulator, real ovh SDK)', ovhSubject);
