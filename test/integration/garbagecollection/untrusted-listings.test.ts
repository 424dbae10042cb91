// Garbage collection on the simulated cluster with the real Outscale provider and emulator: a ReadVms that
// answers HTTP 200 with an empty body or `{}` must not be read as "no VMs". Before, two such passes removed
// the NodeClaim of a launched VM whose Node was not Ready, and termination then deleted the VM.
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../src/apis/v1/nodeclaim.js';
import { createGarbageCollectionController } from '../../../src/controllers/nodeclaim/garbagecollection/garbage-collection-controller.js';
import { isKubeNotFound, Resources } from '../../../src/kube/index.js';
import type { Fault } from '../../../src/testbed/emulators/faults.js';
import { startOutscaleTestbed, type OutscaleTestbed } from '../../wire/cloudprovider/outscale-testbed.js';
import type { CloudNodeClaim } from '../../../src/cloudprovider/types.js';
import {
  launchNodeClaim,
  metricValue,
  nodeClaimManifest,
  startTerminationBed,
  type TerminationBed,
} from '../termination/termination-bed.js';

let bed: TerminationBed | undefined;
let osc: OutscaleTestbed | undefined;
afterEach(async () => {
  await osc?.close();
  await bed?.close();
  bed = undefined;
  osc = undefined;
});

/** A NodeClaim that launched an Outscale VM; its Node never became Ready (none registered). */
async function launchedNotReady(b: TerminationBed, o: OutscaleTestbed, name: string): Promise<string> {
  const launched = await o.provider.create(o.nodeClaim(name));
  await b.kube.create<NodeClaim>(Resources.NodeClaim, nodeClaimManifest(name));
  await b.kube.patch(
    Resources.NodeClaim,
    { name },
    { type: 'merge', body: { status: { providerID: launched.providerID } } },
    { status: true },
  );
  return launched.providerID;
}

async function nodeClaimDeleted(b: TerminationBed, name: string): Promise<boolean> {
  return b.kube.get<NodeClaim>(Resources.NodeClaim, { name }).then(
    (c) => c.metadata?.deletionTimestamp !== undefined,
    (err: unknown) => isKubeNotFound(err),
  );
}

describe('garbage collection when Outscale ReadVms answers 200 without Vms', () => {
  it.each<[string, Fault]>([
    ['an empty body', { kind: 'empty-body' }],
    ['{}', { kind: 'empty-object' }],
  ])('keeps a NotReady node’s NodeClaim and its VM through passes answered with %s', { timeout: 30_000 }, async (_what, fault) => {
    const b = (bed = await startTerminationBed());
    const o = (osc = await startOutscaleTestbed({ clock: b.clock }));
    const providerID = await launchedNotReady(b, o, 'not-ready');
    b.clock.step(60_000); // past the grace period; the VM is running
    const gc = createGarbageCollectionController({
      kube: b.kube,
      state: b.state,
      cloudProvider: o.provider,
      clock: b.clock,
      logger: b.logger,
      metrics: b.metrics,
      events: b.events,
      options: { gracePeriodMs: 30_000 },
    });

    const rule = o.emulator.faults.add({ match: { action: 'ReadVms' }, fault });
    for (let pass = 0; pass < 4; pass++) {
      const report = await gc.reconcileOnce();
      expect(report.skipped, `pass ${pass}`).toMatch(/^list_partial: incomplete answer/);
      expect(report.nodeClaimsDeleted).toEqual([]);
      b.clock.step(10_000);
    }
    expect(await nodeClaimDeleted(b, 'not-ready')).toBe(false);
    expect(o.emulator.calls.count({ action: 'DeleteVms' })).toBe(0);
    expect(
      await metricValue(b.metrics, 'karpenter_eu_garbage_collection_skipped_total', { reason: 'list_partial', provider: 'outscale' }),
    ).toBe(4);

    o.emulator.faults.remove(rule);
    const healed = await gc.reconcileOnce();
    expect(healed.skipped).toBeUndefined();
    expect(healed.nodeClaimsSuspected).toEqual([]);
    expect(o.liveVms().map((vm) => vm.id)).toEqual([providerID.split('/').pop()]);
  });
});

describe('garbage collection when the listing shrinks sharply', () => {
  async function sixLaunched(b: TerminationBed): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await launchNodeClaim(b, nodeClaimManifest(`worker-${i}`))).providerID);
    b.clock.step(60_000);
    return ids;
  }

  function gcOf(b: TerminationBed) {
    return createGarbageCollectionController({
      kube: b.kube,
      state: b.state,
      cloudProvider: b.cloud,
      clock: b.clock,
      logger: b.logger,
      metrics: b.metrics,
      events: b.events,
      options: { gracePeriodMs: 30_000 },
    });
  }

  it('a listing short of 5 of 6 instances, once, suspects nothing; the next full listing is acted on', async () => {
    const b = (bed = await startTerminationBed());
    const ids = await sixLaunched(b);
    const gc = gcOf(b);
    expect((await gc.reconcileOnce()).skipped).toBeUndefined();

    const fullList = b.cloud.list.bind(b.cloud);
    b.cloud.list = async (): Promise<CloudNodeClaim[]> => (await fullList()).filter((i) => i.providerID === ids[0]);
    const short = await gc.reconcileOnce();
    expect(short.skipped).toMatch(/^list_shrank: the listing lacks 5 of the 6 instances/);
    expect(short.nodeClaimsSuspected).toEqual([]);
    expect(await metricValue(b.metrics, 'karpenter_eu_garbage_collection_skipped_total', { reason: 'list_shrank', provider: 'fake' })).toBe(
      1,
    );

    b.cloud.list = fullList;
    const healed = await gc.reconcileOnce();
    expect(healed.skipped).toBeUndefined();
    expect(healed.nodeClaimsSuspected).toEqual([]);
  });

  it('a real loss of 5 of 6 instances is acted on once a second listing confirms it', async () => {
    const b = (bed = await startTerminationBed());
    const ids = await sixLaunched(b);
    const gc = gcOf(b);
    await gc.reconcileOnce();
    for (const id of ids.slice(1)) b.cloud.instances.delete(id); // gone behind our back

    expect((await gc.reconcileOnce()).skipped).toMatch(/^list_shrank/);
    const confirmed = await gc.reconcileOnce();
    expect(confirmed.skipped).toBeUndefined();
    expect(confirmed.nodeClaimsSuspected).toHaveLength(5);
    const collected = await gc.reconcileOnce();
    expect(collected.nodeClaimsDeleted).toEqual(['worker-1', 'worker-2', 'worker-3', 'worker-4', 'worker-5']);
  });
});

describe('garbage collection when Outscale ReadVms answers a short but well-formed page', () => {
  it(
    'Vms: [] for a cluster of 4 NotReady nodes waits for a confirming listing, and the next true one clears it',
    { timeout: 30_000 },
    async () => {
      const b = (bed = await startTerminationBed());
      const o = (osc = await startOutscaleTestbed({ clock: b.clock }));
      for (const name of ['w-0', 'w-1', 'w-2', 'w-3']) await launchedNotReady(b, o, name);
      b.clock.step(60_000);
      const gc = createGarbageCollectionController({
        kube: b.kube,
        state: b.state,
        cloudProvider: o.provider,
        clock: b.clock,
        logger: b.logger,
        metrics: b.metrics,
        events: b.events,
        options: { gracePeriodMs: 30_000 },
      });
      expect((await gc.reconcileOnce()).skipped).toBeUndefined();

      // Nothing in the answer betrays it: only the next listing can.
      o.emulator.faults.add({ match: { action: 'ReadVms' }, fault: { kind: 'short-page' }, times: 1 });
      const short = await gc.reconcileOnce();
      expect(short.skipped).toMatch(/^list_shrank: the listing lacks 4 of the 4 instances/);
      expect(short.nodeClaimsSuspected).toEqual([]);

      const next = await gc.reconcileOnce();
      expect(next.skipped).toBeUndefined();
      expect(next.nodeClaimsSuspected).toEqual([]);
      expect(o.liveVms()).toHaveLength(4);
      expect(o.emulator.calls.count({ action: 'DeleteVms' })).toBe(0);
    },
  );
});
