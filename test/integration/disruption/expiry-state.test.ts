/**
 * Expiry deletes a NodeClaim; the next disruption pass must know it did, even while the NodeClaim watch has not
 * delivered the deletion yet: it must not delete (and count, and announce) the same NodeClaim again, nor take
 * its node as a consolidation candidate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import type { NodePool } from '../../../src/apis/index.js';
import { fakeInstanceType } from '../../../src/cloudprovider/fake/index.js';
import { Resources } from '../../../src/kube/index.js';
import { type FakeClockBed, startFakeClockBed } from '../provisioning/fake-clock-bed.js';

const instanceTypes = [fakeInstanceType({ name: 'm-2', cpu: 2, memoryMiB: 8192, pricePerHour: 0.04 })];

const pool = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: '0s' },
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
        requirements: [],
        expireAfter: '2m',
      },
    },
  },
} as NodePool;

const app: V1Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'app', namespace: 'default', labels: { app: 'app' } },
  spec: { containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: '500m', memory: '256Mi' } } }] },
};

let bed: FakeClockBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

async function expiredCounts(b: FakeClockBed): Promise<{ metric: number; events: number }> {
  const values = (await b.metrics.registry.getSingleMetric('karpenter_nodeclaims_disrupted_total')?.get())?.values ?? [];
  const metric = values.filter((v) => v.labels.reason === 'expired').reduce((sum, v) => sum + v.value, 0);
  type EventLike = { reason?: string; count?: number; metadata?: object };
  const events = (await b.kube.list<EventLike>(Resources.Event, { namespace: 'default' })).items
    .filter((e) => e.reason === 'Expired')
    .reduce((sum, e) => sum + (e.count ?? 1), 0);
  return { metric, events };
}

describe('an expired NodeClaim with the NodeClaim watch lagging', () => {
  it('is deleted, counted and announced once: the next passes know of the deletion before the watch shows it', async () => {
    bed = await startFakeClockBed({ instanceTypes, bootDelayMs: () => 2_000, schedulerBackoffMs: 1_000 });
    const b = bed;
    await b.kube.create(Resources.NodePool, pool);
    await b.kube.create(Resources.Pod, app);
    const running = await b.run(
      async () => (await b.kube.get<V1Pod>(Resources.Pod, { name: 'app', namespace: 'default' })).status?.phase === 'Running',
      60_000,
      500,
    );
    expect(running, 'the pod runs').toBe(true);
    // From now on the NodeClaim watch delivers 25 s late: two disruption passes (10 s apart) run on the old view.
    b.cluster.apiServer.watchDelays.set('nodeclaims', { minMs: 25_000, maxMs: 25_000 });
    const expired = await b.run(async () => (await expiredCounts(b)).metric > 0, 180_000, 500);
    expect(expired, 'the NodeClaim expires').toBe(true);
    await b.run(() => false, 40_000, 500);
    expect(await expiredCounts(b)).toEqual({ metric: 1, events: 1 });
  }, 120_000);
});
