import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/util/clock.js';
import { startOvhcloudEmulator, type OvhcloudEmulator } from '../../../src/testbed/emulators/ovhcloud/index.js';
import { kubePath, ovhClient, ovhClientWithoutConsumer, rawRequest, rejectionOf, trustEmulatorCa } from './ovhcloud-fixture.js';

describe('ovhcloud emulator: authentication, cluster and catalogs through the ovh client', () => {
  let emulator: OvhcloudEmulator;
  let untrust: () => void;
  const clock = new FakeClock(Date.now());
  let startupMs = 0;
  const now = () => Math.floor(clock.now() / 1000);

  beforeAll(async () => {
    const started = performance.now();
    emulator = await startOvhcloudEmulator({ clock, seed: 7 });
    startupMs = performance.now() - started;
    untrust = trustEmulatorCa(emulator);
  });

  afterAll(async () => {
    untrust();
    await emulator.close();
  });

  it('starts on an ephemeral loopback https port', () => {
    expect(emulator.url).toBe(`https://127.0.0.1:${emulator.port}`);
    expect(emulator.port).toBeGreaterThan(0);
    expect(emulator.caPem).toContain('BEGIN CERTIFICATE');
    console.info(`ovhcloud emulator start-up: ${startupMs.toFixed(1)} ms`);
  });

  it('answers /auth/time with the bare epoch seconds of its clock, unsigned', async () => {
    const reply = await rawRequest(emulator, 'GET', '/auth/time', { sign: false });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.body).toBe(String(now()));
  });

  it('serves the cluster to a signed client call (the client syncs its clock first)', async () => {
    const client = ovhClient(emulator);
    const cluster = (await client.requestPromised('GET', kubePath(emulator))) as Record<string, unknown>;
    expect(client.apiTimeDiff).not.toBeNull();
    expect(cluster).toMatchObject({ id: emulator.cluster.kubeId, region: 'EU-WEST-PAR', status: 'READY', version: '1.31' });
    expect(String(cluster.nodesUrl)).toContain('.nodes.');
    expect(emulator.calls.count({ action: 'getAuthTime' })).toBeGreaterThanOrEqual(1);
  });

  it('refuses an unknown application key with 403 INVALID_KEY', async () => {
    const client = ovhClient(emulator, { ...emulator.credentials, applicationKey: 'notAKey' });
    const err = await rejectionOf(client.requestPromised('GET', kubePath(emulator)));
    expect(err).toEqual({ error: 403, message: 'This application key is invalid' });
    const raw = await rawRequest(emulator, 'GET', kubePath(emulator), {
      credential: { ...emulator.credentials, applicationKey: 'x' },
      timestamp: now(),
    });
    expect(raw.json).toEqual({ errorCode: 'INVALID_KEY', httpCode: '403 Forbidden', message: 'This application key is invalid' });
  });

  it('refuses an unknown consumer key with 403 INVALID_CREDENTIAL', async () => {
    const client = ovhClient(emulator, { ...emulator.credentials, consumerKey: 'revokedConsumerKey' });
    const err = await rejectionOf(client.requestPromised('GET', kubePath(emulator)));
    expect(err).toEqual({ error: 403, message: 'This credential is not valid' });
  });

  it('refuses an unsigned call without a consumer key with 401', async () => {
    const err = await rejectionOf(ovhClientWithoutConsumer(emulator).requestPromised('GET', kubePath(emulator)));
    expect(err).toEqual({ error: 401, message: 'You must login first' });
  });

  it('works on the system clock by default (no clock option)', async () => {
    const live = await startOvhcloudEmulator({ seed: 8 });
    const restore = trustEmulatorCa(live);
    try {
      const cluster = (await ovhClient(live).requestPromised('GET', kubePath(live))) as { id: string };
      expect(cluster.id).toBe(live.cluster.kubeId);
    } finally {
      restore();
      await live.close();
    }
  });

  it('refuses a signature made with the wrong application secret with 400 INVALID_SIGNATURE', async () => {
    const client = ovhClient(emulator, { ...emulator.credentials, applicationSecret: 'wrongSecret' });
    const err = await rejectionOf(client.requestPromised('GET', kubePath(emulator)));
    expect(err).toEqual({ error: 400, message: 'Invalid signature' });
  });

  it('refuses a signature over a tampered body', async () => {
    const reply = await rawRequest(emulator, 'POST', kubePath(emulator, '/nodepool'), {
      body: '{"flavorName":"b3-8"}',
      timestamp: now(),
      signature: '$1$0000000000000000000000000000000000000000',
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ errorCode: 'INVALID_SIGNATURE' });
    expect(emulator.state().pools).toHaveLength(0);
  });

  it('refuses a timestamp too far from its clock with 400 QUERY_TIME_OUT', async () => {
    const stale = await rawRequest(emulator, 'GET', kubePath(emulator), { timestamp: now() - 3600 });
    expect(stale.status).toBe(400);
    expect(stale.json).toMatchObject({ errorCode: 'QUERY_TIME_OUT' });
    const fresh = await rawRequest(emulator, 'GET', kubePath(emulator), { timestamp: now() });
    expect(fresh.status).toBe(200);
  });

  it('answers 404 in the API shape for an unknown project, cluster or URL', async () => {
    const client = ovhClient(emulator);
    expect(await rejectionOf(client.requestPromised('GET', `/cloud/project/${'0'.repeat(32)}/kube/${emulator.cluster.kubeId}`))).toEqual({
      error: 404,
      message: 'This service does not exist',
    });
    expect(await rejectionOf(client.requestPromised('GET', `/cloud/project/${emulator.cluster.serviceName}/kube/nope`))).toEqual({
      error: 404,
      message: 'Cluster nope does not exist',
    });
    const raw = await rawRequest(emulator, 'GET', '/cloud/nothing/here', { timestamp: now() });
    expect(raw.status).toBe(404);
    expect(raw.json).toEqual({ class: 'Client::NotFound', message: 'Got an invalid (or empty) URL' });
  });

  it('lists the cluster region flavors in cloud.kube.Flavor shape', async () => {
    const client = ovhClient(emulator);
    const flavors = (await client.requestPromised('GET', kubePath(emulator, '/flavors'))) as Record<string, unknown>[];
    expect(flavors.find((f) => f.name === 'b3-8')).toEqual({ name: 'b3-8', category: 'b', state: 'available', vCPUs: 2, gpus: 0, ram: 8 });
    const gpu = flavors.find((f) => f.name === 'l4-90');
    expect(gpu).toMatchObject({ gpus: 1, vCPUs: 22, ram: 90 });
  });

  it('lists capability flavors per region, reports unavailable ones, and refuses an unknown region', async () => {
    const client = ovhClient(emulator);
    const base = `/cloud/project/${emulator.cluster.serviceName}/capabilities/kube`;
    emulator.setFlavorAvailable('b3-16', false, 'GRA11');
    const gra11 = (await client.requestPromised('GET', `${base}/flavors`, { region: 'GRA11' })) as Record<string, unknown>[];
    expect(gra11.find((f) => f.name === 'b3-16')?.state).toBe('unavailable');
    expect(gra11.find((f) => f.name === 'b3-8')?.state).toBe('available');
    emulator.setFlavorAvailable('b3-16', true, 'GRA11');
    const err = await rejectionOf(client.requestPromised('GET', `${base}/flavors`, { region: 'MARS1' }));
    expect(err.error).toBe(400);
    expect(err.message).toContain('MARS1');
    const regions = (await client.requestPromised('GET', `${base}/regions`)) as string[];
    expect(regions).toEqual(expect.arrayContaining(['EU-WEST-PAR', 'GRA11', 'GRA7']));
  });

  it('publishes hourly and monthly prices in the public order catalog, in 1e-8 EUR', async () => {
    const client = ovhClient(emulator);
    const catalog = (await client.requestPromised('GET', '/order/catalog/public/cloud', { ovhSubsidiary: 'FR' })) as {
      locale: { currencyCode: string };
      addons: { planCode: string; pricings: { price: number; intervalUnit: string }[]; blobs: { technical: { name: string } } }[];
    };
    expect(catalog.locale.currencyCode).toBe('EUR');
    const b38 = catalog.addons.find((a) => a.planCode === 'b3-8.consumption');
    expect(b38?.pricings[0]).toMatchObject({ price: 5_080_000, intervalUnit: 'hour' });
    expect(b38?.blobs.technical.name).toBe('b3-8');
    const monthly = catalog.addons.find((a) => a.planCode === 'b2-7.monthly.postpaid');
    expect(monthly?.pricings[0]).toMatchObject({ price: 2_420_000_000, intervalUnit: 'month' });
    expect(catalog.addons.find((a) => a.planCode === 'b2-60.consumption')?.pricings[0]).toMatchObject({
      price: 51_000_000,
      intervalUnit: 'hour',
    });
    // Flavors whose price the bundled catalog only estimates are not published with an invented one.
    expect(catalog.addons.some((a) => a.planCode === 't2-45.consumption')).toBe(false);
    const missing = await rejectionOf(client.requestPromised('GET', '/order/catalog/public/cloud'));
    expect(missing).toEqual({ error: 400, message: 'Missing parameter(s): ovhSubsidiary' });
  });

  it('answers a malformed body with a 400 in the API shape, never a crash', async () => {
    const reply = await rawRequest(emulator, 'POST', kubePath(emulator, '/nodepool'), { body: '{"flavorName": ', timestamp: now() });
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({ class: 'Client::BadRequest', message: 'Invalid JSON received' });
    const array = await rawRequest(emulator, 'POST', kubePath(emulator, '/nodepool'), { body: '[1,2]', timestamp: now() });
    expect(array.status).toBe(400);
    const again = await rawRequest(emulator, 'GET', kubePath(emulator), { timestamp: now() });
    expect(again.status).toBe(200);
  });
});
