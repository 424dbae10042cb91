/**
 * Reads the clouds' region lists for admission (LiveCatalogs.recordRegions): once at start, then on a slow
 * refresh. A cloud whose list cannot be read keeps the bundled regions (unknown ones warn, not deny) and is
 * asked again after a doubling backoff, never in a tight loop. Runs on every replica: all serve admission.
 */
import { backoffCeiling } from '../util/backoff.js';
import { CloudNames, type CloudName } from '../apis/v1/labels.js';
import type { CloudProvider } from '../cloudprovider/types.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { LiveCatalogs } from '../cloudprovider/live-catalogs.js';

export interface RegionListReader {
  provider: Pick<CloudProvider, 'listRegions'>;
  live: LiveCatalogs;
  clock: Clock;
  logger: Logger;
  /** Between two reads that succeeded; default 1 h (clouds add regions rarely). */
  refreshMs?: number;
  /** First wait after a failed read, doubled up to `maxBackoffMs`; defaults 30 s and 10 min. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

const isCloudName = (name: string): name is CloudName => (CloudNames as readonly string[]).includes(name);

/** One read of every cloud's list; resolves with whether every cloud answered. */
export async function readRegionListsOnce(reader: RegionListReader): Promise<boolean> {
  let complete = true;
  try {
    for (const list of (await reader.provider.listRegions?.()) ?? []) {
      if (list.regions && isCloudName(list.cloud)) {
        reader.live.recordRegions(list.cloud, list.regions);
        continue;
      }
      complete = false;
      reader.logger.warn('reading the region list failed; unknown regions are warned about until it is read', {
        cloud: list.cloud,
        error: list.error,
      });
    }
  } catch (error) {
    complete = false;
    reader.logger.warn('reading the region lists failed; unknown regions are warned about until they are read', { error: error as Error });
  }
  return complete;
}

export async function readRegionLists(reader: RegionListReader, signal: AbortSignal): Promise<void> {
  const backoff = { baseDelayMs: reader.backoffMs ?? 30_000, maxDelayMs: reader.maxBackoffMs ?? 600_000 };
  let failures = 0;
  while (!signal.aborted) {
    failures = (await readRegionListsOnce(reader)) ? 0 : failures + 1;
    const wait = failures === 0 ? (reader.refreshMs ?? 3_600_000) : backoffCeiling(backoff, failures - 1);
    await reader.clock.sleep(wait, signal).catch(() => undefined);
  }
}
