import { describe, expect, it } from 'vitest';
import { fakeInstanceType } from '../../../src/cloudprovider/fake/index.js';
import { InsufficientCapacityError, TransientCloudError } from '../../../src/cloudprovider/errors.js';
import { UnavailableOfferings, UnavailableOfferingsTTLMs, offeringCacheKey } from '../../../src/cloudprovider/unavailable-offerings.js';
import { FakeClock } from '../../../src/util/clock.js';

const b3a = { instanceType: 'b3-8', zone: 'zone-a', capacityType: 'on-demand' };
const b3b = { instanceType: 'b3-8', zone: 'zone-b', capacityType: 'on-demand' };

function setup(): { clock: FakeClock; cache: UnavailableOfferings } {
  const clock = new FakeClock();
  return { clock, cache: new UnavailableOfferings({ clock }) };
}

describe('UnavailableOfferings', () => {
  it('keys entries as <capacityType>:<instanceType>:<zone>', () => {
    expect(offeringCacheKey(b3a)).toBe('on-demand:b3-8:zone-a');
  });

  it('holds a marked offering for 3 minutes of the injected clock, and forgets it right after', () => {
    const { clock, cache } = setup();
    cache.markUnavailable(b3a, 'out of stock');
    expect(UnavailableOfferingsTTLMs).toBe(180_000);
    expect(cache.isUnavailable(b3a)).toBe(true);
    expect(cache.isUnavailable(b3b)).toBe(false);
    expect(cache.reasonFor(b3a)).toBe('out of stock');
    clock.step(UnavailableOfferingsTTLMs);
    expect(cache.isUnavailable(b3a)).toBe(true);
    clock.step(1);
    expect(cache.isUnavailable(b3a)).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('restarts the TTL when an offering is marked again', () => {
    const { clock, cache } = setup();
    cache.markUnavailable(b3a, 'first');
    clock.step(120_000);
    cache.markUnavailable(b3a, 'second');
    clock.step(120_000);
    expect(cache.reasonFor(b3a)).toBe('second');
  });

  it('changes seqNum whenever content changes — mark, delete, flush, expiry — and only then', () => {
    const { clock, cache } = setup();
    const seen = [cache.seqNum];
    const expectChanged = (changed: boolean): void => {
      const now = cache.seqNum;
      expect(now !== seen[seen.length - 1]).toBe(changed);
      seen.push(now);
    };
    expectChanged(false);
    cache.markUnavailable(b3a, 'ice');
    expectChanged(true);
    cache.isUnavailable(b3a);
    expectChanged(false);
    cache.delete(b3b);
    expectChanged(false);
    cache.delete(b3a);
    expectChanged(true);
    cache.markUnavailable(b3b, 'ice');
    expectChanged(true);
    clock.step(UnavailableOfferingsTTLMs + 1);
    expectChanged(true);
    cache.flush();
    expectChanged(false);
    cache.markUnavailable(b3a, 'ice');
    cache.flush();
    expect(cache.seqNum).toBeGreaterThan(seen[seen.length - 1]!);
  });

  it('marks the offerings of an InsufficientCapacityError found in a cause chain', () => {
    const { cache } = setup();
    const ice = new InsufficientCapacityError('creating server: out of stock', [b3a, b3b]);
    expect(cache.markFromError(new Error('launching', { cause: ice }))).toBe(true);
    expect(cache.isUnavailable(b3a) && cache.isUnavailable(b3b)).toBe(true);
    expect(cache.markFromError(new TransientCloudError('503'))).toBe(false);
    expect(cache.size).toBe(2);
  });

  it('marks cached offerings unavailable in instance types without mutating them', () => {
    const { clock, cache } = setup();
    const b3 = fakeInstanceType({ name: 'b3-8', cpu: 2, memoryMiB: 8192, pricePerHour: 0.05, zones: ['zone-a', 'zone-b'] });
    const c3 = fakeInstanceType({ name: 'c3-4', cpu: 2, memoryMiB: 4096, pricePerHour: 0.04, zones: ['zone-a'] });
    expect(cache.applyTo([b3, c3])).toEqual([b3, c3]);
    cache.markUnavailable(b3a, 'ice');
    const [b3After, c3After] = cache.applyTo([b3, c3]);
    expect(b3After?.offerings.map((o) => [o.zone, o.available])).toEqual([
      ['zone-a', false],
      ['zone-b', true],
    ]);
    expect(b3.offerings.every((o) => o.available)).toBe(true);
    expect(c3After).toBe(c3);
    clock.step(UnavailableOfferingsTTLMs + 1);
    expect(cache.applyTo([b3])[0]?.offerings.every((o) => o.available)).toBe(true);
  });

  it('bounds its size, evicting the least recently used', () => {
    const clock = new FakeClock();
    const cache = new UnavailableOfferings({ clock, maxEntries: 2 });
    cache.markUnavailable(b3a, 'ice');
    cache.markUnavailable(b3b, 'ice');
    cache.markUnavailable({ ...b3a, zone: 'zone-c' }, 'ice');
    expect(cache.size).toBe(2);
    expect(cache.isUnavailable(b3a)).toBe(false);
  });
});
