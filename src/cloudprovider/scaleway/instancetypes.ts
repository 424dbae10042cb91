/**
 * Scaleway products → Karpenter instance types (pure). `products/servers` of each zone gives the live
 * shape and price, `products/servers/availability` the stock; the bundled catalog adds what the API does
 * not say (family, generation, normalised GPU name). A type the catalog does not know yet is still
 * offered, described from the API alone, so new commercial types need no release.
 */
import type { CatalogFile, CatalogFlavor, CatalogGpu } from '../../catalog/types.js';
import { buildInstanceType } from '../../domain/instancetypes/build.js';
import { normaliseGpuName } from '../../domain/instancetypes/gpu-mapping.js';
import type { InstanceType, Offering } from '../../domain/instancetypes/types.js';
import type { ScalewayAvailability, ScalewayServerType } from './api.js';

const MiB = 2 ** 20;
const GiB = 2 ** 30;

/** What one zone's product endpoints answered. */
export interface ZoneProducts {
  zone: string;
  types: readonly ScalewayServerType[];
  availability: Readonly<Record<string, ScalewayAvailability>>;
}

/**
 * Whether a zone's stock allows launching: `shortage` means none left. `scarce` still launches (the API
 * accepts creates), so it stays available; a refused create then goes to the unavailable-offerings cache.
 */
export function isLaunchable(availability: ScalewayAvailability | undefined): boolean {
  return availability !== 'shortage';
}

/** `PRO2-S` → `PRO2`, `POP2-HC-2C-4G` → `POP2`, `GPU-3070-S` → `GPU`: the part before the first dash. */
export function familyOf(commercialType: string): string {
  return commercialType.split('-')[0] ?? commercialType;
}

function generationOf(family: string): number {
  const match = /(\d+)$/.exec(family);
  return match ? Number(match[1]) : 1;
}

function gpuFromApi(type: ScalewayServerType): CatalogGpu | undefined {
  if (type.gpuCount <= 0) return undefined;
  const name = type.gpuName ? normaliseGpuName(type.gpuName) : undefined;
  return {
    count: type.gpuCount,
    name: name ?? (type.gpuName ?? 'unknown').toLowerCase().replace(/[^a-z0-9]+/g, ''),
    memoryMiB: Math.round((type.gpuMemoryBytes ?? 0) / MiB),
    manufacturer: 'nvidia',
  };
}

/** The flavor the builder needs: live shape, catalog naming, live price when any zone gave one. */
export function flavorOf(type: ScalewayServerType, known: CatalogFlavor | undefined, region: string, zones: string[]): CatalogFlavor {
  const family = known?.family ?? familyOf(type.commercialType);
  const gpu = known?.gpu ?? gpuFromApi(type);
  const localDiskGiB = type.maxLocalVolumeBytes > 0 ? Math.floor(type.maxLocalVolumeBytes / GiB) : undefined;
  const prices =
    type.hourlyPrice !== undefined
      ? [{ region, hourly: type.hourlyPrice }]
      : (known?.prices ?? [{ region, hourly: null, note: 'no price in products/servers' }]);
  return {
    name: type.commercialType,
    family,
    generation: known?.generation ?? generationOf(family),
    vcpus: type.ncpus,
    memoryMiB: Math.round(type.ramBytes / MiB),
    arch: type.arch,
    ...(gpu ? { gpu } : {}),
    ...(localDiskGiB !== undefined ? { localDiskGiB } : {}),
    regions: [region],
    zones,
    prices,
  };
}

interface TypeInZones {
  first: ScalewayServerType;
  byZone: Map<string, ScalewayServerType>; // zone -> that zone's product entry
}

function groupByType(zones: readonly ZoneProducts[]): Map<string, TypeInZones> {
  const grouped = new Map<string, TypeInZones>();
  for (const zone of zones) {
    for (const type of zone.types) {
      const entry = grouped.get(type.commercialType) ?? { first: type, byZone: new Map() };
      entry.byZone.set(zone.zone, type);
      grouped.set(type.commercialType, entry);
    }
  }
  return grouped;
}

function zoneOfferings(instanceType: InstanceType, entry: TypeInZones, zones: readonly ZoneProducts[]): Offering[] {
  return instanceType.offerings.map((offering) => {
    const zone = zones.find((z) => z.zone === offering.zone);
    const price = entry.byZone.get(offering.zone)?.hourlyPrice ?? offering.pricePerHour;
    const available = offering.available && isLaunchable(zone?.availability[instanceType.name]);
    return { ...offering, pricePerHour: price, available };
  });
}

/**
 * The instance types of a region from its zones' products: one offering per zone listing the type, priced
 * with that zone's hourly price, unavailable where the zone reports a shortage. Sorted by name.
 */
export function buildScalewayInstanceTypes(catalog: CatalogFile, region: string, zones: readonly ZoneProducts[]): InstanceType[] {
  const regionEntry = { name: region, zones: zones.map((z) => z.zone) };
  const out: InstanceType[] = [];
  for (const [name, entry] of [...groupByType(zones)].sort(([a], [b]) => a.localeCompare(b))) {
    const known = catalog.flavors.find((f) => f.name === name);
    const flavor = flavorOf(entry.first, known, region, [...entry.byZone.keys()]);
    // Catalog siblings stay in the file so a type without any price can be estimated from its family.
    const file: CatalogFile = { ...catalog, regions: [regionEntry], flavors: [flavor, ...catalog.flavors.filter((f) => f.name !== name)] };
    const built = buildInstanceType(file, flavor, regionEntry);
    if (built) out.push({ ...built, offerings: zoneOfferings(built, entry, zones) });
  }
  return out;
}

/** Keeps only the offerings in `zones` (a NodeClass's zones). */
export function restrictToZones(instanceTypes: readonly InstanceType[], zones: readonly string[]): InstanceType[] {
  return instanceTypes.map((it) => ({ ...it, offerings: it.offerings.filter((o) => zones.includes(o.zone)) }));
}
