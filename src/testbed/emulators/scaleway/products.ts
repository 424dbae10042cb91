/**
 * `products/servers` and `products/servers/availability` built from the bundled catalog: the same data the
 * live pricing code reads from the real endpoints. Sizes are bytes on the wire; prices EUR per hour.
 */
import type { CatalogFile, CatalogFlavor, CatalogGpu } from '../../../catalog/types.js';
import type { Availability } from './records.js';

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
/** Monthly price on the wire = hourly × 730 (reference B3). */
const HOURS_PER_MONTH = 730;

export interface ZoneCatalog {
  zone: string;
  region: string;
  /** Flavors launchable in this zone, by commercial type. */
  flavors: Map<string, CatalogFlavor>;
}

/** Every zone the catalog knows, with the flavors its region offers. */
export function zoneCatalogs(catalog: CatalogFile): Map<string, ZoneCatalog> {
  const zones = new Map<string, ZoneCatalog>();
  for (const region of catalog.regions) {
    const inRegion = catalog.flavors.filter((f) => f.regions.includes(region.name));
    for (const zone of region.zones) {
      // Flavors listing `zones` (Scaleway GPUs) are launchable only there.
      const flavors = new Map(inRegion.filter((f) => !f.zones || f.zones.includes(zone)).map((f) => [f.name, f]));
      zones.set(zone, { zone, region: region.name, flavors });
    }
  }
  return zones;
}

export function hourlyPrice(flavor: CatalogFlavor, region: string): number | null {
  const price = flavor.prices.find((p) => p.region === region) ?? flavor.prices.find((p) => p.region === '*');
  return price?.hourly ?? null;
}

function gpuDisplayName(gpu: CatalogGpu): string {
  const match = /^rtx(\d+)$/.exec(gpu.name);
  return match ? `RTX ${match[1]}` : gpu.name.toUpperCase();
}

/** The wire shape of one entry of `products/servers` → `servers`. */
export function serverTypeWire(flavor: CatalogFlavor, region: string): Record<string, unknown> {
  const localBytes = (flavor.localDiskGiB ?? 0) * GIB;
  const price = hourlyPrice(flavor, region);
  return {
    alt_names: [],
    arch: flavor.arch === 'arm64' ? 'arm64' : 'x86_64',
    ncpus: flavor.vcpus,
    ram: flavor.memoryMiB * MIB,
    gpu: flavor.gpu?.count ?? 0,
    gpu_info: flavor.gpu
      ? {
          gpu_manufacturer: flavor.gpu.manufacturer.toUpperCase(),
          gpu_name: gpuDisplayName(flavor.gpu),
          gpu_memory: flavor.gpu.memoryMiB * MIB,
        }
      : null,
    mig_profile: null,
    // Unknown prices stay absent rather than invented.
    ...(price === null ? {} : { hourly_price: price, monthly_price: Math.round(price * HOURS_PER_MONTH * 1e6) / 1e6 }),
    volumes_constraint: { min_size: 0, max_size: localBytes },
    per_volume_constraint: { l_ssd: { min_size: localBytes > 0 ? GIB : 0, max_size: localBytes } },
    scratch_storage_max_size: null,
    capabilities: { block_storage: true, boot_types: ['local', 'rescue'], max_file_systems: 0 },
    end_of_service: false,
  };
}

/** Commercial types sorted by name, as the real API pages them. */
export function sortedTypes(zone: ZoneCatalog): CatalogFlavor[] {
  return [...zone.flavors.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Per-zone availability overrides; everything else is `available`. */
export class AvailabilityBoard {
  private readonly overrides = new Map<string, Availability>();

  set(commercialType: string, zone: string, availability: Availability): void {
    this.overrides.set(`${zone}/${commercialType}`, availability);
  }

  get(commercialType: string, zone: string): Availability {
    return this.overrides.get(`${zone}/${commercialType}`) ?? 'available';
  }
}
