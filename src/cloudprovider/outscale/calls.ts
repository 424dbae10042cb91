/**
 * One Outscale call as the provider makes it: failures mapped to the core error classes
 * (error-mapping.ts), transient ones retried with backoff on the injected clock (../retry.ts).
 */
import type { BackoffPolicy, RandomSource } from '../../util/backoff.js';
import type { Clock } from '../../util/clock.js';
import type { OfferingKey } from '../errors.js';
import { retryTransient } from '../retry.js';
import { toCloudError } from './error-mapping.js';

export interface CallPolicy {
  clock: Clock;
  random: RandomSource;
  policy: BackoffPolicy;
}

export type OutscaleCaller = <T>(operation: string, fn: () => Promise<T>, offering?: OfferingKey) => Promise<T>;

export function outscaleCaller(policy: CallPolicy): OutscaleCaller {
  return (operation, fn, offering) =>
    retryTransient(
      operation,
      async () => {
        try {
          return await fn();
        } catch (err) {
          throw toCloudError(operation, err, offering);
        }
      },
      { clock: policy.clock, random: policy.random, policy: policy.policy },
    );
}
