// ClusterState with the service's NodePool reader: every way a NodePool is read (nodePool, nodePoolList, snapshot,
// and so provisioning, disruption, the extender and admission) sees the read-time defaults, the stored object stays
// as written, and the view follows the NodeClass it names.
import { describe, expect, it } from 'vitest';
import type { NodePool } from '../../../src/apis/index.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { LiveCatalogs } from '../../../src/cloudprovider/live-catalogs.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import { defaultingNodePoolReader } from '../../../src/views/nodepool-reader.js';
import { defaults, nodePool, ovhClass, req } from '../domain/admission/fixtures.js';

const IT = 'node.kubernetes.io/instance-type';
type Req = { key: string; operator: string; values?: string[] };
const reqsOf = (pool: NodePool | undefined): Req[] => (pool?.spec.template.spec.requirements ?? []) as Req[];

function setup(): ClusterState {
  const state = new ClusterState({ clock: new FakeClock() });
  state.setNodePoolReader(defaultingNodePoolReader(new LiveCatalogs({ ovhcloud: loadCatalog('ovhcloud') }), defaults));
  return state;
}

describe('ClusterState read through the defaulting NodePool reader', () => {
  it('gives every reader the defaults and leaves the stored object as written', () => {
    const state = setup();
    state.updateNodeClass('OVHNodeClass', ovhClass('default') as never);
    const stored = nodePool('p', { requirements: [req(IT, 'In', 'B3-8')] }) as unknown as NodePool;
    const before = structuredClone(stored);
    state.updateNodePool(stored);
    const expected = [
      req(IT, 'In', 'b3-8'),
      req('karpenter.sh/capacity-type', 'In', 'on-demand'),
      req('kubernetes.io/arch', 'In', 'amd64'),
    ];
    expect(reqsOf(state.nodePool('p'))).toEqual(expected);
    expect(reqsOf(state.nodePoolList()[0])).toEqual(expected);
    expect(reqsOf(state.snapshot().nodePools[0])).toEqual(expected);
    expect(stored).toEqual(before);
    // Derived once per change: the same object until a NodePool or NodeClass changes.
    expect(state.nodePool('p')).toBe(state.snapshot().nodePools[0]);
  });

  it('follows the NodeClass: a class turned monthly-billed restricts the pool to gen2 from the next read on', () => {
    const state = setup();
    state.updateNodeClass('OVHNodeClass', ovhClass('c', { monthlyBilled: false }) as never);
    state.updateNodePool(nodePool('p', { nodeClass: 'c' }) as unknown as NodePool);
    const family = (pool: NodePool | undefined) => reqsOf(pool).find((r) => r.key === 'karpenter-eu.io/instance-family');
    expect(family(state.nodePool('p'))).toBeUndefined();
    state.updateNodeClass('OVHNodeClass', ovhClass('c', { monthlyBilled: true }) as never);
    expect(family(state.nodePool('p'))).toEqual(req('karpenter-eu.io/instance-family', 'In', 'b2', 'c2', 'd2', 'r2'));
  });
});
