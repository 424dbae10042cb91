/**
 * The price of a catalog flavor in a region, per billing mode, as an hourly figure for offerings.
 *
 * - hourly billing: the catalog's hourly price;
 * - monthly billing (OVHcloud gen2 `.monthly.postpaid` plans): the monthly price ÷ 730 hours, the hourly
 *   equivalent of a node kept for the whole month (OVH bills the month whatever the uptime, so this is the
 *   cheapest the node can be; comparing it with hourly prices assumes a node lives the month).
 * - unknown (null) price: estimated from the nearest priced size of the same family, in proportion to size
 *   (GPU count for GPU flavors, memory otherwise — sizes within a family scale both vCPU and memory). The
 *   estimate is flagged; a family with no priced size has no price at all.
 */
import type { CatalogFile, CatalogFlavor } from '../../catalog/types.js';

export type Billing = 'hourly' | 'monthly';
export const HOURS_PER_MONTH = 730;

export interface ResolvedPrice {
  /** EUR per hour (hourly equivalent for monthly billing). */
  pricePerHour: number;
  /** Why the figure is not a catalog price, when it is not. */
  note?: string;
}

interface Listed {
  value: number | null;
  estimated: boolean;
  note?: string;
}

function listedPrice(flavor: CatalogFlavor, region: string, billing: Billing): Listed | undefined {
  const entry = flavor.prices.find((p) => p.region === region) ?? flavor.prices.find((p) => p.region === '*');
  if (!entry) return undefined;
  const flags = { estimated: entry.estimated ?? false, ...(entry.note ? { note: entry.note } : {}) };
  if (billing === 'hourly') return { value: entry.hourly, ...flags };
  if (entry.monthly === undefined) return undefined;
  return { value: entry.monthly === null ? null : entry.monthly / HOURS_PER_MONTH, ...flags };
}

/** True when the flavor can be billed this way in this region (monthly needs a monthly plan). */
export function supportsBilling(flavor: CatalogFlavor, region: string, billing: Billing): boolean {
  return listedPrice(flavor, region, billing) !== undefined;
}

const sizeOf = (f: CatalogFlavor): number => (f.gpu ? f.gpu.count : f.memoryMiB);

/** The price to put on offerings, or undefined when neither the flavor nor its family has one. */
export function resolvePrice(catalog: CatalogFile, flavor: CatalogFlavor, region: string, billing: Billing): ResolvedPrice | undefined {
  const own = listedPrice(flavor, region, billing);
  if (!own) return undefined;
  if (own.value !== null) {
    // An estimated catalog price carries its own derivation in its note (the validator requires one).
    return own.estimated ? { pricePerHour: own.value, note: own.note ?? 'estimated (see the catalog notes)' } : { pricePerHour: own.value };
  }
  let best: { flavor: CatalogFlavor; value: number; distance: number } | undefined;
  for (const sibling of catalog.flavors) {
    if (sibling === flavor || sibling.family !== flavor.family || !sibling.regions.includes(region)) continue;
    if (Boolean(sibling.gpu) !== Boolean(flavor.gpu) || sibling.gpu?.name !== flavor.gpu?.name) continue;
    const price = listedPrice(sibling, region, billing);
    if (!price || price.value === null || price.estimated) continue;
    const distance = Math.abs(Math.log(sizeOf(flavor) / sizeOf(sibling)));
    if (!best || distance < best.distance) best = { flavor: sibling, value: price.value, distance };
  }
  if (!best) return undefined;
  const pricePerHour = Math.round(((best.value * sizeOf(flavor)) / sizeOf(best.flavor)) * 1e6) / 1e6;
  return {
    pricePerHour,
    note: `estimated: ${billing} price not in the catalog, scaled from ${best.flavor.name} by ${flavor.gpu ? 'GPU count' : 'memory'}`,
  };
}
