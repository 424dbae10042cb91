// createServer has no idempotency key: a create whose outcome is unknown (the process killed after the call,
// or its reply lost) must not be followed by a second create while the listing may still hide the first server.
import { afterEach, describe, expect, it } from 'vitest';
import { findInChain, CreatePendingError, isNodeClaimNotFoundError, isTransientCloudError } from '../../../src/cloudprovider/errors.js';
import { DefaultListingConsistencyWindowMs } from '../../../src/cloudprovider/scaleway/index.js';
import { startTestbed, type Testbed } from './scaleway-testbed.js';

const ListingLagMs = 30_000;
const pin = [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['DEV1-S'] },
  { key: 'topology.kubernetes.io/zone', operator: 'In' as const, values: ['fr-par-1'] },
];

const isCreateServer = (input: Parameters<typeof fetch>[0], init?: RequestInit): boolean => {
  const request = input instanceof Request ? input : undefined;
  const method = request?.method ?? init?.method;
  const url = request?.url ?? String(input);
  return method === 'POST' && /\/servers$/.test(new URL(url).pathname);
};

/** A process that dies right after createServer reached the cloud: from then on none of its calls get through. */
function killAfterCreate(state: { dead: boolean; armed: boolean }) {
  return (base: typeof fetch): typeof fetch =>
    async (input, init) => {
      if (state.dead) throw new TypeError('fetch failed: the process is gone');
      const response = await base(input, init);
      if (state.armed && isCreateServer(input, init)) {
        state.armed = false;
        state.dead = true;
        throw new TypeError('fetch failed: the process is gone');
      }
      return response;
    };
}

/** The only failure allowed: the server just made is not readable yet (its reads lag too). */
function notVisibleYet(error: unknown): void {
  if (
    !(error instanceof Error) ||
    findInChain(error, CreatePendingError) ||
    !isTransientCloudError(error) ||
    !/not visible yet/.test(error.message)
  )
    throw error;
}

async function pending(promise: Promise<unknown>): Promise<CreatePendingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  const found = findInChain(error, CreatePendingError);
  if (!found) throw new Error(`expected the create to wait for the listing, got ${String(error)}`);
  return found;
}

describe('Scaleway provider: no second server while the listing lags', () => {
  let bed: Testbed;
  afterEach(async () => bed?.close());

  it('killed after createServer during a 30 s listing lag: the resumed create waits for the listing and finishes the one server', async () => {
    const process = { dead: false, armed: true };
    bed = await startTestbed({ emulator: { consistencyDelayMs: ListingLagMs }, wrapFetch: killAfterCreate(process) });
    const nodeClaim = bed.nodeClaim('killed-after-create', pin);
    await bed.provider.create(nodeClaim).catch(() => undefined);
    expect(bed.emulator.state().instances).toHaveLength(1);

    process.dead = false;
    const restarted = bed.restart();
    const waiting = await pending(restarted.create(nodeClaim));
    expect(waiting.message).toMatch(/killed-after-create/);
    expect(waiting.retryAfterMs).toBeGreaterThan(0);
    expect(bed.emulator.state().instances).toHaveLength(1);

    bed.clock.step(ListingLagMs);
    const launched = await restarted.create(nodeClaim);
    const instances = bed.emulator.state().instances;
    expect(instances.map((i) => i.providerID)).toEqual([launched.providerID]);
    expect(instances[0]?.state).toBe('starting');
  });

  it('killed after createServer during a 30 s listing lag: deleting the NodeClaim waits for the listing and removes the server, not "gone"', async () => {
    const process = { dead: false, armed: true };
    bed = await startTestbed({ emulator: { consistencyDelayMs: ListingLagMs }, wrapFetch: killAfterCreate(process) });
    const nodeClaim = bed.nodeClaim('deleted-while-unlisted', pin);
    await bed.provider.create(nodeClaim).catch(() => undefined);
    process.dead = false;

    const early = await bed
      .restart()
      .delete(nodeClaim)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isNodeClaimNotFoundError(early)).toBe(false);
    expect(isTransientCloudError(early)).toBe(true);

    bed.clock.step(ListingLagMs);
    await bed.restart().delete(nodeClaim);
    bed.settle();
    expect(bed.emulator.state().instances).toHaveLength(0);
  });

  it('a lost createServer reply in one process during a 30 s listing lag: retries wait for the listing, one server in the end', async () => {
    let lost = false;
    bed = await startTestbed({
      emulator: { consistencyDelayMs: ListingLagMs },
      wrapFetch: (base) => async (input, init) => {
        const response = await base(input, init);
        if (!lost && isCreateServer(input, init)) {
          lost = true;
          throw new TypeError('fetch failed: connection reset');
        }
        return response;
      },
    });
    const nodeClaim = bed.nodeClaim('lost-reply', pin);
    await bed.provider.create(nodeClaim).catch(() => undefined);
    await pending(bed.provider.create(nodeClaim));
    expect(bed.emulator.state().instances).toHaveLength(1);

    bed.clock.step(ListingLagMs);
    const launched = await bed.provider.create(nodeClaim);
    expect(bed.emulator.state().instances.map((i) => i.providerID)).toEqual([launched.providerID]);
  });

  it('a create that never reached the cloud is made once the consistency window has passed, not before', async () => {
    let dropped = false;
    bed = await startTestbed({
      emulator: { consistencyDelayMs: ListingLagMs },
      wrapFetch: (base) => async (input, init) => {
        if (!dropped && isCreateServer(input, init)) {
          dropped = true;
          throw new TypeError('fetch failed: connection reset');
        }
        return base(input, init);
      },
    });
    const nodeClaim = bed.nodeClaim('dropped', pin);
    await bed.provider.create(nodeClaim).catch(() => undefined);
    bed.clock.step(DefaultListingConsistencyWindowMs - 1_000);
    const waiting = await pending(bed.restart().create(nodeClaim));
    expect(waiting.retryAfterMs).toBeLessThanOrEqual(1_000);
    expect(bed.emulator.state().instances).toHaveLength(0);

    bed.clock.step(1_000);
    // Created now; the new server's own reads still lag, which is "not visible yet", not a reason to create again.
    await bed.restart().create(nodeClaim).catch(notVisibleYet);
    expect(bed.emulator.state().instances).toHaveLength(1);
  });

  it('a first attempt never waits: the attempt is recorded before createServer and the launch goes straight on', async () => {
    bed = await startTestbed();
    bed.clock.step(1_000);
    const launched = await bed.provider.create(bed.nodeClaim('first', pin));
    expect(bed.createAttempts).toEqual([{ name: 'first', at: bed.clock.now(), createCallsBefore: 0 }]);
    expect(bed.emulator.state().instances.map((i) => i.providerID)).toEqual([launched.providerID]);
  });

  it('a create refused with 429 is retried at once: the API answered, so no server was made', async () => {
    bed = await startTestbed({ emulator: { consistencyDelayMs: ListingLagMs } });
    bed.emulator.faults.add({ match: { action: 'createServer' }, fault: { kind: 'throttle', retryAfterSeconds: 0 }, times: 1 });
    await bed.provider.create(bed.nodeClaim('throttled', pin)).catch(notVisibleYet);
    expect(bed.emulator.calls.records.filter((r) => r.action === 'createServer')).toHaveLength(2);
    expect(bed.emulator.state().instances).toHaveLength(1);
  });
});
