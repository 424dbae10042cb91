import { describe, expect, it } from 'vitest';
import { CloudNames, type CloudName } from '../../../src/apis/v1/labels.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import type { CatalogFile } from '../../../src/catalog/types.js';
import type { CloudRegions } from '../../../src/cloudprovider/types.js';
import { LiveCatalogs } from '../../../src/cloudprovider/live-catalogs.js';
import { readRegionLists } from '../../../src/operator/region-lists.js';
import { Relay } from '../../../src/operator/relay.js';
import { FakeClock } from '../../../src/util/clock.js';
import { silentLogger } from '../../../src/util/logger.js';

const bundled = Object.fromEntries(CloudNames.map((c) => [c, loadCatalog(c)])) as Record<CloudName, CatalogFile>;
const flush = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe("reading the clouds' region lists for admission", () => {
  it('records each list that was read, asks again after a doubling backoff for the one that failed, then only on the slow refresh', async () => {
    const clock = new FakeClock();
    const live = new LiveCatalogs(bundled);
    const reads: number[] = [];
    let outscaleUp = false;
    const provider = {
      listRegions: (): Promise<CloudRegions[]> => {
        reads.push(clock.now());
        return Promise.resolve([
          { cloud: 'scaleway', regions: [{ name: 'fr-par', zones: ['fr-par-1'] }] },
          outscaleUp ? { cloud: 'outscale', regions: [{ name: 'eu-west-2' }] } : { cloud: 'outscale', error: new Error('503') },
        ]);
      },
    };
    const stop = new AbortController();
    const loop = readRegionLists(
      { provider, live, clock, logger: silentLogger, backoffMs: 1_000, maxBackoffMs: 3_000, refreshMs: 60_000 },
      stop.signal,
    );
    await flush();
    expect(live.current().liveCatalogs).toEqual({ scaleway: { regionsListed: true, flavorsOf: [] } });
    for (const ms of [1_000, 2_000, 3_000, 3_000]) {
      clock.step(ms);
      await flush();
    }
    expect(reads.map((t) => t - (reads[0] ?? 0))).toEqual([0, 1_000, 3_000, 6_000, 9_000]);
    outscaleUp = true;
    clock.step(3_000);
    await flush();
    expect(live.current().liveCatalogs.outscale).toEqual({ regionsListed: true, flavorsOf: [] });
    expect(live.current().catalogs.outscale?.regions.map((r) => r.name)).toEqual(['eu-west-2']);
    clock.step(59_999);
    await flush();
    expect(reads).toHaveLength(6);
    clock.step(1);
    await flush();
    expect(reads).toHaveLength(7);
    stop.abort();
    await loop;
  });

  it('a provider that throws is retried on the backoff too, and records nothing', async () => {
    const clock = new FakeClock();
    const live = new LiveCatalogs(bundled);
    let calls = 0;
    const provider = { listRegions: (): Promise<CloudRegions[]> => (calls++, Promise.reject(new Error('down'))) };
    const stop = new AbortController();
    const loop = readRegionLists({ provider, live, clock, logger: silentLogger, backoffMs: 1_000 }, stop.signal);
    await flush();
    clock.step(1_000);
    await flush();
    expect(calls).toBe(2);
    expect(live.current().liveCatalogs).toEqual({});
    stop.abort();
    await loop;
  });
});

describe('a new NodeClass while a list is missing', () => {
  it('reads again at once, not after the backoff: the class may carry the first credentials that can read it', async () => {
    const clock = new FakeClock();
    const live = new LiveCatalogs(bundled);
    const wake = new Relay<void>();
    const start = clock.now();
    let credentials = false;
    const reads: number[] = [];
    const provider = {
      listRegions: (): Promise<CloudRegions[]> => {
        reads.push(clock.now() - start);
        return Promise.resolve([
          credentials
            ? { cloud: 'ovhcloud', regions: [{ name: 'GRA7' }] }
            : { cloud: 'ovhcloud', error: new Error('no project to read it with') },
        ]);
      },
    };
    const stop = new AbortController();
    const loop = readRegionLists({ provider, live, clock, logger: silentLogger, backoffMs: 30_000, wake }, stop.signal);
    await flush();
    expect(reads).toEqual([0]);
    credentials = true;
    wake.emit();
    await flush();
    expect(reads).toEqual([0, 0]);
    expect(live.current().liveCatalogs.ovhcloud).toEqual({ regionsListed: true, flavorsOf: [] });
    // Once every list is read, new classes change nothing: the next read is the slow refresh.
    wake.emit();
    await flush();
    expect(reads).toEqual([0, 0]);
    stop.abort();
    await loop;
  });

  it('coalesces a burst of new classes during a read into one more read', async () => {
    const clock = new FakeClock();
    const live = new LiveCatalogs(bundled);
    const wake = new Relay<void>();
    let release: (() => void) | undefined;
    let reads = 0;
    const provider = {
      listRegions: async (): Promise<CloudRegions[]> => {
        reads++;
        await new Promise<void>((resolve) => (release = resolve));
        return [{ cloud: 'ovhcloud', error: new Error('403') }];
      },
    };
    const stop = new AbortController();
    const loop = readRegionLists({ provider, live, clock, logger: silentLogger, backoffMs: 30_000, wake }, stop.signal);
    await flush();
    for (let i = 0; i < 50; i++) wake.emit();
    release?.();
    await flush();
    expect(reads).toBe(2);
    release?.();
    await flush();
    expect(reads).toBe(2);
    stop.abort();
    release?.();
    await loop;
  });
});
