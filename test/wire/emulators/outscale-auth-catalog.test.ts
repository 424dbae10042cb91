import { createHash, createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutscaleClient } from '../../../src/cloudprovider/outscale/client.js';
import { type OutscaleApiError } from '../../../src/cloudprovider/outscale/errors.js';
import { FakeClock } from '../../../src/util/clock.js';
import { rejection, startBed, UNIT, workerRequest, type Bed } from './outscale-fixture.js';

let bed: Bed;

beforeEach(async () => {
  bed = await startBed({ timings: { bootMs: 10_000, shutdownMs: 5_000 } });
});

afterEach(async () => {
  await bed.emulator.close();
});

const hex = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** Signs like aws4fetch: only `host;x-amz-date` are signed. */
function aws4fetchStyle(action: string, body: string, secretKey = bed.emulator.credentials.secretKey) {
  const url = new URL(`${bed.emulator.url}/api/v1/${action}`);
  const amzDate = new Date(bed.clock.now())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const scope = `${day}/eu-west-2/api/aws4_request`;
  const canonical = ['POST', url.pathname, '', `host:${url.host}\nx-amz-date:${amzDate}\n`, 'host;x-amz-date', hex(body)].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretKey}`, day), 'eu-west-2'), 'api'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  const authorization = `AWS4-HMAC-SHA256 Credential=${bed.emulator.credentials.accessKey}/${scope}, SignedHeaders=host;x-amz-date, Signature=${signature}`;
  return { url, headers: { 'content-type': 'application/json', 'x-amz-date': amzDate, authorization } };
}

describe('outscale emulator: SigV4 verification', () => {
  it('accepts an aws4fetch-style request signing only host and x-amz-date', async () => {
    const body = JSON.stringify({ Filters: { SubregionNames: ['eu-west-2a'] } });
    const { url, headers } = aws4fetchStyle('ReadSubregions', body);
    const res = await fetch(url, { method: 'POST', headers, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ Subregions: [{ SubregionName: 'eu-west-2a', RegionName: 'eu-west-2' }] });
  });

  it('rejects a body changed after signing, a wrong secret and an unsigned call with 401 AccessDenied', async () => {
    const signed = aws4fetchStyle('ReadVms', '{}');
    const tampered = await fetch(signed.url, { method: 'POST', headers: signed.headers, body: '{"Filters":{}}' });
    const wrong = aws4fetchStyle('ReadVms', '{}', 'not-the-secret');
    const wrongSecret = await fetch(wrong.url, { method: 'POST', headers: wrong.headers, body: '{}' });
    const unsigned = await fetch(signed.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    for (const res of [tampered, wrongSecret, unsigned]) {
      expect(res.status).toBe(401);
      const body = (await res.json()) as { Errors: { Code: string; Type: string }[]; ResponseContext: { RequestId: string } };
      expect(body.Errors[0]).toMatchObject({ Code: '1', Type: 'AccessDenied' });
      expect(body.ResponseContext.RequestId).toBeTruthy();
    }
  });

  it('rejects the client with a wrong secret, an unknown key, another region or a skewed clock', async () => {
    const { emulator } = bed;
    const base = {
      endpoint: emulator.url,
      region: emulator.region,
      accessKey: emulator.credentials.accessKey,
      secretKey: emulator.credentials.secretKey,
      clock: bed.clock,
    };
    const skewed = new FakeClock(bed.clock.now() + 16 * 60_000);
    for (const options of [{ secretKey: 'wrong' }, { accessKey: 'AKUNKNOWN' }, { region: 'us-east-2' }, { clock: skewed }]) {
      const err = (await rejection(createOutscaleClient({ ...base, ...options }).readVms())) as OutscaleApiError;
      expect([err.status, err.type]).toEqual([401, 'AccessDenied']);
    }
  });

  it('answers a malformed body with 400 InvalidParameterValue and keeps serving', async () => {
    const body = '{"Filters": [';
    const { url, headers } = aws4fetchStyle('ReadVms', body);
    const res = await fetch(url, { method: 'POST', headers, body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { Errors: { Type: string }[] }).Errors[0]?.Type).toBe('InvalidParameterValue');
    const unknown = (await rejection(bed.client.call('LaunchRockets', {}))) as OutscaleApiError;
    expect([unknown.status, unknown.type]).toEqual([404, 'InvalidAction']);
    expect((await bed.client.readVms()).Vms).toEqual([]);
  });
});

describe('outscale emulator: catalogs and seeded network', () => {
  it('serves ReadPublicCatalog unsigned, with unit prices that rebuild the catalog prices', async () => {
    const res = await fetch(`${bed.emulator.url}/api/v1/ReadPublicCatalog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    const { Catalog } = (await res.json()) as { Catalog: { Entries: { Type: string; UnitPrice: number }[] } };
    const price = (type: string) => Catalog.Entries.find((e) => e.Type === type)?.UnitPrice;
    expect(price('CustomCore:v6-p2')).toBeCloseTo(UNIT.v6p2Core, 5);
    expect(price('CustomCore:v5-p1')).toBeCloseTo(UNIT.v5p1Core, 5);
    expect(price('CustomRam')).toBeCloseTo(UNIT.ramGiB, 5);
    expect(price('Gpu:attach:nvidia-a100')).toBeCloseTo(UNIT.a100, 5);
    expect((await bed.client.readPublicCatalog()).Catalog.Entries).toHaveLength(Catalog.Entries.length);
  });

  it('lists VM types, subregions, images, subnets and security groups', async () => {
    const types = await bed.client.readVmTypes({ Filters: { VcoreCounts: [4] } });
    expect(types.VmTypes.map((t) => `${t.VmTypeName}:${t.MemorySize}`).sort()).toEqual([
      'tinav5.c4r8p1:8',
      'tinav6.c4r16p2:16',
      'tinav6.c4r8p2:8',
    ]);
    expect((await bed.client.readImages()).Images.map((i) => i.ImageName)).toContain('talos-v1.9.0-amd64');
    const subnets = await bed.client.readSubnets({ Filters: { SubregionNames: ['eu-west-2b'] } });
    expect(subnets.Subnets.map((s) => s.SubnetId)).toEqual([bed.emulator.network.subnets['eu-west-2b']]);
    const groups = await bed.client.readSecurityGroups({ Filters: { SecurityGroupNames: ['k8s-worker'] } });
    expect(groups.SecurityGroups.map((g) => g.SecurityGroupId)).toEqual([bed.emulator.network.securityGroups.worker]);
  });
});

describe('outscale emulator: flexible GPUs', () => {
  it('links an fGPU to a stopped p1 VM, starts it, and deletes the fGPU with the VM', async () => {
    const catalog = await bed.client.readFlexibleGpuCatalog();
    expect(catalog.FlexibleGpuCatalog.find((m) => m.ModelName === 'nvidia-a100')).toMatchObject({ MaxCpu: 35, Generations: ['v5', 'v6'] });
    const vmId = (await bed.client.createVms(workerRequest(bed, { VmType: 'tinav5.c8r32p1', BootOnCreation: false }))).Vms[0]!.VmId;
    bed.clock.step(10_000);
    const { FlexibleGpu } = await bed.client.createFlexibleGpu({
      ModelName: 'nvidia-a100',
      SubregionName: 'eu-west-2b',
      Generation: 'v5',
      DeleteOnVmDeletion: true,
    });
    expect(FlexibleGpu).toMatchObject({ State: 'allocated', SubregionName: 'eu-west-2b' });
    await bed.client.linkFlexibleGpu({ FlexibleGpuId: FlexibleGpu.FlexibleGpuId, VmId: vmId });
    const linked = await bed.client.readFlexibleGpus({ Filters: { VmIds: [vmId] } });
    expect(linked.FlexibleGpus[0]).toMatchObject({ State: 'attached', VmId: vmId });
    const busy = (await rejection(bed.client.deleteFlexibleGpu({ FlexibleGpuId: FlexibleGpu.FlexibleGpuId }))) as OutscaleApiError;
    expect(busy.code).toBe('6006');
    await bed.client.startVms({ VmIds: [vmId] });
    await bed.client.deleteVms({ VmIds: [vmId] });
    bed.clock.step(5_000);
    expect((await bed.client.readFlexibleGpus()).FlexibleGpus).toEqual([]);
  });

  it('refuses to link an fGPU to a VM without highest performance, or of another subregion', async () => {
    const vmId = (await bed.client.createVms(workerRequest(bed, { BootOnCreation: false }))).Vms[0]!.VmId;
    const a = await bed.client.createFlexibleGpu({ ModelName: 'nvidia-a100', SubregionName: 'eu-west-2b' });
    const b = await bed.client.createFlexibleGpu({ ModelName: 'nvidia-a100', SubregionName: 'eu-west-2a' });
    for (const gpu of [a, b]) {
      const err = (await rejection(
        bed.client.linkFlexibleGpu({ FlexibleGpuId: gpu.FlexibleGpu.FlexibleGpuId, VmId: vmId }),
      )) as OutscaleApiError;
      expect([err.status, err.type]).toEqual([400, 'InvalidParameterValue']);
    }
    const model = (await rejection(
      bed.client.createFlexibleGpu({ ModelName: 'nvidia-h200', SubregionName: 'eu-west-2b' }),
    )) as OutscaleApiError;
    expect(model.type).toBe('InvalidResource');
  });
});
