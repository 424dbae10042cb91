/**
 * The live unit prices of the account's region, read from `ReadPublicCatalog` and kept for `refreshMs`.
 * When the catalog cannot be read, the last prices read are kept; before any read succeeds the caller
 * falls back to the bundled catalog (undefined), so pricing trouble never blocks launches.
 */
import type { Clock } from '../../util/clock.js';
import type { OutscaleApi } from './api.js';
import { unitPricesOf, type UnitPrices } from './instancetypes.js';

export const DefaultPriceRefreshMs = 60 * 60_000;
/** After a failed read, wait this long before asking again. */
const RetryAfterFailureMs = 60_000;

export class PriceBook {
  private prices: UnitPrices | undefined;
  private nextReadAt = 0;
  private reading: Promise<UnitPrices | undefined> | undefined;

  constructor(
    private readonly api: Pick<OutscaleApi, 'readPublicCatalog'>,
    private readonly clock: Clock,
    private readonly refreshMs = DefaultPriceRefreshMs,
  ) {}

  /** The current unit prices, or undefined when none could ever be read. */
  async unitPrices(): Promise<UnitPrices | undefined> {
    if (this.clock.now() < this.nextReadAt) return this.prices;
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async read(): Promise<UnitPrices | undefined> {
    try {
      const response = await this.api.readPublicCatalog();
      const prices = unitPricesOf(response.Catalog?.Entries ?? []);
      if (prices.core.size > 0 && prices.ramPerGiB !== undefined) this.prices = prices;
      this.nextReadAt = this.clock.now() + this.refreshMs;
    } catch {
      this.nextReadAt = this.clock.now() + RetryAfterFailureMs;
    }
    return this.prices;
  }
}
