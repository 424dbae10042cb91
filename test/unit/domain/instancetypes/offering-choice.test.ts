import { describe, expect, it } from 'vitest';
import { normaliseRequirements } from '../../../../src/cloudprovider/scaleway/offerings.js';
import {
  availableOnly,
  compatibleOfferings,
  type InstanceType,
  type OfferingChoiceHooks,
  type OfferingQuery,
  type RequirementSpec,
} from '../../../../src/domain/instancetypes/index.js';

const GpuName = 'karpenter-eu.io/instance-gpu-name';
const GpuCount = 'karpenter-eu.io/instance-gpu-count';
const Zone = 'topology.kubernetes.io/zone';
const Type = 'node.kubernetes.io/instance-type';

type Stock = Record<string, [price: number, available: boolean]>;

function type(cloud: InstanceType['cloud'], name: string, cpu: number, stock: Stock, gpu?: string): InstanceType {
  const labels: Record<string, string> = { [GpuCount]: gpu ? '1' : '0', ...(gpu ? { [GpuName]: gpu } : {}) };
  return {
    name,
    cloud,
    region: 'r',
    labels,
    capacity: { cpu: cpu * 1000 },
    allocatable: { cpu: cpu * 1000 - 100 },
    offerings: Object.entries(stock).map(([zone, [pricePerHour, available]]) => ({
      zone,
      capacityType: 'on-demand' as const,
      pricePerHour,
      available,
    })),
  };
}

// Each cloud's catalog in miniature: one CPU type in stock in one zone only, one dearer CPU type, one GPU type.
const catalogs: Record<string, { types: InstanceType[]; hooks: OfferingChoiceHooks }> = {
  ovhcloud: {
    types: [
      type('ovhcloud', 'b3-8', 2, { a: [0.06, true], b: [0.05, false] }),
      type('ovhcloud', 'b3-32', 8, { a: [0.24, true], b: [0.24, true] }),
      type('ovhcloud', 'l4-90', 22, { a: [1.2, true] }, 'l4'),
    ],
    hooks: {},
  },
  outscale: {
    types: [
      type('outscale', 'tinav5.c2r4p1', 2, { a: [0.06, true], b: [0.05, false] }),
      type('outscale', 'tinav5.c8r32p1', 8, { a: [0.24, true], b: [0.24, true] }),
      type('outscale', 'tinav5.c22r90p1-l4', 22, { a: [1.2, true] }, 'l4'),
    ],
    hooks: {},
  },
  scaleway: {
    types: [
      type('scaleway', 'PRO2-XXS', 2, { a: [0.06, true], b: [0.05, false] }),
      type('scaleway', 'PRO2-M', 8, { a: [0.24, true], b: [0.24, true] }),
      type('scaleway', 'L4-1-24G', 22, { a: [1.2, true] }, 'l4'),
    ],
    hooks: { normaliseRequirements },
  },
};
const [smallest, larger, gpuType] = [0, 1, 2];

const query = (requirements: RequirementSpec[], cpu = '1'): OfferingQuery => ({ requirements, resources: { requests: { cpu } } });

// Offerings as [type index, zone], cheapest first; every cloud must give the same answer.
const cases: [string, RequirementSpec[], string, [number, string][]][] = [
  [
    'no requirement: every fitting offering, out-of-stock ones included, cheapest first',
    [],
    '1',
    [
      [smallest, 'b'],
      [smallest, 'a'],
      [larger, 'a'],
      [larger, 'b'],
      [gpuType, 'a'],
    ],
  ],
  [
    'requests leave out types whose allocatable is too small',
    [],
    '4',
    [
      [larger, 'a'],
      [larger, 'b'],
      [gpuType, 'a'],
    ],
  ],
  [
    'a zone requirement',
    [{ key: Zone, operator: 'In', values: ['b'] }],
    '1',
    [
      [smallest, 'b'],
      [larger, 'b'],
    ],
  ],
  [
    'a GPU name: a type lacking the label is not compatible (a NodeClaim created directly)',
    [{ key: GpuName, operator: 'In', values: ['l4'] }],
    '1',
    [[gpuType, 'a']],
  ],
  ['a GPU name no type has matches nothing', [{ key: GpuName, operator: 'In', values: ['v100'] }], '1', []],
  [
    'DoesNotExist on the GPU name keeps CPU types',
    [{ key: GpuName, operator: 'DoesNotExist' }],
    '1',
    [
      [smallest, 'b'],
      [smallest, 'a'],
      [larger, 'a'],
      [larger, 'b'],
    ],
  ],
  [
    'NotIn on the GPU name keeps types without one',
    [{ key: GpuName, operator: 'NotIn', values: ['l4'] }],
    '1',
    [
      [smallest, 'b'],
      [smallest, 'a'],
      [larger, 'a'],
      [larger, 'b'],
    ],
  ],
  [
    "the NodePool and users' labels constrain no type",
    [
      { key: 'karpenter.sh/nodepool', operator: 'In', values: ['p'] },
      { key: 'team', operator: 'In', values: ['a'] },
    ],
    '16',
    [[gpuType, 'a']],
  ],
  ['a GPU count above zero', [{ key: GpuCount, operator: 'Gt', values: ['0'] }], '1', [[gpuType, 'a']]],
];

describe('offering choice: one rule for OVHcloud, Outscale and Scaleway', () => {
  for (const [cloud, { types, hooks }] of Object.entries(catalogs)) {
    it.each(cases)(`${cloud}: %s`, (_case, requirements, cpu, expected) => {
      const chosen = compatibleOfferings(types, query(requirements, cpu), hooks);
      expect(chosen.map((c) => [types.indexOf(c.instanceType), c.offering.zone])).toEqual(expected);
    });

    it(`${cloud}: the requested type by name; available offerings only when asked`, () => {
      const name = types[larger]?.name ?? '';
      const chosen = compatibleOfferings(types, query([{ key: Type, operator: 'In', values: [name] }]), hooks);
      expect(chosen.map((c) => c.offering.zone)).toEqual(['a', 'b']);
      const pinned = compatibleOfferings(
        types,
        query([
          { key: Type, operator: 'In', values: [types[smallest]?.name ?? ''] },
          { key: Zone, operator: 'In', values: ['b'] },
        ]),
        hooks,
      );
      expect(pinned).toHaveLength(1);
      expect(availableOnly(pinned)).toEqual([]);
    });
  }

  it('equal prices are ordered by type name then zone in code-unit order, whatever the locale', () => {
    const same = (name: string) => type('ovhcloud', name, 4, { b: [0.1, true], a: [0.1, true] });
    const chosen = compatibleOfferings([same('b_1'), same('B-1'), same('a-1')], query([]));
    expect(chosen.map((c) => `${c.instanceType.name}/${c.offering.zone}`)).toEqual(['B-1/a', 'B-1/b', 'a-1/a', 'a-1/b', 'b_1/a', 'b_1/b']);
  });

  it('Scaleway hook: GPU aliases and the legacy instance-type key name commercial types', () => {
    const { types, hooks } = catalogs.scaleway ?? { types: [], hooks: {} };
    for (const requirement of [
      { key: Type, values: ['l4'] },
      { key: 'karpenter.sh/instance-type', values: ['GPU-L4-S'] },
    ]) {
      const chosen = compatibleOfferings(types, query([{ ...requirement, operator: 'In' }]), hooks);
      expect(chosen.map((c) => c.instanceType.name)).toEqual(['L4-1-24G']);
    }
    expect(compatibleOfferings(types, query([{ key: Type, operator: 'In', values: ['l4'] }]))).toEqual([]);
  });
});
