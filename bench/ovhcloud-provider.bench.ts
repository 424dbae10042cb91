/**
 * Cost of the OVHcloud provider's reads on a large MKS cluster: 100 karpenter node pools holding 1,000
 * nodes, served by the loopback emulator through the real `ovh` SDK. Prints API calls per list(),
 * get(), getInstanceTypes() (cold and cached) and wall time per call. The pools are made directly through
 * the API (as the provider would name and label them) so the set-up stays fast.
 * Run: npm run bench:ovhcloud   (POOLS=100 NODES_PER_POOL=10 ROUNDS=20 to change the shape)
 */
import https from 'node:https';
import { loadCatalog } from '../src/catalog/index.js';
import { createOvhClient, createOvhCloudProvider } from '../src/cloudprovider/ovhcloud/index.js';
import { poolBaseName, poolTemplate, type PoolSettings } from '../src/cloudprovider/ovhcloud/pool-naming.js';
import type { NodeClassResolver } from '../src/cloudprovider/types.js';
import { UnavailableOfferings } from '../src/cloudprovider/unavailable-offerings.js';
import type { OVHNodeClass } from '../src/apis/v1alpha1/ovh-nodeclass.js';
import { startOvhcloudEmulator } from '../src/testbed/emulators/ovhcloud/index.js';
import { FakeClock, type Clock } from '../src/util/clock.js';

const pools = Number(process.env.POOLS ?? 100);
const nodesPerPool = Number(process.env.NODES_PER_POOL ?? 10);
const rounds = Number(process.env.ROUNDS ?? 20);

const clock = new FakeClock();
const emulator = await startOvhcloudEmulator({ clock, maxNodesPerCluster: pools * nodesPerPool, maxClockSkewSeconds: 10 * 365 * 86_400 });
https.globalAgent.options.ca = emulator.caPem;
const { appKey, appSecret, consumerKey, host, port } = emulator.clientOptions();
const api = createOvhClient({ applicationKey: appKey, applicationSecret: appSecret, consumerKey, host, port });
const target = { serviceName: emulator.cluster.serviceName, kubeId: emulator.cluster.kubeId };
const flavors = ['b3-8', 'b3-16', 'b3-32', 'c3-8', 'r3-16'];

for (let i = 0; i < pools; i++) {
  const settings: PoolSettings = {
    flavor: flavors[i % flavors.length] as string,
    zone: emulator.cluster.zones[i % emulator.cluster.zones.length] as string,
    monthlyBilled: false,
    antiAffinity: false,
    labels: { 'karpenter.sh/nodepool': `np-${Math.floor(i / 15)}` },
    taints: [],
    clusterName: 'bench',
  };
  await api.createNodePool(target, {
    name: `${poolBaseName(settings)}-${String(i)
      .padStart(6, '0')
      .replace(/\d/g, (d) => 'abcdef0123'[Number(d)] ?? 'a')}`,
    flavorName: settings.flavor,
    desiredNodes: nodesPerPool,
    minNodes: 0,
    maxNodes: 100,
    autoscale: false,
    monthlyBilled: false,
    antiAffinity: false,
    availabilityZones: [settings.zone],
    template: poolTemplate(settings, {}),
  });
}
clock.step(60_000);

const nodeClass: OVHNodeClass = { metadata: { name: 'default' }, spec: { serviceName: target.serviceName, kubeId: target.kubeId } };
const resolver: NodeClassResolver<OVHNodeClass> = { getNodeClass: async () => nodeClass, getSecretData: async () => ({}) };
const providerClock: Clock = { now: () => clock.now(), elapsed: () => clock.now(), sleep: async (ms) => clock.step(ms) };
const provider = createOvhCloudProvider({
  clusterName: 'bench',
  api,
  nodeClasses: resolver,
  catalog: loadCatalog('ovhcloud'),
  unavailableOfferings: new UnavailableOfferings({ clock }),
  clock: providerClock,
  serviceName: target.serviceName,
  kubeId: target.kubeId,
});
const nodePool = {
  metadata: { name: 'default' },
  spec: {
    template: { spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] } },
  },
};

async function measure(name: string, fn: () => Promise<unknown>, times: number): Promise<void> {
  const before = emulator.calls.count();
  const started = performance.now();
  for (let i = 0; i < times; i++) await fn();
  const ms = (performance.now() - started) / times;
  const calls = (emulator.calls.count() - before) / times;
  console.log(`${name.padEnd(28)} ${calls.toFixed(1).padStart(6)} API calls/op  ${ms.toFixed(1).padStart(8)} ms/op`);
}

console.log(`ovhcloud provider reads: ${pools} pools, ${pools * nodesPerPool} nodes, ${rounds} rounds`);
await measure('getInstanceTypes (cold)', () => provider.getInstanceTypes(nodePool), 1);
await measure('getInstanceTypes (cached)', () => provider.getInstanceTypes(nodePool), rounds);
const listed = await provider.list();
console.log(`list() returned ${listed.length} instances`);
await measure('list()', () => provider.list(), rounds);
const some = listed[Math.floor(listed.length / 2)];
if (some) await measure('get(providerID)', () => provider.get(some.providerID), rounds);
await emulator.close();
