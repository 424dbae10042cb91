/**
 * The loop of controllers that reconcile everything of a kind on an interval (status writers, finalizers):
 * one pass, a warning when it fails, then sleep until the next one or until `signal` aborts.
 */
import { recordReconcile } from '../metrics/reconcile-context.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';

export interface PollingLoop {
  clock: Clock;
  intervalMs: number;
  logger: Logger;
  /** Logged with the error when a pass fails ("updating nodepool status failed; retrying"). */
  failure: string;
}

export async function reconcileEvery(loop: PollingLoop, reconcile: () => Promise<unknown>, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const started = loop.clock.now();
    try {
      await reconcile();
      recordReconcile('requeue_after', (loop.clock.now() - started) / 1000);
    } catch (error) {
      if (signal.aborted) break;
      recordReconcile('error', (loop.clock.now() - started) / 1000);
      loop.logger.warn(loop.failure, { error: error as Error });
    }
    await loop.clock.sleep(loop.intervalMs, signal).catch(() => undefined);
  }
}
