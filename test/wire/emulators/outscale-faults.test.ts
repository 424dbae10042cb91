import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutscaleClient } from '../../../src/cloudprovider/outscale/client.js';
import {
  isCapacity,
  isQuota,
  isThrottle,
  isTransient,
  type OutscaleApiError,
  OutscaleTransportError,
} from '../../../src/cloudprovider/outscale/errors.js';
import { rejection, startBed, workerRequest, type Bed } from './outscale-fixture.js';

let bed: Bed;

beforeEach(async () => {
  bed = await startBed({ timings: { bootMs: 10_000 } });
});

afterEach(async () => {
  await bed.emulator.close();
});

async function untilSleeping(): Promise<void> {
  while (bed.clock.waiting === 0) await new Promise((r) => setImmediate(r));
}

describe('outscale emulator: injected faults through the client', () => {
  it('answers a server error in Errors[] with a RequestId, classified transient', async () => {
    bed.emulator.faults.add({ match: { action: 'ReadVms' }, fault: { kind: 'server-error', status: 503 }, times: 1 });
    const err = (await rejection(bed.client.readVms())) as OutscaleApiError;
    expect([err.status, err.type, isTransient(err)]).toEqual([503, 'InternalError', true]);
    expect(err.requestId).toBeTruthy();
    expect((await bed.client.readVms()).Vms).toEqual([]);
    expect(bed.emulator.calls.records.map((r) => [r.action, r.status, r.fault])).toEqual([
      ['ReadVms', 503, 'server-error'],
      ['ReadVms', 200, undefined],
    ]);
  });

  it('throttles with 429 and Retry-After', async () => {
    bed.emulator.faults.add({ fault: { kind: 'throttle', retryAfterSeconds: 7 }, times: 1 });
    const err = (await rejection(bed.client.readVms())) as OutscaleApiError;
    expect([err.status, err.retryAfterMs, isThrottle(err), isTransient(err)]).toEqual([429, 7000, true, true]);
  });

  it('holds a request and then drops the connection on a timeout fault', async () => {
    bed.emulator.faults.add({ match: { action: 'ReadVms' }, fault: { kind: 'timeout', afterMs: 30_000 }, times: 1 });
    const pending = rejection(bed.client.readVms());
    await untilSleeping();
    bed.clock.step(30_000);
    const err = await pending;
    expect(err).toBeInstanceOf(OutscaleTransportError);
    expect(isTransient(err)).toBe(true);
    expect(bed.emulator.calls.records[0]).toMatchObject({ action: 'ReadVms', status: 0, fault: 'timeout' });
  });

  it("aborts a held request at the client's own timeout", async () => {
    bed.emulator.faults.add({ fault: { kind: 'timeout', afterMs: 3_600_000 }, times: 1 });
    const { emulator } = bed;
    const client = createOutscaleClient({
      endpoint: emulator.url,
      region: emulator.region,
      accessKey: emulator.credentials.accessKey,
      secretKey: emulator.credentials.secretKey,
      clock: bed.clock,
      timeoutMs: 50,
    });
    const err = (await rejection(client.readVms())) as OutscaleTransportError;
    expect(err).toBeInstanceOf(OutscaleTransportError);
    expect(err.timedOut).toBe(true);
  });

  it('answers normally after the delay of a slow fault', async () => {
    bed.emulator.faults.add({ fault: { kind: 'slow', delayMs: 2_000 }, times: 1 });
    const pending = bed.client.readSubregions();
    await untilSleeping();
    bed.clock.step(2_000);
    expect((await pending).Subregions.map((s) => s.SubregionName)).toEqual(['eu-west-2a', 'eu-west-2b']);
  });

  it('refuses an out-of-stock type in one subregion only, and never a read', async () => {
    bed.emulator.faults.add({ match: { instanceType: 'tinav6.c4r8p2', zone: 'eu-west-2b' }, fault: { kind: 'out-of-stock' } });
    const err = (await rejection(bed.client.createVms(workerRequest(bed)))) as OutscaleApiError;
    expect([err.type, isCapacity(err), isTransient(err)]).toEqual(['InsufficientCapacity', true, false]);
    expect(err.details).toContain('tinav6.c4r8p2');
    const elsewhere = await bed.client.createVms(workerRequest(bed, { SubnetId: bed.emulator.network.subnets['eu-west-2a'] }));
    expect(elsewhere.Vms).toHaveLength(1);
    expect((await bed.client.readVms()).Vms).toHaveLength(1);
  });

  it('refuses a launch with a quota fault in the 10xxx family', async () => {
    bed.emulator.faults.add({ fault: { kind: 'quota-exceeded' }, times: 1 });
    const err = (await rejection(bed.client.createVms(workerRequest(bed)))) as OutscaleApiError;
    expect([err.code, isQuota(err), isTransient(err)]).toEqual(['10010', true, false]);
  });

  it('hides a new VM from ReadVms until the consistency delay has passed', async () => {
    bed.emulator.setConsistencyDelay(5_000);
    const vmId = (await bed.client.createVms(workerRequest(bed))).Vms[0]!.VmId;
    expect((await bed.client.readVms({ Filters: { VmIds: [vmId] } })).Vms).toEqual([]);
    expect(bed.emulator.state().instances[0]).toMatchObject({ id: vmId, visible: false });
    bed.clock.step(5_000);
    expect((await bed.client.readVms({ Filters: { VmIds: [vmId] } })).Vms.map((v) => v.VmId)).toEqual([vmId]);
  });

  it('lets CreateVms succeed while the follow-up CreateTags fails; the VM is found again by ClientToken', async () => {
    bed.emulator.failCreateTags({ times: 1 });
    const vmId = (await bed.client.createVms(workerRequest(bed, { ClientToken: 'nc-uid-7' }))).Vms[0]!.VmId;
    const tag = { ResourceIds: [vmId], Tags: [{ Key: 'karpenter.sh/nodeclaim', Value: 'default-abcde' }] };
    const err = (await rejection(bed.client.createTags(tag))) as OutscaleApiError;
    expect(err.status).toBe(500);
    const [orphan] = (await bed.client.readVms({ Filters: { ClientTokens: ['nc-uid-7'] } })).Vms;
    expect(orphan).toMatchObject({ VmId: vmId, Tags: [] });
    await bed.client.createTags(tag);
    expect(bed.emulator.state().instances[0]?.tags).toEqual({ 'karpenter.sh/nodeclaim': 'default-abcde' });
  });
});
