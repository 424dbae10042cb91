/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff and Jitter"): the delay
 * before retry n is uniform in [0, min(maxDelayMs, baseDelayMs · 2^n)). Full jitter spreads a burst of
 * callers that failed together (a 503 from one cloud endpoint) instead of letting them retry in lockstep.
 *
 * Everything that varies is injected — the random source and the clock — so tests replay exact delays.
 */
import type { Clock } from './clock.js';

export interface BackoffPolicy {
  /** The cap of the first retry's delay window. */
  baseDelayMs: number;
  /** No single delay window grows beyond this. */
  maxDelayMs: number;
  /** Total attempts, the first one included (1 means "never retry"). */
  maxAttempts: number;
  /** Give up once this much clock time has passed since the first attempt (no limit when unset). */
  deadlineMs?: number;
}

/** Returns a number in [0, 1), like Math.random. */
export type RandomSource = () => number;

export class InvalidBackoffPolicyError extends Error {
  constructor(field: keyof BackoffPolicy, value: number, accepted: string) {
    super(`validating backoff policy: ${field} is ${value}, accepted: ${accepted}`);
    this.name = 'InvalidBackoffPolicyError';
  }
}

export function validateBackoffPolicy(policy: BackoffPolicy): void {
  if (!(policy.baseDelayMs >= 0)) throw new InvalidBackoffPolicyError('baseDelayMs', policy.baseDelayMs, 'a number >= 0');
  if (!(policy.maxDelayMs >= policy.baseDelayMs)) {
    throw new InvalidBackoffPolicyError('maxDelayMs', policy.maxDelayMs, `a number >= baseDelayMs (${policy.baseDelayMs})`);
  }
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new InvalidBackoffPolicyError('maxAttempts', policy.maxAttempts, 'an integer >= 1');
  }
  if (policy.deadlineMs !== undefined && !(policy.deadlineMs >= 0)) {
    throw new InvalidBackoffPolicyError('deadlineMs', policy.deadlineMs, 'a number >= 0 or unset');
  }
}

/** The upper bound of the delay window before retry number `retry` (0-based). */
export function backoffCeiling(policy: Pick<BackoffPolicy, 'baseDelayMs' | 'maxDelayMs'>, retry: number): number {
  // 2^retry overflows to Infinity for large retry counts; Math.min keeps the cap exact.
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
}

/** A full-jitter delay before retry number `retry` (0-based): uniform in [0, ceiling). */
export function fullJitterDelay(policy: BackoffPolicy, retry: number, random: RandomSource): number {
  return Math.floor(random() * backoffCeiling(policy, retry));
}

/**
 * The delay to wait before the next attempt: the server's Retry-After wins when it is longer than the
 * jittered delay (the server knows when it will accept us again; retrying sooner only earns another 429).
 */
export function nextDelay(policy: BackoffPolicy, retry: number, random: RandomSource, retryAfterMs?: number): number {
  const jittered = fullJitterDelay(policy, retry, random);
  if (retryAfterMs === undefined || !(retryAfterMs > 0)) return jittered;
  return Math.max(jittered, Math.ceil(retryAfterMs));
}

/**
 * A stateful schedule for one operation: call `next()` after each failure; it answers the delay to wait, or
 * undefined when attempts or the deadline are exhausted (a delay that would end past the deadline counts).
 */
export class Backoff {
  private retries = 0;
  private readonly startedAt: number;

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {
    validateBackoffPolicy(policy);
    this.startedAt = clock.now();
  }

  /** Attempts made so far (the first one included), assuming `next()` is called after each failure. */
  get attempts(): number {
    return this.retries + 1;
  }

  next(retryAfterMs?: number): number | undefined {
    if (this.retries + 1 >= this.policy.maxAttempts) return undefined;
    const delay = nextDelay(this.policy, this.retries, this.random, retryAfterMs);
    if (this.policy.deadlineMs !== undefined) {
      const elapsed = this.clock.now() - this.startedAt;
      if (elapsed + delay > this.policy.deadlineMs) return undefined;
    }
    this.retries += 1;
    return delay;
  }
}
