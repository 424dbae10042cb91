import { describe, expect, it } from 'vitest';
import {
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  PermanentCloudError,
  TransientCloudError,
  isTransientCloudError,
} from '../../../src/cloudprovider/errors.js';
import { RetriesExhaustedError, retryTransient } from '../../../src/cloudprovider/retry.js';
import type { BackoffPolicy } from '../../../src/util/backoff.js';
import { FakeClock } from '../../../src/util/clock.js';
import { seededRandom } from '../../../src/util/seeded-random.js';

const policy: BackoffPolicy = { baseDelayMs: 100, maxDelayMs: 10_000, maxAttempts: 4 };

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs `promise` to completion, stepping the fake clock by each announced retry delay. */
async function drive<T>(clock: FakeClock, delays: number[], promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  tracked.catch(() => {});
  for (let guard = 0; !done && guard < 1_000; guard++) {
    await tick();
    if (clock.waiting > 0) clock.step(delays[delays.length - 1] ?? 0);
  }
  return tracked;
}

function failing(errors: Error[], result = 'ok'): { calls: number[]; fn: (attempt: number) => Promise<string> } {
  const calls: number[] = [];
  return {
    calls,
    fn: async (attempt) => {
      calls.push(attempt);
      const next = errors.shift();
      if (next) throw next;
      return result;
    },
  };
}

describe('retryTransient', () => {
  it('retries transient errors until success, waiting full-jitter delays on the clock', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const delays: number[] = [];
    const { calls, fn } = failing([new TransientCloudError('503'), new Error('wrapped', { cause: new TransientCloudError('502') })]);
    const result = await drive(
      clock,
      delays,
      retryTransient('listing servers', fn, { clock, random: seededRandom(1), policy, onRetry: ({ delayMs }) => delays.push(delayMs) }),
    );
    expect(result).toBe('ok');
    expect(calls).toEqual([1, 2, 3]);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeLessThan(100);
    expect(delays[1]).toBeLessThan(200);
    expect(clock.now() - start).toBe(delays[0]! + delays[1]!);
  });

  it('honours Retry-After', async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const delays: number[] = [];
    const { fn } = failing([new TransientCloudError('429', { retryAfterMs: 5_000 })]);
    await drive(
      clock,
      delays,
      retryTransient('scaling pool', fn, { clock, random: () => 0.5, policy, onRetry: ({ delayMs }) => delays.push(delayMs) }),
    );
    expect(delays).toEqual([5_000]);
    expect(clock.now() - start).toBe(5_000);
  });

  it.each([
    ['not found', new NodeClaimNotFoundError('gone')],
    ['capacity', new InsufficientCapacityError('out of stock', [])],
    ['permanent', new PermanentCloudError('400')],
    ['unknown', new Error('boom')],
  ])('does not retry a %s error', async (_label, error) => {
    const clock = new FakeClock();
    const { calls, fn } = failing([error]);
    await expect(retryTransient('creating server', fn, { clock, random: () => 0.5, policy })).rejects.toBe(error);
    expect(calls).toEqual([1]);
  });

  it('gives up after maxAttempts with the last error as cause', async () => {
    const clock = new FakeClock();
    const delays: number[] = [];
    const errors = [1, 2, 3, 4, 5].map((i) => new TransientCloudError(`503 #${i}`));
    const { calls, fn } = failing(errors.slice());
    const error = await drive(
      clock,
      delays,
      retryTransient('listing servers', fn, { clock, random: () => 0.5, policy, onRetry: ({ delayMs }) => delays.push(delayMs) }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect((error as RetriesExhaustedError).attempts).toBe(4);
    expect((error as Error).message).toBe('listing servers: giving up after 4 attempts: 503 #4');
    expect(isTransientCloudError(error)).toBe(true);
    expect(calls).toEqual([1, 2, 3, 4]);
  });

  it('stops waiting at once when aborted', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const { calls, fn } = failing([new TransientCloudError('503'), new TransientCloudError('503')]);
    const pending = retryTransient('listing servers', fn, { clock, random: () => 0.5, policy, signal: controller.signal });
    await tick();
    expect(clock.waiting).toBe(1);
    controller.abort(new Error('shutting down'));
    await expect(pending).rejects.toThrow('shutting down');
    expect(calls).toEqual([1]);
    expect(clock.waiting).toBe(0);
  });

  it('does not call at all when already aborted', async () => {
    const { calls, fn } = failing([]);
    const signal = AbortSignal.abort(new Error('stopped'));
    await expect(retryTransient('x', fn, { clock: new FakeClock(), random: () => 0, policy, signal })).rejects.toThrow('stopped');
    expect(calls).toEqual([]);
  });
});
