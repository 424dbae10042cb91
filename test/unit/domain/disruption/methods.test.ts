import { describe, expect, it } from 'vitest';
import {
  computeDrift,
  computeEmptiness,
  computeMultiNodeConsolidation,
  computeSingleNodeConsolidation,
  decide,
  expiredNodeClaims,
  findCandidates,
  nodePoolHash,
  validateCommand,
} from '../../../../src/domain/disruption/index.js';
import { apiNodePool, clusterNode, disruptionInput, HOUR, instanceType, NOW, pods, types } from './fixtures.js';

const [s2, s4, s8] = types() as [ReturnType<typeof instanceType>, ReturnType<typeof instanceType>, ReturnType<typeof instanceType>];

describe('candidates', () => {
  it.each([
    [
      'node annotated do-not-disrupt',
      clusterNode('n', s4, [], { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
      /annotated karpenter.sh\/do-not-disrupt/,
    ],
    ['already disrupting', clusterNode('n', s4, [], { markedForDeletion: true }), /already being disrupted/],
    [
      'pod annotated do-not-disrupt',
      clusterNode(
        'n',
        s4,
        pods('p', 1, '1').map((p) => ({ ...p, metadata: { ...p.metadata, annotations: { 'karpenter.sh/do-not-disrupt': 'true' } } })),
      ),
      /pod default\/p-0 is annotated/,
    ],
    ['unknown NodePool', clusterNode('n', s4, [], { pool: 'gone' }), /NodePool "gone" not found/],
  ])('%s is not a candidate', (_name, node, reason) => {
    const set = findCandidates(disruptionInput([node]));
    expect(set.candidates).toEqual([]);
    expect(set.ineligible[0]?.reason).toMatch(reason);
  });

  it('a pod whose PDB allows no disruption blocks its node', () => {
    const node = clusterNode('n', s4, pods('web', 1, '1', '256Mi', { app: 'web' }));
    const pdb = {
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
    };
    const set = findCandidates(disruptionInput([node], undefined, { podDisruptionBudgets: [pdb] }));
    expect(set.ineligible[0]?.reason).toMatch(/protected by PodDisruptionBudget default\/web/);
    const allowing = { ...pdb, status: { ...pdb.status, disruptionsAllowed: 1 } };
    expect(findCandidates(disruptionInput([node], undefined, { podDisruptionBudgets: [allowing] })).candidates).toHaveLength(1);
  });
});

describe('emptiness', () => {
  it('deletes every empty consolidatable node in one command within budget', () => {
    const nodes = [
      clusterNode('a', s4, []),
      clusterNode('b', s4, []),
      clusterNode('c', s4, []),
      clusterNode('busy', s4, pods('p', 1, '1')),
    ];
    const cmd = computeEmptiness(disruptionInput(nodes, [apiNodePool('default', { budgets: [{ nodes: '2' }] })]));
    expect(cmd).toMatchObject({
      reason: 'Empty',
      decision: 'delete',
      candidates: ['claim-a', 'claim-b'],
      replacements: [],
      pricePerHourAfter: 0,
    });
    expect(cmd?.pricePerHourBefore).toBeCloseTo(0.2);
  });
  it('waits for consolidateAfter since the last pod event; Never disables', () => {
    const node = clusterNode('a', s4, [], { lastPodEventAt: NOW - 60_000 });
    expect(computeEmptiness(disruptionInput([node], [apiNodePool('default', { consolidateAfter: '5m' })]))).toBeUndefined();
    expect(computeEmptiness(disruptionInput([node], [apiNodePool('default', { consolidateAfter: '30s' })]))).toBeDefined();
    expect(computeEmptiness(disruptionInput([node], [apiNodePool('default', { consolidateAfter: 'Never' })]))).toBeUndefined();
  });
});

describe('consolidation', () => {
  it('single-node deletes a node whose pods fit on the others', () => {
    const nodes = [clusterNode('big', s8, pods('a', 1, '1')), clusterNode('small', s4, pods('b', 2, '1'))];
    const cmd = computeSingleNodeConsolidation(disruptionInput(nodes));
    expect(cmd).toMatchObject({ reason: 'Underutilized', decision: 'delete', consolidationType: 'single', pricePerHourAfter: 0 });
    expect(cmd?.candidates).toHaveLength(1);
  });

  it('single-node replaces with ONE strictly cheaper node when the pods do not fit elsewhere', () => {
    const cmd = computeSingleNodeConsolidation(disruptionInput([clusterNode('big', s8, pods('a', 2, '500m'))]));
    expect(cmd?.decision).toBe('replace');
    expect(cmd?.replacements).toHaveLength(1);
    expect(cmd?.replacements[0]?.instanceType).toBe('s-2');
    expect(cmd?.pricePerHourAfter).toBeLessThan(cmd?.pricePerHourBefore as number);
    for (const o of cmd?.replacements[0]?.instanceTypeOptions ?? []) expect(o.pricePerHour).toBeLessThan(0.2);
  });

  it('never replaces with the same type at the same price', () => {
    // 3.5 cpu of pods on an s-4: nothing cheaper fits, so no command.
    expect(computeSingleNodeConsolidation(disruptionInput([clusterNode('n', s4, pods('a', 7, '500m'))]))).toBeUndefined();
  });

  it('multi-node merges several under-used nodes into one cheaper node', () => {
    const nodes = ['a', 'b', 'c', 'd'].map((n) => clusterNode(n, s4, pods(n, 1, '1')));
    const cmd = computeMultiNodeConsolidation(disruptionInput(nodes));
    expect(cmd?.consolidationType).toBe('multi');
    expect(cmd?.candidates.length).toBeGreaterThanOrEqual(2);
    expect(cmd?.pricePerHourAfter).toBeLessThan(cmd?.pricePerHourBefore as number);
  });

  it('WhenEmpty pools get no consolidation, only emptiness', () => {
    const nodes = [clusterNode('big', s8, pods('a', 2, '1')), clusterNode('small', s4, pods('b', 2, '1'))];
    const input = disruptionInput(nodes, [apiNodePool('default', { consolidationPolicy: 'WhenEmpty' })]);
    expect(computeSingleNodeConsolidation(input)).toBeUndefined();
    expect(computeMultiNodeConsolidation(input)).toBeUndefined();
  });

  it('replaces across NodePools when the other pool is cheaper', () => {
    const cheap = instanceType('c-4', 4, 8, 0.03);
    const pools = [apiNodePool('dear'), apiNodePool('cheap')];
    const input = disruptionInput([clusterNode('n', s4, pods('a', 2, '1'), { pool: 'dear' })], pools);
    const withCheap = {
      ...input,
      schedulingNodePools: [
        input.schedulingNodePools[0] as never,
        { ...(input.schedulingNodePools[1] as object), instanceTypes: [cheap] } as never,
      ],
    };
    const cmd = computeSingleNodeConsolidation(withCheap);
    expect(cmd?.replacements[0]).toMatchObject({ nodePool: 'cheap', instanceType: 'c-4' });
  });

  it('a pending pod keeps the capacity it needs', () => {
    const nodes = [clusterNode('a', s4, pods('a', 1, '1')), clusterNode('b', s4, pods('b', 1, '1'))];
    const pending = pods('pending', 1, '2500m');
    const cmd = computeSingleNodeConsolidation(disruptionInput(nodes, undefined, { pendingPods: pending }));
    // Deleting one s-4 would leave the pending pod without room: a replacement (or nothing) is required instead.
    expect(cmd?.decision).not.toBe('delete');
  });
});

describe('drift', () => {
  const pool = apiNodePool('default');
  it.each([
    [
      'NodePool hash changed',
      { claimAnnotations: { 'karpenter.sh/nodepool-hash': 'stale', 'karpenter.sh/nodepool-hash-version': 'v4' } },
      pool,
      'NodePoolDrifted',
    ],
    [
      'requirements no longer met',
      {},
      apiNodePool('default', { requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['s-8'] }] }),
      'RequirementsDrifted',
    ],
    ['cloud provider isDrifted', { cloudDriftReason: 'ImageDrifted' }, pool, 'ImageDrifted'],
  ] as const)('%s → replace', (_name, opts, nodePool, reason) => {
    const cmd = computeDrift(disruptionInput([clusterNode('n', s4, pods('a', 2, '1'), opts)], [nodePool]));
    expect(cmd).toMatchObject({ reason: 'Drifted', driftReason: reason, candidates: ['claim-n'] });
    expect(cmd?.replacements.length).toBeGreaterThan(0);
  });
  it('a current hash is not drift', () => {
    const opts = { claimAnnotations: { 'karpenter.sh/nodepool-hash': nodePoolHash(pool), 'karpenter.sh/nodepool-hash-version': 'v4' } };
    expect(computeDrift(disruptionInput([clusterNode('n', s4, [], opts)], [pool]))).toBeUndefined();
  });
  it('one candidate per command, empty ones first, within the Drifted budget', () => {
    const nodes = [
      clusterNode('a', s4, pods('a', 1, '1'), { cloudDriftReason: 'ImageDrifted' }),
      clusterNode('b', s4, [], { cloudDriftReason: 'ImageDrifted' }),
    ];
    expect(computeDrift(disruptionInput(nodes))?.candidates).toEqual(['claim-b']);
    expect(
      computeDrift(disruptionInput(nodes, [apiNodePool('default', { budgets: [{ nodes: '0', reasons: ['Drifted'] }] })])),
    ).toBeUndefined();
  });
});

describe('expiration', () => {
  it('deletes NodeClaims past expireAfter, oldest first, ignoring Never', () => {
    const claim = (name: string, ageH: number, expireAfter?: string) => ({
      nodeClaim: { metadata: { name, creationTimestamp: new Date(NOW - ageH * HOUR).toISOString() }, spec: { expireAfter } } as never,
      nodePoolExpireAfter: '24h',
    });
    const got = expiredNodeClaims(
      [claim('young', 1), claim('old', 30), claim('older', 48), claim('never', 1000, 'Never'), claim('own', 3, '2h')],
      NOW,
    );
    expect(got.map((e) => e.nodeClaim)).toEqual(['older', 'old', 'own']);
  });
});

describe('decide + validate', () => {
  it('follows upstream order: drift before emptiness before consolidation', () => {
    const nodes = [clusterNode('empty', s4, []), clusterNode('drifted', s8, pods('a', 2, '1'), { cloudDriftReason: 'ImageDrifted' })];
    expect(decide(disruptionInput(nodes))?.method).toBe('drift');
    expect(decide(disruptionInput([nodes[0] as never]))?.method).toBe('emptiness');
  });
  it('a command is invalidated when a pod arrives on a candidate during the validation delay', () => {
    const nodes = [clusterNode('big', s8, pods('a', 2, '1')), clusterNode('small', s4, pods('b', 2, '1'))];
    const input = disruptionInput(nodes);
    const cmd = decide(input)?.command;
    expect(cmd).toBeDefined();
    expect(validateCommand(cmd as never, input)).toEqual({ valid: true });
    const later = disruptionInput(
      nodes.map((n) => ({ ...n, lastPodEventAt: NOW + 1000 })),
      [apiNodePool('default', { consolidateAfter: '1m' })],
      { now: NOW + 2000 },
    );
    expect(validateCommand(cmd as never, later)).toMatchObject({ valid: false });
  });
  it('is deterministic', () => {
    const nodes = ['a', 'b', 'c', 'd', 'e'].map((n, i) => clusterNode(n, i % 2 ? s4 : s8, pods(n, i + 1, '500m')));
    expect(decide(disruptionInput(nodes))).toEqual(decide(disruptionInput(nodes)));
    void s2;
  });
});

describe('consolidation under NodePool limits (the usage of the nodes that stay, as upstream)', () => {
  /** The NodePools as the controller builds them: limits, and usage of every node of the pool, candidates included. */
  function limitedInput(nodes: ReturnType<typeof clusterNode>[], limits: Record<string, number>) {
    const input = disruptionInput(nodes);
    const usage = {
      cpu: nodes.reduce((sum, n) => sum + Number.parseInt(String(n.node?.status?.capacity?.cpu), 10), 0),
      nodes: nodes.length,
    };
    return { ...input, schedulingNodePools: input.schedulingNodePools.map((p) => ({ ...p, limits, usage })) };
  }

  it('replaces a node at the cpu limit with a cheaper one: the candidate frees its own capacity', () => {
    const big = clusterNode('big', s8, pods('a', 2, '500m'));
    const limit = Number.parseInt(String(big.node?.status?.capacity?.cpu), 10);
    const cmd = computeSingleNodeConsolidation(limitedInput([big], { cpu: limit }));
    expect(cmd?.decision).toBe('replace');
    expect(cmd?.replacements[0]?.instanceType).toBe('s-2');
  });

  it('replaces at limits.nodes: the candidate leaves room for its replacement, and no more', () => {
    const nodes = [
      clusterNode('big', s8, pods('a', 2, '500m')),
      clusterNode('full', s2, pods('b', 1, '1500m'), { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
    ];
    expect(computeSingleNodeConsolidation(limitedInput(nodes, { nodes: 2 }))?.decision).toBe('replace');
  });

  it('still refuses a replacement the staying nodes leave no room for', () => {
    const nodes = [clusterNode('big', s8, pods('a', 2, '500m')), clusterNode('other', s8, pods('b', 2, '3900m'))];
    const otherCpu = Number.parseInt(String(nodes[1]?.node?.status?.capacity?.cpu), 10);
    expect(computeSingleNodeConsolidation(limitedInput(nodes, { cpu: otherCpu + 1000 }))).toBeUndefined();
  });
});
