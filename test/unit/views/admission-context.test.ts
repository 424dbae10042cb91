import { describe, expect, it } from 'vitest';
import type { NodeClaim, NodePool } from '../../../src/apis/index.js';
import { stateAdmissionContext } from '../../../src/views/admission-context.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';

const pool = (name: string, extra: object = {}): NodePool =>
  ({
    metadata: { name },
    spec: {
      template: { spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] } },
    },
    ...extra,
  }) as unknown as NodePool;
const claim = (name: string): NodeClaim =>
  ({
    metadata: { name },
    spec: { nodeClassRef: { group: 'karpenter.ovhcloud.sh', kind: 'OVHNodeClass', name: 'default' }, requirements: [] },
  }) as unknown as NodeClaim;

function setup() {
  const state = new ClusterState({ clock: new FakeClock() });
  const provider = stateAdmissionContext({ state, catalogs: {}, defaults: { gpuTaint: true, globalCredentials: {} } });
  return { state, provider };
}

describe('stateAdmissionContext', () => {
  it('lists NodePools, NodeClasses and NodeClaims with their kind, and the old object on update', () => {
    const { state, provider } = setup();
    state.updateNodePool(pool('a'));
    state.updateNodeClass('OVHNodeClass', { apiVersion: 'karpenter.ovhcloud.sh/v1alpha1', metadata: { name: 'default' } } as never);
    state.updateNodeClaim(claim('a-1'));
    const old = { kind: 'NodePool', metadata: { name: 'a' } };
    const context = provider.contextFor('UPDATE', old);
    expect(context.oldObject).toBe(old);
    expect(context.nodePools).toEqual([
      expect.objectContaining({ apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'a' } }),
    ]);
    expect(context.nodeClasses).toEqual([expect.objectContaining({ apiVersion: 'karpenter.ovhcloud.sh/v1alpha1', kind: 'OVHNodeClass' })]);
    expect(context.nodeClaims.map((c) => [c.kind, (c.metadata as { name: string }).name])).toEqual([['NodeClaim', 'a-1']]);
  });

  it('reuses the lists between reviews and rebuilds them after any change of those kinds', () => {
    const { state, provider } = setup();
    state.updateNodePool(pool('a'));
    const first = provider.contextFor('CREATE', undefined);
    expect(provider.contextFor('CREATE', undefined).nodePools).toBe(first.nodePools);
    state.updateNodePool(pool('a', { status: { nodes: 1 } }));
    const second = provider.contextFor('CREATE', undefined);
    expect(second.nodePools).not.toBe(first.nodePools);
    expect(second.nodePools[0]).toMatchObject({ status: { nodes: 1 } });
    state.updateNodeClaim(claim('a-1'));
    expect(provider.contextFor('CREATE', undefined).nodeClaims).toHaveLength(1);
    state.deleteNodeClaim(claim('a-1'));
    state.deleteNodePool(pool('a'));
    const last = provider.contextFor('CREATE', undefined);
    expect([last.nodePools, last.nodeClaims]).toEqual([[], []]);
  });
});
