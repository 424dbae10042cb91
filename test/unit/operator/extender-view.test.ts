import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { NodeClaim, NodePool } from '../../../src/apis/index.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { clusterStateExtenderView } from '../../../src/operator/extender-view.js';
import { CatalogPriceBook } from '../../../src/operator/price-book.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';

const prices = new CatalogPriceBook({ ovhcloud: loadCatalog('ovhcloud') });
const GiB = 2 ** 30;

function node(name: string, extra: { deleting?: boolean; flavor?: string; tainted?: boolean } = {}): V1Node {
  return {
    metadata: {
      name,
      labels: { 'karpenter-eu.io/cloud': 'ovhcloud', 'node.kubernetes.io/instance-type': extra.flavor ?? 'b3-8', 'topology.kubernetes.io/zone': 'eu-west-par-a' },
      ...(extra.deleting ? { deletionTimestamp: new Date(0) } : {}),
    },
    spec: { providerID: `openstack:///${name}`, ...(extra.tainted ? { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] } : {}) },
    status: { allocatable: { cpu: '7910m', memory: '28Gi', pods: '110' } },
  };
}

function pod(name: string, nodeName: string | undefined, cpu: string, phase = 'Running'): V1Pod {
  return {
    metadata: { name, namespace: 'default' },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', resources: { requests: { cpu, memory: '1Gi' } } }] },
    status: { phase },
  };
}

function claim(name: string, nodeName: string, deleting = false, conditions: string[] = []): NodeClaim {
  return {
    metadata: { name, labels: { 'karpenter.sh/nodepool': 'default' }, ...(deleting ? { deletionTimestamp: new Date(0).toISOString() } : {}) },
    spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] },
    status: { providerID: `openstack:///${nodeName}`, conditions: conditions.map((type) => ({ type, status: 'True', reason: type, message: '', lastTransitionTime: '2026-01-01T00:00:00Z' })) },
  } as unknown as NodeClaim;
}

function pool(policy: 'WhenEmpty' | 'WhenEmptyOrUnderutilized'): NodePool {
  return { metadata: { name: 'default' }, spec: { disruption: { consolidationPolicy: policy }, template: { spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] } } } } as unknown as NodePool;
}

function setup(): { state: ClusterState; view: ReturnType<typeof clusterStateExtenderView> } {
  const state = new ClusterState({ clock: new FakeClock() });
  return { state, view: clusterStateExtenderView(state, prices) };
}

describe('clusterStateExtenderView', () => {
  it('sums the requests of the non-terminal pods bound to the node and prices it from the catalog', () => {
    const { state, view } = setup();
    state.updateNode(node('n1'));
    state.updatePod(pod('a', 'n1', '500m'));
    state.updatePod(pod('b', 'n1', '1'));
    state.updatePod(pod('done', 'n1', '4', 'Succeeded'));
    state.updatePod(pod('pending', undefined, '2'));
    expect(view.get('n1')).toMatchObject({ allocatable: { cpu: 7_910, memory: 28 * GiB }, requested: { cpu: 1_500, memory: 2 * GiB, pods: 2 }, pricePerHour: 0.0508, state: 'ok' });
    expect(view.get('unknown')).toBeUndefined();
  });

  it('follows pods, marks, NodeClaim deletion and the disruption outlook after the first answer', () => {
    const { state, view } = setup();
    state.updateNode(node('n1'));
    state.updateNodeClaim(claim('c1', 'n1'));
    expect(view.get('n1')?.requested).toEqual({});
    state.updatePod(pod('a', 'n1', '1'));
    expect(view.get('n1')?.requested.cpu).toBe(1_000);
    state.setDisruptionOutlook(new Map([['n1', 'drifted']]));
    expect(view.get('n1')?.state).toBe('drifted');
    state.markForDeletion('openstack:///n1');
    expect(view.get('n1')?.state).toBe('disrupting');
    state.unmarkForDeletion('openstack:///n1');
    state.setDisruptionOutlook(new Map());
    expect(view.get('n1')?.state).toBe('ok');
    state.updateNodeClaim(claim('c1', 'n1', true));
    expect(view.get('n1')?.state).toBe('terminating');
    state.deletePod(pod('a', 'n1', '1'));
    expect(view.get('n1')?.requested).toEqual({});
    state.deleteNode(node('n1'));
    expect(view.get('n1')).toBeUndefined();
  });

  it('on a replica that does not run disruption, reads the disrupted taint and the NodeClaim conditions the leader writes', () => {
    const { state, view } = setup();
    state.updateNodePool(pool('WhenEmptyOrUnderutilized'));
    for (const [name, conditions] of [['drifted', ['Drifted']], ['idle', ['Consolidatable']], ['busy', []]] as const) {
      state.updateNode(node(name));
      state.updateNodeClaim(claim(`c-${name}`, name, false, [...conditions]));
    }
    state.updateNode(node('cordoned', { tainted: true }));
    expect(['drifted', 'idle', 'busy', 'cordoned'].map((n) => view.get(n)?.state)).toEqual(['drifted', 'consolidation-candidate', 'ok', 'disrupting']);
    // WhenEmpty pools consolidate only empty nodes: the condition alone does not make a candidate.
    state.updateNodePool(pool('WhenEmpty'));
    expect(view.get('idle')?.state).toBe('ok');
    // Once this process runs disruption, its own outlook is the source (absent = stays).
    state.setDisruptionOutlook(new Map([['busy', 'consolidation-candidate']]));
    expect(['drifted', 'idle', 'busy'].map((n) => view.get(n)?.state)).toEqual(['ok', 'ok', 'consolidation-candidate']);
    state.setDisruptionOutlook(undefined);
    expect(view.get('drifted')?.state).toBe('drifted');
  });

  it('a malformed quantity counts as nothing instead of failing the scheduler call', () => {
    const { state, view } = setup();
    state.updateNode({ ...node('n1'), status: { allocatable: { cpu: 'lots' } } });
    state.updatePod(pod('a', 'n1', 'many'));
    expect(view.get('n1')).toMatchObject({ allocatable: {}, requested: {} });
  });

  // The cache must never answer differently from a view built afresh on the same state.
  const names = ['n1', 'n2', 'n3'];
  const name = fc.constantFrom(...names);
  const operation = fc.oneof(
    fc.record({ kind: fc.constant('node' as const), name, deleting: fc.boolean(), flavor: fc.constantFrom('b3-8', 'b3-16'), tainted: fc.boolean() }),
    fc.record({ kind: fc.constant('pool' as const), policy: fc.constantFrom('WhenEmpty' as const, 'WhenEmptyOrUnderutilized' as const) }),
    fc.record({ kind: fc.constant('unpublish' as const) }),
    fc.record({ kind: fc.constant('deleteNode' as const), name }),
    fc.record({ kind: fc.constant('pod' as const), pod: fc.constantFrom('p1', 'p2', 'p3', 'p4'), node: fc.option(name, { nil: undefined }), cpu: fc.constantFrom('100m', '1', '2'), phase: fc.constantFrom('Running', 'Failed') }),
    fc.record({ kind: fc.constant('deletePod' as const), pod: fc.constantFrom('p1', 'p2', 'p3', 'p4') }),
    fc.record({ kind: fc.constant('claim' as const), name, deleting: fc.boolean(), conditions: fc.subarray(['Drifted', 'Consolidatable']) }),
    fc.record({ kind: fc.constant('deleteClaim' as const), name }),
    fc.record({ kind: fc.constant('mark' as const), name, on: fc.boolean() }),
    fc.record({ kind: fc.constant('outlook' as const), drifted: fc.subarray(names), candidates: fc.subarray(names) }),
  );

  it('property: after any sequence of changes, the cached answers equal fresh ones', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(operation, fc.subarray(names)), { maxLength: 40 }), (steps) => {
        const { state, view } = setup();
        for (const [op, asked] of steps) {
          if (op.kind === 'node') state.updateNode(node(op.name, op));
          if (op.kind === 'deleteNode') state.deleteNode(node(op.name));
          if (op.kind === 'pod') state.updatePod(pod(op.pod, op.node, op.cpu, op.phase));
          if (op.kind === 'deletePod') state.deletePod(pod(op.pod, undefined, '0'));
          if (op.kind === 'claim') state.updateNodeClaim(claim(`c-${op.name}`, op.name, op.deleting, op.conditions));
          if (op.kind === 'pool') state.updateNodePool(pool(op.policy));
          if (op.kind === 'unpublish') state.setDisruptionOutlook(undefined);
          if (op.kind === 'deleteClaim') state.deleteNodeClaim(claim(`c-${op.name}`, op.name));
          if (op.kind === 'mark') (op.on ? state.markForDeletion.bind(state) : state.unmarkForDeletion.bind(state))(`openstack:///${op.name}`);
          if (op.kind === 'outlook') state.setDisruptionOutlook(new Map([...op.candidates.map((n) => [n, 'consolidation-candidate'] as const), ...op.drifted.map((n) => [n, 'drifted'] as const)]));
          for (const n of asked) view.get(n); // fill the cache at arbitrary points
          const fresh = clusterStateExtenderView(state, prices);
          for (const n of names) expect(view.get(n)).toEqual(fresh.get(n));
        }
      }),
      { numRuns: 300 },
    );
  });
});
