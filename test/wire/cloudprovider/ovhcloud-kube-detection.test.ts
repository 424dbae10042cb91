// A NodeClass without kubeId and no OVH_KUBE_ID: the provider finds the MKS cluster whose nodes are this
// cluster's (openstack:/// providerIDs), through the real client against the emulator, or refuses to guess.
import { afterEach, describe, expect, it } from 'vitest';
import { LabelInstanceType, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import { isNodeClassNotReadyError } from '../../../src/cloudprovider/errors.js';
import type { CloudProviderNodeClaim, CloudProviderRequirement } from '../../../src/cloudprovider/types.js';
import { NodeClassRef, startOvhTestbed, type OvhTestbed } from './ovhcloud-testbed.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const b38: CloudProviderRequirement[] = [
  { key: LabelInstanceType, operator: 'In', values: ['b3-8'] },
  { key: LabelTopologyZone, operator: 'In', values: ['eu-west-par-a'] },
];

let bed: OvhTestbed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function twoClusterBed(providerIDs: string[]): Promise<OvhTestbed> {
  const started = await startOvhTestbed({
    emulator: {
      clusters: [
        { serviceName: 'proj', kubeId: A },
        { serviceName: 'proj', kubeId: B },
      ],
    },
    detectFrom: () => providerIDs,
  });
  for (const kubeId of [A, B])
    started.resolver.nodeClasses.set(`in-${kubeId}`, { metadata: { name: `in-${kubeId}` }, spec: { serviceName: 'proj', kubeId } });
  return started;
}

/** A node launched in `kubeId` by a NodeClass that names it: one of this (or another) cluster's nodes. */
async function seedNode(b: OvhTestbed, kubeId: string, name: string): Promise<string> {
  const claim = b.nodeClaim(name, b38);
  const seeded: CloudProviderNodeClaim = { ...claim, spec: { ...claim.spec, nodeClassRef: { ...NodeClassRef, name: `in-${kubeId}` } } };
  const launched = await b.provider.create(seeded);
  return launched.providerID;
}

async function instancesOf(b: OvhTestbed, kubeId: string): Promise<string[]> {
  return (await b.api.listNodes({ serviceName: 'proj', kubeId })).flatMap((n) => (n.instanceId ? [`openstack:///${n.instanceId}`] : []));
}

describe('OVH kubeId detection', () => {
  it("launches a NodeClass without kubeId into the one project cluster holding this cluster's nodes", async () => {
    const providerIDs: string[] = [];
    bed = await twoClusterBed(providerIDs);
    providerIDs.push(await seedNode(bed, B, 'system-node'));
    await seedNode(bed, A, 'another-clusters-node');

    const launched = await bed.provider.create(bed.nodeClaim('web', b38));

    expect(await instancesOf(bed, B)).toContain(launched.providerID);
    expect(await instancesOf(bed, A)).not.toContain(launched.providerID);
    // What the NodeClass's status reports; a class naming its cluster reports that one, nothing detected.
    expect(await bed.provider.detectedCluster('OVHNodeClass', 'default')).toEqual({ detected: { kubeId: B, region: 'EU-WEST-PAR' } });
    expect(await bed.provider.detectedCluster('OVHNodeClass', `in-${A}`)).toEqual({ named: { kubeId: A } });
  });

  it('refuses to guess when several project clusters hold nodes of this cluster, naming them', async () => {
    const providerIDs: string[] = [];
    bed = await twoClusterBed(providerIDs);
    providerIDs.push(await seedNode(bed, A, 'a'), await seedNode(bed, B, 'b'));

    const error = await bed.provider.create(bed.nodeClaim('web', b38)).catch((e: unknown) => e);

    expect(isNodeClassNotReadyError(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(new RegExp(`several clusters.*${A}.*${B}.*refusing to guess.*spec\\.kubeId`));
    const status = await bed.provider.detectedCluster('OVHNodeClass', 'default');
    expect(status?.notDetected).toContain('refusing to guess');
  });

  it('refuses when no node of this cluster is an OpenStack instance, and detects once nodes appear', async () => {
    const providerIDs: string[] = ['scaleway://instance/fr-par-1/x'];
    bed = await twoClusterBed(providerIDs);
    const error = await bed.provider.create(bed.nodeClaim('early', b38)).catch((e: unknown) => e);
    expect(isNodeClassNotReadyError(error)).toBe(true);
    expect(String((error as Error).message)).toContain('no Node of this cluster has an openstack:/// providerID');

    providerIDs.push(await seedNode(bed, A, 'system-node'));
    const launched = await bed.provider.create(bed.nodeClaim('web', b38));
    expect(await instancesOf(bed, A)).toContain(launched.providerID);
  });
});
