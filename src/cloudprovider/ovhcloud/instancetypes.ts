/**
 * MKS flavors → Karpenter instance types (pure). `/capabilities/kube/flavors` gives the live list, shape
 * and state; the public order catalog the prices; the bundled catalog what the API does not say (family,
 * generation, normalised GPU name, local disk). A flavor the catalog does not know yet is still offered,
 * described from the API alone. One on-demand offering per zone of the region.
 */
import type { CatalogFile, CatalogFlavor, CatalogGpu, CatalogPrice } from '../../catalog/types.js';
import { buildInstanceType, findRegion } from '../../domain/instancetypes/build.js';
import { gpuOfFlavor } from '../../domain/instancetypes/gpu-mapping.js';
import type { Billing } from '../../domain/instancetypes/pricing.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import type { OvhFlavor, OvhFlavorPrice } from './api.js';

/** `b3-8` → `b3`, `l40s-90` → `l40s`. */
export function familyOf(flavorName: string): string {
  return flavorName.split('-')[0] ?? flavorName;
}

/** The generation digit of a family (`b3` → 3, `t1` → 1); GPU families (`l4`, `h100`) count as 3. */
export function generationOf(family: string): number {
  const match = /^[a-z](\d)$/.exec(family);
  return match ? Number(match[1]) : 3;
}

function gpuFromApi(flavor: OvhFlavor): CatalogGpu | undefined {
  if (flavor.gpus <= 0) return undefined;
  return { count: flavor.gpus, name: gpuOfFlavor('ovhcloud', flavor.name) ?? familyOf(flavor.name), memoryMiB: 0, manufacturer: 'nvidia' };
}

function pricesOf(live: OvhFlavorPrice | undefined, known: CatalogFlavor | undefined, region: string): CatalogPrice[] {
  if (live?.hourly !== undefined)
    return [{ region: '*', hourly: live.hourly, ...(live.monthly !== undefined ? { monthly: live.monthly } : {}) }];
  return known?.prices ?? [{ region, hourly: null, note: 'no price in the public order catalog' }];
}

/** The flavor the builder needs: live shape, catalog naming, live price when the order catalog has one. */
export function flavorOf(
  flavor: OvhFlavor,
  known: CatalogFlavor | undefined,
  region: string,
  price: OvhFlavorPrice | undefined,
): CatalogFlavor {
  const family = known?.family ?? familyOf(flavor.name);
  const gpu = known?.gpu ?? gpuFromApi(flavor);
  return {
    name: flavor.name,
    family,
    generation: known?.generation ?? generationOf(family),
    vcpus: flavor.vCPUs,
    memoryMiB: flavor.ram * 1024,
    arch: known?.arch ?? 'amd64',
    ...(gpu ? { gpu } : {}),
    ...(known?.localDiskGiB !== undefined ? { localDiskGiB: known.localDiskGiB } : {}),
    regions: [region],
    prices: pricesOf(price, known, region),
  };
}

export interface OvhCatalogInput {
  catalog: CatalogFile;
  /** The cluster's region as the API spells it (`EU-WEST-PAR`, `GRA11`). */
  region: string;
  flavors: readonly OvhFlavor[];
  prices: ReadonlyMap<string, OvhFlavorPrice>;
  billing: Billing;
}

/**
 * The instance types of the region, sorted by name: one offering per zone, unavailable where the API
 * reports the flavor `unavailable`. Monthly billing keeps only flavors with a monthly plan.
 */
export function buildOvhInstanceTypes(input: OvhCatalogInput): InstanceType[] {
  const regionEntry = findRegion(input.catalog, input.region);
  const out: InstanceType[] = [];
  for (const live of [...input.flavors].sort((a, b) => a.name.localeCompare(b.name))) {
    const known = input.catalog.flavors.find((f) => f.name === live.name);
    const flavor = flavorOf(live, known, regionEntry.name, input.prices.get(live.name));
    // Catalog siblings stay in the file so a flavor without any price can be estimated from its family.
    const file: CatalogFile = {
      ...input.catalog,
      regions: [regionEntry],
      flavors: [flavor, ...input.catalog.flavors.filter((f) => f.name !== live.name)],
    };
    const built = buildInstanceType(file, flavor, regionEntry, { billing: input.billing, unavailable: () => live.state !== 'available' });
    if (built) out.push(built);
  }
  return out;
}

/** The bundled catalog alone, when the cloud cannot be read: every flavor of the region, all available. */
export function bundledOvhInstanceTypes(catalog: CatalogFile, region: string, billing: Billing): InstanceType[] {
  const regionEntry = findRegion(catalog, region);
  return catalog.flavors
    .filter((f) => f.regions.includes(regionEntry.name))
    .flatMap((f) => buildInstanceType(catalog, f, regionEntry, { billing }) ?? [])
    .map((t): InstanceType => ({ ...t, fromBundledCatalog: true }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
