// Duplicates made when the cloud's listing lags longer than the launch waits for it: a restarted operator does
// not see the server the first one created for a NodeClaim and, once the listing-consistency window has passed,
// creates another. The NodeClaim records one of them; the other carries the same NodeClaim name. It must be
// collected as leaked once past the grace period (it used to count as owned because it carries a live NodeClaim's name).
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../src/apis/v1/nodeclaim.js';
import { createGarbageCollectionController } from '../../../src/controllers/nodeclaim/garbagecollection/garbage-collection-controller.js';
import { DefaultListingConsistencyWindowMs } from '../../../src/cloudprovider/scaleway/index.js';
import { Resources } from '../../../src/kube/index.js';
import type { FakeClock } from '../../../src/util/clock.js';
import { liveServers, startTestbed, type Testbed } from '../../wire/cloudprovider/scaleway-testbed.js';
import { nodeClaimManifest, startTerminationBed, type TerminationBed } from '../termination/termination-bed.js';

let bed: TerminationBed | undefined;
let scw: Testbed | undefined;
afterEach(async () => {
  await scw?.close();
  await bed?.close();
  bed = undefined;
  scw = undefined;
});

const pin = [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['DEV1-S'] },
  { key: 'topology.kubernetes.io/zone', operator: 'In' as const, values: ['fr-par-1'] },
];

/** Steps the shared clock while `promise` runs (the restarted launch waits for its server to become visible). */
async function drive<T>(clock: FakeClock, promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => (done = true));
  for (let i = 0; i < 200 && !done; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    clock.step(1_000);
  }
  return tracked;
}

/** Longer than the window a launch waits for the listing: the one case a second server can still be made. */
const ListingLagMs = DefaultListingConsistencyWindowMs + 30_000;

/**
 * One server from the first operator, whose launch fails while its server is still invisible (it is killed
 * there: the providerID is never written), one from its restarted self, which once the window has passed still
 * cannot see the first server.
 */
async function launchTwice(b: TerminationBed, s: Testbed, name: string): Promise<string> {
  const nodeClaim = s.nodeClaim(name, pin);
  await b.kube.create<NodeClaim>(Resources.NodeClaim, nodeClaimManifest(name));
  await expect(s.provider.create(nodeClaim)).rejects.toThrow(/not visible yet/);
  b.clock.step(DefaultListingConsistencyWindowMs);
  const patient = { baseDelayMs: 2_000, maxDelayMs: 2_000, maxAttempts: 150 };
  const recorded = await drive(b.clock, s.restartedProvider(patient).create(nodeClaim));
  await b.kube.patch(
    Resources.NodeClaim,
    { name },
    { type: 'merge', body: { status: { providerID: recorded.providerID } } },
    { status: true },
  );
  return recorded.providerID;
}

describe('garbage collection of duplicates', () => {
  it(
    'collects the extra servers 2 NodeClaims got under a Scaleway listing lag longer than the launch waits, and keeps the recorded ones',
    { timeout: 30_000 },
    async () => {
      const b = (bed = await startTerminationBed());
      const s = (scw = await startTestbed({ clock: b.clock, emulator: { consistencyDelayMs: ListingLagMs } }));
      const recorded = [await launchTwice(b, s, 'web-a'), await launchTwice(b, s, 'web-b')];
      expect(liveServers(s.emulator)).toHaveLength(4);

      const gc = createGarbageCollectionController({
        kube: b.kube,
        state: b.state,
        cloudProvider: s.provider,
        clock: b.clock,
        logger: b.logger,
        metrics: b.metrics,
        events: b.events,
        options: { gracePeriodMs: 30_000 },
      });
      const deleted: string[] = [];
      for (let pass = 0; pass < 5; pass++) {
        // 50 s of passes, 10 s apart
        b.clock.step(10_000);
        const report = await gc.reconcileOnce();
        expect(report.skipped).toBeUndefined();
        expect(report.nodeClaimsDeleted).toEqual([]);
        deleted.push(...report.instancesDeleted);
      }
      expect(deleted).toHaveLength(2);
      expect(deleted.some((id) => recorded.includes(id))).toBe(false);
      s.settle();
      const left = liveServers(s.emulator)
        .map((i) => `scaleway://instance/${i.zone}/${i.id}`)
        .sort();
      expect(left).toEqual([...recorded].sort());
    },
  );
});
