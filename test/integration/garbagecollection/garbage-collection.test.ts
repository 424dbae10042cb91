import { afterEach, describe, expect, it } from 'vitest';
import type { CoreV1Event } from '@kubernetes/client-node';
import type { NodeClaim } from '../../../src/apis/v1/nodeclaim.js';
import type { CloudNodeClaim } from '../../../src/cloudprovider/types.js';
import {
  createGarbageCollectionController,
  type GarbageCollectionController,
} from '../../../src/controllers/nodeclaim/garbagecollection/garbage-collection-controller.js';
import { createTerminationController } from '../../../src/controllers/termination/termination-controller.js';
import { AnnotationDeletionReason } from '../../../src/apis/v1/deletion-reasons.js';
import { isKubeNotFound, Resources } from '../../../src/kube/index.js';
import {
  eventually,
  launchNodeClaim,
  metricValue,
  nodeClaimManifest,
  startTerminationBed,
  type TerminationBed,
} from '../termination/termination-bed.js';

let bed: TerminationBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

function gcFor(b: TerminationBed, listTimeoutMs = 60_000): GarbageCollectionController {
  return createGarbageCollectionController({
    kube: b.kube,
    state: b.state,
    cloudProvider: b.cloud,
    clock: b.clock,
    logger: b.logger,
    metrics: b.metrics,
    events: b.events,
    options: { gracePeriodMs: 30_000, listTimeoutMs },
  });
}

/** An instance launched for a NodeClaim that never reached the API (a crash between create and write). */
async function leakInstance(b: TerminationBed, name: string): Promise<CloudNodeClaim> {
  return b.cloud.create(nodeClaimManifest(name));
}

async function nodeClaimGone(b: TerminationBed, name: string): Promise<boolean> {
  return b.kube.get<NodeClaim>(Resources.NodeClaim, { name }).then(
    (c) => c.metadata?.deletionTimestamp !== undefined,
    (err: unknown) => isKubeNotFound(err),
  );
}

describe('garbage collection on the simulated cluster', () => {
  it('deletes a leaked instance past the grace period and keeps the ones NodeClaims own', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const owned = await launchNodeClaim(b, nodeClaimManifest('owned'));
    const leaked = await leakInstance(b, 'never-written');
    const gc = gcFor(b);

    const young = await gc.reconcileOnce();
    expect(young.instancesDeleted).toEqual([]);
    expect(b.cloud.instances.has(leaked.providerID)).toBe(true);

    b.clock.step(31_000);
    const report = await gc.reconcileOnce();
    expect(report.instancesDeleted).toEqual([leaked.providerID]);
    expect(b.cloud.instances.has(leaked.providerID)).toBe(false);
    expect(b.cloud.instances.has(owned.providerID)).toBe(true);
    expect(await metricValue(b.metrics, 'karpenter_eu_garbage_collection_instances_deleted_total', { provider: 'fake' })).toBe(1);
    expect(b.logLines.some((l) => l.message === 'deleted leaked instance' && l.reason === 'garbage_collected')).toBe(true);
  });

  it('keeps an instance whose NodeClaim is being created right now (no providerID written yet)', async () => {
    bed = await startTerminationBed();
    const b = bed;
    await b.kube.create(Resources.NodeClaim, nodeClaimManifest('in-flight'));
    const instance = await leakInstance(b, 'in-flight');
    b.clock.step(120_000);
    const report = await gcFor(b).reconcileOnce();
    expect(report.instancesDeleted).toEqual([]);
    expect(b.cloud.instances.has(instance.providerID)).toBe(true);
  });

  it.each([
    [
      'the list throws',
      (b: TerminationBed) => {
        b.cloud.listError = new Error('503 service unavailable');
      },
      'list_failed',
    ],
    [
      'a page of the list fails (partial read)',
      (b: TerminationBed) => {
        b.cloud.listPageSize = 1;
        b.cloud.failListPage = 2;
      },
      'list_failed',
    ],
  ])('deletes NOTHING when %s', async (_what, breakList, skipReason) => {
    bed = await startTerminationBed();
    const b = bed;
    const owned = await launchNodeClaim(b, nodeClaimManifest('owned'));
    const leaked = await leakInstance(b, 'never-written');
    b.clock.step(600_000);
    breakList(b);
    const gc = gcFor(b);
    for (let pass = 0; pass < 3; pass++) {
      const report = await gc.reconcileOnce();
      expect(report.skipped).toMatch(new RegExp(`^${skipReason}`));
      expect(report.instancesDeleted).toEqual([]);
      expect(report.nodeClaimsDeleted).toEqual([]);
    }
    expect(b.cloud.deleteCalls).toEqual([]);
    expect(b.cloud.instances.has(leaked.providerID)).toBe(true);
    expect(await nodeClaimGone(b, 'owned')).toBe(false);
    expect(b.cloud.instances.has(owned.providerID)).toBe(true);
    expect(await metricValue(b.metrics, 'karpenter_eu_garbage_collection_skipped_total', { reason: skipReason, provider: 'fake' })).toBe(3);
    const events = (await b.kube.list<CoreV1Event>(Resources.Event, { namespace: 'default' })).items;
    expect(events.some((e) => e.reason === 'GarbageCollectionSkipped' && e.type === 'Warning')).toBe(true);
  });

  it('deletes NOTHING when the list times out', async () => {
    bed = await startTerminationBed();
    const b = bed;
    await leakInstance(b, 'never-written');
    b.clock.step(600_000);
    const slowList = b.cloud.list.bind(b.cloud);
    b.cloud.list = () =>
      new Promise<CloudNodeClaim[]>((resolve) => {
        void b.clock.sleep(120_000).then(() => resolve(slowList()));
      });
    const parked = b.clock.waiting; // the kubelet simulator's loop sleeps on this clock too
    const pass = gcFor(b, 60_000).reconcileOnce();
    await eventually(() => b.clock.waiting >= parked + 2);
    b.clock.step(60_000);
    const report = await pass;
    expect(report.skipped).toMatch(/^list_failed: timeout/);
    expect(b.cloud.deleteCalls).toEqual([]);
    b.clock.step(60_000); // let the slow list finish so nothing dangles
  });

  it('deletes a NodeClaim whose instance is gone only after two consecutive not-found passes, then termination finishes it', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const gone = await launchNodeClaim(b, nodeClaimManifest('vanished'));
    b.cloud.instances.delete(gone.providerID); // the instance disappeared behind our back
    b.clock.step(60_000);
    const gc = gcFor(b);

    const first = await gc.reconcileOnce();
    expect(first.nodeClaimsSuspected).toEqual(['vanished']);
    expect(first.nodeClaimsDeleted).toEqual([]);
    expect(await nodeClaimGone(b, 'vanished')).toBe(false);

    // A failed listing in between breaks the streak.
    b.cloud.listError = new Error('timeout');
    await gc.reconcileOnce();
    b.cloud.listError = undefined;
    const restarted = await gc.reconcileOnce();
    expect(restarted.nodeClaimsDeleted).toEqual([]);

    const confirmed = await gc.reconcileOnce();
    expect(confirmed.nodeClaimsDeleted).toEqual(['vanished']);
    const claim = await b.kube.get<NodeClaim>(Resources.NodeClaim, { name: 'vanished' });
    expect(claim.metadata?.annotations?.[AnnotationDeletionReason]).toBe('garbage_collected');

    await eventually(() => b.state.nodeClaim('vanished')?.metadata?.deletionTimestamp !== undefined);
    const termination = createTerminationController({
      kube: b.kube,
      state: b.state,
      cloudProvider: b.cloud,
      clock: b.clock,
      logger: b.logger,
      metrics: b.metrics,
      events: b.events,
      random: () => 0.5,
    });
    await termination.reconcileOnce();
    expect(
      await b.kube.get(Resources.NodeClaim, { name: 'vanished' }).then(
        () => 'present',
        (err: unknown) => (isKubeNotFound(err) ? 'gone' : 'error'),
      ),
    ).toBe('gone');
    expect(
      await metricValue(b.metrics, 'karpenter_eu_nodeclaims_terminated_by_reason_total', {
        reason: 'garbage_collected',
        nodepool: 'default',
      }),
    ).toBe(1);
  });

  it('runs periodically on the clock and stops when its signal aborts', async () => {
    bed = await startTerminationBed();
    const b = bed;
    const leaked = await leakInstance(b, 'never-written');
    const gc = createGarbageCollectionController({
      kube: b.kube,
      state: b.state,
      cloudProvider: b.cloud,
      clock: b.clock,
      logger: b.logger,
      metrics: b.metrics,
      events: b.events,
      options: { intervalMs: 10_000, gracePeriodMs: 30_000 },
    });
    const abort = new AbortController();
    const parked = b.clock.waiting;
    const running = gc.start(abort.signal);
    await eventually(() => b.cloud.listCalls === 1 && b.clock.waiting > parked);
    expect(b.cloud.instances.has(leaked.providerID)).toBe(true); // still young
    // Keep time moving until a later pass ran: the leaked instance, now past its grace period, is deleted.
    await eventually(() => {
      b.clock.step(10_000);
      return b.cloud.listCalls >= 3 && !b.cloud.instances.has(leaked.providerID);
    });
    abort.abort();
    await running;
    expect(b.cloud.deleteCalls.map((c) => c.status?.providerID)).toEqual([leaked.providerID]);
  });
});
