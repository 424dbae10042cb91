/**
 * Pods planned onto a NodeClaim keep that place while it is in flight. A later pass sees more pods (the view
 * lagged, or they arrived since): the capacity launched for the first pods must not go to a bigger newcomer
 * while the first pods are planned again on another new NodeClaim — upstream honours a nomination until the
 * claim is registered or fails. The clock does not move, so no background pass runs and no instance boots:
 * every pass here is one the test calls.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { fakeInstanceType } from '../../../src/cloudprovider/fake/index.js';
import { nodePool } from '../../builders.js';
import { isProvisionable } from '../../../src/domain/provisioning/index.js';
import { Resources } from '../../../src/kube/index.js';
import { type FakeClockBed, startFakeClockBed } from './fake-clock-bed.js';

const instanceTypes = [
  fakeInstanceType({ name: 'm-2', cpu: 2, memoryMiB: 8192, pricePerHour: 0.04 }),
  fakeInstanceType({ name: 'm-4', cpu: 4, memoryMiB: 16384, pricePerHour: 0.08 }),
];

const pool = nodePool({ disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: '30s' }, expireAfter: 'Never' });

function pod(name: string, cpu: string): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { containers: [{ name: 'app', image: 'app', resources: { requests: { cpu, memory: '256Mi' } } }] },
  };
}

let bed: FakeClockBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

/** Waits (real time: the fake clock stands still) until cluster state shows the named pods pending (kube-scheduler found no node). */
async function untilPending(b: FakeClockBed, names: readonly string[]): Promise<void> {
  const waiting = (): string[] => names.filter((n) => !isProvisionable(b.state.pod('default', n) ?? {}));
  for (let i = 0; i < 500 && waiting().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(waiting()).toEqual([]);
}

describe('a pod nominated to an in-flight NodeClaim', () => {
  it('keeps its place there when a later pass sees a bigger pod; the newcomer gets the new NodeClaim', async () => {
    bed = await startFakeClockBed({ instanceTypes, bootDelayMs: () => 600_000, schedulerBackoffMs: 1_000 });
    const b = bed;
    await b.kube.create(Resources.NodePool, pool);
    await b.kube.create(Resources.Pod, pod('a0', '500m'));
    await b.kube.create(Resources.Pod, pod('a1', '500m'));
    await untilPending(b, ['a0', 'a1']);
    const first = await b.provisioner.provision();
    expect(first.created).toHaveLength(1);
    const claim = first.created[0] as string;
    expect(first.nominated).toEqual({ 'default/a0': claim, 'default/a1': claim });

    // 1500m fits the in-flight m-2 alone (1800m allocatable), not with a0 and a1.
    await b.kube.create(Resources.Pod, pod('c', '1500m'));
    await untilPending(b, ['c']);
    const second = await b.provisioner.provision();
    expect(second.created, 'one new NodeClaim, for the newcomer').toHaveLength(1);
    const newcomer = second.created[0] as string;
    expect(second.nominated).toEqual({ 'default/a0': claim, 'default/a1': claim, 'default/c': newcomer });

    // And again: nothing moves between the two in-flight NodeClaims, whatever their names' order.
    const third = await b.provisioner.provision();
    expect(third.created).toEqual([]);
    expect(third.nominated).toEqual({ 'default/a0': claim, 'default/a1': claim, 'default/c': newcomer });
  }, 60_000);
});
