// The NodePool status controller against the simulated API server: the status subresource it writes is what
// `kubectl get nodepools` prints (Nodes, Ready), and a NodePool whose NodeClass is missing says so.
import { afterEach, describe, expect, it } from 'vitest';
import type { NodePool } from '../../../src/apis/v1/nodepool.js';
import { createNodePoolStatusController } from '../../../src/controllers/nodepool/status-controller.js';
import { Resources } from '../../../src/kube/index.js';
import { SystemClock } from '../../../src/util/clock.js';
import { nodePool, type ProvisioningBed, startProvisioningBed } from '../provisioning/harness.js';

let bed: ProvisioningBed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

describe('NodePool status', () => {
  it('reports a missing NodeClass as Ready=False with the fix, then Ready=True once it exists', async () => {
    bed = await startProvisioningBed({ manual: true });
    const b = bed;
    const pool = nodePool('ovh');
    pool.spec.template.spec.nodeClassRef = { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' };
    await b.kube.create(Resources.NodePool, pool);
    const controller = createNodePoolStatusController({ kube: b.kube, state: b.state, clock: new SystemClock() });
    await b.until('the NodePool in state', () => b.state.nodePool('ovh') !== undefined);

    expect(await controller.reconcile()).toEqual(['ovh']);
    const broken = await b.kube.get<NodePool>(Resources.NodePool, { name: 'ovh' });
    const ready = broken.status?.conditions?.find((c) => c.type === 'Ready');
    expect(ready).toMatchObject({
      status: 'False',
      reason: 'NodeClassNotFound',
      message: 'OVHNodeClass "default" does not exist; create it or fix spec.template.spec.nodeClassRef',
    });
    expect(broken.status?.nodes).toBe(0);

    // Nothing changed: nothing written.
    await b.until('state sees the status', () => b.state.nodePool('ovh')?.status?.conditions !== undefined);
    expect(await controller.reconcile()).toEqual([]);

    await b.kube.create(Resources.OVHNodeClass, {
      apiVersion: 'karpenter.ovhcloud.sh/v1alpha1',
      kind: 'OVHNodeClass',
      metadata: { name: 'default' },
      spec: { serviceName: '0123456789abcdef0123456789abcdef', kubeId: '6f1c9a52-3b7e-4d0a-9c51-2e8f4b7a1d03', region: 'EU-WEST-PAR' },
    });
    await b.until('state sees the NodeClass', () => b.state.nodeClass('OVHNodeClass', 'default') !== undefined);
    expect(await controller.reconcile()).toEqual(['ovh']);
    const fixed = await b.kube.get<NodePool>(Resources.NodePool, { name: 'ovh' });
    expect(fixed.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['NodeClassReady=True', 'Ready=True']);
  });
});
