import { describeCloudProviderContract, ContractRetryPolicy, type ContractSubject } from './cloudprovider.contract.js';
import { LabelInstanceGPUName, LabelTopologyZone } from '../../src/apis/v1/labels.js';
import { haltAfter } from '../../src/testbed/emulators/faults.js';
import { startOutscaleTestbed, unfinishedVm } from '../wire/cloudprovider/outscale-testbed.js';

async function outscaleSubject(): Promise<ContractSubject> {
  const bed = await startOutscaleTestbed({ pageSize: 1, retryPolicy: ContractRetryPolicy, autoAdvance: true });
  return {
    provider: bed.provider,
    nodePool: bed.nodePool,
    nodeClaim: (name, requirements) => bed.nodeClaim(name, requirements),
    acceleratorNodeClaim: (name) =>
      bed.nodeClaim(
        name,
        [
          { key: LabelInstanceGPUName, operator: 'In', values: ['v100'] },
          { key: LabelTopologyZone, operator: 'In', values: [bed.emulator.subregions[0] as string] },
        ],
        { cpu: '1', 'nvidia.com/gpu': '1' },
      ),
    cloud: {
      liveInstanceCount: async () => bed.liveVms().length,
      failReads: (mode) => {
        if (mode === 'partial') {
          bed.failNextPages.on = true;
          return () => {
            bed.failNextPages.on = false;
          };
        }
        const rule = bed.emulator.faults.add({ match: { action: 'ReadVms' }, fault: { kind: 'server-error', status: 503 } });
        return () => bed.emulator.faults.remove(rule);
      },
      outOfStock: ({ instanceType, zone }) => {
        bed.emulator.faults.add({ match: { action: 'CreateVms', instanceType, zone }, fault: { kind: 'out-of-stock' } });
      },
      settle: async () => bed.settle(),
      haltAfterCalls: (calls) => {
        const rule = bed.emulator.faults.add(haltAfter(calls));
        return () => bed.emulator.faults.remove(rule);
      },
      unfinished: async (providerID) => unfinishedVm(bed, providerID),
    },
    restart: () => bed.restart(),
    close: () => bed.close(),
  };
}

describeCloudProviderContract('outscale (emulator)', outscaleSubject);
