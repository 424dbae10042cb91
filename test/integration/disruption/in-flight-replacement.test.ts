/**
 * A consolidation replacement and a provisioning pass in the same moment, with the NodeClaim watch lagging:
 * the provisioner must count the replacement as the capacity for the candidate's pods, never launch for them
 * itself. Upstream taints, creates the replacement and records it in cluster state, and only then marks the
 * candidate for deletion, "to avoid producing double-launches".
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { V1Deployment } from '@kubernetes/client-node';
import type { NodeClaim, NodePool } from '../../../src/apis/index.js';
import { fakeInstanceType } from '../../../src/cloudprovider/fake/index.js';
import { type ResourceKind, Resources } from '../../../src/kube/index.js';
import { type FakeClockBed, startFakeClockBed } from '../provisioning/fake-clock-bed.js';

const DeploymentKind: ResourceKind = {
  kind: 'Deployment',
  api: 'AppsV1Api',
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  namespaced: true,
  status: true,
};

const instanceTypes = [
  fakeInstanceType({ name: 'm-2', cpu: 2, memoryMiB: 8192, pricePerHour: 0.04 }),
  fakeInstanceType({ name: 'm-8', cpu: 8, memoryMiB: 32768, pricePerHour: 0.16 }),
];

const pool = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s', budgets: [{ nodes: '100%' }] },
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
        requirements: [],
        expireAfter: 'Never',
      },
    },
  },
} as NodePool;

function bigClaim(): NodeClaim {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name: 'big', labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m-8'] }],
    },
  } as NodeClaim;
}

function app(replicas: number, cpu: string): V1Deployment {
  const labels = { app: 'web' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'c', image: 'app', resources: { requests: { cpu, memory: '256Mi' } } }] },
      },
    },
  };
}

let bed: FakeClockBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

describe('a consolidation replacement with the NodeClaim watch lagging', () => {
  it('is the only launch for the candidate’s pods, whenever a provisioning pass runs', async () => {
    bed = await startFakeClockBed({
      instanceTypes,
      bootDelayMs: () => 2_000,
      schedulerBackoffMs: 1_000,
      watchDelays: { seed: 5, profiles: { nodeclaims: { minMs: 4_000, maxMs: 6_000 } } },
    });
    const b = bed;
    await b.kube.create(Resources.NodePool, pool);
    await b.kube.create(Resources.NodeClaim, bigClaim());
    expect(await b.run(() => b.state.stateNodes().some((n) => n.initialized), 120_000, 500), 'the m-8 node initializes').toBe(true);
    await b.kube.create(DeploymentKind, app(1, '1'));
    const launchedBefore = b.provider.launches.length;
    const created: string[] = [];
    // A pass at every step: pending pods can open a batch at any moment while the command runs.
    const replaced = await b.run(
      async () => {
        const r = await b.provisioner.provision();
        created.push(...r.created);
        return b.provider.launches.length > launchedBefore && !b.state.nodeClaim('big') && b.state.stateNodes().every((n) => n.initialized);
      },
      300_000,
      500,
    );
    const launches = b.provider.launches.map((l) => l.instanceType).join(', ');
    expect(replaced, `the m-8 is replaced (launches: ${launches})`).toBe(true);
    expect(created, `NodeClaims the provisioner created for the displaced pod (launches: ${launches})`).toEqual([]);
    expect(b.provider.launches.slice(launchedBefore).map((l) => l.instanceType)).toEqual(['m-2']);
  }, 120_000);
});

describe('a command whose replacement create is slow', () => {
  it('keeps its candidate: later passes do not decide on it again before it is marked', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const replacementCreates: string[] = [];
    bed = await startFakeClockBed({
      instanceTypes,
      bootDelayMs: () => 2_000,
      schedulerBackoffMs: 1_000,
      // The replacement's create answers late: the candidate is tainted, its replacement not there yet.
      disruptionKube: (kube) =>
        new Proxy(kube, {
          get(target, key, receiver) {
            const value = Reflect.get(target, key, receiver) as unknown;
            if (key !== 'create' || typeof value !== 'function') return value;
            return async (kind: ResourceKind, body: unknown, ...rest: unknown[]) => {
              if (kind.kind === 'NodeClaim') {
                replacementCreates.push((body as NodeClaim).spec.requirements.map((r) => r.values?.join('|')).join(','));
                await held;
              }
              return (value as (...args: unknown[]) => unknown).call(target, kind, body, ...rest);
            };
          },
        }),
    });
    const b = bed;
    await b.kube.create(Resources.NodePool, pool);
    await b.kube.create(Resources.NodeClaim, bigClaim());
    expect(await b.run(() => b.state.stateNodes().some((n) => n.initialized), 120_000, 500)).toBe(true);
    await b.kube.create(DeploymentKind, app(1, '1'));
    expect(await b.run(() => replacementCreates.length > 0, 120_000, 500), 'consolidation starts replacing the m-8').toBe(true);
    // Several disruption passes (10 s apart) while the create is held.
    await b.run(() => false, 60_000, 500);
    expect(replacementCreates, 'commands that tried to replace the m-8').toHaveLength(1);
    release();
    expect(await b.run(() => !b.state.nodeClaim('big'), 300_000, 500), 'the m-8 goes once its replacement is up').toBe(true);
    expect(b.provider.launches.map((l) => l.instanceType)).toEqual(['m-8', 'm-2']);
  }, 120_000);
});
