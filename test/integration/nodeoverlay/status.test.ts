// The NodeOverlay status controller against the simulated API server: overlays that got in without the webhook
// (stored before it ran) and conflict are told apart in their status, which is what `kubectl get nodeoverlays` prints.
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeOverlay } from '../../../src/apis/index.js';
import { createNodeOverlayStatusController } from '../../../src/controllers/nodeoverlay/status-controller.js';
import { Resources } from '../../../src/kube/index.js';
import { SystemClock } from '../../../src/util/clock.js';
import { nodePool, type ProvisioningBed, startProvisioningBed } from '../provisioning/harness.js';

let bed: ProvisioningBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const overlay = (name: string, spec: NodeOverlay['spec']): NodeOverlay => ({
  apiVersion: 'karpenter.sh/v1alpha1',
  kind: 'NodeOverlay',
  metadata: { name },
  spec,
});
const onType = (name: string) => [{ key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: [name] }];
const conditionsOf = (o: NodeOverlay) => o.status?.conditions?.map((c) => `${c.type}=${c.status}/${c.reason}`);

describe('NodeOverlay status', () => {
  it('marks the overlay taken second of two equal-weight ones pricing one type Conflict, the other Ready', async () => {
    bed = await startProvisioningBed({ manual: true, nodeOverlays: true });
    const b = bed;
    await b.kube.create(Resources.NodePool, nodePool('default'));
    await b.kube.create(
      Resources.NodeOverlay,
      overlay('m-4-discount', { weight: 2, requirements: onType('m-4'), priceAdjustment: '-10%' }),
    );
    await b.kube.create(Resources.NodeOverlay, overlay('all-markup', { weight: 2, requirements: [], priceAdjustment: '+5%' }));
    await b.kube.create(Resources.NodeOverlay, overlay('m-8-heavier', { weight: 3, requirements: onType('m-8'), price: '0.1' }));
    await b.until(
      'state holds the pool and the overlays',
      () => b.state.nodePool('default') !== undefined && b.state.nodeOverlayList().length === 3,
    );
    const controller = createNodeOverlayStatusController({
      kube: b.kube,
      state: b.state,
      cloudProvider: b.provider,
      clock: new SystemClock(),
    });

    expect((await controller.reconcile()).sort()).toEqual(['all-markup', 'm-4-discount', 'm-8-heavier']);
    const read = (name: string) => b.kube.get<NodeOverlay>(Resources.NodeOverlay, { name });
    expect(conditionsOf(await read('m-4-discount'))).toEqual(['ValidationSucceeded=True/ValidationSucceeded', 'Ready=True/Ready']);
    expect(conditionsOf(await read('m-8-heavier'))).toEqual(['ValidationSucceeded=True/ValidationSucceeded', 'Ready=True/Ready']);
    const markup = await read('all-markup');
    expect(conditionsOf(markup)).toEqual(['ValidationSucceeded=False/Conflict', 'Ready=False/Conflict']);
    expect(markup.status?.conditions?.[1]?.message).toMatch(
      /^NodeOverlay all-markup conflicts with NodeOverlay m-4-discount: at the same weight \(2\) they both set the price of m-4 in test-zone-[abc] .*higher spec\.weight/,
    );

    // Nothing changed: nothing written. Then the conflict resolved by a weight: Ready again.
    await b.until('state sees the statuses', () => b.state.nodeOverlayList().every((o) => o.status?.conditions !== undefined));
    expect(await controller.reconcile()).toEqual([]);
    await b.kube.patch(Resources.NodeOverlay, { name: 'all-markup' }, { type: 'merge', body: { spec: { weight: 1 } } });
    await b.until('state sees the new weight', () => b.state.nodeOverlayList().some((o) => o.spec.weight === 1));
    expect(await controller.reconcile()).toEqual(['all-markup']);
    expect(conditionsOf(await read('all-markup'))).toEqual(['ValidationSucceeded=True/ValidationSucceeded', 'Ready=True/Ready']);
  });
});
