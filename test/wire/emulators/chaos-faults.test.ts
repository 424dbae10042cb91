// The fault kinds and hooks the chaos suite drives, through the real Outscale client against its emulator: the
// cloud acts and its answer is lost, emptied or cut; a hook runs at the exact request, before the cloud acts
// (then the request is dropped) or after (then the answer is sent); a watcher sees a request before the cloud
// acts; listings come in short pages.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutscaleTransportError } from '../../../src/cloudprovider/outscale/errors.js';
import type { RequestInfo } from '../../../src/testbed/emulators/faults.js';
import { rejection, startBed, workerRequest, type Bed } from './outscale-fixture.js';

let bed: Bed;

beforeEach(async () => {
  bed = await startBed();
});

afterEach(async () => {
  await bed.emulator.close();
});

const vmCount = (): number => bed.emulator.state().instances.length;

describe('emulator faults for the chaos suite', () => {
  it('lost-reply: the VM is created but the client only sees the connection drop', async () => {
    bed.emulator.faults.add({ match: { action: 'CreateVms' }, fault: { kind: 'lost-reply' }, times: 1 });
    expect(await rejection(bed.client.createVms(workerRequest(bed)))).toBeInstanceOf(OutscaleTransportError);
    expect(vmCount()).toBe(1);
    expect(bed.emulator.calls.records[0]).toMatchObject({ action: 'CreateVms', status: 0, fault: 'lost-reply' });
  });

  it('empty-ok and truncated-ok: the VM is created and the answer is a 200 with an empty, {} or cut body', async () => {
    const sent: string[] = [];
    for (const fault of [{ kind: 'empty-ok', body: '' }, { kind: 'empty-ok', body: '{}' }, { kind: 'truncated-ok' }] as const) {
      bed.emulator.faults.add({ match: { action: 'CreateVms' }, fault, times: 1 });
      await bed.client.createVms(workerRequest(bed)).catch(() => undefined);
      sent.push(fault.kind);
    }
    expect(vmCount()).toBe(3);
    expect(bed.emulator.calls.records.map((r) => [r.status, r.fault])).toEqual([
      [200, 'empty-ok'],
      [200, 'empty-ok'],
      [200, 'truncated-ok'],
    ]);
  });

  it('leaves an error answer unspoiled (only a success can be emptied)', async () => {
    bed.emulator.faults.add({ match: { action: 'CreateVms' }, fault: { kind: 'empty-ok', body: '' }, times: 1 });
    const err = await rejection(bed.client.createVms(workerRequest(bed, { VmType: 'no-such-type' })));
    expect(err).not.toBeInstanceOf(OutscaleTransportError);
    expect(vmCount()).toBe(0);
  });

  it('hook then drop: runs at the request, before the cloud acts, and the request is never handled', async () => {
    const seen: { action?: string; vms: number }[] = [];
    bed.emulator.faults.add({
      match: { action: 'CreateVms' },
      times: 1,
      fault: { kind: 'hook', then: 'drop', run: (req) => void seen.push({ action: req.action, vms: vmCount() }) },
    });
    expect(await rejection(bed.client.createVms(workerRequest(bed)))).toBeInstanceOf(OutscaleTransportError);
    expect(seen).toEqual([{ action: 'CreateVms', vms: 0 }]);
    expect(vmCount()).toBe(0);
  });

  it('hook then answer: runs once the cloud acted and before the answer leaves, which it then awaits', async () => {
    const seen: number[] = [];
    bed.emulator.faults.add({
      match: { action: 'CreateVms' },
      times: 1,
      fault: {
        kind: 'hook',
        then: 'answer',
        run: async () => {
          seen.push(vmCount());
          await new Promise((resolve) => setTimeout(resolve, 20));
        },
      },
    });
    const res = await bed.client.createVms(workerRequest(bed));
    expect(seen).toEqual([1]);
    expect(res.Vms).toHaveLength(1);
  });

  it('a watcher sees each matching request before the cloud acts and never changes the answer', async () => {
    const seen: [string | undefined, number][] = [];
    const id = bed.emulator.faults.watch({ action: 'CreateVms' }, (req: RequestInfo) => void seen.push([req.action, vmCount()]));
    await bed.client.createVms(workerRequest(bed));
    await bed.client.readVms();
    bed.emulator.faults.remove(id);
    await bed.client.createVms(workerRequest(bed));
    expect(seen).toEqual([['CreateVms', 0]]);
    expect(vmCount()).toBe(2);
  });

  it('short pages: ReadVms returns at most the page limit and the rest behind NextPageToken', async () => {
    for (let i = 0; i < 3; i++) await bed.client.createVms(workerRequest(bed));
    bed.emulator.setPageLimit(1);
    const first = await bed.client.readVms({ ResultsPerPage: 100 });
    expect(first.Vms).toHaveLength(1);
    expect(first.NextPageToken).toBeTruthy();
    const rest = await bed.client.readVms({ ResultsPerPage: 100, NextPageToken: first.NextPageToken });
    expect(rest.Vms).toHaveLength(1);
    bed.emulator.setPageLimit(undefined);
    expect((await bed.client.readVms({ ResultsPerPage: 100 })).Vms).toHaveLength(3);
  });
});
