import { describe, expect, it } from 'vitest';
import { LabelInstanceType, LabelNodePool, LabelTopologyZone } from '../../../src/apis/v1/labels.js';
import { FakeCloudProvider, fakeInstanceType, fakeInstanceTypes } from '../../../src/cloudprovider/fake/index.js';
import {
  InsufficientCapacityError,
  PermanentCloudError,
  QuotaExceededError,
  isInsufficientCapacityError,
  isNodeClaimNotFoundError,
} from '../../../src/cloudprovider/errors.js';
import type { CloudProviderNodeClaim, CloudProviderRequirement } from '../../../src/cloudprovider/types.js';
import { FakeClock } from '../../../src/util/clock.js';

const nodeClassRef = { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' };

function claim(name: string, requirements: CloudProviderRequirement[] = [], requests?: Record<string, string>): CloudProviderNodeClaim {
  return {
    metadata: { name, uid: `uid-${name}`, labels: { [LabelNodePool]: 'default' } },
    spec: { nodeClassRef, requirements, ...(requests ? { resources: { requests } } : {}) },
  };
}

function provider(): { fake: FakeCloudProvider; clock: FakeClock } {
  const clock = new FakeClock();
  return { clock, fake: new FakeCloudProvider({ instanceTypes: fakeInstanceTypes(4), clock }) };
}

describe('FakeCloudProvider.create', () => {
  it('launches the cheapest offering that satisfies requirements and fits the requests', async () => {
    const { fake, clock } = provider();
    const small = await fake.create(claim('small'));
    expect(small.instanceType).toBe('fake-1');
    const big = await fake.create(claim('big', [], { cpu: '3', memory: '4Gi' }));
    expect(big.instanceType).toBe('fake-4');
    const zoned = await fake.create(claim('zoned', [{ key: LabelTopologyZone, operator: 'In', values: ['test-zone-c'] }]));
    expect([zoned.instanceType, zoned.zone]).toEqual(['fake-1', 'test-zone-c']);
    expect(zoned.labels[LabelNodePool]).toBe('default');
    expect(zoned.nodeClaimName).toBe('zoned');
    expect(zoned.createdAt).toBe(clock.now());
  });

  it('prefers the cheaper zone of a type priced per zone', async () => {
    const clock = new FakeClock();
    const type = fakeInstanceType({ name: 'b3-8', cpu: 2, memoryMiB: 8192, pricePerHour: 0.05, pricesByZone: { 'test-zone-b': 0.04 } });
    const fake = new FakeCloudProvider({ instanceTypes: [type], clock });
    expect((await fake.create(claim('a'))).zone).toBe('test-zone-b');
  });

  it('skips unavailable offerings, and fails with ICE when nothing is left', async () => {
    const clock = new FakeClock();
    const type = fakeInstanceType({
      name: 'b3-8',
      cpu: 2,
      memoryMiB: 8192,
      pricePerHour: 0.05,
      zones: ['z1', 'z2'],
      unavailableZones: ['z1'],
    });
    const fake = new FakeCloudProvider({ instanceTypes: [type], clock });
    expect((await fake.create(claim('a'))).zone).toBe('z2');
    const error = await fake.create(claim('b', [{ key: LabelTopologyZone, operator: 'In', values: ['z1'] }])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCapacityError);
    expect(fake.instances.size).toBe(1);
  });

  it('walks to the next cheapest offering after an out-of-stock one', async () => {
    const { fake } = provider();
    fake.outOfStock.add('on-demand:fake-1:test-zone-a');
    fake.outOfStock.add('on-demand:fake-1:test-zone-b');
    const attempts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await fake
        .create(claim(`c${i}`, [{ key: LabelInstanceType, operator: 'In', values: ['fake-1'] }]))
        .catch((e: unknown) => e);
      attempts.push(isInsufficientCapacityError(result) ? 'ice' : (result as { zone: string }).zone);
    }
    expect(attempts).toEqual(['ice', 'ice', 'test-zone-c']);
    expect(fake.unavailableOfferings.isUnavailable({ instanceType: 'fake-1', zone: 'test-zone-a', capacityType: 'on-demand' })).toBe(true);
  });

  it('throws nextCreateError once, then launches', async () => {
    const { fake } = provider();
    const quota = new QuotaExceededError('creating server: quota');
    fake.nextCreateError = quota;
    await expect(fake.create(claim('a'))).rejects.toBe(quota);
    await expect(fake.create(claim('a'))).resolves.toMatchObject({ instanceType: 'fake-1' });
    expect(fake.createCalls).toHaveLength(2);
  });

  it('fails creates beyond allowedCreateCalls', async () => {
    const { fake } = provider();
    fake.allowedCreateCalls = 1;
    await fake.create(claim('a'));
    await expect(fake.create(claim('b'))).rejects.toBeInstanceOf(PermanentCloudError);
    expect(fake.instances.size).toBe(1);
  });
});

describe('FakeCloudProvider knobs', () => {
  it('answers drift, errors on the next delete and get, and forgets everything on reset', async () => {
    const { fake } = provider();
    const launched = await fake.create(claim('a'));
    fake.drifted = 'ImageDrifted';
    expect(await fake.isDrifted(claim('a'))).toBe('ImageDrifted');
    fake.nextDeleteError = new Error('503');
    const withID = { ...claim('a'), status: { providerID: launched.providerID } };
    await expect(fake.delete(withID)).rejects.toThrow('503');
    fake.nextGetError = new Error('timeout');
    await expect(fake.get(launched.providerID)).rejects.toThrow('timeout');
    expect(fake.instances.has(launched.providerID)).toBe(true);
    fake.reset();
    expect([fake.instances.size, fake.createCalls.length, fake.deleteCalls.length, fake.getCalls.length]).toEqual([0, 0, 0, 0]);
    expect(await fake.isDrifted(claim('a'))).toBeUndefined();
    expect(isNodeClaimNotFoundError(await fake.get(launched.providerID).catch((e: unknown) => e))).toBe(true);
  });

  it('reads the list in pages and fails as a whole when one page fails', async () => {
    const { fake } = provider();
    for (const name of ['a', 'b', 'c']) await fake.create(claim(name));
    fake.listPageSize = 2;
    expect(await fake.list()).toHaveLength(3);
    fake.failListPage = 2;
    await expect(fake.list()).rejects.toThrow('reading page 2 failed after 2 instances');
    expect(fake.listCalls).toBe(2);
  });
});
