/**
 * The public order catalog (`GET /1.0/order/catalog/public/cloud?ovhSubsidiary=FR`, no authentication) in
 * the shape live pricing code reads: instances are `addons[]` with planCode `<flavor>.consumption` (hourly)
 * or `<flavor>.monthly.postpaid` (gen2 monthly), prices in `pricings[].price` as integers of 1e-8 EUR.
 * Only prices the bundled catalog knows are published (a null price is left out, never invented).
 */
import type { CatalogFile, CatalogFlavor, CatalogPrice } from '../../../catalog/types.js';

const SUBSIDIARIES = [
  'FR',
  'DE',
  'ES',
  'GB',
  'IE',
  'IT',
  'NL',
  'PL',
  'PT',
  'CZ',
  'FI',
  'LT',
  'MA',
  'SN',
  'TN',
  'CA',
  'QC',
  'WE',
  'WS',
  'US',
  'ASIA',
  'AU',
  'SG',
  'IN',
];

export function isKnownSubsidiary(value: string): boolean {
  return SUBSIDIARIES.includes(value);
}

/** EUR → the catalog's integer unit (1e-8 EUR). */
export function toMicroCents(eur: number): number {
  return Math.round(eur * 1e8);
}

function technicalBlob(flavor: CatalogFlavor): Record<string, unknown> {
  const technical: Record<string, unknown> = {
    name: flavor.name,
    cpu: { cores: flavor.vcpus },
    memory: { size: Math.round(flavor.memoryMiB / 1024) },
  };
  if (flavor.localDiskGiB !== undefined) technical.storage = { disks: [{ capacity: flavor.localDiskGiB, technology: 'NVMe' }] };
  if (flavor.gpu) {
    technical.gpu = {
      number: flavor.gpu.count,
      model: flavor.gpu.cloudModel ?? flavor.gpu.name.toUpperCase(),
      memory: { size: Math.round(flavor.gpu.memoryMiB / 1024) },
    };
  }
  return technical;
}

function pricing(price: number, unit: 'hour' | 'month'): Record<string, unknown> {
  const amount = toMicroCents(price);
  return {
    capacities: unit === 'hour' ? ['consumption'] : ['renew'],
    description: unit === 'hour' ? 'Price per hour' : 'Price per month',
    duration: unit === 'hour' ? 'PT1H' : 'P1M',
    interval: 1,
    intervalUnit: unit,
    price: amount,
    priceInUcents: amount,
    tax: 0,
    minimumRepeat: 1,
    maximumRepeat: null,
    minimumQuantity: 1,
    maximumQuantity: null,
    mode: unit === 'hour' ? 'consumption' : 'default',
    phase: 1,
    type: unit === 'hour' ? 'consumption' : 'rental',
  };
}

function addon(flavor: CatalogFlavor, planCode: string, price: number, unit: 'hour' | 'month'): Record<string, unknown> {
  return {
    planCode,
    invoiceName: `${flavor.name} instance`,
    product: `publiccloud-instance-${flavor.name}`,
    pricingType: unit === 'hour' ? 'consumption' : 'rental',
    consumptionConfiguration: null,
    pricings: [pricing(price, unit)],
    configurations: [{ name: 'region', isCustom: false, isMandatory: false, values: [...flavor.regions] }],
    family: 'instance',
    blobs: { technical: technicalBlob(flavor), commercial: { name: flavor.name } },
  };
}

/** The generic (`*`) price of a flavor; region-specific figures are not published under `.consumption`. */
function genericPrice(flavor: CatalogFlavor): CatalogPrice | undefined {
  return flavor.prices.find((p) => p.region === '*') ?? flavor.prices[0];
}

export function orderCatalog(catalog: CatalogFile, subsidiary: string): Record<string, unknown> {
  const addons: Record<string, unknown>[] = [];
  for (const flavor of catalog.flavors) {
    const price = genericPrice(flavor);
    // A price the bundled file only estimates is not one the real catalog is known to publish.
    if (price?.estimated) continue;
    if (typeof price?.hourly === 'number') addons.push(addon(flavor, `${flavor.name}.consumption`, price.hourly, 'hour'));
    if (typeof price?.monthly === 'number') addons.push(addon(flavor, `${flavor.name}.monthly.postpaid`, price.monthly, 'month'));
  }
  return {
    catalogId: 1,
    locale: { currencyCode: 'EUR', subsidiary, taxRate: 20 },
    planFamilies: [{ name: 'default' }],
    plans: [
      {
        planCode: 'project.2018',
        invoiceName: 'Public Cloud Project',
        addonFamilies: [{ name: 'instance', addons: addons.map((a) => a.planCode) }],
      },
    ],
    products: [],
    addons,
  };
}
