import { describeCloudProviderContract, type ContractSubject } from './cloudprovider.contract.js';
import { haltAfter } from '../../src/testbed/emulators/faults.js';
import { liveServers, startTestbed } from '../wire/cloudprovider/scaleway-testbed.js';

async function scalewaySubject(): Promise<ContractSubject> {
  const bed = await startTestbed();
  return {
    provider: bed.provider,
    nodePool: bed.nodePool,
    nodeClaim: (name, requirements = []) => bed.nodeClaim(name, requirements),
    cloud: {
      liveInstanceCount: async () => liveServers(bed.emulator).length,
      failReads: (mode) => {
        const fault = { kind: 'server-error', status: 503 } as const;
        // partial: the first zone lists fine, a later one fails.
        const rules =
          mode === 'all'
            ? [
                bed.emulator.faults.add({ match: { action: 'listServers' }, fault }),
                bed.emulator.faults.add({ match: { action: 'getServer' }, fault }),
              ]
            : [bed.emulator.faults.add({ match: { action: 'listServers', zone: 'fr-par-3' }, fault })];
        return () => rules.forEach((id) => bed.emulator.faults.remove(id));
      },
      outOfStock: ({ instanceType, zone }) => {
        bed.emulator.faults.add({ match: { action: 'createServer', instanceType, zone }, fault: { kind: 'out-of-stock' } });
      },
      settle: async () => bed.settle(),
      passTime: (ms) => bed.clock.step(ms),
      haltAfterCalls: (calls) => {
        const rule = bed.emulator.faults.add(haltAfter(calls));
        return () => bed.emulator.faults.remove(rule);
      },
      unfinished: async (providerID) => {
        const server = bed.emulator.state().instances.find((i) => i.providerID === providerID);
        if (!server) return ['no such server'];
        return [
          ...(server.state === 'running' || server.state === 'starting' ? [] : [server.state]),
          ...(server.userData ? [] : ['no user data']),
        ];
      },
    },
    restart: () => bed.restart(),
    close: () => bed.close(),
  };
}

describeCloudProviderContract('scaleway (emulator, real SDK)', scalewaySubject);
