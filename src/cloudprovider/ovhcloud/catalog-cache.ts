/**
 * The live instance types of each account, cached with a TTL: flavors from `/capabilities/kube/flavors`
 * and prices from the public order catalog. When the cloud cannot be read, the bundled catalog answers
 * and a warning says so (the next call tries the cloud again).
 */
import type { CatalogFile } from '../../catalog/types.js';
import type { Billing } from '../../domain/instancetypes/pricing.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import type { Clock } from '../../util/clock.js';
import type { OvhAccount } from './accounts.js';
import type { OvhFlavorPrice } from './api.js';
import type { OvhCaller } from './calls.js';
import { buildOvhInstanceTypes, bundledOvhInstanceTypes } from './instancetypes.js';

/** Flavors and prices change rarely; 5 minutes keeps API calls per reconcile near zero. */
export const DefaultCatalogTTLMs = 5 * 60 * 1000;

export interface CatalogCacheOptions {
  catalog: CatalogFile;
  clock: Clock;
  call: OvhCaller;
  ttlMs?: number;
  /** Order catalog subsidiary (prices in EUR for FR). */
  subsidiary?: string;
  onWarning?: (message: string, fields: Record<string, unknown>) => void;
}

interface Entry<T> {
  at: number;
  value: T;
}

export class OvhCatalogCache {
  private readonly types = new Map<string, Entry<InstanceType[]>>();
  private readonly prices = new Map<string, Entry<ReadonlyMap<string, OvhFlavorPrice>>>();

  constructor(private readonly options: CatalogCacheOptions) {}

  private isFresh(entry: { at: number }): boolean {
    return this.options.clock.now() - entry.at < (this.options.ttlMs ?? DefaultCatalogTTLMs);
  }

  async instanceTypes(account: OvhAccount, billing: Billing): Promise<InstanceType[]> {
    const key = `${account.key}/${account.region}/${billing}`;
    const cached = this.types.get(key);
    if (cached && this.isFresh(cached)) return cached.value;
    try {
      const [flavors, prices] = await Promise.all([
        this.options.call(`listing mks flavors of ${account.region}`, () =>
          account.api.listCapabilityFlavors(account.target.serviceName, account.region),
        ),
        this.pricesOf(account),
      ]);
      const value = buildOvhInstanceTypes({ catalog: this.options.catalog, region: account.region, flavors, prices, billing });
      this.types.set(key, { at: this.options.clock.now(), value });
      return value;
    } catch (error) {
      this.options.onWarning?.('reading the live OVHcloud catalog failed; using the bundled catalog', {
        region: account.region,
        error: String(error),
      });
      return cached?.value ?? bundledOvhInstanceTypes(this.options.catalog, account.region, billing);
    }
  }

  private async pricesOf(account: OvhAccount): Promise<ReadonlyMap<string, OvhFlavorPrice>> {
    const subsidiary = this.options.subsidiary ?? 'FR';
    const cached = this.prices.get(subsidiary);
    if (cached && this.isFresh(cached)) return cached.value;
    const value = await this.options.call('reading the public order catalog', () => account.api.listPrices(subsidiary));
    this.prices.set(subsidiary, { at: this.options.clock.now(), value });
    return value;
  }
}
