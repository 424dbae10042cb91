/**
 * Outscale failures → the CloudProvider's error classes (src/cloudprovider/errors.ts). Callers test only for
 * those classes; the Outscale error stays the `cause`, so the code, type and RequestId are never lost.
 */
import {
  IncompleteResponseError,
  InsufficientCapacityError,
  PermanentCloudError,
  QuotaExceededError,
  TransientCloudError,
  type OfferingKey,
} from '../errors.js';
import { OutscaleApiError, OutscaleResponseError, isCapacity, isQuota, isTransient } from './errors.js';

/** OAPI 10xxx codes → the quota they name. */
const QuotaNames: Readonly<Record<string, string>> = { '10010': 'instances', '10029': 'cores', '10030': 'gpu', '10042': 'memory' };

/**
 * The core error for a failed call. `operation` says what was being done ("creating vm for nodeclaim x");
 * `offering` is the launch target, needed to make an out-of-stock answer an InsufficientCapacityError.
 */
export function toCloudError(operation: string, err: unknown, offering?: OfferingKey): Error {
  const message = `${operation}: ${err instanceof Error ? err.message : String(err)}`;
  if (err instanceof OutscaleResponseError && err.status < 300) return new IncompleteResponseError(message, { cause: err });
  if (isTransient(err)) {
    const retryAfterMs = err instanceof OutscaleApiError ? err.retryAfterMs : undefined;
    return new TransientCloudError(message, retryAfterMs === undefined ? { cause: err } : { cause: err, retryAfterMs });
  }
  if (isCapacity(err) && offering) return new InsufficientCapacityError(message, [offering], { cause: err });
  if (isQuota(err)) {
    const quota = err instanceof OutscaleApiError ? QuotaNames[err.code] : undefined;
    return new QuotaExceededError(message, quota === undefined ? { cause: err } : { cause: err, quota });
  }
  return new PermanentCloudError(message, { cause: err });
}
