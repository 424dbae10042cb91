import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Backoff,
  InvalidBackoffPolicyError,
  backoffCeiling,
  fullJitterDelay,
  nextDelay,
  type BackoffPolicy,
} from '../../../src/util/backoff.js';
import { FakeClock } from '../../../src/util/clock.js';
import { seededRandom } from '../../../src/util/seeded-random.js';

const policy: BackoffPolicy = { baseDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 6 };

describe('backoffCeiling', () => {
  it.each([
    [0, 100],
    [1, 200],
    [2, 400],
    [3, 800],
    [4, 1_000],
    [60, 1_000],
    [5_000, 1_000],
  ])('retry %i has a window of %i ms', (retry, ceiling) => {
    expect(backoffCeiling(policy, retry)).toBe(ceiling);
  });
});

describe('fullJitterDelay', () => {
  it('stays in [0, ceiling) for any random value and retry (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (retry, r) => {
        const delay = fullJitterDelay(policy, retry, () => r);
        return delay >= 0 && delay < backoffCeiling(policy, retry) && Number.isInteger(delay);
      }),
    );
  });

  it('replays the same delays from the same seed', () => {
    const run = (): number[] => {
      const random = seededRandom(7);
      return [0, 1, 2, 3, 4].map((retry) => fullJitterDelay(policy, retry, random));
    };
    expect(run()).toEqual(run());
    expect(new Set(run()).size).toBeGreaterThan(1);
  });
});

describe('nextDelay', () => {
  it('waits at least the server’s Retry-After', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 120_000 }), (retry, retryAfterMs) => {
        return nextDelay(policy, retry, () => 0.5, retryAfterMs) >= retryAfterMs;
      }),
    );
  });

  it('keeps the jittered delay when it is longer than Retry-After, and ignores a missing or zero one', () => {
    expect(nextDelay(policy, 3, () => 0.5, 10)).toBe(400);
    expect(nextDelay(policy, 3, () => 0.5, 0)).toBe(400);
    expect(nextDelay(policy, 3, () => 0.5)).toBe(400);
  });
});

describe('Backoff', () => {
  it('gives maxAttempts − 1 delays, then undefined', () => {
    const backoff = new Backoff(policy, new FakeClock(), () => 0.999);
    const delays: (number | undefined)[] = [];
    for (let i = 0; i < policy.maxAttempts; i++) delays.push(backoff.next());
    expect(delays).toEqual([99, 199, 399, 799, 999, undefined]);
    expect(backoff.attempts).toBe(policy.maxAttempts);
  });

  it('stops when the next wait would end past the deadline', () => {
    const clock = new FakeClock();
    const backoff = new Backoff({ ...policy, maxAttempts: 100, deadlineMs: 1_000 }, clock, () => 0.999);
    expect(backoff.next()).toBe(99);
    clock.step(99);
    expect(backoff.next()).toBe(199);
    clock.step(199);
    expect(backoff.next()).toBe(399);
    clock.step(399);
    expect(backoff.next()).toBeUndefined(); // 697 elapsed + 799 > 1000
  });

  it.each([
    [{ baseDelayMs: -1 }, 'baseDelayMs'],
    [{ maxDelayMs: 50 }, 'maxDelayMs'],
    [{ maxAttempts: 0 }, 'maxAttempts'],
    [{ maxAttempts: 1.5 }, 'maxAttempts'],
    [{ deadlineMs: -5 }, 'deadlineMs'],
  ])('rejects an invalid policy %o naming the field', (override, field) => {
    const create = (): Backoff => new Backoff({ ...policy, ...override }, new FakeClock(), Math.random);
    expect(create).toThrow(InvalidBackoffPolicyError);
    expect(create).toThrow(new RegExp(`validating backoff policy: ${field} is .*accepted`));
  });
});
