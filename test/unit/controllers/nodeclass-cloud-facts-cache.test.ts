import { describe, expect, it } from 'vitest';
import { CloudFactsCache } from '../../../src/controllers/nodeclass/cloud-facts-cache.js';
import type { NodeClassCloudFacts } from '../../../src/domain/nodeclass/cloud-facts.js';
import { FakeClock } from '../../../src/util/clock.js';

const timing = { refreshMs: 300_000, backoffMs: 30_000, maxBackoffMs: 120_000 };
const facts: NodeClassCloudFacts = { securityGroups: [{ field: 'spec.securityGroupIds[0]', id: 'sg-1', found: { name: 'w' } }] };

describe("the status controller's cache of what the cloud said", () => {
  it('asks the cloud once per class per refresh, whatever the number of passes, and again when what is asked changes', async () => {
    const clock = new FakeClock();
    let calls = 0;
    const cache = new CloudFactsCache(() => (calls++, Promise.resolve(facts)), clock, timing);
    for (let pass = 0; pass < 60; pass++) {
      expect(await cache.get('OutscaleNodeClass', 'a', '1', () => undefined)).toEqual(facts);
      clock.step(4_999);
    }
    expect(calls).toBe(1);
    clock.step(60); // 5 minutes since the read
    await cache.get('OutscaleNodeClass', 'a', '1', () => undefined);
    expect(calls).toBe(2);
    await cache.get('OutscaleNodeClass', 'a', '2', () => undefined);
    expect(calls).toBe(3);
  });

  it('after a failure answers unknown and asks again only after a doubling backoff, capped', async () => {
    const clock = new FakeClock();
    const asked: number[] = [];
    const errors: unknown[] = [];
    const cache = new CloudFactsCache(() => (asked.push(clock.now()), Promise.reject(new Error('503'))), clock, timing);
    const start = clock.now();
    for (let s = 0; s <= 400; s++) {
      expect(await cache.get('OutscaleNodeClass', 'a', '1', (e) => errors.push(e))).toBe('unknown');
      clock.step(1_000);
    }
    expect(asked.map((t) => (t - start) / 1_000)).toEqual([0, 30, 90, 210, 330]);
    expect(errors).toHaveLength(5);
  });

  it('forgets classes that are gone', async () => {
    const clock = new FakeClock();
    let calls = 0;
    const cache = new CloudFactsCache(() => (calls++, Promise.resolve(facts)), clock, timing);
    await cache.get('OutscaleNodeClass', 'a', '1', () => undefined);
    cache.keepOnly(new Set());
    await cache.get('OutscaleNodeClass', 'a', '1', () => undefined);
    expect(calls).toBe(2);
  });
});
