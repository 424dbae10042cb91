/**
 * A bundled catalog brought up to what a cloud answered for one region: the instance types a provider read
 * (flavor API, products/servers, ReadPublicCatalog) replace the file's flavors for that region — a flavor the
 * cloud did not list is no longer offered there, one it listed and the file lacks is added, with the
 * cheapest offering's price. Other regions keep the file's facts. Pure: the catalogs are never mutated.
 */
import {
  type CloudName,
  LabelArch,
  LabelBilling,
  LabelInstanceCPU,
  LabelInstanceFamily,
  LabelInstanceGeneration,
  LabelInstanceMemory,
} from '../../apis/v1/labels.js';
import type { CatalogFile, CatalogFlavor, CatalogPrice, CatalogRegion } from '../../catalog/types.js';
import type { InstanceType } from './types.js';

function livePrice(type: InstanceType, region: string): CatalogPrice {
  const prices = type.offerings.map((o) => o.pricePerHour).filter((p) => p > 0);
  return prices.length > 0
    ? { region, hourly: Math.min(...prices) }
    : { region, hourly: null, note: `unpriced offline: the cloud listed ${type.name} in ${region} without a price` };
}

function flavorFrom(type: InstanceType, region: string): CatalogFlavor {
  const number = (key: string, fallback: number): number => {
    const value = Number(type.labels[key]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  const flavor: CatalogFlavor = {
    name: type.name,
    family: type.labels[LabelInstanceFamily] ?? type.name,
    generation: number(LabelInstanceGeneration, 1),
    vcpus: number(LabelInstanceCPU, Math.max(1, Math.round((type.capacity.cpu ?? 1000) / 1000))),
    memoryMiB: number(LabelInstanceMemory, Math.max(1, Math.round((type.capacity.memory ?? 0) / 1024 ** 2))),
    arch: type.labels[LabelArch] === 'arm64' ? 'arm64' : 'amd64',
    regions: [region],
    prices: [livePrice(type, region)],
    note: `read from the cloud (${region})`,
  };
  if (type.gpu) flavor.gpu = { ...type.gpu };
  return flavor;
}

function withRegion(regions: readonly CatalogRegion[], name: string, types: readonly InstanceType[]): CatalogRegion[] {
  if (regions.some((r) => r.name === name)) return [...regions];
  const zones = [...new Set(types.flatMap((t) => t.offerings.map((o) => o.zone)))].sort();
  return [...regions, { name, zones }];
}

/**
 * The cloud and region whose whole flavor list `types` is, or undefined when it is not one: an empty answer
 * proves nothing (a NodeClass not ready yet), one NodeClass is one cloud and one region, and a list billed
 * other than by the hour holds only the flavors with that plan (OVH monthly billing: gen2 only), not the
 * region's — taking it for the region would deny every other flavor and price them at the monthly rate. The
 * bundled catalog standing in for an unreadable cloud is no answer of the cloud's: the file may be behind it.
 */
export function wholeRegionListOf(types: readonly InstanceType[]): { cloud: CloudName; region: string } | undefined {
  const first = types[0];
  if (!first) return undefined;
  const whole = types.every(
    (t) =>
      t.cloud === first.cloud &&
      t.region === first.region &&
      (t.labels[LabelBilling] ?? 'hourly') === 'hourly' &&
      t.fromBundledCatalog !== true,
  );
  return whole ? { cloud: first.cloud, region: first.region } : undefined;
}

/** The catalog with `region`'s flavors as the cloud listed them. */
export function mergeLiveInstanceTypes(catalog: CatalogFile, region: string, types: readonly InstanceType[]): CatalogFile {
  const live = new Map(types.map((t) => [t.name, t]));
  const flavors: CatalogFlavor[] = catalog.flavors.flatMap((flavor) => {
    const type = live.get(flavor.name);
    if (!type) {
      const regions = flavor.regions.filter((r) => r !== region);
      return regions.length === 0 ? [] : [{ ...flavor, regions }];
    }
    live.delete(flavor.name);
    const regions = flavor.regions.includes(region) ? flavor.regions : [...flavor.regions, region];
    return [{ ...flavor, regions, prices: [livePrice(type, region), ...flavor.prices.filter((p) => p.region !== region)] }];
  });
  for (const type of live.values()) flavors.push(flavorFrom(type, region));
  return { ...catalog, regions: withRegion(catalog.regions, region, types), flavors };
}

/** A region as a cloud lists it; zones when the same answer gives them. */
export interface LiveRegion {
  name: string;
  zones?: readonly string[];
}

/**
 * The catalog with the regions the cloud listed, and only those: a region it did not list does not exist for
 * this account (admission then denies it, naming the listed ones). Zones come from the cloud when it gave
 * them, else from the file; the rest of a region's facts (location) stay the file's.
 */
export function mergeLiveRegions(catalog: CatalogFile, regions: readonly LiveRegion[]): CatalogFile {
  const known = new Map(catalog.regions.map((r) => [r.name.toLowerCase(), r]));
  return {
    ...catalog,
    regions: regions.map((live) => {
      const file = known.get(live.name.toLowerCase());
      return { ...file, name: live.name, zones: live.zones ? [...live.zones] : [...(file?.zones ?? [])] };
    }),
  };
}
