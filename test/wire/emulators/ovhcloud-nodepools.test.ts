import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../src/util/clock.js';
import { startOvhcloudEmulator, type OvhcloudEmulator } from '../../../src/testbed/emulators/ovhcloud/index.js';
import { fullTemplate, kubePath, ovhClient, rejectionOf, trustEmulatorCa, type OvhClient } from './ovhcloud-fixture.js';

type Pool = Record<string, unknown> & { id: string; status: string; desiredNodes: number; currentNodes: number; availableNodes: number };
type Node = Record<string, unknown> & { id: string; name: string; status: string; instanceId: string | null; createdAt: string };

describe('ovhcloud emulator: MKS node pools and nodes through the ovh client', () => {
  let emulator: OvhcloudEmulator;
  let client: OvhClient;
  let untrust: () => void;
  const clock = new FakeClock(Date.now());

  beforeAll(async () => {
    emulator = await startOvhcloudEmulator({ clock, seed: 11 });
    untrust = trustEmulatorCa(emulator);
  });

  beforeEach(() => {
    // A fresh client re-reads /auth/time: the fake clock moves further than the API's accepted skew over the file.
    client = ovhClient(emulator);
  });

  afterAll(async () => {
    untrust();
    await emulator.close();
  });

  afterEach(async () => {
    // Each test starts from a cluster without pools.
    for (const pool of emulator.state().pools) {
      if (pool.visible && pool.status !== 'DELETING') await client.requestPromised('DELETE', kubePath(emulator, `/nodepool/${pool.id}`));
    }
    clock.step(10_000);
    emulator.faults.clear();
  });

  const createPool = (body: Record<string, unknown>) =>
    client.requestPromised('POST', kubePath(emulator, '/nodepool'), body) as Promise<Pool>;
  const getPool = (id: string) => client.requestPromised('GET', kubePath(emulator, `/nodepool/${id}`)) as Promise<Pool>;
  const nodesOf = (id: string) => client.requestPromised('GET', kubePath(emulator, `/nodepool/${id}/nodes`)) as Promise<Node[]>;
  const updatePool = (id: string, body: Record<string, unknown>) =>
    client.requestPromised('PUT', kubePath(emulator, `/nodepool/${id}`), body);
  const poolBody = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    flavorName: 'b3-8',
    desiredNodes: 1,
    autoscale: false,
    availabilityZones: ['eu-west-par-a'],
    template: fullTemplate({ 'managed-by': 'karpenter' }),
    ...extra,
  });

  it('creates a pool that installs, then lists a node that becomes READY with its instance id', async () => {
    const created = await createPool(poolBody('karpenter-b3-8-eu-west-par-a'));
    expect(created).toMatchObject({
      name: 'karpenter-b3-8-eu-west-par-a',
      flavor: 'b3-8',
      status: 'INSTALLING',
      desiredNodes: 1,
      minNodes: 0,
      maxNodes: 100,
      availabilityZones: ['eu-west-par-a'],
    });
    expect(created.template).toEqual(fullTemplate({ 'managed-by': 'karpenter' }));
    expect(await nodesOf(created.id)).toEqual([]);

    clock.step(600);
    const [installing] = await nodesOf(created.id);
    expect(installing).toMatchObject({
      status: 'INSTALLING',
      instanceId: null,
      flavor: 'b3-8',
      availabilityZone: 'eu-west-par-a',
      nodePoolId: created.id,
    });
    expect(installing?.name).toMatch(/^karpenter-b3-8-eu-west-par-a-node-[0-9a-f]{6}$/);

    clock.step(4_000);
    const [ready] = await nodesOf(created.id);
    expect(ready?.status).toBe('READY');
    expect(ready?.instanceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ready?.deployedAt).toEqual(expect.any(String));
    expect(await getPool(created.id)).toMatchObject({ status: 'READY', currentNodes: 1, availableNodes: 1, sizeStatus: 'CAPACITY_OK' });
    const instance = emulator.state().instances.find((i) => i.id === ready?.id);
    expect(instance).toMatchObject({
      providerID: `openstack:///${ready?.instanceId}`,
      state: 'READY',
      zone: 'eu-west-par-a',
      instanceType: 'b3-8',
    });
    expect(instance?.labels).toMatchObject({ 'managed-by': 'karpenter', nodepool: 'karpenter-b3-8-eu-west-par-a' });
  });

  it('scales up through UPSCALING and down through DOWNSCALING, removing the newest nodes first', async () => {
    const pool = await createPool(poolBody('scaling'));
    clock.step(5_000);
    await updatePool(pool.id, { desiredNodes: 3 });
    expect((await getPool(pool.id)).status).toBe('UPSCALING');
    clock.step(5_000);
    const three = await nodesOf(pool.id);
    expect(three.map((n) => n.status)).toEqual(['READY', 'READY', 'READY']);
    const oldest = three.find((n) => n.createdAt === three.map((x) => x.createdAt).sort()[0]);

    expect(await updatePool(pool.id, { desiredNodes: 1 })).toBeNull();
    expect((await getPool(pool.id)).status).toBe('DOWNSCALING');
    const during = await nodesOf(pool.id);
    expect(during.filter((n) => n.status === 'DELETING')).toHaveLength(2);
    clock.step(2_000);
    const left = await nodesOf(pool.id);
    expect(left.map((n) => n.id)).toEqual([oldest?.id]);
    expect(await getPool(pool.id)).toMatchObject({ status: 'READY', desiredNodes: 1, currentNodes: 1 });
    const history = (await client.requestPromised('GET', kubePath(emulator, `/nodepool/${pool.id}/nodes`), { history: true })) as Node[];
    expect(history.filter((n) => n.status === 'DELETED')).toHaveLength(2);
  });

  it('removes the nodes named in nodesToRemove, by node id, instance id or providerID', async () => {
    const pool = await createPool(poolBody('targeted', { desiredNodes: 4 }));
    clock.step(5_000);
    const [a, b, c] = await nodesOf(pool.id);
    await updatePool(pool.id, { desiredNodes: 1, nodesToRemove: [a?.id, b?.instanceId, `openstack:///${c?.instanceId}`] });
    clock.step(2_000);
    const left = await nodesOf(pool.id);
    expect(left).toHaveLength(1);
    expect([a?.id, b?.id, c?.id]).not.toContain(left[0]?.id);
    const unknown = await rejectionOf(updatePool(pool.id, { desiredNodes: 0, nodesToRemove: ['openstack:///not-a-node'] }));
    expect(unknown.error).toBe(400);
    expect(unknown.message).toContain('openstack:///not-a-node');
  });

  it('deletes a node through /node/{id}, lowering desiredNodes, and lists cluster nodes', async () => {
    const pool = await createPool(poolBody('single-delete', { desiredNodes: 2 }));
    clock.step(5_000);
    const all = (await client.requestPromised('GET', kubePath(emulator, '/node'))) as Node[];
    expect(all).toHaveLength(2);
    const target = all[0] as Node;
    expect(await client.requestPromised('GET', kubePath(emulator, `/node/${target.id}`))).toMatchObject({ id: target.id, status: 'READY' });
    expect(await client.requestPromised('DELETE', kubePath(emulator, `/node/${target.id}`))).toBeNull();
    expect((await getPool(pool.id)).desiredNodes).toBe(1);
    expect(await client.requestPromised('GET', kubePath(emulator, `/node/${target.id}`))).toMatchObject({ status: 'DELETING' });
    clock.step(2_000);
    expect(await rejectionOf(client.requestPromised('GET', kubePath(emulator, `/node/${target.id}`)))).toEqual({
      error: 404,
      message: `Node ${target.id} does not exist`,
    });
    expect(await nodesOf(pool.id)).toHaveLength(1);
  });

  it('deletes a pool: DELETING, then 404', async () => {
    const pool = await createPool(poolBody('doomed'));
    clock.step(5_000);
    expect(await client.requestPromised('DELETE', kubePath(emulator, `/nodepool/${pool.id}`))).toBeNull();
    expect((await getPool(pool.id)).status).toBe('DELETING');
    expect((await nodesOf(pool.id))[0]?.status).toBe('DELETING');
    clock.step(2_000);
    expect(await rejectionOf(getPool(pool.id))).toEqual({ error: 404, message: `Node pool ${pool.id} does not exist` });
  });

  it.each([
    [
      'a template missing finalizers',
      { template: { metadata: { labels: {}, annotations: {} }, spec: { taints: [], unschedulable: false } } },
      'template.metadata.finalizers',
    ],
    [
      'a template missing spec.unschedulable',
      { template: { metadata: { labels: {}, annotations: {}, finalizers: [] }, spec: { taints: [] } } },
      'template.spec.unschedulable',
    ],
    [
      'a bad taint effect',
      { template: { ...fullTemplate(), spec: { taints: [{ key: 'k', value: 'v', effect: 'NoWay' }], unschedulable: false } } },
      'NoExecute, NoSchedule, PreferNoSchedule',
    ],
    ['an underscore in the name', { name: 'bad_name' }, 'bad_name'],
    ['a flavor unknown to the region', { flavorName: 'b9-999' }, 'b9-999'],
    ['no zone in a 3-AZ region', { availabilityZones: undefined }, 'availabilityZones is required'],
    ['a zone of another region', { availabilityZones: ['gra11-a'] }, 'gra11-a'],
    ['two zones', { availabilityZones: ['eu-west-par-a', 'eu-west-par-b'] }, 'only 1 zone'],
    ['desiredNodes above maxNodes', { desiredNodes: 6, maxNodes: 5 }, 'desiredNodes (6)'],
    ['an anti-affinity pool above 5 nodes', { antiAffinity: true, desiredNodes: 6 }, 'more than 5 nodes'],
    ['monthly billing on a gen3 flavor', { monthlyBilled: true }, 'monthlyBilled'],
    ['an undescribed parameter', { flavour: 'b3-8' }, 'Received not described parameters: (flavour)'],
    ['a wrong type', { desiredNodes: 'two' }, 'desiredNodes'],
  ])('refuses %s with 400', async (_what, extra, fragment) => {
    const err = await rejectionOf(createPool(poolBody('refused', extra)));
    expect(err.error).toBe(400);
    expect(err.message).toContain(fragment);
    expect(emulator.state().pools).toHaveLength(0);
  });

  it('requires flavorName and refuses a duplicate name with 409', async () => {
    expect(await rejectionOf(createPool({ name: 'no-flavor' }))).toEqual({ error: 400, message: 'Missing parameter(s): flavorName' });
    await createPool(poolBody('twice'));
    expect((await rejectionOf(createPool(poolBody('twice')))).error).toBe(409);
  });

  it('refuses immutable fields on update and keeps the anti-affinity cap', async () => {
    const pool = await createPool(poolBody('fixed', { antiAffinity: true }));
    expect(pool).toMatchObject({ antiAffinity: true, maxNodes: 5 });
    const flavor = await rejectionOf(updatePool(pool.id, { flavorName: 'b3-16' }));
    expect(flavor).toEqual({ error: 400, message: 'Received not described parameters: (flavorName)' });
    expect((await rejectionOf(updatePool(pool.id, { monthlyBilled: true, name: 'x' }))).message).toContain('monthlyBilled, name');
    expect((await rejectionOf(updatePool(pool.id, { desiredNodes: 6, maxNodes: 10 }))).message).toContain('more than 5 nodes');
    await updatePool(pool.id, { desiredNodes: 5, template: fullTemplate({ team: 'a' }) });
    expect(await getPool(pool.id)).toMatchObject({ desiredNodes: 5, template: fullTemplate({ team: 'a' }) });
  });

  it('enforces the per-cluster node cap', async () => {
    const capped = await startOvhcloudEmulator({ clock, seed: 3, maxNodesPerCluster: 4 });
    const restore = trustEmulatorCa(capped);
    try {
      const c = ovhClient(capped);
      const path = kubePath(capped, '/nodepool');
      const pool = (await c.requestPromised('POST', path, poolBody('first', { desiredNodes: 3 }))) as Pool;
      const err = await rejectionOf(c.requestPromised('POST', path, poolBody('second', { desiredNodes: 2 })));
      expect(err.error).toBe(400);
      expect(err.message).toContain('limited to 4 nodes');
      expect((await rejectionOf(c.requestPromised('PUT', `${path}/${pool.id}`, { desiredNodes: 5 }))).message).toContain(
        'limited to 4 nodes',
      );
      expect(await c.requestPromised('PUT', `${path}/${pool.id}`, { desiredNodes: 4 })).toBeNull();
    } finally {
      restore();
      await capped.close();
    }
  });
});
