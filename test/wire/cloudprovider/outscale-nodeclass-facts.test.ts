// What Outscale says of the resources an OutscaleNodeClass names, read through the real client against the
// emulator for the class's status: the image, subnets and security groups it resolves to, each one missing
// or misplaced named with its field, and credentials the cloud refuses.
import { afterEach, describe, expect, it } from 'vitest';
import { startOutscaleTestbed, type OutscaleTestbed } from './outscale-testbed.js';

let bed: OutscaleTestbed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

describe('OutscaleNodeClass facts for its status', () => {
  it('resolves the image, every subnet with its subregion, and the security groups', async () => {
    const b = (bed = await startOutscaleTestbed());
    const facts = await b.provider.nodeClassFacts('OutscaleNodeClass', 'default');
    const network = b.emulator.network;
    expect(facts?.image).toEqual({
      field: 'spec.imageId',
      ref: network.images.ubuntu,
      where: b.emulator.region,
      resolved: [{ id: network.images.ubuntu, name: 'Ubuntu-22.04-2026.01.01-0' }],
    });
    expect(facts?.subnets).toEqual(
      Object.entries(network.subnets).map(([zone, id], i) => ({ field: `spec.subnets[${i}].subnetId`, id, zone, found: { zone } })),
    );
    expect(facts?.securityGroups).toEqual([
      { field: 'spec.securityGroupIds[0]', id: network.securityGroups.worker, found: { name: 'k8s-worker' } },
    ]);
    expect(facts?.credentialsRejected).toBeUndefined();
  });

  it('reports what does not exist or sits in another subregion, by field', async () => {
    const b = (bed = await startOutscaleTestbed({
      nodeClass: (base) => {
        const [first, second] = base.spec.subnets;
        return {
          ...base,
          spec: {
            ...base.spec,
            imageId: 'ami-00000000',
            subnets: [
              { subregion: second?.subregion ?? '', subnetId: first?.subnetId ?? '' },
              { subregion: second?.subregion ?? '', subnetId: 'subnet-00000000' },
            ],
            securityGroupIds: [...base.spec.securityGroupIds, 'sg-00000000'],
          },
        };
      },
    }));
    const facts = await b.provider.nodeClassFacts('OutscaleNodeClass', 'default');
    expect(facts?.image?.resolved).toEqual([]);
    expect(facts?.subnets?.[0]?.found?.zone).not.toBe(facts?.subnets?.[0]?.zone);
    expect(facts?.subnets?.[1]).toEqual({ field: 'spec.subnets[1].subnetId', id: 'subnet-00000000', zone: expect.any(String) as unknown });
    expect(facts?.securityGroups?.[1]).toEqual({ field: 'spec.securityGroupIds[1]', id: 'sg-00000000' });
  });

  it('reports credentials the cloud refuses (an access key it does not know) as a fact, not an outage', async () => {
    const b = (bed = await startOutscaleTestbed({
      secrets: { 'karpenter/osc': { OSC_ACCESS_KEY: 'AKNOTKNOWN0000000000', OSC_SECRET_KEY: 'secret' } },
      nodeClass: (base) => ({ ...base, spec: { ...base.spec, credentialsSecretRef: { name: 'osc', namespace: 'karpenter' } } }),
    }));
    const facts = await b.provider.nodeClassFacts('OutscaleNodeClass', 'default');
    expect(facts?.credentialsRejected).toContain('AccessDenied');
  });

  it('throws when the cloud cannot be asked, so the status is left as it is', async () => {
    const b = (bed = await startOutscaleTestbed());
    b.emulator.faults.add({ match: { action: 'ReadImages' }, fault: { kind: 'server-error', status: 503 } });
    await expect(b.provider.nodeClassFacts('OutscaleNodeClass', 'default')).rejects.toThrow(/reading image/);
  });
});
