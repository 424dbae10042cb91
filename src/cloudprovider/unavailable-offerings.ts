/**
 * The unavailable-offerings (ICE) cache: offerings a cloud just refused for lack of capacity, kept out of
 * launch decisions for a while so the next launch goes straight to the next cheapest offering instead of
 * hitting the same empty zone again (aws/karpenter-provider-aws `pkg/cache/unavailableofferings.go`).
 * Shared by every provider of the process; `getInstanceTypes` results pass through `applyTo`.
 */
import { LRUCache } from 'lru-cache';
import type { InstanceType, Offering } from '../domain/instancetypes/types.js';
import type { Clock } from '../util/clock.js';
import { findInChain, InsufficientCapacityError, type OfferingKey } from './errors.js';

/**
 * How long a refused offering stays unavailable (it is back once more than this has passed). Stock comes
 * back within minutes on these clouds; a shorter TTL sends launches back into the same empty zone, a longer
 * one leaves capacity unused after it returns.
 * Same value as Karpenter's AWS provider (`UnavailableOfferingsTTL = 3 * time.Minute`).
 * DO NOT CHANGE THIS VALUE WITHOUT DUE CONSIDERATION.
 */
export const UnavailableOfferingsTTLMs = 3 * 60 * 1000;

/** Far more than (instance types × zones) of the three clouds together; bounds memory if a cloud misbehaves. */
const MaxEntries = 10_000;

interface UnavailableEntry {
  reason: string;
  markedAt: number;
}

export interface UnavailableOfferingsOptions {
  clock: Clock;
  ttlMs?: number;
  maxEntries?: number;
}

/** The cache key: `<capacityType>:<instanceType>:<zone>`. */
export function offeringCacheKey(key: OfferingKey): string {
  return `${key.capacityType}:${key.instanceType}:${key.zone}`;
}

export class UnavailableOfferings {
  // key: <capacityType>:<instanceType>:<zone> -> why and when it was marked
  private readonly cache: LRUCache<string, UnavailableEntry>;
  private readonly clock: Clock;
  private sequence = 0;

  constructor(options: UnavailableOfferingsOptions) {
    this.clock = options.clock;
    this.cache = new LRUCache<string, UnavailableEntry>({
      max: options.maxEntries ?? MaxEntries,
      ttl: options.ttlMs ?? UnavailableOfferingsTTLMs,
      // Expiry follows the injected clock (FakeClock in tests); ttlResolution 0 reads it on every check
      // instead of caching it behind a timer, and there is no ttlAutopurge timer either: stale entries are
      // dropped lazily when read.
      perf: { now: () => this.clock.now() },
      ttlResolution: 0,
    });
  }

  /**
   * Changes whenever the content changes — an offering marked, deleted, flushed or expired — so callers can
   * cache their instance-type lists keyed by it.
   */
  get seqNum(): number {
    if (this.cache.purgeStale()) this.sequence += 1;
    return this.sequence;
  }

  markUnavailable(key: OfferingKey, reason: string): void {
    this.cache.set(offeringCacheKey(key), { reason, markedAt: this.clock.now() });
    this.sequence += 1;
  }

  /**
   * Marks the offerings of the InsufficientCapacityError found in `err`'s cause chain; returns whether
   * there was one, so callers can write `if (!cache.markFromError(err)) throw err`.
   */
  markFromError(err: unknown): boolean {
    const ice = findInChain(err, InsufficientCapacityError);
    if (!ice) return false;
    for (const offering of ice.offerings) this.markUnavailable(offering, ice.message);
    return true;
  }

  isUnavailable(key: OfferingKey): boolean {
    return this.cache.has(offeringCacheKey(key));
  }

  /** Why the offering is unavailable, while it is. */
  reasonFor(key: OfferingKey): string | undefined {
    return this.cache.get(offeringCacheKey(key))?.reason;
  }

  delete(key: OfferingKey): void {
    if (this.cache.delete(offeringCacheKey(key))) this.sequence += 1;
  }

  flush(): void {
    if (this.cache.size > 0) this.sequence += 1;
    this.cache.clear();
  }

  /** Live entries, for status and debugging. */
  get size(): number {
    this.cache.purgeStale();
    return this.cache.size;
  }

  /**
   * The instance types with every cached offering marked `available: false`. Types without a cached
   * offering are returned as they are (same object); others are shallow copies — inputs are never mutated.
   */
  applyTo(instanceTypes: readonly InstanceType[]): InstanceType[] {
    if (this.size === 0) return [...instanceTypes];
    return instanceTypes.map((instanceType) => this.applyToInstanceType(instanceType));
  }

  private applyToInstanceType(instanceType: InstanceType): InstanceType {
    let changed = false;
    const offerings = instanceType.offerings.map((offering): Offering => {
      if (!offering.available) return offering;
      const key = { instanceType: instanceType.name, zone: offering.zone, capacityType: offering.capacityType };
      if (!this.isUnavailable(key)) return offering;
      changed = true;
      return { ...offering, available: false };
    });
    return changed ? { ...instanceType, offerings } : instanceType;
  }
}
