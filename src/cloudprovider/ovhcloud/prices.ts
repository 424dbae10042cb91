/**
 * The public order catalog (`GET /order/catalog/public/cloud?ovhSubsidiary=FR`) → prices by flavor (pure).
 * Instances are `addons[]` with planCode `<flavor>.consumption` (hourly) or `<flavor>.monthly.postpaid`
 * (gen2 monthly billing); `pricings[].price` is an integer in 1e-8 EUR. Other variants (`.3AZ`, `.LZ.*`)
 * are ignored: the plain plan is the reference price.
 */
import type { OvhFlavorPrice } from './api.js';

const PriceUnit = 1e8;
const HourlySuffix = '.consumption';
const MonthlySuffix = '.monthly.postpaid';

interface CatalogAddon {
  planCode?: unknown;
  pricings?: unknown;
}

function firstPrice(pricings: unknown): number | undefined {
  if (!Array.isArray(pricings)) return undefined;
  for (const pricing of pricings as { price?: unknown }[]) {
    if (typeof pricing?.price === 'number' && pricing.price >= 0) return pricing.price / PriceUnit;
  }
  return undefined;
}

function planOf(planCode: string): { flavor: string; billing: keyof OvhFlavorPrice } | undefined {
  if (planCode.endsWith(HourlySuffix)) return { flavor: planCode.slice(0, -HourlySuffix.length), billing: 'hourly' };
  if (planCode.endsWith(MonthlySuffix)) return { flavor: planCode.slice(0, -MonthlySuffix.length), billing: 'monthly' };
  return undefined;
}

/** Prices by flavor name; flavors without an instance plan are absent (never a guessed price). */
export function parseOrderCatalog(body: unknown): Map<string, OvhFlavorPrice> {
  const prices = new Map<string, OvhFlavorPrice>();
  const addons = typeof body === 'object' && body !== null ? (body as { addons?: unknown }).addons : undefined;
  if (!Array.isArray(addons)) return prices;
  for (const addon of addons as CatalogAddon[]) {
    if (typeof addon?.planCode !== 'string') continue;
    const plan = planOf(addon.planCode);
    const price = firstPrice(addon.pricings);
    if (!plan || price === undefined) continue;
    prices.set(plan.flavor, { ...prices.get(plan.flavor), [plan.billing]: price });
  }
  return prices;
}
