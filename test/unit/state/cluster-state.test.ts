import { describe, expect, it } from 'vitest';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { NodeClaim, NodePool } from '../../../src/apis/index.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';

const unschedulable = { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] };

function pod(name: string, nodeName?: string, status: V1Pod['status'] = {}): V1Pod {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { containers: [], ...(nodeName ? { nodeName } : {}) },
    status,
  };
}

function node(
  name: string,
  providerID?: string,
  extra: { labels?: Record<string, string>; capacity?: Record<string, string> } = {},
): V1Node {
  return { metadata: { name, labels: extra.labels }, spec: providerID ? { providerID } : {}, status: { capacity: extra.capacity } };
}

function claim(name: string, pool: string, providerID?: string, capacity?: Record<string, string>): NodeClaim {
  return {
    metadata: { name, labels: { 'karpenter.sh/nodepool': pool } },
    spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] },
    status: { providerID, capacity },
  } as NodeClaim;
}

function setup(): { state: ClusterState; clock: FakeClock } {
  const clock = new FakeClock();
  return { state: new ClusterState({ clock }), clock };
}

describe('ClusterState indexes', () => {
  it('indexes pods by node and follows a pod that moves or goes', () => {
    const { state } = setup();
    state.updatePod(pod('a', 'n1'));
    state.updatePod(pod('b', 'n1'));
    state.updatePod(pod('c'));
    expect(
      state
        .podsOnNode('n1')
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b']);
    state.updatePod(pod('c', 'n2'));
    state.updatePod(pod('b', 'n2'));
    expect(state.podsOnNode('n1').map((p) => p.metadata?.name)).toEqual(['a']);
    expect(
      state
        .podsOnNode('n2')
        .map((p) => p.metadata?.name)
        .sort(),
    ).toEqual(['b', 'c']);
    state.deletePod(pod('a', 'n1'));
    expect(state.podsOnNode('n1')).toEqual([]);
    expect(state.pod('default', 'a')).toBeUndefined();
  });

  it('finds nodes and NodeClaims by providerID and NodeClaims by NodePool', () => {
    const { state } = setup();
    state.updateNode(node('n1', 'scw://1'));
    state.updateNodeClaim(claim('default-a', 'default', 'scw://1'));
    state.updateNodeClaim(claim('default-b', 'default'));
    state.updateNodeClaim(claim('gpu-a', 'gpu', 'scw://2'));
    expect(state.nodeByProvider('scw://1')?.metadata?.name).toBe('n1');
    expect(state.nodeClaimByProvider('scw://2')?.metadata?.name).toBe('gpu-a');
    expect(
      state
        .nodeClaimsOfNodePool('default')
        .map((c) => c.metadata?.name)
        .sort(),
    ).toEqual(['default-a', 'default-b']);
    // The NodeClaim gets its providerID later (launch) and moves pool labels never; the index follows.
    state.updateNodeClaim(claim('default-b', 'default', 'scw://3'));
    expect(state.nodeClaimByProvider('scw://3')?.metadata?.name).toBe('default-b');
    state.deleteNodeClaim(claim('gpu-a', 'gpu'));
    expect(state.nodeClaimByProvider('scw://2')).toBeUndefined();
    expect(state.nodeClaimsOfNodePool('gpu')).toEqual([]);
    state.updateNode(node('n1', 'scw://9'));
    expect(state.nodeByProvider('scw://1')).toBeUndefined();
    expect(state.nodeByProvider('scw://9')?.metadata?.name).toBe('n1');
  });
});

describe('ClusterState snapshot', () => {
  it('joins Node and NodeClaim by providerID, keeps in-flight claims and unmanaged nodes', () => {
    const { state } = setup();
    state.updateNode(node('n1', 'scw://1', { labels: { 'karpenter.sh/initialized': 'true' } }));
    state.updateNode(node('static-1', 'scw://static'));
    state.updateNodeClaim(claim('default-a', 'default', 'scw://1'));
    state.updateNodeClaim(claim('default-b', 'default'));
    state.updatePod(pod('on-n1', 'n1', { phase: 'Running' }));
    state.updatePod(pod('done', 'n1', { phase: 'Succeeded' }));
    const nodes = state.snapshot().nodes;
    expect(nodes.map((n) => [n.name, n.key, n.managed, n.initialized, n.nodePool, n.pods.map((p) => p.metadata?.name)])).toEqual([
      ['default-b', 'nodeclaim/default-b', true, false, 'default', []],
      ['n1', 'scw://1', true, true, 'default', ['on-n1']],
      ['static-1', 'scw://static', false, false, undefined, []],
    ]);
  });

  it('lists only provisionable pods as pending', () => {
    const { state } = setup();
    state.updatePod(pod('pending', undefined, unschedulable));
    state.updatePod(pod('fresh'));
    state.updatePod(pod('bound', 'n1', unschedulable));
    state.updatePod({ ...pod('gated', undefined, unschedulable), spec: { containers: [], schedulingGates: [{ name: 'wait' }] } });
    expect(state.snapshot().pendingPods.map((p) => p.metadata?.name)).toEqual(['pending']);
  });

  it('sums NodePool usage over managed nodes, preferring the Node capacity', () => {
    const { state } = setup();
    state.updateNodeClaim(claim('default-a', 'default', 'scw://1', { cpu: '2', memory: '4Gi' }));
    state.updateNode(node('n1', 'scw://1', { capacity: { cpu: '4', memory: '8Gi' } }));
    state.updateNodeClaim(claim('default-b', 'default', undefined, { cpu: '500m', memory: '1Gi' }));
    state.updateNodeClaim(claim('gpu-a', 'gpu', undefined, { cpu: 'not-a-quantity' }));
    state.updateNode(node('unmanaged', 'scw://x', { capacity: { cpu: '64' } }));
    expect(state.snapshot().nodePoolUsage).toEqual({
      default: { resources: { cpu: 4500, memory: 9 * 1024 ** 3 }, nodes: 2 },
      gpu: { resources: {}, nodes: 1 },
    });
  });

  it('carries marks: deletion marks until unmarked, nominations for the window only', () => {
    const { state, clock } = setup();
    state.updateNode(node('n1', 'scw://1'));
    state.updateNode(node('n2', 'scw://2'));
    state.updateNodeClaim({
      ...claim('default-c', 'default', 'scw://3'),
      metadata: { name: 'default-c', labels: { 'karpenter.sh/nodepool': 'default' }, deletionTimestamp: '2026-01-01T00:00:00Z' as never },
    });
    state.markForDeletion('scw://1');
    state.nominate('scw://2');
    const marks = (): string[] => state.snapshot().nodes.map((n) => `${n.name}:${n.markedForDeletion}:${n.nominated}`);
    expect(marks()).toEqual(['default-c:true:false', 'n1:true:false', 'n2:false:true']);
    clock.step(20_000);
    state.unmarkForDeletion('scw://1');
    expect(marks()).toEqual(['default-c:true:false', 'n1:false:false', 'n2:false:false']);
  });

  it('keeps NodePools, NodeClasses by kind, DaemonSets and PDBs', () => {
    const { state } = setup();
    state.updateNodePool({ metadata: { name: 'default' } } as NodePool);
    state.updateNodeClass('ScalewayNodeClass', { metadata: { name: 'default' }, spec: { zone: 'fr-par-1' } });
    state.updateNodeClass('OVHNodeClass', { metadata: { name: 'default' }, spec: {} });
    state.updateDaemonSet({ metadata: { name: 'ds', namespace: 'kube-system' } });
    state.updatePodDisruptionBudget({ metadata: { name: 'pdb', namespace: 'default' } });
    state.deleteNodeClass('OVHNodeClass', { metadata: { name: 'default' } });
    const snap = state.snapshot();
    expect(snap.nodePools.map((p) => p.metadata?.name)).toEqual(['default']);
    expect(snap.nodeClasses.map((c) => `${c.kind}/${c.name}`)).toEqual(['ScalewayNodeClass/default']);
    expect(state.nodeClass('ScalewayNodeClass', 'default')?.object.spec).toEqual({ zone: 'fr-par-1' });
    expect(snap.daemonSets).toHaveLength(1);
    expect(snap.podDisruptionBudgets).toHaveLength(1);
    expect(snap.synced).toBe(false);
    state.setSyncedSource(() => true);
    expect(state.synced()).toBe(true);
  });

  it('carries the DRA objects in snapshots only once they are watched', () => {
    const { state } = setup();
    expect(state.snapshot().dra).toBeUndefined();
    state.watchDynamicResources();
    expect(state.snapshot().dra).toEqual({ resourceClaims: [], resourceClaimTemplates: [], deviceClasses: [], resourceSlices: [] });
    state.updateDraObject('ResourceClaim', { metadata: { name: 'gpu', namespace: 'a' } });
    state.updateDraObject('ResourceClaim', { metadata: { name: 'gpu', namespace: 'b' } });
    state.updateDraObject('DeviceClass', { metadata: { name: 'gpu.nvidia.com' } });
    state.deleteDraObject('ResourceClaim', { metadata: { name: 'gpu', namespace: 'a' } });
    const dra = state.snapshot().dra;
    expect(dra?.resourceClaims?.map((c) => `${c.metadata?.namespace}/${c.metadata?.name}`)).toEqual(['b/gpu']);
    expect(dra?.deviceClasses?.map((c) => c.metadata?.name)).toEqual(['gpu.nvidia.com']);
  });
});
