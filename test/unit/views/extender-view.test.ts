import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { NodeClaim, NodePool } from '../../../src/apis/index.js';
import { loadCatalog } from '../../../src/catalog/index.js';
import { type ExtenderNode, NodeStates, type ResolvedNodes, UnknownSlot } from '../../../src/domain/extender/index.js';
import { clusterStateExtenderView } from '../../../src/views/extender-view.js';
import { CatalogPriceBook } from '../../../src/views/price-book.js';
import { ClusterState } from '../../../src/state/index.js';
import { FakeClock } from '../../../src/util/clock.js';
import type { NameSpans } from '../../../src/byte-path/index.js';
import { walkNodeNamesBody } from '../../../webhooks/extender/json-body.js';

const prices = new CatalogPriceBook({ ovhcloud: loadCatalog('ovhcloud') });
const GiB = 2 ** 30;

function node(name: string, extra: { deleting?: boolean; flavor?: string; tainted?: boolean } = {}): V1Node {
  return {
    metadata: {
      name,
      labels: {
        'karpenter-eu.io/cloud': 'ovhcloud',
        'node.kubernetes.io/instance-type': extra.flavor ?? 'b3-8',
        'topology.kubernetes.io/zone': 'eu-west-par-a',
      },
      ...(extra.deleting ? { deletionTimestamp: new Date(0) } : {}),
    },
    spec: {
      providerID: `openstack:///${name}`,
      ...(extra.tainted ? { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] } : {}),
    },
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
    metadata: {
      name,
      labels: { 'karpenter.sh/nodepool': 'default' },
      ...(deleting ? { deletionTimestamp: new Date(0).toISOString() } : {}),
    },
    spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] },
    status: {
      providerID: `openstack:///${nodeName}`,
      conditions: conditions.map((type) => ({
        type,
        status: 'True',
        reason: type,
        message: '',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      })),
    },
  } as unknown as NodeClaim;
}

function pool(policy: 'WhenEmpty' | 'WhenEmptyOrUnderutilized'): NodePool {
  return {
    metadata: { name: 'default' },
    spec: {
      disruption: { consolidationPolicy: policy },
      template: { spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] } },
    },
  } as unknown as NodePool;
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
    expect(view.get('n1')).toMatchObject({
      allocatable: { cpu: 7_910, memory: 28 * GiB },
      requested: { cpu: 1_500, memory: 2 * GiB, pods: 2 },
      pricePerHour: 0.0508,
      state: 'ok',
    });
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
    for (const [name, conditions] of [
      ['drifted', ['Drifted']],
      ['idle', ['Consolidatable']],
      ['busy', []],
    ] as const) {
      state.updateNode(node(name));
      state.updateNodeClaim(claim(`c-${name}`, name, false, [...conditions]));
    }
    state.updateNode(node('cordoned', { tainted: true }));
    expect(['drifted', 'idle', 'busy', 'cordoned'].map((n) => view.get(n)?.state)).toEqual([
      'drifted',
      'consolidation-candidate',
      'ok',
      'disrupting',
    ]);
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
    fc.record({
      kind: fc.constant('node' as const),
      name,
      deleting: fc.boolean(),
      flavor: fc.constantFrom('b3-8', 'b3-16'),
      tainted: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('pool' as const), policy: fc.constantFrom('WhenEmpty' as const, 'WhenEmptyOrUnderutilized' as const) }),
    fc.record({ kind: fc.constant('unpublish' as const) }),
    fc.record({ kind: fc.constant('deleteNode' as const), name }),
    fc.record({
      kind: fc.constant('pod' as const),
      pod: fc.constantFrom('p1', 'p2', 'p3', 'p4'),
      node: fc.option(name, { nil: undefined }),
      cpu: fc.constantFrom('100m', '1', '2'),
      phase: fc.constantFrom('Running', 'Failed'),
    }),
    fc.record({ kind: fc.constant('deletePod' as const), pod: fc.constantFrom('p1', 'p2', 'p3', 'p4') }),
    fc.record({
      kind: fc.constant('claim' as const),
      name,
      deleting: fc.boolean(),
      conditions: fc.subarray(['Drifted', 'Consolidatable']),
    }),
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
          if (op.kind === 'mark')
            (op.on ? state.markForDeletion.bind(state) : state.unmarkForDeletion.bind(state))(`openstack:///${op.name}`);
          if (op.kind === 'outlook')
            state.setDisruptionOutlook(
              new Map([
                ...op.candidates.map((n) => [n, 'consolidation-candidate'] as const),
                ...op.drifted.map((n) => [n, 'drifted'] as const),
              ]),
            );
          for (const n of asked) view.get(n); // fill the cache at arbitrary points
          const fresh = clusterStateExtenderView(state, prices);
          for (const n of names) expect(view.get(n)).toEqual(fresh.get(n));
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** The names as a NodeNames request carries them: spans of its body, at an odd offset of a larger buffer. */
function spansOf(names: readonly string[]): NameSpans {
  const text = Buffer.from(`{"Pod":{},"Nodes":null,"NodeNames":${JSON.stringify(names)}}`);
  const walked = walkNodeNamesBody(Buffer.concat([Buffer.from(' '), text]).subarray(1));
  if (!walked) throw new Error(`not a NodeNames body: ${text.toString()}`);
  return walked.names;
}

/** Differences between nodesNamed's answer for `names` and get() per name (of the same view and of a fresh one). */
function disagreements(
  view: ReturnType<typeof clusterStateExtenderView>,
  fresh: ReturnType<typeof clusterStateExtenderView>,
  names: readonly string[],
  { columns, slots }: ResolvedNodes,
): string[] {
  const wrong: string[] = [];
  expect(slots).toHaveLength(names.length);
  names.forEach((name, i) => {
    const slot = slots[i] as number;
    const expected = fresh.get(name);
    if (expected === undefined) {
      if (slot !== UnknownSlot) wrong.push(`${name}: slot ${slot} for a node the state does not hold`);
      return;
    }
    if (slot === UnknownSlot || slot < 0 || slot >= columns.slotLimit)
      return void wrong.push(`${name}: slot ${slot} for a node the state holds`);
    const node = columns.nodes[slot] as ExtenderNode;
    if (node !== view.get(name)) wrong.push(`${name}: columns.nodes[${slot}] is not what get() answers`);
    try {
      expect(node).toEqual(expected);
    } catch {
      wrong.push(`${name}: ${JSON.stringify(node)} where a fresh view answers ${JSON.stringify(expected)}`);
    }
    const numbers = [
      columns.cpuAllocatable[slot],
      columns.memoryAllocatable[slot],
      columns.cpuRequested[slot],
      columns.memoryRequested[slot],
      columns.pricePerHour[slot],
      columns.states[slot],
    ];
    const expectedNumbers = [
      expected.allocatable.cpu ?? 0,
      expected.allocatable.memory ?? 0,
      expected.requested.cpu ?? 0,
      expected.requested.memory ?? 0,
      expected.pricePerHour ?? Number.NaN,
      NodeStates.indexOf(expected.state),
    ];
    if (!numbers.every((n, k) => Object.is(n, expectedNumbers[k])))
      wrong.push(`${name}: columns ${numbers.join(',')} where ${expectedNumbers.join(',')}`);
  });
  return wrong;
}

describe('clusterStateExtenderView.nodesNamed', () => {
  const nodesNamed = (view: ReturnType<typeof clusterStateExtenderView>, names: readonly string[]): ResolvedNodes => {
    if (!view.nodesNamed) throw new Error('the view has no nodesNamed');
    return view.nodesNamed(spansOf(names));
  };

  function populated(): { state: ClusterState; view: ReturnType<typeof clusterStateExtenderView> } {
    const { state, view } = setup();
    state.updateNode(node('n1'));
    state.updateNode(node('karpenter-b3-16-eu-west-par-a-node-1f2e3d', { flavor: 'b3-16' }));
    state.updateNode(node('12345', { flavor: 'unpriced-flavor' }));
    state.updateNode(node('cordoned', { tainted: true }));
    state.updatePod(pod('a', 'n1', '500m'));
    state.updatePod(pod('b', '12345', '2'));
    return { state, view };
  }
  const asked = ['12345', 'unknown', 'n1', 'karpenter-b3-16-eu-west-par-a-node-1f2e3d', 'n1', 'cordoned', '', 'n', 'n11', '12345'];

  it.each([
    ['before get() was ever asked', false],
    ['after get() was asked for every name', true],
  ])('answers what get() answers for each name, in any order and with repeats, %s', (_label, getFirst) => {
    const { state, view } = populated();
    if (getFirst) for (const name of asked) view.get(name);
    const resolved = nodesNamed(view, asked);
    expect(disagreements(view, clusterStateExtenderView(state, prices), asked, resolved)).toEqual([]);
    expect(Array.from(resolved.slots, (slot) => slot === UnknownSlot)).toEqual([
      false,
      true,
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      false,
    ]);
    // A name asked twice is one node: one slot.
    expect(resolved.slots[2]).toBe(resolved.slots[4]);
    expect(resolved.slots[0]).toBe(resolved.slots[9]);
    expect(new Set(Array.from(resolved.slots).filter((slot) => slot !== UnknownSlot)).size).toBe(4);
  });

  it('gives the numbers of each node in its columns: requests, price (NaN when unknown) and state code', () => {
    const { view } = populated();
    const { columns, slots } = nodesNamed(view, ['n1', '12345', 'cordoned']);
    const [n1, digits, cordoned] = Array.from(slots);
    expect([
      columns.cpuAllocatable[n1 as number],
      columns.memoryAllocatable[n1 as number],
      columns.cpuRequested[n1 as number],
      columns.memoryRequested[n1 as number],
    ]).toEqual([7_910, 28 * GiB, 500, GiB]);
    expect(columns.pricePerHour[n1 as number]).toBe(0.0508);
    expect(columns.pricePerHour[digits as number]).toBeNaN();
    expect(columns.cpuRequested[digits as number]).toBe(2_000);
    expect(columns.states[cordoned as number]).toBe(NodeStates.indexOf('disrupting'));
    expect(columns.states[n1 as number]).toBe(NodeStates.indexOf('ok'));
  });

  it('follows the cluster: a pod bound, a node deleted (UnknownSlot), re-added (found again, answered afresh), its NodeClaim deleted', () => {
    const { state, view } = populated();
    const names = ['n1', 'cordoned', '12345'];
    const slotOf = (name: string): number => nodesNamed(view, names).slots[names.indexOf(name)] as number;
    const columns = nodesNamed(view, names).columns;

    state.updatePod(pod('c', 'n1', '1'));
    expect(columns.cpuRequested[slotOf('n1')]).toBe(1_500);
    expect(columns.nodes[slotOf('n1')]?.requested.cpu).toBe(1_500);

    const before = slotOf('cordoned');
    state.deleteNode(node('cordoned'));
    // The deleted node's answer is let go at once, not held until its slot is reused.
    expect(columns.nodes[before]).toBeUndefined();
    expect(slotOf('cordoned')).toBe(UnknownSlot);
    expect(view.get('cordoned')).toBeUndefined();

    state.updateNode(node('cordoned', { flavor: 'b3-16' }));
    const again = slotOf('cordoned');
    expect(again).not.toBe(UnknownSlot);
    expect(columns.states[again]).toBe(NodeStates.indexOf('ok'));
    expect(columns.nodes[again]).toBe(view.get('cordoned'));
    expect(columns.nodes[again]?.labels['node.kubernetes.io/instance-type']).toBe('b3-16');

    state.updateNodeClaim(claim('c1', 'n1'));
    expect(columns.states[slotOf('n1')]).toBe(NodeStates.indexOf('ok'));
    state.markForDeletion('openstack:///n1');
    expect(columns.states[slotOf('n1')]).toBe(NodeStates.indexOf('disrupting'));
    state.unmarkForDeletion('openstack:///n1');
    state.updateNodeClaim(claim('c1', 'n1', true));
    expect(columns.states[slotOf('n1')]).toBe(NodeStates.indexOf('terminating'));
    expect(view.get('n1')?.state).toBe('terminating');
    expect(disagreements(view, clusterStateExtenderView(state, prices), names, nodesNamed(view, names))).toEqual([]);
  });

  it('answers the same whether a name is first asked by nodesNamed or by get()', () => {
    const { state, view } = populated();
    const other = clusterStateExtenderView(state, prices);
    const byBytes = nodesNamed(view, ['n1']);
    const n1 = other.get('n1');
    expect(byBytes.columns.nodes[byBytes.slots[0] as number]).toEqual(n1);
    expect(view.get('n1')).toBe(byBytes.columns.nodes[byBytes.slots[0] as number]);
  });

  // Names of varied shapes: short, all digits, one word long, long ones sharing a long prefix, 63 characters.
  const nodeNames = [
    'n1',
    'n2',
    '0',
    '12345',
    'abcd',
    'karpenter-b3-8-eu-west-par-a-node-1f2e3d',
    'karpenter-b3-8-eu-west-par-a-node-1f2e3e',
    'karpenter-b3-8-eu-west-par-a-node-1f2e3',
    'ip-10-0-1-23.eu-west-2.compute.internal',
    'x'.repeat(63),
  ];
  const nodeName = fc.constantFrom(...nodeNames);
  const podName = fc.constantFrom('p1', 'p2', 'p3', 'p4', 'p5');
  const step = fc.oneof(
    fc.record({
      kind: fc.constant('node' as const),
      name: nodeName,
      deleting: fc.boolean(),
      flavor: fc.constantFrom('b3-8', 'b3-16', 'unpriced-flavor'),
      tainted: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('deleteNode' as const), name: nodeName }),
    fc.record({
      kind: fc.constant('pod' as const),
      pod: podName,
      node: fc.option(nodeName, { nil: undefined }),
      cpu: fc.constantFrom('100m', '1', '2'),
      phase: fc.constantFrom('Running', 'Succeeded'),
    }),
    fc.record({ kind: fc.constant('deletePod' as const), pod: podName }),
    fc.record({ kind: fc.constant('mark' as const), name: nodeName, on: fc.boolean() }),
    fc.record({ kind: fc.constant('claim' as const), name: nodeName, deleting: fc.boolean() }),
  );

  it("property: after any sequence of changes, nodesNamed agrees with get() per name and its columns hold get()'s numbers", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(step, fc.subarray(nodeNames), fc.shuffledSubarray([...nodeNames, ...nodeNames, 'unknown', 'n', 'n12'])), {
          minLength: 1,
          maxLength: 30,
        }),
        (steps) => {
          const { state, view } = setup();
          for (const [op, askedFirst, names] of steps) {
            if (op.kind === 'node') state.updateNode(node(op.name, op));
            if (op.kind === 'deleteNode') state.deleteNode(node(op.name));
            if (op.kind === 'pod') state.updatePod(pod(op.pod, op.node, op.cpu, op.phase));
            if (op.kind === 'deletePod') state.deletePod(pod(op.pod, undefined, '0'));
            if (op.kind === 'mark')
              (op.on ? state.markForDeletion.bind(state) : state.unmarkForDeletion.bind(state))(`openstack:///${op.name}`);
            if (op.kind === 'claim') state.updateNodeClaim(claim(`c-${op.name}`, op.name, op.deleting));
            for (const name of askedFirst) view.get(name); // fill the cache at arbitrary points
            const fresh = clusterStateExtenderView(state, prices);
            expect(disagreements(view, fresh, names, nodesNamed(view, names))).toEqual([]);
            // Every name once, in order: the answer for the whole cluster.
            expect(disagreements(view, fresh, nodeNames, nodesNamed(view, nodeNames))).toEqual([]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
