import { describe, expect, it } from 'vitest';
import { CloudNames } from '../../../src/apis/v1/labels.js';
import { CatalogValidationError, loadCatalog, validateCatalog } from '../../../src/catalog/index.js';
import { buildInstanceTypes } from '../../../src/domain/instancetypes/build.js';

describe('bundled catalogs', () => {
  it.each(CloudNames)('%s loads, with its date, sources and at least one region and flavor', (cloud) => {
    const catalog = loadCatalog(cloud);
    expect(catalog.cloud).toBe(cloud);
    expect(catalog.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(catalog.sources.length).toBeGreaterThan(0);
    expect(catalog.flavors.length).toBeGreaterThan(10);
  });

  it.each(CloudNames)('%s: every price is > 0, or null / estimated with a note', (cloud) => {
    for (const flavor of loadCatalog(cloud).flavors) {
      for (const price of flavor.prices) {
        for (const value of [price.hourly, price.monthly]) {
          if (value === undefined) continue;
          if (value === null) expect(price.note, `${flavor.name} ${price.region}`).toBeTruthy();
          else expect(value, flavor.name).toBeGreaterThan(0);
        }
        if (price.estimated) expect(price.note, flavor.name).toMatch(/estimated/);
      }
    }
  });

  it.each(CloudNames)('%s: every GPU flavor has a positive GPU count and memory', (cloud) => {
    for (const flavor of loadCatalog(cloud).flavors.filter((f) => f.gpu)) {
      expect(flavor.gpu?.count, flavor.name).toBeGreaterThan(0);
      expect(flavor.gpu?.memoryMiB, flavor.name).toBeGreaterThanOrEqual(8 * 1024);
    }
  });

  it('covers every OVH family in use on MKS', () => {
    const families = new Set(loadCatalog('ovhcloud').flavors.map((f) => f.family));
    for (const f of ['b2', 'b3', 'c2', 'c3', 'r2', 'r3', 'd2', 'i1', 't1', 't2', 'a10', 'a100', 'l4', 'l40s', 'h100', 'rtx5000'])
      expect(families).toContain(f);
  });

  it('keeps the documented OVH prices', () => {
    const byName = new Map(loadCatalog('ovhcloud').flavors.map((f) => [f.name, f.prices[0]]));
    expect(byName.get('b3-8')).toMatchObject({ hourly: 0.0508 });
    expect(byName.get('b2-7')).toMatchObject({ hourly: 0.07, monthly: 24.2 });
    expect(byName.get('l4-90')).toMatchObject({ hourly: 0.75, monthly: 540 });
    expect(byName.get('c2-7')).toMatchObject({ hourly: 0.1, monthly: 35.2 });
    expect(byName.get('t2-45')).toMatchObject({ hourly: 0.8, estimated: true });
  });

  it.each(CloudNames)(
    '%s: every flavor is priced in every region it is offered in, or says why not ("not sold here: …" / "unpriced offline: …")',
    (cloud) => {
      const catalog = loadCatalog(cloud);
      const unexplained: string[] = [];
      for (const region of catalog.regions) {
        for (const type of buildInstanceTypes(catalog, region.name)) {
          if (type.offerings.length > 0) continue;
          const flavor = catalog.flavors.find((f) => f.name === type.name);
          const price = flavor?.prices.find((p) => p.region === region.name || p.region === '*');
          if (!price?.note || !/^(not sold here|unpriced offline): /.test(price.note)) unexplained.push(`${type.name} in ${region.name}`);
        }
      }
      expect(unexplained).toEqual([]);
    },
  );

  it.each([
    ['ovhcloud', 'GRA7', ['t2-45', 't2-90', 't2-180', 'c2-7', 'r2-15', 'd2-8', 'i1-45', 't1-45', 'b3-512', 'c3-256', 'r3-1024']],
    ['ovhcloud', 'GRA11', ['a100-180', 'rtx5000-28', 'a10-180']],
    ['ovhcloud', 'RBX-A', ['b3-8', 'b2-7']],
    ['scaleway', 'fr-par', ['GPU-3070-S']],
  ] as const)('%s %s sells %j with a price', (cloud, region, names) => {
    const types = buildInstanceTypes(loadCatalog(cloud), region);
    for (const name of names) expect(types.find((t) => t.name === name)?.offerings[0]?.pricePerHour, name).toBeGreaterThan(0);
  });

  it.each([
    ['ovhcloud', 'EU-WEST-PAR', ['eu-west-par-a', 'eu-west-par-b', 'eu-west-par-c']],
    ['ovhcloud', 'EU-SOUTH-MIL', ['eu-south-mil-a', 'eu-south-mil-b', 'eu-south-mil-c']],
    ['ovhcloud', 'GRA11', ['gra11-a']],
    ['ovhcloud', 'SBG5', ['sbg5-a']],
    ['scaleway', 'fr-par', ['fr-par-1', 'fr-par-2', 'fr-par-3']],
    ['scaleway', 'nl-ams', ['nl-ams-1', 'nl-ams-2', 'nl-ams-3']],
    ['scaleway', 'pl-waw', ['pl-waw-1', 'pl-waw-2', 'pl-waw-3']],
    ['outscale', 'eu-west-2', ['eu-west-2a', 'eu-west-2b']],
    ['outscale', 'cloudgouv-eu-west-1', ['cloudgouv-eu-west-1a', 'cloudgouv-eu-west-1b', 'cloudgouv-eu-west-1c']],
  ] as const)('%s region %s has zones %j', (cloud, region, zones) => {
    expect(loadCatalog(cloud).regions.find((r) => r.name === region)?.zones).toEqual(zones);
  });

  it('offers Scaleway GPU types only in the zones the sources show', () => {
    const l4 = buildInstanceTypes(loadCatalog('scaleway'), 'fr-par').find((t) => t.name === 'L4-1-24G');
    expect(l4?.offerings.map((o) => o.zone)).toEqual(['fr-par-2']);
    expect(buildInstanceTypes(loadCatalog('scaleway'), 'nl-ams').some((t) => t.gpu)).toBe(false);
  });

  it('names Outscale types with the tina grammar (plus a GPU suffix)', () => {
    for (const f of loadCatalog('outscale').flavors) {
      expect(f.name).toMatch(/^tinav(\d+)\.c(\d+)r(\d+)(p[123])?(-[a-z0-9-]+)?$/);
      const [, gen, cores, ram] = /^tinav(\d+)\.c(\d+)r(\d+)/.exec(f.name) ?? [];
      expect([Number(gen), Number(cores), Number(ram) * 1024]).toEqual([f.generation, f.vcpus, f.memoryMiB]);
    }
  });

  it('derives every Outscale price from CustomCore + CustomRam (+ GPU) and says so', () => {
    const catalog = loadCatalog('outscale');
    expect(catalog.notes?.join(' ')).toMatch(/CustomCore.*CustomRam/);
    const small = catalog.flavors.find((f) => f.name === 'tinav6.c2r4p2');
    const big = catalog.flavors.find((f) => f.name === 'tinav6.c4r8p2');
    const price = (f: typeof small, r: string): number => f?.prices.find((p) => p.region === r)?.hourly ?? NaN;
    // Linear in cores and RAM: doubling both doubles the price.
    expect(price(big, 'eu-west-2')).toBeCloseTo(2 * price(small, 'eu-west-2'), 9);
  });
});

describe('validateCatalog', () => {
  const valid = () => ({
    cloud: 'ovhcloud',
    retrieved: '2026-11-22',
    sources: [
      { title: 'OVHcloud Public Cloud prices', url: 'https://www.ovhcloud.com/en/public-cloud/prices/', date: '2026-11-22' },
    ] as Record<string, unknown>[],
    regions: [{ name: 'GRA11', zones: ['gra11-a'] }],
    flavors: [
      {
        name: 'b3-8',
        family: 'b3',
        generation: 3,
        vcpus: 2,
        memoryMiB: 8192,
        arch: 'amd64',
        regions: ['GRA11'],
        prices: [{ region: '*', hourly: 0.05 }],
      },
    ],
  });

  it('accepts a well-formed file', () => {
    expect(validateCatalog(valid(), 'x.json').flavors[0]?.name).toBe('b3-8');
  });

  it.each([
    [
      'a negative vCPU count',
      (d: ReturnType<typeof valid>) => ((d.flavors[0] as Record<string, unknown>).vcpus = -2),
      /flavor b3-8: field "vcpus"/,
    ],
    [
      'a zero price',
      (d: ReturnType<typeof valid>) => ((d.flavors[0]!.prices[0] as Record<string, unknown>).hourly = 0),
      /flavor b3-8: field "hourly"/,
    ],
    [
      'a null price without a note',
      (d: ReturnType<typeof valid>) => ((d.flavors[0]!.prices[0] as Record<string, unknown>).hourly = null),
      /field "prices\[\]\.note"/,
    ],
    ['an unknown region', (d: ReturnType<typeof valid>) => (d.flavors[0]!.regions = ['XYZ1']), /unknown region XYZ1/],
    [
      'an unknown arch',
      (d: ReturnType<typeof valid>) => ((d.flavors[0] as Record<string, unknown>).arch = 'riscv'),
      /field "arch" must be one of amd64, arm64/,
    ],
    ['a bad date', (d: ReturnType<typeof valid>) => (d.retrieved = 'yesterday'), /field "retrieved"/],
    [
      'a source as a bare string',
      (d: ReturnType<typeof valid>) => (d.sources = ['seed 001' as unknown as Record<string, unknown>]),
      /source #0: field "\(source\)" must be an object/,
    ],
    [
      'a source without a public URL',
      (d: ReturnType<typeof valid>) => (d.sources[0]!.url = 'reference/clouds.md'),
      /source #0: field "url" must be a public https:\/\/ URL/,
    ],
    [
      'a source without a date',
      (d: ReturnType<typeof valid>) => (d.sources[0]!.date = 'recently'),
      /source #0: field "date" must be an ISO date/,
    ],
    ['a duplicate flavor', (d: ReturnType<typeof valid>) => d.flavors.push({ ...d.flavors[0]! }), /listed twice/],
  ])('rejects %s, naming the file, flavor and field', (_what, mutate, message) => {
    const data = valid();
    mutate(data);
    expect(() => validateCatalog(data, 'data/bad.json')).toThrow(CatalogValidationError);
    expect(() => validateCatalog(data, 'data/bad.json')).toThrow(/data\/bad\.json/);
    expect(() => validateCatalog(data, 'data/bad.json')).toThrow(message);
  });
});
