// Per-NodeClass credentials on Outscale: a NodeClass whose credentialsSecretRef names another account launches
// there, and list/get/delete look in every account — also right after a restart, before that NodeClass launched
// anything. Two emulators stand for two accounts (each access key sees only its own VMs, as on Outscale).
import { afterEach, describe, expect, it } from 'vitest';
import type { OutscaleNodeClass } from '../../../src/apis/v1alpha1/outscale-nodeclass.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { NodeClaimNotFoundError, NodeClassNotReadyError } from '../../../src/cloudprovider/errors.js';
import { createOutscaleClient, OutscaleCloudProvider } from '../../../src/cloudprovider/outscale/index.js';
import type { CloudProviderNodeClaim, NodeClassResolver } from '../../../src/cloudprovider/types.js';
import { startOutscaleEmulator, type OutscaleEmulator } from '../../../src/testbed/emulators/outscale/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { ClusterName, NoWaitRetries } from './outscale-testbed.js';

const emulators: OutscaleEmulator[] = [];
afterEach(async () => {
  for (const e of emulators.splice(0)) await e.close();
});

function nodeClassOn(
  name: string,
  emulator: OutscaleEmulator,
  credentialsSecretRef?: { name: string; namespace: string },
): OutscaleNodeClass {
  return {
    metadata: { name },
    spec: {
      region: emulator.region,
      clusterId: 'cluster-1',
      imageId: emulator.network.images.ubuntu,
      securityGroupIds: [emulator.network.securityGroups.worker],
      subnets: Object.entries(emulator.network.subnets).map(([subregion, subnetId]) => ({ subregion, subnetId })),
      ...(credentialsSecretRef ? { credentialsSecretRef } : {}),
    },
  } as OutscaleNodeClass;
}

async function twoAccounts() {
  const clock = new FakeClock();
  const operator = await startOutscaleEmulator({ clock, seed: 1 });
  const team = await startOutscaleEmulator({ clock, seed: 2 });
  emulators.push(operator, team);
  const nodeClasses = new Map([
    ['default', nodeClassOn('default', operator)],
    ['team', nodeClassOn('team', team, { name: 'team-osc', namespace: 'team-a' })],
  ]);
  const secrets: Record<string, Record<string, string>> = {
    'team-a/team-osc': { OSC_ACCESS_KEY: team.credentials.accessKey, OSC_SECRET_KEY: team.credentials.secretKey },
  };
  const resolver: NodeClassResolver<OutscaleNodeClass> = {
    getNodeClass: async (name) =>
      nodeClasses.get(name) ?? Promise.reject(new NodeClassNotReadyError(`OutscaleNodeClass ${name} not found`)),
    getSecretData: async (ref) =>
      secrets[`${ref.namespace}/${ref.name}`] ??
      Promise.reject(new NodeClassNotReadyError(`secret ${ref.namespace}/${ref.name} not found`)),
    listNodeClasses: async () => [...nodeClasses.values()],
  };
  // The team's access key is only valid on "its" endpoint: the factory reaches the second emulator.
  const provider = (): OutscaleCloudProvider =>
    new OutscaleCloudProvider({
      api: createOutscaleClient({ endpoint: operator.url, region: operator.region, ...operator.credentials, clock }),
      apiFactory: (credentials) => createOutscaleClient({ endpoint: team.url, region: team.region, ...credentials, clock }),
      clusterName: ClusterName,
      nodeClasses: resolver,
      catalog: loadCatalog('outscale'),
      clock,
      random: () => 0.5,
      retryPolicy: NoWaitRetries,
    });
  const nodeClaim = (name: string, nodeClass: string, uid: string): CloudProviderNodeClaim => ({
    metadata: { name, uid, labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: { group: 'karpenter.outscale.sh', kind: 'OutscaleNodeClass', name: nodeClass },
      requirements: [],
      resources: { requests: { cpu: '100m', memory: '128Mi' } },
    },
  });
  const live = (e: OutscaleEmulator) => e.state().instances.filter((i) => i.state !== 'terminated' && i.state !== 'shutting-down');
  return { clock, operator, team, nodeClasses, secrets, provider, nodeClaim, live };
}

describe('Outscale per-NodeClass credentials', () => {
  it("launches in the NodeClass's account, and list/get/delete see both accounts, also after a restart", async () => {
    const bed = await twoAccounts();
    const first = bed.provider();
    const own = await first.create(bed.nodeClaim('a', 'default', '00000000-0000-4000-8000-00000000000a'));
    const team = await first.create(bed.nodeClaim('b', 'team', '00000000-0000-4000-8000-00000000000b'));
    expect(bed.live(bed.operator)).toHaveLength(1);
    expect(bed.live(bed.team)).toHaveLength(1);

    // A new process: nothing launched yet, the team account is known from its NodeClass alone.
    const restarted = bed.provider();
    expect((await restarted.list()).map((c) => c.providerID).sort()).toEqual([own.providerID, team.providerID].sort());
    expect((await restarted.get(team.providerID)).nodeClaimName).toBe('b');
    await restarted.delete({
      ...bed.nodeClaim('b', 'team', '00000000-0000-4000-8000-00000000000b'),
      status: { providerID: team.providerID },
    });
    bed.clock.step(60_000);
    expect(bed.live(bed.team)).toHaveLength(0);
    expect(bed.live(bed.operator)).toHaveLength(1);
  });

  it('deletes a VM no ReadVms shows yet in whichever account has it, not only the first (garbage collection knows no NodeClass)', async () => {
    const bed = await twoAccounts();
    bed.team.setConsistencyDelay(600_000);
    const team = await bed.provider().create(bed.nodeClaim('b', 'team', '00000000-0000-4000-8000-00000000000b'));
    const leaked: CloudProviderNodeClaim = {
      metadata: { name: 'b' },
      spec: { nodeClassRef: { group: '', kind: '', name: '' }, requirements: [] },
      status: { providerID: team.providerID },
    };
    await bed.provider().delete(leaked);
    expect(bed.live(bed.team)).toHaveLength(0);
    expect(bed.team.calls.count({ action: 'DeleteVms' })).toBe(1);
  });

  it('says not found only when every account refuses the VM', async () => {
    const bed = await twoAccounts();
    const gone: CloudProviderNodeClaim = {
      metadata: { name: 'x' },
      spec: { nodeClassRef: { group: '', kind: '', name: '' }, requirements: [] },
      status: { providerID: 'aws:///eu-west-2a/i-00000000' },
    };
    await expect(bed.provider().delete(gone)).rejects.toBeInstanceOf(NodeClaimNotFoundError);
    expect(bed.operator.calls.count({ action: 'DeleteVms' })).toBe(1);
    expect(bed.team.calls.count({ action: 'DeleteVms' })).toBe(1);
  });

  it("fails the whole list when one account cannot be listed, or when a NodeClass's credentials cannot be read", async () => {
    const bed = await twoAccounts();
    const provider = bed.provider();
    await provider.create(bed.nodeClaim('b', 'team', '00000000-0000-4000-8000-00000000000b'));
    const rule = bed.team.faults.add({ match: { action: 'ReadVms' }, fault: { kind: 'server-error', status: 500 } });
    await expect(provider.list()).rejects.toThrow();
    bed.team.faults.remove(rule);
    expect(await provider.list()).toHaveLength(1);

    delete bed.secrets['team-a/team-osc'];
    await expect(bed.provider().list()).rejects.toThrow(/team-osc/);
  });

  it('refuses a Secret without both keys, naming the NodeClass, the Secret and the keys', async () => {
    const bed = await twoAccounts();
    bed.secrets['team-a/team-osc'] = { OSC_ACCESS_KEY: bed.team.credentials.accessKey };
    const error = await bed
      .provider()
      .create(bed.nodeClaim('b', 'team', '00000000-0000-4000-8000-00000000000b'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeClassNotReadyError);
    expect((error as Error).message).toBe(
      'reading credentials of OutscaleNodeClass "team": Secret team-a/team-osc lacks OSC_SECRET_KEY; accepted keys: OSC_ACCESS_KEY, OSC_SECRET_KEY',
    );
  });
});
