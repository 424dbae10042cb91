import { afterEach, describe, expect, it } from 'vitest';
import {
  findInChain,
  InsufficientCapacityError,
  isInsufficientCapacityError,
  isQuotaExceededError,
  isTransientCloudError,
} from '../../../src/cloudprovider/errors.js';
import { liveServers, startTestbed, type Testbed, type TestbedOptions } from './scaleway-testbed.js';

const pin = (type: string, zones: string[]) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: [type] },
  { key: 'topology.kubernetes.io/zone', operator: 'In' as const, values: zones },
];

describe('Scaleway provider: launching against the emulator with the real SDK', () => {
  let bed: Testbed;
  const start = async (options?: TestbedOptions) => (bed = await startTestbed(options));
  afterEach(async () => bed?.close());

  it('creates the server stopped with its tags and cloud-init, then powers it on', async () => {
    await start();
    const nodeClaim = bed.nodeClaim('web-1', pin('DEV1-S', ['fr-par-1']));
    const launched = await bed.provider.create(nodeClaim);
    const [server] = bed.emulator.state().instances;
    expect(launched.providerID).toBe(`scaleway://instance/fr-par-1/${server?.id}`);
    expect(server?.instanceType).toBe('DEV1-S');
    expect(server?.name).toBe('web-1');
    expect(server?.tags).toEqual(
      expect.arrayContaining([
        'karpenter-eu.io/cluster=test-cluster',
        'karpenter.sh/nodeclaim=web-1',
        `karpenter-eu.io/nodeclaim-uid=${nodeClaim.metadata?.uid}`,
        'karpenter.sh/nodepool=default',
        'karpenter-eu.io/nodeclass=default',
        'karpenter-eu.io/image=ubuntu_jammy',
        'team=ml',
      ]),
    );
    expect(server?.state).toBe('starting');
    expect(server?.userData).toContain('kind: JoinConfiguration');
    expect(server?.userData).toContain('abcdef.0123456789abcdef');
    expect(server?.userData).toContain(launched.providerID);
    const actions = bed.emulator.calls.records.map((r) => r.action);
    expect(actions.indexOf('createServer')).toBeLessThan(actions.indexOf('setServerUserData'));
    expect(actions.indexOf('setServerUserData')).toBeLessThan(actions.indexOf('poweron'));
    bed.settle();
    expect(bed.emulator.state().instances[0]?.state).toBe('running');
    expect(bed.emulator.state().volumes.map((v) => v.name)).toEqual([`karpenter-root-${nodeClaim.metadata?.uid}`]);
  });

  it('keeps the GPU aliases of the Scaleway GPU controller working (l4, l40s, legacy label key)', async () => {
    await start();
    const l4 = await bed.provider.create(
      bed.nodeClaim('gpu-l4', [{ key: 'karpenter.sh/instance-type', operator: 'In', values: ['l4'] }], { 'nvidia.com/gpu': '1' }),
    );
    expect(l4.instanceType).toBe('L4-1-24G');
    expect(l4.zone).toBe('fr-par-2');
    expect(l4.labels['karpenter-eu.io/instance-gpu-name']).toBe('l4');
    const l40s = await bed.provider.create(
      bed.nodeClaim('gpu-l40s', [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['l40s'] }]),
    );
    expect(l40s.instanceType).toBe('L40S-1-48G');
  });

  it('finishes a half-finished create (poweron kept failing) on the next call, without a second server', async () => {
    await start();
    bed.emulator.failPowerOn({ times: 3, fault: { kind: 'server-error', status: 503 } });
    const nodeClaim = bed.nodeClaim('half', pin('DEV1-S', ['fr-par-1']));
    const error = await bed.provider.create(nodeClaim).catch((e: unknown) => e);
    expect(isTransientCloudError(error)).toBe(true);
    expect(bed.emulator.state().instances.map((i) => i.state)).toEqual(['stopped']);
    const launched = await bed.provider.create(nodeClaim);
    const instances = bed.emulator.state().instances;
    expect(instances).toHaveLength(1);
    expect(launched.providerID).toBe(instances[0]?.providerID);
    expect(instances[0]?.state).toBe('starting');
  });

  it('finds the server again when the create answer was lost, instead of creating a second one', async () => {
    let dropped = false;
    await start({
      wrapFetch: (base) => async (input, init) => {
        const response = await base(input, init);
        const request = input instanceof Request ? input : undefined;
        if (!dropped && request?.method === 'POST' && /\/servers$/.test(new URL(request.url).pathname)) {
          dropped = true;
          throw new TypeError('fetch failed: connection reset');
        }
        return response;
      },
    });
    const launched = await bed.provider.create(bed.nodeClaim('lost-answer', pin('DEV1-S', ['fr-par-1'])));
    expect(dropped).toBe(true);
    expect(bed.emulator.state().instances.map((i) => i.providerID)).toEqual([launched.providerID]);
  });

  it('an offering refused at poweron is marked unavailable, its stopped server deleted, the next zone used', async () => {
    await start();
    bed.emulator.failPowerOn({ times: 1, commercialType: 'DEV1-S' });
    const launched = await bed.provider.create(bed.nodeClaim('ice-poweron', pin('DEV1-S', ['fr-par-1', 'fr-par-2'])));
    expect(launched.zone).toBe('fr-par-2');
    expect(bed.unavailable.isUnavailable({ instanceType: 'DEV1-S', zone: 'fr-par-1', capacityType: 'on-demand' })).toBe(true);
    bed.settle();
    expect(bed.emulator.state().instances.map((i) => i.zone)).toEqual(['fr-par-2']);
    expect(bed.emulator.state().volumes).toHaveLength(1);
  });

  it('out of stock everywhere the NodeClaim allows: InsufficientCapacityError naming every offering tried', async () => {
    await start();
    bed.emulator.setAvailability('DEV1-S', 'fr-par-1', 'shortage');
    bed.emulator.faults.add({
      match: { action: 'createServer', instanceType: 'DEV1-S', zone: 'fr-par-2' },
      fault: { kind: 'out-of-stock' },
    });
    const error = await bed.provider.create(bed.nodeClaim('ice', pin('DEV1-S', ['fr-par-1', 'fr-par-2']))).catch((e: unknown) => e);
    expect(isInsufficientCapacityError(error)).toBe(true);
    // fr-par-1 was never tried: products/servers/availability already said shortage.
    expect(findInChain(error, InsufficientCapacityError)?.offerings).toEqual([
      { instanceType: 'DEV1-S', zone: 'fr-par-2', capacityType: 'on-demand' },
    ]);
    expect(bed.emulator.state().instances).toHaveLength(0);
  });

  it('a quota refusal is a QuotaExceededError naming the quota', async () => {
    await start();
    bed.emulator.setQuota('DEV1-S', 0);
    const error = await bed.provider.create(bed.nodeClaim('quota', pin('DEV1-S', ['fr-par-1']))).catch((e: unknown) => e);
    expect(isQuotaExceededError(error)).toBe(true);
    expect((error as Error).message).toContain('creating server DEV1-S in fr-par-1');
  });

  it('retries a 503 on create and still launches exactly one server', async () => {
    await start();
    bed.emulator.faults.add({ match: { action: 'createServer' }, fault: { kind: 'server-error', status: 503 }, times: 1 });
    await bed.provider.create(bed.nodeClaim('retry', pin('DEV1-S', ['fr-par-1'])));
    bed.settle();
    expect(liveServers(bed.emulator)).toHaveLength(1);
  });
});

describe('Scaleway provider: eventual consistency', () => {
  let bed: Testbed;
  afterEach(async () => bed?.close());

  it('a new server invisible to reads is never created twice: retries wait for it, then finish it', async () => {
    bed = await startTestbed({
      emulator: { consistencyDelayMs: 10_000 },
      retryPolicy: { baseDelayMs: 100, maxDelayMs: 200, maxAttempts: 3 },
    });
    const nodeClaim = bed.nodeClaim('invisible', pin('DEV1-S', ['fr-par-1']));
    const first = await drive(
      bed.clock,
      bed.provider.create(nodeClaim).catch((e: unknown) => e),
      1,
    );
    expect(isTransientCloudError(first)).toBe(true);
    expect((first as Error).message).toMatch(/not visible yet/);
    const second = await drive(
      bed.clock,
      bed.provider.create(nodeClaim).catch((e: unknown) => e),
      1,
    );
    expect(isTransientCloudError(second)).toBe(true);
    expect(bed.emulator.state().instances).toHaveLength(1);
    bed.clock.step(10_000);
    const launched = await drive(bed.clock, bed.provider.create(nodeClaim), 1);
    const instances = bed.emulator.state().instances;
    expect(instances.map((i) => i.providerID)).toEqual([launched.providerID]);
    expect(instances[0]?.state).toBe('starting');
  });
});

/** Steps the fake clock until the promise settles (retries sleep on it). */
async function drive<T>(clock: Testbed['clock'], promise: Promise<T>, stepMs: number): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => (done = true));
  for (let i = 0; i < 500 && !done; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    clock.step(stepMs * 100);
  }
  return tracked;
}

describe('Scaleway provider: resuming a half-finished create into a shortage', () => {
  let bed: Testbed;
  afterEach(async () => bed?.close());

  it('deletes the stopped server it cannot power on and launches in another zone', async () => {
    bed = await startTestbed();
    bed.emulator.failPowerOn({ times: 3, fault: { kind: 'server-error', status: 503 } });
    const nodeClaim = bed.nodeClaim('resume-ice', pin('DEV1-S', ['fr-par-1', 'fr-par-2']));
    expect(isTransientCloudError(await bed.provider.create(nodeClaim).catch((e: unknown) => e))).toBe(true);
    bed.emulator.setAvailability('DEV1-S', 'fr-par-1', 'shortage');
    const createsBefore = bed.emulator.calls.count({ action: 'createServer' });
    const launched = await bed.provider.create(nodeClaim);
    expect(launched.zone).toBe('fr-par-2');
    // Straight to fr-par-2: the refused offering is not tried again by a create.
    expect(bed.emulator.calls.count({ action: 'createServer' }) - createsBefore).toBe(1);
    bed.settle();
    expect(bed.emulator.state().instances.map((i) => [i.zone, i.state])).toEqual([['fr-par-2', 'running']]);
    expect(bed.emulator.state().volumes).toHaveLength(1);
  });
});
