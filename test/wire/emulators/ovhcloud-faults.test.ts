import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/util/clock.js';
import { startOvhcloudEmulator, type OvhcloudEmulator } from '../../../src/testbed/emulators/ovhcloud/index.js';
import { fullTemplate, kubePath, ovhClient, rawRequest, rejectionOf, trustEmulatorCa, type OvhClient } from './ovhcloud-fixture.js';

type Pool = Record<string, unknown> & { id: string; status: string };
type Node = Record<string, unknown> & { id: string; status: string; instanceId: string | null };

/** Waits (on real I/O, not on time) until a request is parked on the fake clock. */
async function untilWaiting(clock: FakeClock): Promise<void> {
  for (let i = 0; i < 500 && clock.waiting === 0; i++) await new Promise((resolve) => setImmediate(resolve));
  expect(clock.waiting).toBeGreaterThan(0);
}

describe('ovhcloud emulator: injected faults in the OVH wire format', () => {
  let emulator: OvhcloudEmulator;
  let client: OvhClient;
  let untrust: () => void;
  const clock = new FakeClock(Date.now());
  const now = () => Math.floor(clock.now() / 1000);

  beforeAll(async () => {
    emulator = await startOvhcloudEmulator({ clock, seed: 5 });
    untrust = trustEmulatorCa(emulator);
  });

  afterAll(async () => {
    untrust();
    await emulator.close();
  });

  beforeEach(() => {
    client = ovhClient(emulator);
  });

  afterEach(async () => {
    emulator.faults.clear();
    emulator.setConsistencyDelay(0);
    emulator.setQuota({});
    const fresh = ovhClient(emulator);
    for (const pool of emulator.state().pools) {
      if (pool.visible && pool.status !== 'DELETING') await fresh.requestPromised('DELETE', kubePath(emulator, `/nodepool/${pool.id}`));
    }
    clock.step(10_000);
  });

  const poolBody = (name: string, zone = 'eu-west-par-b', extra: Record<string, unknown> = {}) => ({
    name,
    flavorName: 'b3-16',
    desiredNodes: 1,
    availabilityZones: [zone],
    template: fullTemplate(),
    ...extra,
  });
  const createPool = (body: Record<string, unknown>) =>
    client.requestPromised('POST', kubePath(emulator, '/nodepool'), body) as Promise<Pool>;
  const nodesOf = (id: string) => client.requestPromised('GET', kubePath(emulator, `/nodepool/${id}/nodes`)) as Promise<Node[]>;

  it('renders a server error as a 5xx with the Server:: class', async () => {
    emulator.calls.clear();
    emulator.faults.add({ match: { action: 'listNodePools' }, fault: { kind: 'server-error', status: 503 }, times: 1 });
    expect(await rejectionOf(client.requestPromised('GET', kubePath(emulator, '/nodepool')))).toEqual({
      error: 503,
      message: 'Service unavailable',
    });
    expect(await client.requestPromised('GET', kubePath(emulator, '/nodepool'))).toEqual([]);
    expect(emulator.calls.records.filter((r) => r.action === 'listNodePools').map((r) => [r.status, r.fault])).toEqual([
      [503, 'server-error'],
      [200, undefined],
    ]);
  });

  it('throttles with 429 and a Retry-After header', async () => {
    emulator.faults.add({ match: { action: 'getCluster' }, fault: { kind: 'throttle', retryAfterSeconds: 9 }, times: 2 });
    const raw = await rawRequest(emulator, 'GET', kubePath(emulator), { timestamp: now() });
    expect(raw.status).toBe(429);
    expect(raw.headers['retry-after']).toBe('9');
    expect(raw.json).toMatchObject({ class: 'Client::TooManyRequests' });
    expect((await rejectionOf(client.requestPromised('GET', kubePath(emulator)))).error).toBe(429);
  });

  it('holds a timed-out request on the clock, then drops the connection', async () => {
    emulator.faults.add({ match: { action: 'getCluster' }, fault: { kind: 'timeout', afterMs: 30_000 }, times: 1 });
    const pending = rawRequest(emulator, 'GET', kubePath(emulator), { timestamp: now() });
    await untilWaiting(clock);
    clock.step(30_000);
    await expect(pending).rejects.toThrow();
    expect(emulator.calls.records.at(-1)).toMatchObject({ action: 'getCluster', status: 0, fault: 'timeout' });
  });

  it('answers a slow request only once the delay has passed', async () => {
    emulator.faults.add({ match: { action: 'listNodePools' }, fault: { kind: 'slow', delayMs: 5_000 }, times: 1 });
    let settled = false;
    const pending = client.requestPromised('GET', kubePath(emulator, '/nodepool')).then((r) => {
      settled = true;
      return r;
    });
    await untilWaiting(clock);
    expect(settled).toBe(false);
    clock.step(5_000);
    expect(await pending).toEqual([]);
  });

  it('shows out-of-stock as FLAVOR_OUT_OF_STOCK_ERROR nodes of that flavor and zone only', async () => {
    emulator.setOutOfStock('b3-16', 'eu-west-par-b', 1);
    const pool = await createPool(poolBody('oos'));
    const other = await createPool(poolBody('oos-other-zone', 'eu-west-par-c'));
    clock.step(5_000);
    const [node] = await nodesOf(pool.id);
    expect(node).toMatchObject({ status: 'FLAVOR_OUT_OF_STOCK_ERROR', instanceId: null });
    const status = ((await client.requestPromised('GET', kubePath(emulator, `/nodepool/${pool.id}`))) as Pool).status;
    expect(status).toBe('ERROR');
    expect((await nodesOf(other.id))[0]?.status).toBe('READY');
    // The rule was used once: the next scale-up launches.
    await client.requestPromised('PUT', kubePath(emulator, `/nodepool/${pool.id}`), { desiredNodes: 2 });
    clock.step(5_000);
    expect((await nodesOf(pool.id)).map((n) => n.status).sort()).toEqual(['FLAVOR_OUT_OF_STOCK_ERROR', 'READY']);
  });

  it('shows quota refusals as USER_QUOTA_ERROR, from a fault or from the project quota', async () => {
    emulator.faults.add({ match: { action: 'createNodePool' }, fault: { kind: 'quota-exceeded' }, times: 1 });
    const faulted = await createPool(poolBody('quota-fault'));
    clock.step(5_000);
    expect((await nodesOf(faulted.id))[0]?.status).toBe('USER_QUOTA_ERROR');
    expect(((await client.requestPromised('GET', kubePath(emulator, `/nodepool/${faulted.id}`))) as Pool).status).toBe('USER_QUOTA_ERROR');

    emulator.setQuota({ vCPUs: 8 }); // b3-16 has 4 vCPUs: two fit
    const capped = await createPool(poolBody('quota-cap', 'eu-west-par-a', { desiredNodes: 3 }));
    clock.step(5_000);
    expect((await nodesOf(capped.id)).map((n) => n.status).sort()).toEqual(['READY', 'READY', 'USER_QUOTA_ERROR']);
  });

  it('hides a new pool from reads while eventual consistency lasts', async () => {
    emulator.setConsistencyDelay(3_000);
    const pool = await createPool(poolBody('lagging'));
    expect(await rejectionOf(client.requestPromised('GET', kubePath(emulator, `/nodepool/${pool.id}`)))).toEqual({
      error: 404,
      message: `Node pool ${pool.id} does not exist`,
    });
    expect(await client.requestPromised('GET', kubePath(emulator, '/nodepool'))).toEqual([]);
    expect(emulator.state().pools[0]).toMatchObject({ id: pool.id, visible: false });
    clock.step(3_000);
    expect(((await client.requestPromised('GET', kubePath(emulator, `/nodepool/${pool.id}`))) as Pool).id).toBe(pool.id);
  });

  it('creates a pool that does not list its nodes for a while', async () => {
    emulator.delayNodeListing(20_000);
    const pool = await createPool(poolBody('silent'));
    clock.step(6_000);
    expect(await nodesOf(pool.id)).toEqual([]);
    expect(await client.requestPromised('GET', kubePath(emulator, '/node'))).toEqual([]);
    expect(emulator.state().instances.find((i) => i.nodePoolId === pool.id)).toMatchObject({ state: 'READY', visible: false });
    clock.step(15_000);
    client = ovhClient(emulator);
    expect((await nodesOf(pool.id)).map((n) => n.status)).toEqual(['READY']);
  });

  it('never hits reads with a capacity fault', async () => {
    emulator.faults.add({ match: {}, fault: { kind: 'out-of-stock' } });
    expect(await client.requestPromised('GET', kubePath(emulator, '/nodepool'))).toEqual([]);
    expect(emulator.calls.records.at(-1)?.fault).toBeUndefined();
  });
});
