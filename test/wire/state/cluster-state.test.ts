import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { V1Node } from '@kubernetes/client-node';
import { createKube, type Kube, Resources } from '../../../src/kube/index.js';
import { ClusterState, type ClusterStateInformers, createClusterStateInformers } from '../../../src/state/index.js';
import type { ApiServer } from '../../../src/testbed/cluster/apiserver/index.js';
import { SystemClock } from '../../../src/util/clock.js';
import { eventually, pod, startClusterWithCrds } from '../kube/kube-fixtures.js';
import { nodeClaim, nodePool } from '../kube/kube-fixtures-objects.js';

let server: ApiServer;
let kube: Kube;
let informers: ClusterStateInformers | undefined;

beforeEach(async () => {
  server = await startClusterWithCrds();
  kube = createKube(server.kubeConfig);
});

afterEach(async () => {
  await informers?.stop();
  informers = undefined;
  await server.close();
});

async function startState(): Promise<ClusterState> {
  const clock = new SystemClock();
  const state = new ClusterState({ clock });
  informers = createClusterStateInformers({
    kubeConfig: server.kubeConfig,
    kube,
    clock,
    state,
    restartBackoff: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  await informers.start();
  await informers.waitForSync();
  return state;
}

describe('ClusterState fed by informers from the simulated API server', () => {
  it('is synced after every informer listed, with the objects that existed before', async () => {
    await kube.create(Resources.NodePool, nodePool('default', { cpu: '100' }));
    await kube.create(Resources.NodeClaim, nodeClaim('default-a', 'default'));
    await kube.create(Resources.ScalewayNodeClass, {
      apiVersion: 'karpenter.scaleway.sh/v1alpha1',
      kind: 'ScalewayNodeClass',
      metadata: { name: 'default' },
      spec: { projectId: '11111111-1111-4111-8111-111111111111', image: 'ubuntu_noble', zones: ['fr-par-1'] },
    });
    await kube.create(Resources.PodDisruptionBudget, {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'db', namespace: 'default' },
      spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'db' } } },
    });
    await kube.create(Resources.DaemonSet, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'x' }] } },
      },
    });
    const state = await startState();
    expect(state.synced()).toBe(true);
    const snap = state.snapshot();
    expect(snap.synced).toBe(true);
    expect(snap.nodePools.map((p) => p.metadata?.name)).toEqual(['default']);
    expect(snap.nodes.map((n) => n.key)).toEqual(['nodeclaim/default-a']);
    expect(snap.nodeClasses.map((c) => `${c.kind}/${c.name}`)).toEqual(['ScalewayNodeClass/default']);
    expect(snap.podDisruptionBudgets.map((p) => p.metadata?.name)).toEqual(['db']);
    expect(snap.daemonSets.map((d) => d.metadata?.name)).toEqual(['agent']);
  });

  it('follows launches, registration, binding and pending pods as they happen', async () => {
    const state = await startState();
    await kube.create(Resources.NodeClaim, nodeClaim('default-a', 'default'));
    await kube.patch(
      Resources.NodeClaim,
      { name: 'default-a' },
      { type: 'merge', body: { status: { providerID: 'scaleway://fr-par-1/i-1', capacity: { cpu: '4', memory: '8Gi' } } } },
      { status: true },
    );
    await eventually(() => state.nodeClaimByProvider('scaleway://fr-par-1/i-1'));
    await kube.create<V1Node>(Resources.Node, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-1', labels: { 'karpenter.sh/nodepool': 'default', 'karpenter.sh/initialized': 'true' } },
      spec: { providerID: 'scaleway://fr-par-1/i-1' },
    });
    await kube.create(Resources.Pod, pod('web-1', { spec: { nodeName: 'node-1', containers: [{ name: 'a', image: 'x' }] } }));
    await kube.create(Resources.Pod, pod('waiting'));
    await kube.patch(
      Resources.Pod,
      { name: 'waiting', namespace: 'default' },
      { type: 'merge', body: { status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } } },
      { status: true },
    );
    await eventually(() => state.snapshot().pendingPods.length === 1 && state.podsOnNode('node-1').length === 1);
    const [stateNode, ...others] = state.snapshot().nodes;
    expect(others).toEqual([]);
    expect(stateNode).toMatchObject({
      key: 'scaleway://fr-par-1/i-1',
      name: 'node-1',
      managed: true,
      initialized: true,
      nodePool: 'default',
    });
    expect(stateNode?.pods.map((p) => p.metadata?.name)).toEqual(['web-1']);
    expect(state.snapshot().pendingPods.map((p) => p.metadata?.name)).toEqual(['waiting']);
    expect(state.snapshot().nodePoolUsage).toEqual({ default: { resources: { cpu: 4000, memory: 8 * 1024 ** 3 }, nodes: 1 } });
    await kube.delete(Resources.NodeClaim, { name: 'default-a' });
    await eventually(() => state.nodeClaim('default-a') === undefined);
    expect(state.snapshot().nodes.map((n) => [n.name, n.managed])).toEqual([['node-1', false]]);
  });
});
