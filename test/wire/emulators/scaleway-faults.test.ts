import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Errors } from '@scaleway/sdk-client';
import { FakeClock } from '../../../src/util/clock.js';
import { startScalewayEmulator, type ScalewayEmulator } from '../../../src/testbed/emulators/scaleway/index.js';
import { clientsFor, raw, testCatalog, untilWaiting } from './scaleway-fixture.js';

describe('scaleway emulator: faults, bad input and credentials', () => {
  let clock: FakeClock;
  let emulator: ScalewayEmulator;
  let api: ReturnType<typeof clientsFor>;

  beforeEach(async () => {
    clock = new FakeClock();
    emulator = await startScalewayEmulator({ clock, catalog: testCatalog, timings: { startingMs: 1_000 } });
    api = clientsFor(emulator);
  });
  afterEach(async () => emulator.close());

  const create = (commercialType = 'L4-1-24G', zone = 'fr-par-2') =>
    api.instance.createServer({ zone, name: 'gpu', commercialType, image: 'ubuntu_jammy', protected: false });

  it('renders a 5xx with a Scaleway error body', async () => {
    emulator.faults.add({ match: { action: 'listServers' }, fault: { kind: 'server-error', status: 503 }, times: 1 });
    const res = await raw(emulator, 'GET', '/instance/v1/zones/fr-par-1/servers');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ type: 'service_unavailable', message: 'service unavailable' });
    expect((await api.instance.listServers({})).servers).toEqual([]);
    expect(emulator.calls.records.map((r) => [r.action, r.status, r.fault])).toEqual([
      ['listServers', 503, 'server-error'],
      ['listServers', 200, undefined],
    ]);
  });

  it('throttles with 429, Retry-After and too_many_requests', async () => {
    emulator.faults.add({ match: { method: 'GET' }, fault: { kind: 'throttle', retryAfterSeconds: 7 }, times: 2 });
    const res = await raw(emulator, 'GET', '/instance/v1/zones/fr-par-1/servers');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    const err = await api.instance.listServers({}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Errors.TooManyRequestsError);
    expect((err as InstanceType<typeof Errors.TooManyRequestsError>).resetSeconds).toBe(7);
  });

  it('holds a timed-out request on the clock, then drops the connection', async () => {
    emulator.faults.add({ match: { action: 'getServer' }, fault: { kind: 'timeout', afterMs: 60_000 }, times: 1 });
    const pending = raw(emulator, 'GET', '/instance/v1/zones/fr-par-1/servers/00000000-0000-4000-8000-000000000000');
    await untilWaiting(clock);
    clock.step(60_000);
    await expect(pending).rejects.toThrow();
    expect(emulator.calls.records.at(-1)).toMatchObject({ action: 'getServer', status: 0, fault: 'timeout' });
  });

  it('answers a slow request only once the delay has passed', async () => {
    emulator.faults.add({ match: { action: 'listServers' }, fault: { kind: 'slow', delayMs: 5_000 }, times: 1 });
    let settled = false;
    const pending = api.instance.listServers({}).then((r) => {
      settled = true;
      return r;
    });
    await untilWaiting(clock);
    expect(settled).toBe(false);
    clock.step(5_000);
    expect((await pending).servers).toEqual([]);
  });

  it('refuses a create out of stock (412 out_of_stock) from a fault or a shortage', async () => {
    emulator.faults.add({ match: { instanceType: 'L4-1-24G', zone: 'fr-par-2' }, fault: { kind: 'out-of-stock' }, times: 1 });
    const err = await create().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Errors.OutOfStockError);
    expect((err as InstanceType<typeof Errors.OutOfStockError>).resource).toBe('L4-1-24G');
    // Reads in the same zone are never hit by a capacity fault.
    await create();
    emulator.setAvailability('L4-1-24G', 'fr-par-2', 'shortage');
    await expect(create()).rejects.toBeInstanceOf(Errors.OutOfStockError);
    expect(emulator.state().instances).toHaveLength(1);
  });

  it('refuses a create over quota (403 quotas_exceeded) from a fault or the configured quota', async () => {
    emulator.faults.add({ match: { action: 'createServer' }, fault: { kind: 'quota-exceeded' }, times: 1 });
    await expect(create()).rejects.toBeInstanceOf(Errors.QuotasExceededError);
    emulator.setQuota('L4-1-24G', 1);
    await create();
    const err = await create().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Errors.QuotasExceededError);
    expect((err as InstanceType<typeof Errors.QuotasExceededError>).list[0]).toMatchObject({
      resource: 'instances_l4_1_24g',
      quota: 1,
      current: 1,
    });
  });

  it('lets a create succeed while the poweron fails (out of stock), leaving a stopped server', async () => {
    emulator.failPowerOn({ commercialType: 'L4-1-24G' });
    const { server } = await create();
    await expect(api.instance.serverAction({ zone: 'fr-par-2', serverId: server!.id, action: 'poweron' })).rejects.toBeInstanceOf(
      Errors.OutOfStockError,
    );
    expect(emulator.state().instances[0]).toMatchObject({ id: server!.id, state: 'stopped' });
    await api.instance.serverAction({ zone: 'fr-par-2', serverId: server!.id, action: 'poweron' });
    clock.step(1_000);
    expect((await api.instance.getServer({ zone: 'fr-par-2', serverId: server!.id })).server?.state).toBe('running');
  });

  it('keeps a new server invisible to reads during the eventual-consistency delay', async () => {
    emulator.setConsistencyDelay(3_000);
    const { server } = await create('PRO2-S', 'fr-par-1');
    await expect(api.instance.getServer({ serverId: server!.id })).rejects.toBeInstanceOf(Errors.ResourceNotFoundError);
    expect((await api.instance.listServers({})).servers).toEqual([]);
    expect(emulator.state().instances[0]?.visible).toBe(false);
    clock.step(3_000);
    expect((await api.instance.getServer({ serverId: server!.id })).server?.id).toBe(server!.id);
  });

  it('rejects a missing, malformed or unknown token with denied_authentication', async () => {
    const missing = await raw(emulator, 'GET', '/instance/v1/zones/fr-par-1/servers', { token: null });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ type: 'denied_authentication', method: 'api_key', reason: 'invalid_argument' });
    const unknown = clientsFor(emulator, { ...emulator.credentials, secretKey: '99999999-9999-4999-8999-999999999999' });
    const err = await unknown.instance.listServers({}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Errors.DeniedAuthenticationError);
    expect((err as InstanceType<typeof Errors.DeniedAuthenticationError>).reason).toBe('not_found');
  });

  it('answers bad input with the API error shapes, never a 500', async () => {
    const path = '/instance/v1/zones/fr-par-1/servers';
    const project = emulator.credentials.projectId;
    const cases: [string, number, string, string?][] = [
      ['{not json', 400, 'invalid_request_error'],
      ['[1,2]', 400, 'invalid_request_error'],
      [JSON.stringify({ commercial_type: 'PRO2-S', image: 'ubuntu_jammy' }), 400, 'invalid_arguments', 'project'],
      [JSON.stringify({ project, image: 'ubuntu_jammy' }), 400, 'invalid_arguments', 'commercial_type'],
      [JSON.stringify({ project, commercial_type: 'NOPE-XL', image: 'ubuntu_jammy' }), 400, 'invalid_arguments', 'commercial_type'],
      [JSON.stringify({ project, commercial_type: 'PRO2-S' }), 400, 'invalid_arguments', 'image'],
      [JSON.stringify({ project, commercial_type: 'PRO2-S', image: 'Not A Label!' }), 400, 'invalid_arguments', 'image'],
      [JSON.stringify({ project, commercial_type: 'PRO2-S', image: 'ubuntu_jammy', tags: 'a,b' }), 400, 'invalid_arguments', 'tags'],
      [
        JSON.stringify({
          project,
          commercial_type: 'L4-1-24G',
          image: 'ubuntu_jammy',
          volumes: { '0': { size: 20e9, volume_type: 'l_ssd' } },
        }),
        400,
        'invalid_arguments',
        'volumes',
      ],
      [
        JSON.stringify({
          project,
          commercial_type: 'DEV1-S',
          image: 'ubuntu_jammy',
          volumes: { '0': { size: 40 * 1024 ** 3, volume_type: 'l_ssd' } },
        }),
        400,
        'invalid_arguments',
        'volumes',
      ],
      [
        JSON.stringify({ project, commercial_type: 'PRO2-S', image: 'ubuntu_jammy', volumes: { '0': { volume_type: 'sbs_volume' } } }),
        400,
        'invalid_arguments',
        'volumes.0.size',
      ],
    ];
    for (const [body, status, type, argument] of cases) {
      const res = await raw(emulator, 'POST', path, { body });
      const json = (await res.json()) as { type: string; details?: { argument_name: string }[] };
      expect([body, res.status, json.type]).toEqual([body, status, type]);
      if (argument) expect(json.details?.[0]?.argument_name).toBe(argument);
    }
    const badPage = await raw(emulator, 'GET', `${path}?per_page=500`);
    expect(badPage.status).toBe(400);
    const badAction = await raw(emulator, 'POST', `${path}/00000000-0000-4000-8000-000000000000/action`, { body: '{"action":"explode"}' });
    expect(((await badAction.json()) as { details: { argument_name: string }[] }).details[0]?.argument_name).toBe('action');
    const unknownServer = await raw(emulator, 'GET', `${path}/00000000-0000-4000-8000-000000000000`);
    expect(await unknownServer.json()).toEqual({
      type: 'not_found',
      message: 'resource is not found',
      resource: 'instance_server',
      resource_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(emulator.calls.records.every((r) => r.status < 500)).toBe(true);
  });

  it('starts and stops quickly on an ephemeral port', async () => {
    const started = performance.now();
    const other = await startScalewayEmulator({ catalog: testCatalog });
    const elapsedMs = performance.now() - started;
    console.log(`scaleway emulator start-up: ${elapsedMs.toFixed(1)} ms`);
    expect(other.port).not.toBe(emulator.port);
    expect((await raw(other, 'GET', '/instance/v1/zones/fr-par-1/servers')).status).toBe(200);
    await other.close();
  });
});
