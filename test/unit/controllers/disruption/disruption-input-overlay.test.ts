// Consolidation reads instance types and node prices through the CloudProvider the operator builds: with the
// NodeOverlay decorator, both are the overlaid ones, so "replace with cheaper" compares the prices overlays set.
import { describe, expect, it } from 'vitest';
import type { V1Node } from '@kubernetes/client-node';
import type { NodeClaim, NodeOverlay, NodePool } from '../../../../src/apis/index.js';
import { FakeCloudProvider } from '../../../../src/cloudprovider/fake/fake-cloud-provider.js';
import { fakeInstanceType } from '../../../../src/cloudprovider/fake/instance-types.js';
import { overlaidCloudProvider } from '../../../../src/cloudprovider/node-overlays.js';
import { DriftCache } from '../../../../src/controllers/disruption/drift-cache.js';
import { buildDisruptionInput } from '../../../../src/controllers/disruption/input.js';
import { PodEventTracker } from '../../../../src/controllers/disruption/pod-event-tracker.js';
import { ClusterState } from '../../../../src/state/index.js';
import { FakeClock } from '../../../../src/util/clock.js';
import { silentLogger } from '../../../../src/util/logger.js';

const zones = ['test-zone-a'];
const pool = {
  metadata: { name: 'default' },
  spec: { template: { spec: { nodeClassRef: { group: 'karpenter.test', kind: 'FakeNodeClass', name: 'n' }, requirements: [] } } },
} as unknown as NodePool;

const node: V1Node = {
  metadata: {
    name: 'worker-1',
    labels: {
      'karpenter.sh/nodepool': 'default',
      'node.kubernetes.io/instance-type': 'small-cheap',
      'topology.kubernetes.io/zone': 'test-zone-a',
    },
  },
  spec: { providerID: 'fake:///worker-1' },
  status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' } },
};

const claim = {
  metadata: { name: 'default-1', labels: { 'karpenter.sh/nodepool': 'default' } },
  spec: { nodeClassRef: { group: 'karpenter.test', kind: 'FakeNodeClass', name: 'n' }, requirements: [] },
  status: { providerID: 'fake:///worker-1', nodeName: 'worker-1' },
} as unknown as NodeClaim;

const dearer: NodeOverlay = {
  metadata: { name: 'dearer' },
  spec: { requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['small-cheap'] }], priceAdjustment: '+100%' },
};

describe('the disruption input through the NodeOverlay decorator', () => {
  it('prices nodes and replacement types as the overlays do', async () => {
    const clock = new FakeClock();
    const state = new ClusterState({ clock });
    state.updateNodePool(pool);
    state.updateNodeClaim(claim);
    state.updateNode(node);
    state.updateNodeOverlay(dearer);
    const inner = new FakeCloudProvider({
      clock,
      instanceTypes: [
        fakeInstanceType({ name: 'small-cheap', cpu: 4, memoryMiB: 16384, pricePerHour: 0.05, zones }),
        fakeInstanceType({ name: 'small-dear', cpu: 4, memoryMiB: 16384, pricePerHour: 0.08, zones }),
      ],
    });
    const cloudProvider = overlaidCloudProvider(inner, { overlays: () => state.nodeOverlayList(), nodePool: (n) => state.nodePool(n) });
    const input = await buildDisruptionInput(state.snapshot(), {
      cloudProvider,
      driftCache: new DriftCache(cloudProvider, 60_000, silentLogger),
      podEvents: new PodEventTracker(),
      logger: silentLogger,
    });
    expect(input.nodes.find((n) => n.name === 'worker-1')?.pricePerHour).toBe(0.1);
    const types = input.schedulingNodePools[0]?.instanceTypes ?? [];
    expect(types.map((t) => [t.name, t.offerings[0]?.pricePerHour])).toEqual([
      ['small-cheap', 0.1],
      ['small-dear', 0.08],
    ]);
  });
});
