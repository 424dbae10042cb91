/**
 * Garbage collection of flexible GPUs on the simulated cluster with the Outscale provider on its emulator:
 * a GPU allocated for a NodeClaim that no longer exists and linked to no VM is billed forever unless
 * collected — but only after a grace period over readable passes, and never another cluster's, an untagged
 * one, a linked one, or one whose NodeClaim still exists.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOutscaleClient, type OutscaleClient } from '../../../src/cloudprovider/outscale/client.js';
import { TagGpuLaunchToken, TagGpuNodeClaim } from '../../../src/cloudprovider/outscale/gpu-claims.js';
import { TagManagedBy } from '../../../src/cloudprovider/outscale/instances.js';
import {
  createGarbageCollectionController,
  type GarbageCollectionController,
} from '../../../src/controllers/nodeclaim/garbagecollection/garbage-collection-controller.js';
import { Resources } from '../../../src/kube/index.js';
import { ClusterName, startOutscaleTestbed, type OutscaleTestbed } from '../../wire/cloudprovider/outscale-testbed.js';
import { metricValue, nodeClaimManifest, startTerminationBed, type TerminationBed } from '../termination/termination-bed.js';

let cluster: TerminationBed | undefined;
let cloud: OutscaleTestbed | undefined;

afterEach(async () => {
  await cluster?.close();
  await cloud?.close();
  cluster = undefined;
  cloud = undefined;
});

function gcOf(b: TerminationBed, o: OutscaleTestbed): GarbageCollectionController {
  return createGarbageCollectionController({
    kube: b.kube,
    state: b.state,
    cloudProvider: o.provider,
    clock: b.clock,
    logger: b.logger,
    metrics: b.metrics,
    events: b.events,
    options: { gracePeriodMs: 30_000 },
  });
}

function clientOf(o: OutscaleTestbed): OutscaleClient {
  return createOutscaleClient({ endpoint: o.emulator.url, region: o.emulator.region, ...o.emulator.credentials, clock: o.clock });
}

/** An allocated GPU, tagged as a launch of `nodeClaim` in `clusterName` tags it (or untagged). */
async function allocatedGpu(o: OutscaleTestbed, tags?: { clusterName: string; nodeClaim: string }): Promise<string> {
  const client = clientOf(o);
  const subregion = o.emulator.subregions[0] as string;
  const created = await client.createFlexibleGpu({ ModelName: 'nvidia-v100', SubregionName: subregion, DeleteOnVmDeletion: true });
  const id = created.FlexibleGpu.FlexibleGpuId;
  if (tags) {
    await client.createTags({
      ResourceIds: [id],
      Tags: [
        { Key: TagManagedBy, Value: tags.clusterName },
        { Key: TagGpuNodeClaim, Value: tags.nodeClaim },
        { Key: TagGpuLaunchToken, Value: `uid-of-${tags.nodeClaim}` },
      ],
    });
  }
  return id;
}

function gpuIds(o: OutscaleTestbed): string[] {
  return o.emulator
    .state()
    .flexibleGpus.map((g) => g.id)
    .sort();
}

describe('garbage collection of flexible GPUs (Outscale emulator)', () => {
  it('deletes an unlinked GPU whose NodeClaim is gone once it stayed orphaned for the grace period, and no other GPU', async () => {
    const b = (cluster = await startTerminationBed());
    const o = (cloud = await startOutscaleTestbed());
    await b.kube.create(Resources.NodeClaim, nodeClaimManifest('launching'));
    const orphan = await allocatedGpu(o, { clusterName: ClusterName, nodeClaim: 'deleted-claim' });
    const launching = await allocatedGpu(o, { clusterName: ClusterName, nodeClaim: 'launching' });
    const otherCluster = await allocatedGpu(o, { clusterName: 'another-cluster', nodeClaim: 'deleted-claim' });
    const untagged = await allocatedGpu(o);
    const gc = gcOf(b, o);

    const first = await gc.reconcileOnce();
    expect(first.claimResourcesDeleted).toBeUndefined();
    b.clock.step(29_000);
    expect((await gc.reconcileOnce()).claimResourcesDeleted).toBeUndefined();
    b.clock.step(2_000);
    const report = await gc.reconcileOnce();
    expect(report.claimResourcesDeleted).toEqual([orphan]);
    expect(gpuIds(o)).toEqual([launching, otherCluster, untagged].sort());
    expect(b.logLines.some((l) => l.message === 'deleted orphaned claim resource' && l.resource === orphan)).toBe(true);
    expect(
      await metricValue(b.metrics, 'karpenter_eu_garbage_collection_claim_resources_deleted_total', {
        provider: 'outscale',
        kind: 'flexible-gpu',
      }),
    ).toBe(1);
  });

  it('keeps a GPU linked to a VM even when its NodeClaim is gone: it goes with its VM', async () => {
    const b = (cluster = await startTerminationBed());
    const o = (cloud = await startOutscaleTestbed());
    const gpu = await allocatedGpu(o, { clusterName: ClusterName, nodeClaim: 'deleted-claim' });
    const client = clientOf(o);
    const subregion = o.emulator.subregions[0] as string;
    const { Vms } = await client.createVms({
      ImageId: o.emulator.network.images.ubuntu,
      VmType: 'tinav5.c4r16p1',
      BootOnCreation: false,
      Placement: { SubregionName: subregion },
      SubnetId: o.emulator.network.subnets[subregion] as string,
    });
    o.settle();
    await client.linkFlexibleGpu({ FlexibleGpuId: gpu, VmId: Vms[0]?.VmId as string });
    const gc = gcOf(b, o);
    await gc.reconcileOnce();
    b.clock.step(60_000);
    expect((await gc.reconcileOnce()).claimResourcesDeleted).toBeUndefined();
    expect(gpuIds(o)).toEqual([gpu]);
  });

  it('deletes no GPU while they cannot be read, and the grace period starts again after', async () => {
    const b = (cluster = await startTerminationBed());
    const o = (cloud = await startOutscaleTestbed());
    const orphan = await allocatedGpu(o, { clusterName: ClusterName, nodeClaim: 'deleted-claim' });
    const gc = gcOf(b, o);
    await gc.reconcileOnce();
    const rule = o.emulator.faults.add({ match: { action: 'ReadFlexibleGpus' }, fault: { kind: 'server-error', status: 503 } });
    b.clock.step(31_000);
    expect((await gc.reconcileOnce()).claimResourcesDeleted).toBeUndefined();
    o.emulator.faults.remove(rule);
    expect((await gc.reconcileOnce()).claimResourcesDeleted).toBeUndefined();
    b.clock.step(31_000);
    expect((await gc.reconcileOnce()).claimResourcesDeleted).toEqual([orphan]);
    expect(gpuIds(o)).toEqual([]);
  });
});
