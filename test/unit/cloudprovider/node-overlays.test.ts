import { describe, expect, it } from 'vitest';
import type { NodeClaim, NodePool } from '../../../src/apis/index.js';
import { fakeInstanceType } from '../../../src/cloudprovider/fake/instance-types.js';
import { overlaidCloudProvider } from '../../../src/cloudprovider/node-overlays.js';
import type { CloudNodeClaim, CloudProvider } from '../../../src/cloudprovider/types.js';
import type { NodeOverlayLike } from '../../../src/domain/nodeoverlay/index.js';
import { compatibleOfferings } from '../../../src/domain/instancetypes/offering-choice.js';

const zones = ['test-zone-a'];
const types = [
  fakeInstanceType({ name: 'small-cheap', cpu: 4, memoryMiB: 16384, pricePerHour: 0.05, zones }),
  fakeInstanceType({ name: 'small-dear', cpu: 4, memoryMiB: 16384, pricePerHour: 0.08, zones }),
  fakeInstanceType({
    name: 'l4',
    cpu: 8,
    memoryMiB: 49152,
    pricePerHour: 0.75,
    zones,
    gpu: { count: 1, name: 'l4', memoryMiB: 24576, manufacturer: 'nvidia' },
  }),
];

const pool = {
  metadata: { name: 'default' },
  spec: { template: { spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] } } },
} as unknown as NodePool;

/** A cloud that launches the cheapest offering, by its own prices, that fits the claim: what every provider does. */
function cloud(received: NodeClaim[]): CloudProvider {
  return {
    name: 'fake',
    getInstanceTypes: async () => types,
    create: async (claim: NodeClaim): Promise<CloudNodeClaim> => {
      received.push(claim);
      const chosen = compatibleOfferings(types, claim.spec)[0];
      if (!chosen) throw new Error('no offering fits');
      const { instanceType, offering } = chosen;
      return {
        providerID: `fake://${instanceType.name}`,
        instanceType: instanceType.name,
        zone: offering.zone,
        capacityType: 'on-demand',
        capacity: instanceType.capacity,
        allocatable: instanceType.allocatable,
        labels: {},
        createdAt: 0,
      };
    },
  } as unknown as CloudProvider;
}

function claim(typeNames: string[], requests: Record<string, string>): NodeClaim {
  return {
    metadata: { name: 'default-x', labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: { group: 'g', kind: 'K', name: 'n' },
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: typeNames }],
      resources: { requests },
    },
  } as unknown as NodeClaim;
}

function provider(overlays: NodeOverlayLike[], received: NodeClaim[]): CloudProvider {
  return overlaidCloudProvider(cloud(received), { overlays: () => overlays, nodePool: (name) => (name === 'default' ? pool : undefined) });
}

const typeIs = (name: string) => [{ key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: [name] }];

describe('the NodeOverlay decorator of the CloudProvider', () => {
  it('gives the controllers the overlaid instance types', async () => {
    const p = provider([{ metadata: { name: 'dearer' }, spec: { requirements: typeIs('small-cheap'), priceAdjustment: '+100%' } }], []);
    const listed = await p.getInstanceTypes(pool);
    expect(listed.find((t) => t.name === 'small-cheap')?.offerings[0]?.pricePerHour).toBe(0.1);
  });

  it('launches what the overlaid prices chose, not what the list price would', async () => {
    const received: NodeClaim[] = [];
    const p = provider(
      [{ metadata: { name: 'dearer' }, spec: { requirements: typeIs('small-cheap'), priceAdjustment: '+100%' } }],
      received,
    );
    // The simulation lists the fitting types cheapest first at the overlaid prices.
    const launched = await p.create(claim(['small-dear', 'small-cheap'], { cpu: '1' }));
    expect(launched.instanceType).toBe('small-dear');
    expect(received[0]?.spec.requirements[0]?.values).toEqual(['small-dear']);
  });

  it('launches a time-sliced GPU node for four GPU requests, and reports the four on the launched claim', async () => {
    const received: NodeClaim[] = [];
    const p = provider(
      [{ metadata: { name: 'slices' }, spec: { requirements: typeIs('l4'), capacity: { 'nvidia.com/gpu': 4 } } }],
      received,
    );
    const launched = await p.create(claim(['l4'], { cpu: '2', 'nvidia.com/gpu': '4' }));
    expect(received[0]?.spec.resources?.requests?.['nvidia.com/gpu']).toBe('1');
    expect(launched.instanceType).toBe('l4');
    expect(launched.capacity['nvidia.com/gpu']).toBe(4);
    expect(launched.allocatable['nvidia.com/gpu']).toBe(4);
  });

  it('passes claims through unchanged without overlays', async () => {
    const received: NodeClaim[] = [];
    const original = claim(['small-dear', 'small-cheap'], { cpu: '1' });
    await provider([], received).create(original);
    expect(received[0]).toBe(original);
  });
});
