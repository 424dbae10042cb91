/**
 * Reads the clouds' region lists for admission (LiveCatalogs.recordRegions): once at start, then on a slow
 * refresh. A cloud whose list cannot be read keeps the bundled regions (unknown ones warn, not deny) and is
 * asked again after a doubling backoff, never in a tight loop — or at once when a NodeClass appears, since its
 * credentials may be the first that can read it (most OVH installs have no operator-wide project). Runs on every
 * replica: all serve admission.
 */
import { backoffCeiling } from '../util/backoff.js';
import { CloudNames, type CloudName } from '../apis/v1/labels.js';
import type { CloudProvider } from '../cloudprovider/types.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { LiveCatalogs } from '../cloudprovider/live-catalogs.js';
import type { KubernetesObject } from '@kubernetes/client-node';
import { NodeClassKinds } from '../domain/scheduling/manifest-input.js';
import { Relay } from './relay.js';

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
  /** Notices that a NodeClass appeared: while a list is missing, each cuts the wait short (coalesced). */
  wake?: { subscribe(listener: () => void): () => void };
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
  let woken = false;
  let reading = false;
  let cutWait: (() => void) | undefined;
  const unsubscribe = reader.wake?.subscribe(() => {
    // A read in flight may have started before the class: it counts as not having seen it.
    if (!reading && failures === 0) return;
    woken = true;
    cutWait?.();
  });
  try {
    while (!signal.aborted) {
      woken = false;
      reading = true;
      failures = (await readRegionListsOnce(reader)) ? 0 : failures + 1;
      reading = false;
      if (failures > 0 && woken) continue;
      const wait = failures === 0 ? (reader.refreshMs ?? 3_600_000) : backoffCeiling(backoff, failures - 1);
      await sleepUnlessWoken(reader.clock, wait, signal, (cut) => (cutWait = cut));
      cutWait = undefined;
    }
  } finally {
    unsubscribe?.();
  }
}

/** The clock's sleep, ended early by the function handed to `onCut` or by `signal`. */
async function sleepUnlessWoken(clock: Clock, ms: number, signal: AbortSignal, onCut: (cut: () => void) => void): Promise<void> {
  const cut = new AbortController();
  const abort = (): void => cut.abort();
  signal.addEventListener('abort', abort, { once: true });
  onCut(abort);
  await clock.sleep(ms, cut.signal).catch(() => undefined);
  signal.removeEventListener('abort', abort);
}

/** Emits once per NodeClass (by uid) the informers report, whatever the later updates or relists. */
export class NewNodeClassNotice extends Relay<void> {
  private readonly seen = new Set<string>();

  observe(kind: string, object: KubernetesObject): void {
    const uid = object.metadata?.uid ?? `${kind}/${object.metadata?.name ?? ''}`;
    if (!NodeClassKinds.includes(kind) || this.seen.has(uid)) return;
    this.seen.add(uid);
    this.emit();
  }
}
