import { describe, expect, it } from 'vitest';
import type { V1Node } from '@kubernetes/client-node';
import type { NodeOverlay } from '../../../src/apis/index.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { clusterStateExtenderView } from '../../../src/views/extender-view.js';
import { CatalogPriceBook } from '../../../src/views/price-book.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';

const prices = new CatalogPriceBook({ ovhcloud: loadCatalog('ovhcloud') });

const node: V1Node = {
  metadata: {
    name: 'worker-1',
    labels: {
      'karpenter-eu.io/cloud': 'ovhcloud',
      'karpenter.sh/nodepool': 'default',
      'node.kubernetes.io/instance-type': 'b3-8',
      'topology.kubernetes.io/zone': 'eu-west-par-a',
    },
  },
  spec: { providerID: 'openstack:///worker-1' },
  status: { allocatable: { cpu: '7910m', memory: '28Gi', pods: '110' } },
};

const overlay = (name: string, spec: NodeOverlay['spec']): NodeOverlay => ({ metadata: { name }, spec });

describe("the extender's node prices under NodeOverlays", () => {
  it('prices a node as the overlays price its offering, as soon as an overlay changes (NodeOverlay gate on)', () => {
    const state = new ClusterState({ clock: new FakeClock() });
    const view = clusterStateExtenderView(state, prices, { nodeOverlays: true });
    state.updateNode(node);
    expect(view.get('worker-1')?.pricePerHour).toBe(0.0508);
    const dearer = overlay('b3-dearer', {
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['b3-8'] }],
      priceAdjustment: '+25%',
    });
    state.updateNodeOverlay(dearer);
    expect(view.get('worker-1')?.pricePerHour).toBeCloseTo(0.0635, 9);
    // A heavier overlay for the NodePool's nodes wins over it.
    state.updateNodeOverlay(
      overlay('pool-negotiated', {
        weight: 50,
        requirements: [{ key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] }],
        price: '0.03',
      }),
    );
    expect(view.get('worker-1')?.pricePerHour).toBe(0.03);
    state.deleteNodeOverlay(overlay('pool-negotiated', { requirements: [] }));
    state.deleteNodeOverlay(dearer);
    expect(view.get('worker-1')?.pricePerHour).toBe(0.0508);
  });

  it('keeps catalog prices with the gate off', () => {
    const state = new ClusterState({ clock: new FakeClock() });
    const view = clusterStateExtenderView(state, prices);
    state.updateNode(node);
    state.updateNodeOverlay(overlay('b3-dearer', { requirements: [], priceAdjustment: '+25%' }));
    expect(view.get('worker-1')?.pricePerHour).toBe(0.0508);
  });
});
