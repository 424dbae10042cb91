/**
 * Retrying cloud calls: only TransientCloudErrors are retried (a 503, a 429, a timeout); every other error —
 * capacity, quota, not found, permanent — is the answer and is thrown at once. Delays follow
 * `util/backoff.ts` (full jitter, Retry-After honoured) on the injected clock.
 */
import { Backoff, type BackoffPolicy, type RandomSource } from '../util/backoff.js';
import type { Clock } from '../util/clock.js';
import { findInChain, TransientCloudError } from './errors.js';

/**
 * Defaults for one cloud API call: 5 attempts, 200 ms doubling to 10 s, 60 s in all. Long enough to ride
 * out a throttling burst, short enough that a reconcile loop is not parked for minutes.
 */
export const DefaultCloudRetryPolicy: BackoffPolicy = {
  baseDelayMs: 200,
  maxDelayMs: 10_000,
  maxAttempts: 5,
  deadlineMs: 60_000,
};

export interface RetryOptions {
  clock: Clock;
  random: RandomSource;
  policy?: BackoffPolicy;
  signal?: AbortSignal;
  /** Which errors are worth another attempt (default: a TransientCloudError anywhere in the cause chain). */
  isRetryable?: (err: unknown) => boolean;
  /** Called before each wait, e.g. to log or count retries. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/** Attempts made and the last error, when retries are exhausted. */
export class RetriesExhaustedError extends Error {
  readonly attempts: number;

  constructor(operation: string, attempts: number, cause: unknown) {
    super(`${operation}: giving up after ${attempts} attempts: ${describe(cause)}`, { cause });
    this.name = 'RetriesExhaustedError';
    this.attempts = attempts;
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function defaultRetryable(err: unknown): boolean {
  return findInChain(err, TransientCloudError) !== undefined;
}

function retryAfterOf(err: unknown): number | undefined {
  return findInChain(err, TransientCloudError)?.retryAfterMs;
}

/**
 * Runs `fn` until it succeeds, fails with a non-retryable error, or the policy gives up. The final error
 * is a RetriesExhaustedError whose `cause` is the last failure, so `isTransientCloudError` still holds.
 * `operation` names the call in messages ("listing servers"). Aborting the signal stops the wait at once
 * and rejects with the signal's reason.
 */
export async function retryTransient<T>(operation: string, fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const isRetryable = options.isRetryable ?? defaultRetryable;
  const backoff = new Backoff(options.policy ?? DefaultCloudRetryPolicy, options.clock, options.random);
  for (;;) {
    options.signal?.throwIfAborted();
    const attempt = backoff.attempts;
    try {
      return await fn(attempt);
    } catch (error) {
      if (!isRetryable(error)) throw error;
      const delayMs = backoff.next(retryAfterOf(error));
      if (delayMs === undefined) throw new RetriesExhaustedError(operation, attempt, error);
      options.onRetry?.({ attempt, delayMs, error });
      await options.clock.sleep(delayMs, options.signal);
    }
  }
}
