/**
 * Catalog flavors → Karpenter instance types for one region: well-known labels (DESIGN.md §2), capacity,
 * allocatable (allocatable.ts) and one on-demand offering per zone with its price (pricing.ts).
 */
import {
  CapacityTypeOnDemand,
  LabelArch,
  LabelBilling,
  LabelCapacityType,
  LabelCloud,
  LabelInstanceCPU,
  LabelInstanceFamily,
  LabelInstanceGPUCount,
  LabelInstanceGPUManufacturer,
  LabelInstanceGPUMemory,
  LabelInstanceGPUName,
  LabelInstanceGeneration,
  LabelInstanceMemory,
  LabelInstanceType,
  LabelOS,
  LabelTopologyRegion,
} from '../../apis/v1/labels.js';
import type { CatalogFile, CatalogFlavor, CatalogRegion } from '../../catalog/types.js';
import { nodeAllocatable } from './allocatable.js';
import { type Billing, resolvePrice, supportsBilling } from './pricing.js';
import type { InstanceType, Offering } from './types.js';

export class UnknownRegionError extends Error {
  constructor(
    readonly cloud: string,
    readonly region: string,
    readonly accepted: readonly string[],
  ) {
    super(`building instance types: unknown ${cloud} region "${region}"; accepted: ${accepted.join(', ')}`);
    this.name = 'UnknownRegionError';
  }
}

export interface BuildOptions {
  /** Default hourly. Monthly keeps only flavors with a monthly plan and prices them at monthly ÷ 730. */
  billing?: Billing;
  /** Marks an offering unavailable (out of stock, ICE cache). */
  unavailable?: (instanceType: string, zone: string) => boolean;
}

/** The catalog's region by name (case-insensitive), or an UnknownRegionError listing the accepted ones. */
export function findRegion(catalog: CatalogFile, region: string): CatalogRegion {
  const found = catalog.regions.find((r) => r.name.toLowerCase() === region.toLowerCase());
  if (!found)
    throw new UnknownRegionError(
      catalog.cloud,
      region,
      catalog.regions.map((r) => r.name),
    );
  return found;
}

function labelsOf(catalog: CatalogFile, flavor: CatalogFlavor, region: string, billing: Billing): Record<string, string> {
  const labels: Record<string, string> = {
    [LabelInstanceType]: flavor.name,
    [LabelTopologyRegion]: region,
    [LabelArch]: flavor.arch,
    [LabelOS]: 'linux',
    [LabelCapacityType]: CapacityTypeOnDemand,
    [LabelCloud]: catalog.cloud,
    [LabelInstanceFamily]: flavor.family,
    [LabelInstanceGeneration]: String(flavor.generation),
    [LabelInstanceCPU]: String(flavor.vcpus),
    [LabelInstanceMemory]: String(flavor.memoryMiB),
    [LabelBilling]: billing,
  };
  if (flavor.gpu) {
    labels[LabelInstanceGPUCount] = String(flavor.gpu.count);
    labels[LabelInstanceGPUName] = flavor.gpu.name;
    labels[LabelInstanceGPUMemory] = String(flavor.gpu.memoryMiB);
    labels[LabelInstanceGPUManufacturer] = flavor.gpu.manufacturer;
  }
  return labels;
}

function zonesOf(flavor: CatalogFlavor, region: CatalogRegion): string[] {
  return flavor.zones ? region.zones.filter((z) => flavor.zones?.includes(z)) : [...region.zones];
}

/** One instance type for a flavor in a region, or undefined when the flavor is not sold there that way. */
export function buildInstanceType(
  catalog: CatalogFile,
  flavor: CatalogFlavor,
  region: CatalogRegion,
  options: BuildOptions = {},
): InstanceType | undefined {
  const billing = options.billing ?? 'hourly';
  if (!flavor.regions.includes(region.name) || !supportsBilling(flavor, region.name, billing)) return undefined;
  const zones = zonesOf(flavor, region);
  if (zones.length === 0) return undefined;
  const shape = { vcpus: flavor.vcpus, memoryMiB: flavor.memoryMiB, localDiskGiB: flavor.localDiskGiB, gpuCount: flavor.gpu?.count };
  const { capacity, allocatable } = nodeAllocatable(shape, catalog.cloud);
  const price = resolvePrice(catalog, flavor, region.name, billing);
  const offerings: Offering[] = price
    ? zones.map((zone) => ({
        zone,
        capacityType: 'on-demand',
        pricePerHour: price.pricePerHour,
        available: !(options.unavailable?.(flavor.name, zone) ?? false),
      }))
    : [];
  const instanceType: InstanceType = {
    name: flavor.name,
    cloud: catalog.cloud,
    region: region.name,
    labels: labelsOf(catalog, flavor, region.name, billing),
    capacity,
    allocatable,
    offerings,
  };
  if (flavor.gpu)
    instanceType.gpu = {
      count: flavor.gpu.count,
      name: flavor.gpu.name,
      memoryMiB: flavor.gpu.memoryMiB,
      manufacturer: flavor.gpu.manufacturer,
    };
  if (!price)
    instanceType.priceNote = `price unknown: no ${billing} price for ${flavor.name} or its family in ${region.name}; no offerings`;
  else if (price.note) instanceType.priceNote = price.note;
  return instanceType;
}

/**
 * Every instance type of a catalog in a region, in catalog order. GetInstanceTypes returns types even
 * without available offerings (Karpenter's contract); types with no known price have no offerings at all.
 */
export function buildInstanceTypes(catalog: CatalogFile, region: string, options: BuildOptions = {}): InstanceType[] {
  const found = findRegion(catalog, region);
  return catalog.flavors.flatMap((flavor) => buildInstanceType(catalog, flavor, found, options) ?? []);
}
