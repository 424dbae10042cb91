import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isNotFound, isQuota, OutscaleApiError } from '../../../src/cloudprovider/outscale/errors.js';
import { rejection, startBed, workerRequest, type Bed } from './outscale-fixture.js';

let bed: Bed;

beforeEach(async () => {
  bed = await startBed({ timings: { bootMs: 10_000, stopMs: 5_000, shutdownMs: 5_000, terminatedRetentionMs: 60_000 } });
});

afterEach(async () => {
  await bed.emulator.close();
});

async function stateOf(vmId: string): Promise<string | undefined> {
  const res = await bed.client.readVms({ Filters: { VmIds: [vmId] } });
  return res.Vms[0]?.State;
}

describe('outscale emulator: CreateVms', () => {
  it('creates a pending VM with the requested placement, type, groups, user data and disks', async () => {
    const res = await bed.client.createVms(workerRequest(bed, { ClientToken: 'nc-1' }));
    expect(res.ResponseContext.RequestId).toMatch(/^[0-9a-f-]{36}$/);
    const vm = res.Vms[0]!;
    expect(vm).toMatchObject({
      VmType: 'tinav6.c4r8p2',
      State: 'pending',
      Performance: 'high',
      Placement: { SubregionName: 'eu-west-2b' },
      SubnetId: bed.emulator.network.subnets['eu-west-2b'],
      ImageId: bed.emulator.network.images.talos,
      KeypairName: 'karpenter-eu',
      ClientToken: 'nc-1',
      SecurityGroups: [{ SecurityGroupId: bed.emulator.network.securityGroups.worker, SecurityGroupName: 'k8s-worker' }],
    });
    expect(vm.VmId).toMatch(/^i-[0-9a-f]{8}$/);
    expect(vm.BlockDeviceMappings[0]?.Bsu.VolumeId).toMatch(/^vol-/);
    const [snap] = bed.emulator.state().instances;
    expect(snap).toMatchObject({
      id: vm.VmId,
      providerID: `aws:///eu-west-2b/${vm.VmId}`,
      userData: '#cloud-config\nhostname: worker\n',
      zone: 'eu-west-2b',
    });
  });

  it('returns the same VM for the same ClientToken instead of launching a second one', async () => {
    const first = await bed.client.createVms(workerRequest(bed, { ClientToken: 'nodeclaim-uid-1' }));
    const again = await bed.client.createVms(workerRequest(bed, { ClientToken: 'nodeclaim-uid-1' }));
    expect(again.Vms.map((v) => v.VmId)).toEqual(first.Vms.map((v) => v.VmId));
    expect(bed.emulator.state().instances).toHaveLength(1);
    const found = await bed.client.readVms({ Filters: { ClientTokens: ['nodeclaim-uid-1'] } });
    expect(found.Vms.map((v) => v.VmId)).toEqual([first.Vms[0]!.VmId]);
  });

  it('takes the performance from the pN suffix over the Performance field, and accepts unlisted tina types', async () => {
    const res = await bed.client.createVms(workerRequest(bed, { VmType: 'tinav6.c3r6p3', Performance: 'highest' }));
    expect(res.Vms[0]).toMatchObject({ VmType: 'tinav6.c3r6p3', Performance: 'medium' });
  });

  it.each([
    ['an unknown VM type', { VmType: 'tinav99.c4r8p2' }, '5024', 'InvalidResource'],
    ['a malformed VM type', { VmType: 'huge' }, '5024', 'InvalidResource'],
    ['an unknown image', { ImageId: 'ami-00000000' }, '5023', 'InvalidResource'],
    ['an unknown subnet', { SubnetId: 'subnet-00000000' }, '5057', 'InvalidResource'],
    ['an unknown subregion', { SubnetId: undefined, Placement: { SubregionName: 'eu-west-2z' } }, '5009', 'InvalidResource'],
    ['a missing ImageId', { ImageId: undefined }, '7000', 'MissingParameter'],
    ['user data that is not base64', { UserData: '#cloud-config' }, '4045', 'InvalidParameterValue'],
    ['a bad Performance', { Performance: 'turbo' }, '4045', 'InvalidParameterValue'],
    [
      'an io1 disk without Iops',
      { BlockDeviceMappings: [{ DeviceName: '/dev/sda1', Bsu: { VolumeType: 'io1' } }] },
      '7000',
      'MissingParameter',
    ],
  ])('refuses %s with the real error shape', async (_what, overrides, code, type) => {
    const err = await rejection(bed.client.createVms(workerRequest(bed, overrides) as never));
    expect(err).toBeInstanceOf(OutscaleApiError);
    const e = err as OutscaleApiError;
    expect([e.status, e.code, e.type]).toEqual([400, code, type]);
    expect(e.requestId).toBeTruthy();
    expect(bed.emulator.state().instances).toHaveLength(0);
  });

  it('enforces the VM and core quotas with 10xxx codes, launching what fits between Min and Max', async () => {
    bed.emulator.setQuotas({ maxVms: 3 });
    const res = await bed.client.createVms(workerRequest(bed, { MinVmsCount: 1, MaxVmsCount: 5 }));
    expect(res.Vms).toHaveLength(3);
    const err = (await rejection(bed.client.createVms(workerRequest(bed)))) as OutscaleApiError;
    expect([err.status, err.code, err.type, isQuota(err)]).toEqual([409, '10010', 'TooManyResources (QuotaExceded)', true]);
    bed.emulator.setQuotas({ maxCores: 14 });
    const cores = (await rejection(bed.client.createVms(workerRequest(bed)))) as OutscaleApiError;
    expect([cores.code, isQuota(cores)]).toEqual(['10029', true]);
  });
});

describe('outscale emulator: VM lifecycle', () => {
  it('goes pending → running → shutting-down → terminated, stays visible as terminated, then disappears', async () => {
    const vmId = (await bed.client.createVms(workerRequest(bed))).Vms[0]!.VmId;
    expect(await stateOf(vmId)).toBe('pending');
    bed.clock.step(10_000);
    expect(await stateOf(vmId)).toBe('running');
    const deleted = await bed.client.deleteVms({ VmIds: [vmId] });
    expect(deleted.Vms).toEqual([{ VmId: vmId, PreviousState: 'running', CurrentState: 'shutting-down' }]);
    bed.clock.step(5_000);
    expect(await stateOf(vmId)).toBe('terminated');
    const running = await bed.client.readVms({ Filters: { VmStateNames: ['pending', 'running'] } });
    expect(running.Vms).toHaveLength(0);
    bed.clock.step(60_000);
    expect(await stateOf(vmId)).toBeUndefined();
  });

  it('creates a VM stopped with BootOnCreation=false, then starts and stops it', async () => {
    const vmId = (await bed.client.createVms(workerRequest(bed, { BootOnCreation: false }))).Vms[0]!.VmId;
    bed.clock.step(10_000);
    expect(await stateOf(vmId)).toBe('stopped');
    const started = await bed.client.startVms({ VmIds: [vmId] });
    expect(started.Vms[0]).toMatchObject({ PreviousState: 'stopped', CurrentState: 'pending' });
    bed.clock.step(10_000);
    expect(await stateOf(vmId)).toBe('running');
    await bed.client.stopVms({ VmIds: [vmId] });
    expect(await stateOf(vmId)).toBe('stopping');
    bed.clock.step(5_000);
    expect(await stateOf(vmId)).toBe('stopped');
  });

  it('refuses to delete or start an unknown VM with 5063, and to start a terminated one with 6006', async () => {
    const missing = await rejection(bed.client.deleteVms({ VmIds: ['i-00000000'] }));
    expect(isNotFound(missing)).toBe(true);
    expect((missing as OutscaleApiError).code).toBe('5063');
    const vmId = (await bed.client.createVms(workerRequest(bed))).Vms[0]!.VmId;
    await bed.client.deleteVms({ VmIds: [vmId] });
    bed.clock.step(20_000);
    const err = (await rejection(bed.client.startVms({ VmIds: [vmId] }))) as OutscaleApiError;
    expect([err.status, err.code, err.type]).toEqual([409, '6006', 'InvalidState']);
  });
});

describe('outscale emulator: ReadVms filters, tags and pagination', () => {
  it('filters by Tags, TagKeys, TagValues and SubregionNames', async () => {
    const [a, b] = (await bed.client.createVms(workerRequest(bed, { MaxVmsCount: 2 }))).Vms.map((v) => v.VmId) as [string, string];
    const other = (await bed.client.createVms(workerRequest(bed, { SubnetId: bed.emulator.network.subnets['eu-west-2a'] }))).Vms[0]!.VmId;
    await bed.client.createTags({ ResourceIds: [a, other], Tags: [{ Key: 'OscK8sClusterID/demo', Value: 'owned' }] });
    await bed.client.createTags({ ResourceIds: [b], Tags: [{ Key: 'OscK8sClusterID/demo', Value: 'shared' }] });
    const ids = async (filters: object) => (await bed.client.readVms({ Filters: filters })).Vms.map((v) => v.VmId).sort();
    expect(await ids({ Tags: ['OscK8sClusterID/demo=owned'] })).toEqual([a, other].sort());
    expect(await ids({ TagKeys: ['OscK8sClusterID/demo'] })).toEqual([a, b, other].sort());
    expect(await ids({ TagValues: ['shared'] })).toEqual([b]);
    expect(await ids({ SubregionNames: ['eu-west-2a'], TagKeys: ['OscK8sClusterID/demo'] })).toEqual([other]);
    expect(await ids({ TagKeys: ['karpenter.sh/managed-by'] })).toEqual([]);
  });

  it('deletes tags by key or by key and value, and reads them back with ReadTags', async () => {
    const vmId = (await bed.client.createVms(workerRequest(bed))).Vms[0]!.VmId;
    await bed.client.createTags({
      ResourceIds: [vmId],
      Tags: [
        { Key: 'a', Value: '1' },
        { Key: 'b', Value: '2' },
        { Key: 'c', Value: '3' },
      ],
    });
    await bed.client.deleteTags({ ResourceIds: [vmId], Tags: [{ Key: 'a' }, { Key: 'b', Value: 'not-2' }] });
    const tags = await bed.client.readTags({ Filters: { ResourceIds: [vmId] } });
    expect(tags.Tags.map((t) => `${t.ResourceType}:${t.Key}=${t.Value}`).sort()).toEqual(['vm:b=2', 'vm:c=3']);
    const missing = (await rejection(
      bed.client.createTags({ ResourceIds: ['i-00000000'], Tags: [{ Key: 'x', Value: '' }] }),
    )) as OutscaleApiError;
    expect(missing.type).toBe('InvalidResource');
  });

  it('pages with NextPageToken and refuses a forged token', async () => {
    await bed.client.createVms(workerRequest(bed, { MaxVmsCount: 5 }));
    const first = await bed.client.readVms({ ResultsPerPage: 2 });
    expect(first.Vms).toHaveLength(2);
    expect(first.NextPageToken).toBeTruthy();
    const all = await bed.client.readAllVms({ ResultsPerPage: 2 });
    expect(new Set(all.map((v) => v.VmId)).size).toBe(5);
    const forged = (await rejection(bed.client.readVms({ NextPageToken: 'garbage' }))) as OutscaleApiError;
    expect([forged.status, forged.type]).toEqual([400, 'InvalidParameterValue']);
    const tooBig = (await rejection(bed.client.readVms({ ResultsPerPage: 5000 }))) as OutscaleApiError;
    expect(tooBig.type).toBe('InvalidParameterValue');
  });
});
