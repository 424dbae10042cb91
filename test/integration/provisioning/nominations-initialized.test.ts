/**
 * Pods planned onto a NodeClaim keep that place after its Node is initialized, until kube-scheduler binds them:
 * under load kube-scheduler binds seconds after the node turns Ready, and a pass in between must not hand the
 * node to other pods (here those of a node being deleted, which keep running where they are until evicted)
 * while the pods it was launched for are planned again on a new NodeClaim.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import type { NodeClaim } from '../../../src/apis/index.js';
import { fakeInstanceType } from '../../../src/cloudprovider/fake/index.js';
import { nodePool } from '../../builders.js';
import { isProvisionable } from '../../../src/domain/provisioning/index.js';
import { Resources } from '../../../src/kube/index.js';
import { type FakeClockBed, startFakeClockBed } from './fake-clock-bed.js';

const instanceTypes = [fakeInstanceType({ name: 'm-2', cpu: 2, memoryMiB: 8192, pricePerHour: 0.04 })];
const zone = 'topology.kubernetes.io/zone';

const pool = nodePool({ disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: 'Never' }, expireAfter: 'Never' });

/** A NodeClaim made by hand (named, so the simulation's name order is known), in zone b. */
function claimInZoneB(name: string): NodeClaim {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m-2'] },
        { key: zone, operator: 'In', values: ['test-zone-b'] },
      ],
    },
  } as NodeClaim;
}

function pod(name: string, cpu: string, nodeSelector: Record<string, string>): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { nodeSelector, containers: [{ name: 'app', image: 'app', resources: { requests: { cpu, memory: '256Mi' } } }] },
  };
}

let bed: FakeClockBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

/** Waits (real time) until cluster state shows the named pods pending (kube-scheduler found no node). */
async function untilPending(b: FakeClockBed, names: readonly string[]): Promise<void> {
  const waiting = (): string[] => names.filter((n) => !isProvisionable(b.state.pod('default', n) ?? {}));
  for (let i = 0; i < 500 && waiting().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(waiting()).toEqual([]);
}

const nodeOfClaim = (b: FakeClockBed, claim: string) => b.state.stateNodes().find((n) => n.nodeClaim?.metadata?.name === claim);

describe('pods nominated to a NodeClaim whose Node is initialized before kube-scheduler binds them', () => {
  it('keep their place there: a pass with a displaced pod neither moves them nor launches for them again', async () => {
    // kube-scheduler retries a pod it found no node for only after 10 fake minutes: it binds late, as under load.
    bed = await startFakeClockBed({ instanceTypes, bootDelayMs: () => 1_000, schedulerBackoffMs: 600_000 });
    const b = bed;
    await b.kube.create(Resources.NodePool, pool);
    // "leaving" is the node disruption will take; its pod can run in any zone.
    await b.kube.create(Resources.NodeClaim, claimInZoneB('leaving'));
    expect(await b.run(() => nodeOfClaim(b, 'leaving')?.initialized === true, 120_000, 500), 'the zone-b node initializes').toBe(true);
    const leaving = nodeOfClaim(b, 'leaving');
    await b.kube.create(Resources.Pod, pod('moving', '1600m', {}));
    expect(await b.run(() => b.bindings.has('moving'), 60_000, 500), 'the pod runs on the node that will leave').toBe(true);

    // Two pods only zone a can take: one pass launches a NodeClaim for them there.
    await b.kube.create(Resources.Pod, pod('a0', '500m', { [zone]: 'test-zone-a' }));
    await b.kube.create(Resources.Pod, pod('a1', '500m', { [zone]: 'test-zone-a' }));
    await untilPending(b, ['a0', 'a1']);
    const first = await b.provisioner.provision();
    expect(first.created).toHaveLength(1);
    const claim = first.created[0] as string;
    // Room for the displaced pod, on a node whose name comes after theirs.
    await b.kube.create(Resources.NodeClaim, claimInZoneB('room'));
    const ready = (): boolean => [claim, 'room'].every((c) => nodeOfClaim(b, c)?.initialized === true);
    expect(await b.run(ready, 120_000, 500), 'their node and the zone-b room initialize').toBe(true);
    expect((nodeOfClaim(b, claim)?.name ?? '') < (nodeOfClaim(b, 'room')?.name ?? ''), 'their node comes first in name order').toBe(true);
    expect(
      ['a0', 'a1'].filter((n) => isProvisionable(b.state.pod('default', n) ?? {})),
      'kube-scheduler has not bound them yet',
    ).toEqual(['a0', 'a1']);

    // Disruption takes "leaving": its pod waits for a place, and a pass runs before kube-scheduler binds a0 and a1.
    b.state.markForDeletion(leaving?.key ?? '');
    const second = await b.provisioner.provision();
    const node = nodeOfClaim(b, claim)?.name ?? '';
    expect(second.created, 'NodeClaims launched although a0, a1 and the displaced pod all have a place').toEqual([]);
    expect(second.nominated).toEqual({ 'default/a0': node, 'default/a1': node, 'default/moving': nodeOfClaim(b, 'room')?.name });
  }, 120_000);
});
