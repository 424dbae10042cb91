import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../../src/catalog/index.js';
import type { OvhFlavor } from '../../../../src/cloudprovider/ovhcloud/api.js';
import {
  buildOvhInstanceTypes,
  bundledOvhInstanceTypes,
  familyOf,
  generationOf,
} from '../../../../src/cloudprovider/ovhcloud/instancetypes.js';
import { parseOrderCatalog } from '../../../../src/cloudprovider/ovhcloud/prices.js';
import { formatProviderID, instanceIdOf } from '../../../../src/cloudprovider/ovhcloud/provider-id.js';

const catalog = loadCatalog('ovhcloud');
const flavors: OvhFlavor[] = [
  { name: 'b3-8', category: 'b', state: 'available', vCPUs: 2, gpus: 0, ram: 8 },
  { name: 'b3-16', category: 'b', state: 'unavailable', vCPUs: 4, gpus: 0, ram: 16 },
  { name: 'l4-90', category: 'g', state: 'available', vCPUs: 22, gpus: 1, ram: 90 },
  { name: 'z9-4', category: 'b', state: 'available', vCPUs: 1, gpus: 0, ram: 4 },
];
const prices = new Map([
  ['b3-8', { hourly: 0.06 }],
  ['z9-4', { hourly: 0.01 }],
]);

describe('ovhcloud instance types', () => {
  const types = buildOvhInstanceTypes({ catalog, region: 'EU-WEST-PAR', flavors, prices, billing: 'hourly' });

  it('builds one type per live flavor with offerings in every zone, priced live when the order catalog has it', () => {
    expect(types.map((t) => t.name)).toEqual(['b3-16', 'b3-8', 'l4-90', 'z9-4']);
    const b38 = types.find((t) => t.name === 'b3-8');
    expect(b38?.offerings.map((o) => [o.zone, o.pricePerHour, o.available])).toEqual([
      ['eu-west-par-a', 0.06, true],
      ['eu-west-par-b', 0.06, true],
      ['eu-west-par-c', 0.06, true],
    ]);
    expect(b38?.labels['karpenter-eu.io/instance-memory']).toBe('8192');
    expect(b38?.labels['karpenter-eu.io/instance-family']).toBe('b3');
  });

  it('marks a flavor the API reports unavailable, keeps it listed', () => {
    expect(types.find((t) => t.name === 'b3-16')?.offerings.every((o) => !o.available)).toBe(true);
  });

  it('names GPUs from the catalog and describes an unknown flavor from the API alone', () => {
    expect(types.find((t) => t.name === 'l4-90')?.labels['karpenter-eu.io/instance-gpu-name']).toBe('l4');
    const unknown = types.find((t) => t.name === 'z9-4');
    expect(unknown?.labels['karpenter-eu.io/instance-family']).toBe('z9');
    expect(unknown?.offerings[0]?.pricePerHour).toBe(0.01);
  });

  it.each([
    ['b3-8', 'b3', 3],
    ['b2-7', 'b2', 2],
    ['t1-45', 't1', 1],
    ['h100-380', 'h100', 3],
  ])('family/generation of %s', (name, family, generation) => {
    expect(familyOf(name)).toBe(family);
    expect(generationOf(family)).toBe(generation);
  });

  it('the bundled fallback offers the region’s catalog flavors', () => {
    const bundled = bundledOvhInstanceTypes(catalog, 'GRA11', 'hourly');
    expect(bundled.some((t) => t.name === 'b3-8' && t.offerings[0]?.zone === 'gra11-a')).toBe(true);
  });
});

describe('ovhcloud order catalog and providerIDs', () => {
  it('reads hourly and monthly plans in 1e-8 EUR, ignores other variants', () => {
    const body = {
      addons: [
        { planCode: 'b2-7.consumption', pricings: [{ price: 7_000_000 }] },
        { planCode: 'b2-7.monthly.postpaid', pricings: [{ price: 2_420_000_000 }] },
        { planCode: 'b3-8.consumption.3AZ', pricings: [{ price: 9 }] },
        { planCode: 'snapshot.consumption', pricings: [] },
      ],
    };
    expect([...parseOrderCatalog(body)]).toEqual([['b2-7', { hourly: 0.07, monthly: 24.2 }]]);
    expect(parseOrderCatalog(null).size).toBe(0);
  });

  it.each([
    ['openstack:///1b2c', '1b2c'],
    ['openstack:///', undefined],
    ['openstack:///a/b', undefined],
    ['scaleway://instance/fr-par-1/x', undefined],
  ])('instance id of %s', (providerID, expected) => {
    expect(instanceIdOf(providerID)).toBe(expected);
    if (expected) expect(formatProviderID(expected)).toBe(providerID);
  });
});
