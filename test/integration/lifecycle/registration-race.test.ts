/**
 * Registration writes the Node's whole taint list; it must not write it from a stale copy. When the node
 * lifecycle controller removed `node.kubernetes.io/not-ready` after our cache last saw the Node, a write from
 * that copy put the taint back for good: the Node stayed Ready yet unschedulable, never initialized, and its
 * NodeClaim was paid for with no pod on it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { V1Node } from '@kubernetes/client-node';
import { LabelNodePool, type NodeClaim, TaintUnregistered } from '../../../src/apis/index.js';
import { syncNode } from '../../../src/controllers/nodeclaim/lifecycle/registration.js';
import { createKube, type Kube, Resources } from '../../../src/kube/index.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../../src/testbed/cluster/index.js';

let cluster: SimulatedCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const notReady = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

const claim = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name: 'default-abcde', labels: { [LabelNodePool]: 'default' } },
  spec: {
    nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
    requirements: [],
    taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }],
  },
} as unknown as NodeClaim;

async function joinedNode(kube: Kube): Promise<V1Node> {
  const node: V1Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } },
    spec: { providerID: 'fake:///test-zone-a/i-1', taints: [{ key: TaintUnregistered.key, effect: TaintUnregistered.effect }, notReady] },
  };
  return kube.create<V1Node>(Resources.Node, node);
}

describe('registration writes the Node from a current copy', () => {
  it('does not put back a not-ready taint removed after the copy it started from', async () => {
    cluster = await startSimulatedCluster();
    const kube = createKube(cluster.kubeConfig);
    const stale = await joinedNode(kube);
    // The node lifecycle controller: Ready now, the not-ready taint goes.
    await kube.patch(
      Resources.Node,
      { name: 'node-1' },
      { type: 'merge', body: { spec: { taints: [{ key: TaintUnregistered.key, effect: TaintUnregistered.effect }] } } },
    );
    await syncNode(kube, stale, claim);
    const node = await kube.get<V1Node>(Resources.Node, { name: 'node-1' });
    const taints = (node.spec?.taints ?? []).map((t) => t.key);
    expect(taints).not.toContain(notReady.key);
    expect(taints).not.toContain(TaintUnregistered.key);
    expect(taints).toContain('dedicated');
    expect(node.metadata?.labels?.['karpenter.sh/registered']).toBe('true');
  });
});
