/**
 * The region's instance types, read from `products/servers` and `products/servers/availability` of each
 * zone and cached on the injected clock. Prices change rarely, stock often: two TTLs.
 */
import type { CatalogFile } from '../../catalog/types.js';
import type { InstanceType } from '../../domain/instancetypes/types.js';
import type { Clock } from '../../util/clock.js';
import { retryTransient, type RetryOptions } from '../retry.js';
import type { ScalewayApi, ScalewayAvailability, ScalewayServerType } from './api.js';
import { buildScalewayInstanceTypes } from './instancetypes.js';

/** Commercial types and prices: Scaleway changes them a few times a year; an hour keeps calls rare. */
export const ProductsTTLMs = 60 * 60 * 1000;
/**
 * Stock: a minute keeps launches from aiming at a zone in shortage for long, without a call per launch.
 * Refused launches are covered at once by the unavailable-offerings cache.
 */
export const AvailabilityTTLMs = 60 * 1000;

interface Cached<T> {
  value: T;
  expiresAt: number;
}

export interface ScalewayProductsOptions {
  api: ScalewayApi;
  catalog: CatalogFile;
  region: string;
  zones: readonly string[];
  clock: Clock;
  retry: RetryOptions;
}

export class ScalewayProducts {
  private types: Cached<Map<string, ScalewayServerType[]>> | undefined; // zone -> types
  private availability: Cached<Map<string, Record<string, ScalewayAvailability>>> | undefined; // zone -> type -> stock

  constructor(private readonly options: ScalewayProductsOptions) {}

  /** Every instance type of the region with per-zone offerings (prices and stock as last read). */
  async instanceTypes(): Promise<InstanceType[]> {
    const [types, availability] = await Promise.all([this.serverTypes(), this.stock()]);
    const zones = this.options.zones.map((zone) => ({ zone, types: types.get(zone) ?? [], availability: availability.get(zone) ?? {} }));
    return buildScalewayInstanceTypes(this.options.catalog, this.options.region, zones);
  }

  /** Forgets cached stock, e.g. after a launch was refused. */
  invalidateAvailability(): void {
    this.availability = undefined;
  }

  private async serverTypes(): Promise<Map<string, ScalewayServerType[]>> {
    if (this.types && this.options.clock.now() < this.types.expiresAt) return this.types.value;
    const value = await this.perZone((zone) => this.options.api.listServerTypes(zone), 'listing server types');
    this.types = { value, expiresAt: this.options.clock.now() + ProductsTTLMs };
    return value;
  }

  private async stock(): Promise<Map<string, Record<string, ScalewayAvailability>>> {
    if (this.availability && this.options.clock.now() < this.availability.expiresAt) return this.availability.value;
    const value = await this.perZone((zone) => this.options.api.getServerTypesAvailability(zone), 'reading availability');
    this.availability = { value, expiresAt: this.options.clock.now() + AvailabilityTTLMs };
    return value;
  }

  private async perZone<T>(read: (zone: string) => Promise<T>, operation: string): Promise<Map<string, T>> {
    const entries = await Promise.all(
      this.options.zones.map(
        async (zone) => [zone, await retryTransient(`${operation} in ${zone}`, () => read(zone), this.options.retry)] as const,
      ),
    );
    return new Map(entries);
  }
}
