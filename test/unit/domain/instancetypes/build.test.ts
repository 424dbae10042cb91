import { describe, expect, it } from 'vitest';
import * as L from '../../../../src/apis/v1/labels.js';
import { loadCatalog } from '../../../../src/catalog/index.js';
import { UnknownRegionError, buildInstanceTypes } from '../../../../src/domain/instancetypes/build.js';

const everyRegion = L.CloudNames.flatMap((cloud) => loadCatalog(cloud).regions.map((r) => [cloud, r.name] as const));
const always = [
  L.LabelInstanceType,
  L.LabelTopologyRegion,
  L.LabelArch,
  L.LabelOS,
  L.LabelCapacityType,
  L.LabelCloud,
  L.LabelInstanceFamily,
  L.LabelInstanceGeneration,
  L.LabelInstanceCPU,
  L.LabelInstanceMemory,
  L.LabelBilling,
];
const gpuLabels = [L.LabelInstanceGPUCount, L.LabelInstanceGPUName, L.LabelInstanceGPUMemory, L.LabelInstanceGPUManufacturer];

describe('buildInstanceTypes', () => {
  it.each(everyRegion)('%s %s: labels, capacity > allocatable > 0, priced offerings in the region zones', (cloud, region) => {
    const catalog = loadCatalog(cloud);
    const zones = catalog.regions.find((r) => r.name === region)!.zones;
    const types = buildInstanceTypes(catalog, region);
    expect(types.length).toBeGreaterThan(0);
    for (const t of types) {
      for (const key of always) expect(t.labels[key], `${t.name} ${key}`).toBeTruthy();
      for (const key of gpuLabels) expect(key in t.labels).toBe(Boolean(t.gpu));
      expect(t.labels[L.LabelCloud]).toBe(cloud);
      expect(t.labels[L.LabelCapacityType]).toBe('on-demand');
      for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
        expect(t.allocatable[r], `${t.name} ${r}`).toBeGreaterThan(0);
        expect(t.allocatable[r]!).toBeLessThan(t.capacity[r]!);
      }
      expect(t.allocatable.pods).toBe(110);
      if (t.gpu) expect(t.capacity[L.ResourceNvidiaGPU]).toBe(t.gpu.count);
      for (const o of t.offerings) {
        expect(zones).toContain(o.zone);
        expect(o.pricePerHour).toBeGreaterThan(0);
        expect(o.capacityType).toBe('on-demand');
      }
      if (t.offerings.length === 0) expect(t.priceNote).toMatch(/price unknown/);
    }
  });

  it('prices OVH b3-8 at the catalog price in every EU-WEST-PAR zone', () => {
    const b38 = buildInstanceTypes(loadCatalog('ovhcloud'), 'EU-WEST-PAR').find((t) => t.name === 'b3-8')!;
    expect(b38.offerings).toEqual(
      ['a', 'b', 'c'].map((z) => ({ zone: `eu-west-par-${z}`, capacityType: 'on-demand', pricePerHour: 0.0508, available: true })),
    );
    expect(b38.priceNote).toBeUndefined();
    expect(b38.labels).toMatchObject({
      [L.LabelInstanceFamily]: 'b3',
      [L.LabelInstanceGeneration]: '3',
      [L.LabelInstanceCPU]: '2',
      [L.LabelInstanceMemory]: '8192',
      [L.LabelBilling]: 'hourly',
    });
  });

  it('estimates an unpriced size from its family and says so', () => {
    const pico = buildInstanceTypes(loadCatalog('scaleway'), 'fr-par').find((t) => t.name === 'PLAY2-PICO')!;
    expect(pico.offerings[0]?.pricePerHour).toBeCloseTo(0.02754 / 2, 6);
    expect(pico.priceNote).toMatch(/scaled from PLAY2-NANO/);
  });

  it('monthly billing keeps only flavors with a monthly plan, at monthly ÷ 730', () => {
    const types = buildInstanceTypes(loadCatalog('ovhcloud'), 'EU-WEST-PAR', { billing: 'monthly' });
    expect(types.some((t) => t.labels[L.LabelInstanceFamily] === 'b3')).toBe(false);
    const b27 = types.find((t) => t.name === 'b2-7')!;
    expect(b27.labels[L.LabelBilling]).toBe('monthly');
    expect(b27.offerings[0]?.pricePerHour).toBeCloseTo(24.2 / 730, 9);
  });

  it('marks offerings the caller reports unavailable', () => {
    const types = buildInstanceTypes(loadCatalog('ovhcloud'), 'EU-WEST-PAR', {
      unavailable: (type, zone) => type === 'b3-8' && zone === 'eu-west-par-b',
    });
    const b38 = types.find((t) => t.name === 'b3-8')!;
    expect(b38.offerings.map((o) => [o.zone, o.available])).toEqual([
      ['eu-west-par-a', true],
      ['eu-west-par-b', false],
      ['eu-west-par-c', true],
    ]);
  });

  it('labels GPU types with the normalised model', () => {
    const l4 = buildInstanceTypes(loadCatalog('scaleway'), 'fr-par').find((t) => t.name === 'L4-1-24G')!;
    expect(l4.labels).toMatchObject({
      [L.LabelInstanceGPUName]: 'l4',
      [L.LabelInstanceGPUCount]: '1',
      [L.LabelInstanceGPUMemory]: '24576',
      [L.LabelInstanceGPUManufacturer]: 'nvidia',
    });
  });

  it('rejects an unknown region, listing the accepted ones', () => {
    expect(() => buildInstanceTypes(loadCatalog('scaleway'), 'us-east-1')).toThrow(UnknownRegionError);
    expect(() => buildInstanceTypes(loadCatalog('scaleway'), 'us-east-1')).toThrow(/"us-east-1".*accepted: fr-par, nl-ams, pl-waw/);
  });
});
