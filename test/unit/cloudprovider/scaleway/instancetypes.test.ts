import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../../src/catalog/index.js';
import type { ScalewayServerType } from '../../../../src/cloudprovider/scaleway/api.js';
import {
  buildScalewayInstanceTypes,
  familyOf,
  isLaunchable,
  restrictToZones,
  type ZoneProducts,
} from '../../../../src/cloudprovider/scaleway/instancetypes.js';
import { launchCandidates, normaliseRequirements, resolveInstanceTypeAlias } from '../../../../src/cloudprovider/scaleway/offerings.js';

const GiB = 2 ** 30;
const catalog = loadCatalog('scaleway');

function type(commercialType: string, over: Partial<ScalewayServerType> = {}): ScalewayServerType {
  return {
    commercialType,
    hourlyPrice: 0.1,
    ncpus: 2,
    ramBytes: 8 * GiB,
    gpuCount: 0,
    arch: 'amd64',
    maxLocalVolumeBytes: 0,
    endOfService: false,
    ...over,
  };
}

describe('Scaleway products → instance types', () => {
  const zones: ZoneProducts[] = [
    {
      zone: 'fr-par-1',
      types: [type('PRO2-S', { hourlyPrice: 0.219, ncpus: 8, ramBytes: 32 * GiB })],
      availability: { 'PRO2-S': 'available' as const },
    },
    {
      zone: 'fr-par-2',
      types: [
        type('PRO2-S', { hourlyPrice: 0.23, ncpus: 8, ramBytes: 32 * GiB }),
        type('L4-1-24G', { hourlyPrice: 0.75, ncpus: 8, ramBytes: 48 * GiB, gpuCount: 1, gpuName: 'L4', gpuMemoryBytes: 24 * GiB }),
      ],
      availability: { 'PRO2-S': 'shortage' as const, 'L4-1-24G': 'scarce' as const },
    },
  ];

  it('one offering per zone listing the type, with that zone’s price and stock', () => {
    const types = buildScalewayInstanceTypes(catalog, 'fr-par', zones);
    expect(types.map((t) => t.name)).toEqual(['L4-1-24G', 'PRO2-S']);
    const pro2 = types.find((t) => t.name === 'PRO2-S');
    expect(pro2?.offerings).toEqual([
      { zone: 'fr-par-1', capacityType: 'on-demand', pricePerHour: 0.219, available: true },
      { zone: 'fr-par-2', capacityType: 'on-demand', pricePerHour: 0.23, available: false },
    ]);
    expect(pro2?.labels['karpenter-eu.io/instance-family']).toBe('PRO2');
    expect(pro2?.capacity['cpu']).toBe(8000);
  });

  it('GPU types carry the normalised GPU labels and the GPU resource', () => {
    const l4 = buildScalewayInstanceTypes(catalog, 'fr-par', zones).find((t) => t.name === 'L4-1-24G');
    expect(l4?.labels['karpenter-eu.io/instance-gpu-name']).toBe('l4');
    expect(l4?.labels['karpenter-eu.io/instance-gpu-count']).toBe('1');
    expect(l4?.capacity['nvidia.com/gpu']).toBe(1);
    expect(l4?.offerings.map((o) => o.available)).toEqual([true]);
  });

  it('a type the catalog does not know is described from the API alone', () => {
    const [future] = buildScalewayInstanceTypes(catalog, 'fr-par', [
      {
        zone: 'fr-par-2',
        types: [
          type('H200-1-141G', {
            hourlyPrice: 4.5,
            ncpus: 24,
            ramBytes: 240 * GiB,
            gpuCount: 1,
            gpuName: 'H200',
            gpuMemoryBytes: 141 * GiB,
          }),
        ],
        availability: {},
      },
    ]);
    expect(future?.labels['karpenter-eu.io/instance-family']).toBe('H200');
    expect(future?.labels['karpenter-eu.io/instance-gpu-name']).toBe('h200');
    expect(future?.offerings).toEqual([{ zone: 'fr-par-2', capacityType: 'on-demand', pricePerHour: 4.5, available: true }]);
  });

  it.each([
    ['PRO2-S', 'PRO2'],
    ['POP2-HC-2C-4G', 'POP2'],
    ['GPU-3070-S', 'GPU'],
    ['DEV1-S', 'DEV1'],
  ])('family of %s is %s', (name, family) => {
    expect(familyOf(name)).toBe(family);
  });

  it.each([
    ['available', true],
    ['scarce', true],
    ['shortage', false],
    [undefined, true],
  ] as const)('availability %s launchable: %s', (a, expected) => {
    expect(isLaunchable(a)).toBe(expected);
  });

  it('restrictToZones keeps only the NodeClass zones', () => {
    const types = restrictToZones(buildScalewayInstanceTypes(catalog, 'fr-par', zones), ['fr-par-1']);
    expect(types.flatMap((t) => t.offerings.map((o) => o.zone))).toEqual(['fr-par-1']);
  });
});

describe('Scaleway launch candidates and GPU aliases (seed 000)', () => {
  it.each([
    ['l4', 'L4-1-24G'],
    ['L40S', 'L40S-1-48G'],
    ['3070', 'GPU-3070-S'],
    ['GPU-L4-S', 'L4-1-24G'],
    ['render', 'RENDER-S'],
    ['h100', 'H100-1-80G'],
    ['PRO2-S', 'PRO2-S'],
  ])('%s → %s', (alias, flavor) => {
    expect(resolveInstanceTypeAlias(alias)).toBe(flavor);
  });

  it('reads the legacy karpenter.sh/instance-type key as the well-known one', () => {
    expect(normaliseRequirements([{ key: 'karpenter.sh/instance-type', operator: 'In', values: ['l4'] }])).toEqual([
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['L4-1-24G'] },
    ]);
  });

  it('a NodeClaim created directly with a GPU requirement gets no CPU type (a label the type lacks is not satisfied)', () => {
    const cpuType = {
      name: 'PRO2-S',
      cloud: 'scaleway' as const,
      region: 'fr-par',
      labels: { 'karpenter-eu.io/instance-gpu-count': '0' },
      capacity: { cpu: 8000 },
      allocatable: { cpu: 8000 },
      offerings: [{ zone: 'fr-par-1', capacityType: 'on-demand' as const, pricePerHour: 0.2, available: true }],
    };
    expect(
      launchCandidates([cpuType], {
        requirements: [{ key: 'karpenter-eu.io/instance-gpu-name', operator: 'In', values: ['l4'] }],
        resources: { requests: { cpu: '1' } },
      }),
    ).toEqual([]);
  });

  const priced = fc.record({
    name: fc.constantFrom('A-1', 'B-2', 'C-3', 'D-4'),
    zone: fc.constantFrom('fr-par-1', 'fr-par-2', 'fr-par-3'),
    price: fc.double({ min: 0.001, max: 10, noNaN: true }),
    available: fc.boolean(),
    cpus: fc.integer({ min: 1, max: 16 }),
  });

  it('candidates are available, fit the requests, match the requirements and come cheapest first', () => {
    fc.assert(
      fc.property(
        fc.array(priced, { maxLength: 12 }),
        fc.constantFrom('fr-par-1', 'fr-par-2'),
        fc.integer({ min: 1, max: 16 }),
        (rows, zone, cpu) => {
          const byName = new Map(rows.map((r) => [r.name, r]));
          const instanceTypes = [...byName.values()].map((r) => ({
            name: r.name,
            cloud: 'scaleway' as const,
            region: 'fr-par',
            labels: {},
            capacity: { cpu: r.cpus * 1000 },
            allocatable: { cpu: r.cpus * 1000 },
            offerings: rows
              .filter((o) => o.name === r.name)
              .map((o) => ({ zone: o.zone, capacityType: 'on-demand' as const, pricePerHour: o.price, available: o.available })),
          }));
          const candidates = launchCandidates(instanceTypes, {
            requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }],
            resources: { requests: { cpu: String(cpu) } },
          });
          for (const c of candidates) {
            expect(c.offering.available).toBe(true);
            expect(c.offering.zone).toBe(zone);
            expect(c.instanceType.allocatable['cpu']).toBeGreaterThanOrEqual(cpu * 1000);
          }
          const prices = candidates.map((c) => c.offering.pricePerHour);
          expect(prices).toEqual([...prices].sort((a, b) => a - b));
          const expected = instanceTypes.flatMap((t) =>
            t.offerings.filter((o) => o.available && o.zone === zone && t.allocatable.cpu >= cpu * 1000),
          ).length;
          expect(candidates).toHaveLength(expected);
        },
      ),
    );
  });
});
