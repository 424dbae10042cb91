import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FakeCloudProvider, fakeInstanceType, fakeInstanceTypes } from '../../../src/cloudprovider/fake/index.js';
import { NodeClaimNotFoundError, TransientCloudError } from '../../../src/cloudprovider/errors.js';
import { decorateWithMetrics } from '../../../src/cloudprovider/metrics.js';
import { runAsController } from '../../../src/util/controller-name.js';
import { FakeClock } from '../../../src/util/clock.js';

const nodeClaim = {
  metadata: { name: 'nc-1' },
  spec: { nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' }, requirements: [] },
};

function setup(): {
  registry: Registry;
  fake: FakeCloudProvider;
  cp: ReturnType<typeof decorateWithMetrics>;
  advance: (ms: number) => void;
} {
  const registry = new Registry();
  const fake = new FakeCloudProvider({ instanceTypes: fakeInstanceTypes(2), clock: new FakeClock() });
  let now = 0;
  const cp = decorateWithMetrics(fake, registry, { now: () => now });
  return { registry, fake, cp, advance: (ms) => (now += ms) };
}

async function metric(
  registry: Registry,
  name: string,
): Promise<{ labels: Record<string, string | number>; value: number; metricName?: string }[]> {
  const found = registry.getSingleMetric(name);
  if (!found) throw new Error(`metric ${name} not registered`);
  return (await found.get()).values as { labels: Record<string, string | number>; value: number; metricName?: string }[];
}

describe('decorateWithMetrics', () => {
  it('delegates every method and keeps the inner provider’s answers', async () => {
    const { fake, cp } = setup();
    expect(cp.name).toBe('fake');
    const launched = await cp.create(nodeClaim);
    expect(fake.instances.has(launched.providerID)).toBe(true);
    expect((await cp.get(launched.providerID)).providerID).toBe(launched.providerID);
    expect(await cp.list()).toHaveLength(1);
    expect(
      await cp.getInstanceTypes({
        metadata: { name: 'p' },
        spec: { template: { spec: { nodeClassRef: nodeClaim.spec.nodeClassRef, requirements: [] } } },
      }),
    ).toHaveLength(2);
    fake.drifted = 'ImageDrifted';
    expect(await cp.isDrifted(nodeClaim)).toBe('ImageDrifted');
    expect(cp.getSupportedNodeClasses()).toEqual(fake.getSupportedNodeClasses());
    expect(cp.repairPolicies()).toEqual([]);
  });

  it('records durations by method and provider', async () => {
    const { registry, fake, cp, advance } = setup();
    fake.nextGetError = undefined;
    const listing = cp.list();
    advance(250);
    await listing;
    const values = await metric(registry, 'karpenter_cloudprovider_duration_seconds');
    const count = values.find((v) => v.metricName?.endsWith('_count') && v.labels['method'] === 'List');
    const sum = values.find((v) => v.metricName?.endsWith('_sum') && v.labels['method'] === 'List');
    expect(count?.value).toBe(1);
    expect(count?.labels['provider']).toBe('fake');
    expect(sum?.value).toBeCloseTo(0.25);
  });

  it('counts errors by method, provider and error class, and rethrows them', async () => {
    const { registry, fake, cp } = setup();
    const injected = new TransientCloudError('503');
    fake.nextCreateError = injected;
    await expect(cp.create(nodeClaim)).rejects.toBe(injected);
    await expect(cp.get('fake:///zone/none')).rejects.toBeInstanceOf(NodeClaimNotFoundError);
    fake.listError = new Error('down');
    await expect(cp.list()).rejects.toThrow('listing instances');
    const errors = (await metric(registry, 'karpenter_cloudprovider_errors_total')).map((v) => [
      v.labels['method'],
      v.labels['provider'],
      v.labels['error'],
      v.value,
    ]);
    expect(errors).toEqual(
      expect.arrayContaining([
        ['Create', 'fake', 'TransientCloudError', 1],
        ['Get', 'fake', 'NodeClaimNotFoundError', 1],
        ['List', 'fake', 'TransientCloudError', 1],
      ]),
    );
    expect(errors).toHaveLength(3);
  });

  it('labels each call with the controller it runs for, as upstream does, and "" outside any controller', async () => {
    const { registry, cp } = setup();
    await runAsController('nodeclaim.garbagecollection', () => cp.list());
    await cp.list();
    const counts = (await metric(registry, 'karpenter_cloudprovider_duration_seconds')).filter(
      (v) => v.metricName?.endsWith('_count') && v.labels['method'] === 'List',
    );
    expect(counts.map((v) => [v.labels['controller'], v.value]).sort()).toEqual([
      ['', 1],
      ['nodeclaim.garbagecollection', 1],
    ]);
  });

  it('lets several providers share one registry', async () => {
    const registry = new Registry();
    const clock = new FakeClock();
    const a = decorateWithMetrics(new FakeCloudProvider({ instanceTypes: [], clock, name: 'a' }), registry);
    const b = decorateWithMetrics(new FakeCloudProvider({ instanceTypes: [], clock, name: 'b' }), registry);
    await Promise.all([a.list(), b.list()]);
    const counts = (await metric(registry, 'karpenter_cloudprovider_duration_seconds')).filter((v) => v.metricName?.endsWith('_count'));
    expect(counts.map((v) => v.labels['provider']).sort()).toEqual(['a', 'b']);
  });

  it("sets upstream's instance-type gauges from each getInstanceTypes answer, refreshed at the next read", async () => {
    const registry = new Registry();
    const type = fakeInstanceType({
      name: 'fake-4',
      cpu: 4,
      memoryMiB: 16384,
      pricePerHour: 0.12,
      zones: ['z-a', 'z-b'],
      unavailableZones: ['z-b'],
    });
    const fake = new FakeCloudProvider({ instanceTypes: [type], clock: new FakeClock() });
    const cp = decorateWithMetrics(fake, registry);
    const pool = { metadata: { name: 'p' }, spec: { template: { spec: { nodeClassRef: nodeClaim.spec.nodeClassRef, requirements: [] } } } };
    const read = async (name: string): Promise<[string, number][]> =>
      (await metric(registry, name)).map((v) => [Object.values(v.labels).join('/'), v.value]);
    expect(await read('karpenter_cloudprovider_instance_type_cpu_cores')).toEqual([]);

    await cp.getInstanceTypes(pool);
    expect(await read('karpenter_cloudprovider_instance_type_cpu_cores')).toEqual([['fake-4', 4]]);
    expect(await read('karpenter_cloudprovider_instance_type_memory_bytes')).toEqual([['fake-4', 16384 * 1024 * 1024]]);
    expect(await read('karpenter_cloudprovider_instance_type_offering_price_estimate')).toEqual([
      ['fake-4/on-demand/z-a', 0.12],
      ['fake-4/on-demand/z-b', 0.12],
    ]);
    expect(await read('karpenter_cloudprovider_instance_type_offering_available')).toEqual([
      ['fake-4/on-demand/z-a', 1],
      ['fake-4/on-demand/z-b', 0],
    ]);

    // z-b back in stock: the next read says so.
    fake.instanceTypes = [fakeInstanceType({ name: 'fake-4', cpu: 4, memoryMiB: 16384, pricePerHour: 0.12, zones: ['z-a', 'z-b'] })];
    await cp.getInstanceTypes(pool);
    expect(await read('karpenter_cloudprovider_instance_type_offering_available')).toEqual([
      ['fake-4/on-demand/z-a', 1],
      ['fake-4/on-demand/z-b', 1],
    ]);
  });
});
