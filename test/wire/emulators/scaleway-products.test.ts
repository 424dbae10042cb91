import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScalewayEmulator, type ScalewayEmulator } from '../../../src/testbed/emulators/scaleway/index.js';
import { clientsFor, raw, testCatalog } from './scaleway-fixture.js';

describe('scaleway emulator: products/servers and availability from the catalog', () => {
  let emulator: ScalewayEmulator;
  let api: ReturnType<typeof clientsFor>;

  beforeAll(async () => {
    emulator = await startScalewayEmulator({
      catalog: testCatalog,
      availability: [{ commercialType: 'L4-1-24G', zone: 'fr-par-2', availability: 'scarce' }],
    });
    api = clientsFor(emulator);
  });
  afterAll(async () => emulator.close());

  it("serves per-type specs and the zone's hourly price", async () => {
    const { servers } = await api.instance.listServersTypes({ zone: 'fr-par-1' });
    expect(Object.keys(servers).sort()).toEqual(['DEV1-S', 'GPU-3070-S', 'L4-1-24G', 'POP2-2C-8G', 'PRO2-S']);
    expect(servers['PRO2-S']).toMatchObject({ ncpus: 8, ram: 32 * 1024 ** 3, gpu: 0, arch: 'x86_64', hourlyPrice: 0.219 });
    expect(servers['L4-1-24G']).toMatchObject({
      ncpus: 8,
      gpu: 1,
      hourlyPrice: 0.75,
      gpuInfo: { gpuManufacturer: 'NVIDIA', gpuName: 'L4', gpuMemory: 24 * 1024 ** 3 },
      volumesConstraint: { minSize: 0, maxSize: 0 },
    });
    expect(servers['DEV1-S']?.volumesConstraint).toEqual({ minSize: 0, maxSize: 20 * 1024 ** 3 });
    expect(servers['GPU-3070-S']?.gpuInfo?.gpuName).toBe('RTX 3070');
    // An unknown price is left out, never invented.
    expect(servers['GPU-3070-S']?.hourlyPrice).toBeUndefined();
    const waw = await api.instance.listServersTypes({ zone: 'pl-waw-1' });
    expect(Object.keys(waw.servers).sort()).toEqual(['DEV1-S', 'PRO2-S']);
    expect(waw.servers['DEV1-S']?.hourlyPrice).toBe(0.008976);
  });

  it('is public (no token) and pages as a map with X-Total-Count', async () => {
    const res = await raw(emulator, 'GET', '/instance/v1/zones/fr-par-1/products/servers?per_page=2&page=3', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(Object.keys(((await res.json()) as { servers: object }).servers)).toEqual(['PRO2-S']);
  });

  it('reports availability per zone', async () => {
    const par2 = await api.instance.getServerTypesAvailability({ zone: 'fr-par-2' });
    expect(par2.servers['L4-1-24G']).toEqual({ availability: 'scarce' });
    expect(par2.servers['PRO2-S']).toEqual({ availability: 'available' });
    emulator.setAvailability('PRO2-S', 'fr-par-2', 'shortage');
    expect((await api.instance.getServerTypesAvailability({ zone: 'fr-par-2' })).servers['PRO2-S']?.availability).toBe('shortage');
  });

  it('answers an unknown zone with invalid_arguments naming the accepted zones', async () => {
    const res = await raw(emulator, 'GET', '/instance/v1/zones/xx-yyy-9/products/servers');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; details: { argument_name: string; help_message: string }[] };
    expect(body.type).toBe('invalid_arguments');
    expect(body.details[0]?.argument_name).toBe('zone');
    expect(body.details[0]?.help_message).toContain('fr-par-1, fr-par-2, pl-waw-1');
  });
});

describe('scaleway emulator: the bundled catalog', () => {
  it('offers zone-restricted flavors (GPUs) only in their zones', async () => {
    const emulator = await startScalewayEmulator();
    try {
      const api = clientsFor(emulator);
      const par1 = await api.instance.listServersTypes({ zone: 'fr-par-1', perPage: 100 });
      const par2 = await api.instance.listServersTypes({ zone: 'fr-par-2', perPage: 100 });
      expect(Object.keys(par2.servers)).toContain('L4-1-24G');
      expect(Object.keys(par1.servers)).not.toContain('L4-1-24G');
      expect(Object.keys(par1.servers)).toContain('PRO2-S');
    } finally {
      await emulator.close();
    }
  });
});
