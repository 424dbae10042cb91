import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Errors } from '@scaleway/sdk-client';
import { FakeClock } from '../../../src/util/clock.js';
import { startScalewayEmulator, type ScalewayEmulator } from '../../../src/testbed/emulators/scaleway/index.js';
import { clientsFor, raw, testCatalog } from './scaleway-fixture.js';

const CLOUD_INIT = '#cloud-config\nruncmd:\n  - [kubeadm, join, "10.0.0.1:6443"]\n';

describe('scaleway emulator: server lifecycle through @scaleway/sdk-instance', () => {
  let clock: FakeClock;
  let emulator: ScalewayEmulator;
  let api: ReturnType<typeof clientsFor>;

  beforeEach(async () => {
    clock = new FakeClock();
    emulator = await startScalewayEmulator({ clock, catalog: testCatalog, timings: { startingMs: 30_000, stoppingMs: 10_000 } });
    api = clientsFor(emulator);
  });
  afterEach(async () => emulator.close());

  const create = (name: string, tags: string[] = ['karpenter'], commercialType = 'PRO2-S') =>
    api.instance.createServer({ name, commercialType, image: 'ubuntu_jammy', tags, dynamicIpRequired: true, protected: false });

  it('creates a stopped server with an SBS root volume, answering 201', async () => {
    const res = await raw(emulator, 'POST', '/instance/v1/zones/fr-par-1/servers', {
      body: JSON.stringify({
        name: 'n1',
        commercial_type: 'PRO2-S',
        image: 'ubuntu_jammy',
        project: emulator.credentials.projectId,
        tags: ['a'],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    const { server } = (await res.json()) as { server: Record<string, unknown> };
    expect(server).toMatchObject({
      name: 'n1',
      commercial_type: 'PRO2-S',
      state: 'stopped',
      tags: ['a'],
      zone: 'fr-par-1',
      arch: 'x86_64',
    });
    expect(server.allowed_actions).toEqual(['poweron', 'backup']);
    expect((server.volumes as Record<string, { volume_type: string }>)['0']?.volume_type).toBe('sbs_volume');

    const sdk = await create('n2');
    expect(sdk.server).toMatchObject({ name: 'n2', commercialType: 'PRO2-S', state: 'stopped', project: emulator.credentials.projectId });
    expect(sdk.server?.image?.name).toBe('ubuntu_jammy');
  });

  it('goes stopped → starting → running on poweron, with a 202 task, driven by the clock', async () => {
    const { server } = await create('boot');
    const id = server!.id;
    const res = await api.instance.serverAction({ serverId: id, action: 'poweron' });
    expect(res.task).toMatchObject({ status: 'pending', hrefResult: `/servers/${id}`, description: 'server_poweron' });
    expect((await api.instance.getServer({ serverId: id })).server).toMatchObject({ state: 'starting', stateDetail: 'allocating node' });
    clock.step(29_999);
    expect((await api.instance.getServer({ serverId: id })).server?.state).toBe('starting');
    clock.step(1);
    const running = (await api.instance.getServer({ serverId: id })).server!;
    expect(running.state).toBe('running');
    expect(running.publicIp?.address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(emulator.state().instances[0]).toMatchObject({ id, state: 'running', providerID: `scaleway://instance/fr-par-1/${id}` });
  });

  it('refuses to delete a running server, then deletes it once stopped (204)', async () => {
    const { server } = await create('del');
    const id = server!.id;
    await api.instance.serverAction({ serverId: id, action: 'poweron' });
    await expect(api.instance.serverAction({ serverId: id, action: 'poweroff' })).rejects.toBeInstanceOf(Errors.TransientStateError);
    clock.step(30_000);
    const refused = await raw(emulator, 'DELETE', `/instance/v1/zones/fr-par-1/servers/${id}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ type: 'invalid_request_error', message: 'server should be stopped' });
    await api.instance.serverAction({ serverId: id, action: 'poweroff' });
    expect((await api.instance.getServer({ serverId: id })).server?.state).toBe('stopping');
    clock.step(10_000);
    expect((await api.instance.getServer({ serverId: id })).server?.state).toBe('stopped');
    const deleted = await raw(emulator, 'DELETE', `/instance/v1/zones/fr-par-1/servers/${id}`);
    expect(deleted.status).toBe(204);
    await expect(api.instance.getServer({ serverId: id })).rejects.toBeInstanceOf(Errors.ResourceNotFoundError);
  });

  it('terminate removes the server but leaves its SBS volume detached, to be deleted via the Block API', async () => {
    const { server } = await create('term');
    const id = server!.id;
    const volumeId = server!.volumes['0']!.id;
    await expect(api.block.deleteVolume({ volumeId })).rejects.toBeInstanceOf(Errors.PreconditionFailedError);
    await api.instance.serverAction({ serverId: id, action: 'poweron' });
    clock.step(30_000);
    await api.instance.serverAction({ serverId: id, action: 'terminate' });
    expect((await api.instance.getServer({ serverId: id })).server?.state).toBe('stopping');
    clock.step(10_000);
    await expect(api.instance.getServer({ serverId: id })).rejects.toBeInstanceOf(Errors.ResourceNotFoundError);
    const volume = await api.block.getVolume({ volumeId });
    expect(volume).toMatchObject({ id: volumeId, status: 'available', references: [] });
    expect(volume.lastDetachedAt).toBeInstanceOf(Date);
    await api.block.deleteVolume({ volumeId });
    expect(emulator.state().volumes).toEqual([]);
    expect(emulator.state().instances).toEqual([]);
  });

  it('reboots a running server: it stays running with "rebooting" until the reboot completes', async () => {
    const { server } = await create('rb');
    const serverId = server!.id;
    await api.instance.serverAction({ serverId, action: 'poweron' });
    clock.step(30_000);
    const task = await api.instance.serverAction({ serverId, action: 'reboot' });
    expect(task.task?.description).toBe('server_reboot');
    expect((await api.instance.getServer({ serverId })).server).toMatchObject({
      state: 'running',
      stateDetail: 'rebooting',
      allowedActions: expect.arrayContaining(['poweroff']) as unknown,
    });
    await expect(api.instance.serverAction({ serverId, action: 'poweron' })).rejects.toThrow(/not allowed while the server is running/);
    clock.step(10_000);
    expect((await api.instance.getServer({ serverId })).server?.stateDetail).toBe('booted');
  });

  it('terminate is refused on a stopped server, which must be deleted instead', async () => {
    const { server } = await create('t2');
    await expect(api.instance.serverAction({ serverId: server!.id, action: 'terminate' })).rejects.toThrow(
      /not allowed while the server is stopped/,
    );
  });

  it('stores cloud-init user data as text/plain (set, list, get, delete)', async () => {
    const { server } = await create('ud');
    const serverId = server!.id;
    await api.instance.setServerUserData({ serverId, key: 'cloud-init', content: CLOUD_INIT });
    expect(await api.instance.listServerUserData({ serverId })).toEqual({ userData: ['cloud-init'] });
    expect(await api.instance.getServerUserData({ serverId, key: 'cloud-init' })).toBe(CLOUD_INIT);
    const put = await raw(emulator, 'PUT', `/instance/v1/zones/fr-par-1/servers/${serverId}/user_data/extra`, {
      body: 'x',
      contentType: 'text/plain',
    });
    expect(put.status).toBe(204);
    expect(emulator.state().instances[0]).toMatchObject({ userData: CLOUD_INIT, userDataByKey: { 'cloud-init': CLOUD_INIT, extra: 'x' } });
    await api.instance.deleteServerUserData({ serverId, key: 'extra' });
    await expect(api.instance.getServerUserData({ serverId, key: 'extra' })).rejects.toBeInstanceOf(Errors.ResourceNotFoundError);
  });

  it('lists with tag, state, name and commercial type filters', async () => {
    const a = (await create('pool-a-1', ['karpenter', 'nodepool=a'])).server!;
    await create('pool-b-1', ['karpenter', 'nodepool=b']);
    await create('other', ['manual'], 'DEV1-S');
    await api.instance.serverAction({ serverId: a.id, action: 'poweron' });
    clock.step(30_000);
    const names = async (req: Parameters<typeof api.instance.listServers>[0]) =>
      (await api.instance.listServers(req)).servers.map((s) => s.name).sort();
    expect(await names({ tags: ['karpenter'] })).toEqual(['pool-a-1', 'pool-b-1']);
    expect(await names({ tags: ['karpenter', 'nodepool=b'] })).toEqual(['pool-b-1']);
    expect(await names({ state: 'running' })).toEqual(['pool-a-1']);
    expect(await names({ name: 'pool' })).toEqual(['pool-a-1', 'pool-b-1']);
    expect(await names({ commercialType: 'DEV1-S' })).toEqual(['other']);
    expect(await names({ servers: [a.id] })).toEqual(['pool-a-1']);
  });

  it('pages with X-Total-Count and Link headers, and the SDK walks every page', async () => {
    for (let i = 0; i < 5; i++) await create(`p${i}`);
    const res = await raw(emulator, 'GET', '/instance/v1/zones/fr-par-1/servers?per_page=2&page=1');
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(res.headers.get('link')).toContain('page=3&per_page=2>; rel="last"');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('total_count');
    expect((body.servers as unknown[]).length).toBe(2);
    const all = await api.instance.listServers({ perPage: 2 }).all();
    expect(all.map((s) => s.name).sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
  });

  it('updates name and tags with PATCH', async () => {
    const { server } = await create('old', ['x']);
    const updated = await api.instance.updateServer({ serverId: server!.id, name: 'new', tags: ['y', 'z'] });
    expect(updated.server).toMatchObject({ name: 'new', tags: ['y', 'z'] });
    expect((await api.instance.listServers({ tags: ['y'] })).servers.map((s) => s.id)).toEqual([server!.id]);
  });

  it('attaches a private NIC and filters servers by private network', async () => {
    const { server } = await create('pn');
    await create('no-pn');
    const network = '11111111-2222-4333-8444-555555555555';
    const nic = await api.instance.createPrivateNIC({ serverId: server!.id, privateNetworkId: network });
    expect(nic.privateNic).toMatchObject({ privateNetworkId: network, serverId: server!.id });
    expect((await api.instance.listServers({ privateNetwork: network })).servers.map((s) => s.name)).toEqual(['pn']);
  });

  it('hides servers of other projects and refuses creates in them', async () => {
    const stranger = {
      accessKey: 'SCWBBBBBBBBBBBBBBBBB',
      secretKey: '0b0b0b0b-1111-4222-8333-444444444444',
      projectId: '0c0c0c0c-1111-4222-8333-444444444444',
      organizationId: '0d0d0d0d-1111-4222-8333-444444444444',
    };
    const multi = await startScalewayEmulator({ clock, catalog: testCatalog, credentials: [emulator.credentials, stranger] });
    try {
      const mine = clientsFor(multi);
      const theirs = clientsFor(multi, stranger);
      const { server } = await mine.instance.createServer({ name: 'm', commercialType: 'DEV1-S', image: 'ubuntu_jammy', protected: false });
      await expect(theirs.instance.getServer({ serverId: server!.id })).rejects.toBeInstanceOf(Errors.ResourceNotFoundError);
      expect((await theirs.instance.listServers({})).servers).toEqual([]);
      await expect(
        theirs.instance.createServer({
          name: 'x',
          commercialType: 'DEV1-S',
          image: 'ubuntu_jammy',
          protected: false,
          project: emulator.credentials.projectId,
        }),
      ).rejects.toBeInstanceOf(Errors.PermissionsDeniedError);
    } finally {
      await multi.close();
    }
  });
});
