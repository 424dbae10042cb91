import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../../src/catalog/index.js';
import type { CatalogFlavor } from '../../../../src/catalog/types.js';
import {
  buildOutscaleInstanceTypes,
  launchShapeOf,
  parseTinaType,
  priceFromUnits,
  unitPricesOf,
} from '../../../../src/cloudprovider/outscale/instancetypes.js';

const entry = (Type: string, UnitPrice: number, Operation = 'RunInstances-OD') => ({ Service: 'TinaOS-FCU', Type, Operation, UnitPrice });
const units = unitPricesOf([
  entry('CustomCore:v5-p2', 0.044),
  entry('CustomCore:v5-p1', 0.05),
  entry('CustomRam', 0.005),
  entry('Gpu:attach:nvidia-v100', 1.2, 'AllocateGpu'),
  entry('Gpu:allocate:nvidia-v100', 1.0, 'AllocateGpu'),
  { Service: 'TinaOS-OOS', Type: 'CustomRam', Operation: 'RunInstances-OD', UnitPrice: 99 },
]);

function flavor(name: string, gpu?: CatalogFlavor['gpu']): CatalogFlavor {
  return {
    name,
    family: 'tinav5',
    generation: 5,
    vcpus: 0,
    memoryMiB: 0,
    arch: 'amd64',
    regions: ['eu-west-2'],
    prices: [],
    ...(gpu ? { gpu } : {}),
  };
}

describe('tina VM types', () => {
  it.each([
    ['tinav5.c2r4p2', { generation: 5, vcores: 2, ramGiB: 4, performance: 2 }],
    ['tinav6.c16r128p1', { generation: 6, vcores: 16, ramGiB: 128, performance: 1 }],
    ['tinav7.c4r8', { generation: 7, vcores: 4, ramGiB: 8, performance: 2 }],
  ])('parses %s', (name, expected) => {
    expect(parseTinaType(name)).toEqual(expected);
  });

  it.each(['t2.small', 'tinav5.c2', 'tinav5.c2r4p2-v100', ''])('does not parse %j', (name) => {
    expect(parseTinaType(name)).toBeUndefined();
  });

  it('a GPU bundle launches its VM type plus flexible GPUs of the VM generation', () => {
    const bundle = flavor('tinav5.c16r128p1-v100x2', {
      count: 2,
      name: 'v100',
      memoryMiB: 16384,
      manufacturer: 'nvidia',
      cloudModel: 'nvidia-v100',
    });
    expect(launchShapeOf(bundle)).toEqual({
      vmType: 'tinav5.c16r128p1',
      flexibleGpu: { modelName: 'nvidia-v100', count: 2, generation: 'v5' },
    });
    expect(launchShapeOf(flavor('tinav5.c2r4p2'))).toEqual({ vmType: 'tinav5.c2r4p2' });
  });
});

describe('prices from ReadPublicCatalog', () => {
  it('reads on-demand core, RAM and attached-GPU unit prices of TinaOS-FCU only', () => {
    expect(units.core.get('v5-p2')).toBe(0.044);
    expect(units.ramPerGiB).toBe(0.005);
    expect(units.gpu.get('nvidia-v100')).toBe(1.2);
  });

  it.each([
    ['tinav5.c2r4p2', undefined, 2 * 0.044 + 4 * 0.005],
    [
      'tinav5.c8r64p1-v100',
      { count: 1, name: 'v100', memoryMiB: 16384, manufacturer: 'nvidia' as const, cloudModel: 'nvidia-v100' },
      8 * 0.05 + 64 * 0.005 + 1.2,
    ],
  ])('%s = cores + RAM + GPUs', (name, gpu, expected) => {
    expect(priceFromUnits(flavor(name, gpu), units)).toBeCloseTo(expected, 6);
  });

  it('is unknown when a unit price it needs is missing', () => {
    expect(priceFromUnits(flavor('tinav6.c2r4p2'), units)).toBeUndefined();
    expect(priceFromUnits(flavor('tinav5.c2r4p2'), unitPricesOf([entry('CustomCore:v5-p2', 0.044)]))).toBeUndefined();
  });
});

describe('buildOutscaleInstanceTypes', () => {
  const catalog = loadCatalog('outscale');

  it('offers every type only in the subregions given, with live prices when known and bundled ones otherwise', () => {
    const live = buildOutscaleInstanceTypes({ catalog, region: 'eu-west-2', subregions: ['eu-west-2b'], unitPrices: units });
    const bundled = buildOutscaleInstanceTypes({ catalog, region: 'eu-west-2', subregions: ['eu-west-2a', 'eu-west-2b'] });
    const small = live.find((t) => t.name === 'tinav5.c2r4p2');
    expect(small?.offerings).toEqual([{ zone: 'eu-west-2b', capacityType: 'on-demand', pricePerHour: 0.108, available: true }]);
    expect(bundled.find((t) => t.name === 'tinav5.c2r4p2')?.offerings.map((o) => o.zone)).toEqual(['eu-west-2a', 'eu-west-2b']);
    expect(live.length).toBe(bundled.length);
  });

  it('keeps a type whose offerings are all unavailable, marked so', () => {
    const types = buildOutscaleInstanceTypes({
      catalog,
      region: 'eu-west-2',
      subregions: ['eu-west-2a'],
      unavailable: (t) => t === 'tinav5.c2r4p2',
    });
    expect(types.find((t) => t.name === 'tinav5.c2r4p2')?.offerings.every((o) => !o.available)).toBe(true);
  });
});
