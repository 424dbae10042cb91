/** Every OVH call goes through here: retried while transient (5xx, 429, timeouts), per the retry policy. */
import { retryTransient, type RetryOptions } from '../retry.js';

export type OvhCaller = <T>(operation: string, fn: () => Promise<T>) => Promise<T>;

export function createCaller(retry: RetryOptions): OvhCaller {
  return (operation, fn) => retryTransient(operation, () => fn(), retry);
}
