import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { solve } from '../../../../src/domain/scheduling/index.js';
import type { ExistingNode } from '../../../../src/domain/scheduling/types.js';
import { GiBytes, instanceType, nodePool, pod, smallTypes } from './helpers.js';

const zone = 'topology.kubernetes.io/zone';
const hostname = 'kubernetes.io/hostname';

describe('solve: placement and flavor choice', () => {
  it('packs small pods on the cheapest type that fits them all', () => {
    const r = solve({
      pods: [pod('a', '500m', '1Gi'), pod('b', '500m', '1Gi'), pod('c', '500m', '1Gi')],
      nodePools: [nodePool('default', smallTypes())],
    });
    expect(r.unschedulable).toEqual([]);
    expect(r.newNodeClaims).toHaveLength(1);
    expect(r.newNodeClaims[0]).toMatchObject({ instanceType: 's-2', pricePerHour: 0.05, nodePool: 'default' });
    expect(r.newNodeClaims[0]?.instanceTypeOptions.map((o) => o.name)).toEqual(['s-2', 's-4', 's-8', 's-16']);
    expect(r.totalPricePerHour).toBe(0.05);
  });

  it('packs a memory-bound batch as well as the exact optimum (memory-first order in the portfolio)', () => {
    const types = [instanceType('f-2', 2, 4, 0.022), instanceType('f-4', 4, 8, 0.04), instanceType('f-8', 8, 32, 0.09)];
    const pods = [pod('a', '1', '1Gi'), pod('b', '250m', '2Gi'), pod('c', '250m', '2Gi'), pod('d', '100m', '4608Mi')];
    const r = solve({ pods, nodePools: [nodePool('default', types)] });
    const ffd = solve({ pods, nodePools: [nodePool('default', types)], options: { optimize: false } });
    // Optimum: {d, b, a} on f-4 (7.5 GiB) + {c} on f-2. CPU-first alone strands d on an f-4 of its own (0.08).
    expect(r.newNodeClaims.map((c) => c.instanceType).sort()).toEqual(['f-2', 'f-4']);
    expect(r.totalPricePerHour).toBeCloseTo(0.062, 9);
    expect(ffd.totalPricePerHour).toBeGreaterThan(r.totalPricePerHour);
  });

  it('uses existing capacity first', () => {
    const node: ExistingNode = {
      name: 'worker-1',
      labels: { [zone]: 'z-a' },
      allocatable: { cpu: 4000, memory: 8 * GiBytes, pods: 110 },
      pods: [pod('bound', '3', '1Gi')],
    };
    const r = solve({
      pods: [pod('a', '500m', '1Gi'), pod('b', '1', '1Gi')],
      existingNodes: [node],
      nodePools: [nodePool('default', smallTypes())],
    });
    // Biggest first: b (1 CPU) takes the node's last free CPU, a needs a new node.
    expect(r.existingNodeAssignments).toEqual([{ node: 'worker-1', pods: ['default/b'] }]);
    expect(r.newNodeClaims.map((c) => c.pods)).toEqual([['default/a']]);
  });

  it('keeps a nominated pod on its in-flight node before a bigger pod takes the room', () => {
    const claim = (name: string): ExistingNode => ({
      name,
      labels: { [zone]: 'z-a' },
      allocatable: { cpu: 1900, memory: 4 * GiBytes, pods: 110 },
      pods: [],
      inFlight: true,
    });
    const pods = [pod('a0', '500m', '1Gi'), pod('a1', '500m', '1Gi'), pod('c', '1500m', '1Gi')];
    const input = { pods, existingNodes: [claim('first')], nodePools: [nodePool('default', smallTypes())] };
    // Biggest first, the newcomer would take the claim launched for a0 and a1, and they would be planned again.
    expect(solve(input).existingNodeAssignments).toEqual([{ node: 'first', pods: ['default/c'] }]);
    const r = solve({ ...input, nominations: { 'default/a0': 'first', 'default/a1': 'first' } });
    expect(r.existingNodeAssignments).toEqual([{ node: 'first', pods: ['default/a0', 'default/a1'] }]);
    expect(r.newNodeClaims.map((c) => c.pods)).toEqual([['default/c']]);
  });

  it('plans a nominated pod afresh when its node no longer fits it or is not there', () => {
    const full: ExistingNode = {
      name: 'full',
      labels: {},
      allocatable: { cpu: 1900, memory: 4 * GiBytes, pods: 110 },
      pods: [pod('bound', '1500m', '1Gi')],
      inFlight: true,
    };
    const r = solve({
      pods: [pod('a', '500m', '1Gi'), pod('b', '500m', '1Gi')],
      existingNodes: [full],
      nodePools: [nodePool('default', smallTypes())],
      nominations: { 'default/a': 'full', 'default/b': 'gone' },
    });
    expect(r.existingNodeAssignments).toEqual([]);
    expect(r.newNodeClaims.map((c) => c.pods.sort())).toEqual([['default/a', 'default/b']]);
  });

  it('ignores nodes marked for deletion (consolidation snapshots)', () => {
    const node: ExistingNode = {
      name: 'old',
      labels: {},
      allocatable: { cpu: 8000, memory: 8 * GiBytes, pods: 110 },
      pods: [],
      markedForDeletion: true,
    };
    const r = solve({ pods: [pod('a', '500m', '1Gi')], existingNodes: [node], nodePools: [nodePool('default', smallTypes())] });
    expect(r.existingNodeAssignments).toEqual([]);
    expect(r.newNodeClaims).toHaveLength(1);
  });

  it('does not grow a claim when a new node for the pod is cheaper (better than FFD)', () => {
    const types = [instanceType('b-8', 2, 8, 0.05), instanceType('b-16', 4, 16, 0.1), instanceType('b-64', 16, 64, 0.41)];
    const pods = [pod('l0', '3', '12Gi'), pod('l1', '3', '12Gi'), pod('s0', '500m', '512Mi')];
    const optimized = solve({ pods, nodePools: [nodePool('default', types)] });
    const ffd = solve({ pods, nodePools: [nodePool('default', types)], options: { optimize: false } });
    expect(ffd.newNodeClaims.map((c) => c.instanceType)).toEqual(['b-64']);
    expect(optimized.totalPricePerHour).toBeLessThan(ffd.totalPricePerHour);
  });

  it('places GPU pods only on GPU types and honours extended resources', () => {
    const types = [...smallTypes(), instanceType('gpu-1', 8, 32, 1.0, { gpu: 1, labels: { 'karpenter-eu.io/instance-gpu-name': 'l4' } })];
    const r = solve({
      pods: [
        pod('g', '1', '1Gi', { containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '1Gi', 'nvidia.com/gpu': '1' } } }] }),
        pod('p', '1', '1Gi'),
      ],
      nodePools: [nodePool('default', types)],
    });
    const byPod = Object.fromEntries(r.newNodeClaims.flatMap((c) => c.pods.map((p) => [p, c.instanceType])));
    expect(byPod['default/g']).toBe('gpu-1');
    // The plain pod shares the GPU node (room to spare) instead of paying for a second node.
    expect(r.totalPricePerHour).toBe(1);
    const plainOnly = solve({ pods: [pod('p', '1', '1Gi')], nodePools: [nodePool('default', types)] });
    expect(plainOnly.newNodeClaims[0]?.instanceType).toBe('s-2');
  });

  it.each([
    ['nodeSelector on instance type', { nodeSelector: { 'node.kubernetes.io/instance-type': 's-8' } }, 's-8'],
    [
      'required node affinity',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['s-4', 's-16'] }] },
              ],
            },
          },
        },
      },
      's-4',
    ],
    [
      'preferred node affinity',
      {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 1,
                preference: { matchExpressions: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['s-16'] }] },
              },
            ],
          },
        },
      },
      's-16',
    ],
  ])('honours %s', (_name, spec, expected) => {
    const r = solve({ pods: [pod('a', '500m', '1Gi', spec)], nodePools: [nodePool('default', smallTypes())] });
    expect(r.newNodeClaims[0]?.instanceType).toBe(expected);
  });

  it('relaxes an unsatisfiable preferred node affinity', () => {
    const spec = {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 1,
              preference: { matchExpressions: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['nope'] }] },
            },
          ],
        },
      },
    };
    const r = solve({ pods: [pod('a', '500m', '1Gi', spec)], nodePools: [nodePool('default', smallTypes())] });
    expect(r.unschedulable).toEqual([]);
    expect(r.newNodeClaims[0]?.instanceType).toBe('s-2');
  });

  it('pins zones from the pod and skips unavailable offerings', () => {
    const types = [instanceType('s-2', 2, 4, 0.05, { unavailable: ['z-a'] }), instanceType('s-4', 4, 8, 0.1)];
    const r = solve({
      pods: [pod('a', '500m', '1Gi', { nodeSelector: { [zone]: 'z-a' } }), pod('b', '500m', '1Gi', { nodeSelector: { [zone]: 'z-b' } })],
      nodePools: [nodePool('default', types)],
    });
    const byPod = Object.fromEntries(r.newNodeClaims.flatMap((c) => c.pods.map((p) => [p, `${c.instanceType}@${c.zone}`])));
    expect(byPod).toEqual({ 'default/a': 's-4@z-a', 'default/b': 's-2@z-b' });
  });
});

describe('solve: NodePools', () => {
  it('takes the highest weight first, then the cheapest among equal weights', () => {
    const cheap = [instanceType('c-2', 2, 4, 0.01)];
    const dear = [instanceType('d-2', 2, 4, 0.09)];
    const byWeight = solve({
      pods: [pod('a', '500m', '1Gi')],
      nodePools: [nodePool('cheap', cheap), nodePool('heavy', dear, { weight: 50 })],
    });
    expect(byWeight.newNodeClaims[0]?.nodePool).toBe('heavy');
    const byPrice = solve({
      pods: [pod('a', '500m', '1Gi')],
      nodePools: [nodePool('dear', dear, { weight: 10 }), nodePool('cheap', cheap, { weight: 10 })],
    });
    expect(byPrice.newNodeClaims[0]?.nodePool).toBe('cheap');
  });

  it('respects taints and tolerations', () => {
    const pools = [
      nodePool('tainted', smallTypes(), { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }], weight: 100 }),
      nodePool('plain', smallTypes()),
    ];
    const plain = solve({ pods: [pod('a', '500m', '1Gi')], nodePools: pools });
    expect(plain.newNodeClaims[0]?.nodePool).toBe('plain');
    const tolerating = solve({ pods: [pod('b', '500m', '1Gi', { tolerations: [{ key: 'gpu', operator: 'Exists' }] })], nodePools: pools });
    expect(tolerating.newNodeClaims[0]?.nodePool).toBe('tainted');
  });

  it('never exceeds limits and names every NodePool in the reason', () => {
    const pools = [
      nodePool('limited', smallTypes(), { limits: { cpu: 4000 } }),
      nodePool('gpu', smallTypes(), { taints: [{ key: 'gpu', value: 'x', effect: 'NoSchedule' }] }),
    ];
    const pods = Array.from({ length: 4 }, (_, i) => pod(`p${i}`, '1500m', '1Gi'));
    const r = solve({ pods, nodePools: pools });
    const cpu = r.newNodeClaims.reduce((sum, c) => sum + (smallTypes().find((t) => t.name === c.instanceType)?.capacity.cpu ?? 0), 0);
    expect(cpu).toBeLessThanOrEqual(4000);
    expect(r.unschedulable.length).toBeGreaterThan(0);
    expect(r.unschedulable[0]?.reason).toMatch(/nodepool "limited": .*limits/);
    expect(r.unschedulable[0]?.reason).toMatch(/nodepool "gpu": did not tolerate taint gpu=x:NoSchedule/);
  });

  it('honours limits.nodes and the cloud node cap', () => {
    const anti = (name: string) =>
      pod(
        name,
        '100m',
        '100Mi',
        {
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: hostname, labelSelector: { matchLabels: { app: 'x' } } }],
            },
          },
        },
        { app: 'x' },
      );
    const pods = [anti('a'), anti('b'), anti('c')];
    expect(solve({ pods, nodePools: [nodePool('default', smallTypes(), { limits: { nodes: 2 } })] }).newNodeClaims).toHaveLength(2);
    const capped = solve({ pods, nodePools: [nodePool('default', smallTypes())], options: { cloudNodeCaps: { ovhcloud: 1 } } });
    expect(capped.newNodeClaims).toHaveLength(1);
    expect(capped.unschedulable[0]?.reason).toMatch(/node cap of 1/);
  });

  it('explains resources and requirements failures', () => {
    const r = solve({
      pods: [pod('huge', '64', '1Gi'), pod('sel', '1', '1Gi', { nodeSelector: { 'node.kubernetes.io/instance-type': 'nope' } })],
      nodePools: [nodePool('default', smallTypes())],
    });
    const reasons = Object.fromEntries(r.unschedulable.map((u) => [u.pod, u.reason]));
    expect(reasons['default/huge']).toMatch(/nodepool "default": no instance type has enough resources/);
    expect(reasons['default/sel']).toMatch(/nodepool "default": .*(requirements|instance-type)/);
  });

  it('reserves DaemonSet overhead on every new node', () => {
    const ds = pod('ds', '1', '1Gi');
    const r = solve({ pods: [pod('a', '1', '1Gi')], nodePools: [nodePool('default', smallTypes())], daemonSets: [ds] });
    expect(r.newNodeClaims[0]?.instanceType).toBe('s-4');
    expect(r.newNodeClaims[0]?.requests.cpu).toBe(2000);
  });

  it('applies minValues on instance types strictly', () => {
    const pool = nodePool('default', smallTypes(), {
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'Exists', minValues: 3 }],
    });
    const r = solve({ pods: [pod('a', '7', '1Gi')], nodePools: [pool] });
    expect(r.newNodeClaims).toEqual([]);
    expect(solve({ pods: [pod('a', '3', '1Gi')], nodePools: [pool] }).newNodeClaims[0]?.instanceTypeOptions).toHaveLength(3);
  });

  it('keeps host ports apart', () => {
    const withPort = (name: string) =>
      pod(name, '100m', '100Mi', {
        containers: [
          { name: 'c', ports: [{ containerPort: 80, hostPort: 8080 }], resources: { requests: { cpu: '100m', memory: '100Mi' } } },
        ],
      });
    const r = solve({ pods: [withPort('a'), withPort('b')], nodePools: [nodePool('default', smallTypes())] });
    expect(r.newNodeClaims).toHaveLength(2);
  });
});

describe('solve: topology', () => {
  const spread = (name: string, key: string, when: 'DoNotSchedule' | 'ScheduleAnyway' = 'DoNotSchedule') =>
    pod(
      name,
      '100m',
      '100Mi',
      {
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: key, whenUnsatisfiable: when, labelSelector: { matchLabels: { app: 'web' } } },
        ],
      },
      { app: 'web' },
    );

  it('spreads over zones with maxSkew 1', () => {
    const r = solve({ pods: Array.from({ length: 6 }, (_, i) => spread(`w${i}`, zone)), nodePools: [nodePool('default', smallTypes())] });
    const perZone: Record<string, number> = {};
    for (const c of r.newNodeClaims) perZone[c.zone] = (perZone[c.zone] ?? 0) + c.pods.length;
    expect(perZone).toEqual({ 'z-a': 2, 'z-b': 2, 'z-c': 2 });
  });

  it('counts existing pods in the spread', () => {
    const node: ExistingNode = {
      name: 'n',
      labels: { [zone]: 'z-a' },
      allocatable: { cpu: 0, memory: 0, pods: 0 },
      pods: [spread('old0', zone), spread('old1', zone)],
    };
    const r = solve({
      pods: [spread('w0', zone), spread('w1', zone)],
      existingNodes: [node],
      nodePools: [nodePool('default', smallTypes())],
    });
    expect(r.newNodeClaims.map((c) => c.zone).sort()).toEqual(['z-b', 'z-c']);
  });

  it('counts only the zones the pod may use (nodeAffinityPolicy Honor): a node of another cloud does not hold the minimum at 0', () => {
    const ovhTypes = smallTypes().map((t) => ({ ...t, labels: { ...t.labels, 'karpenter-eu.io/cloud': 'ovhcloud' } }));
    const other: ExistingNode = {
      name: 'scw-1',
      labels: { [zone]: 'fr-par-1', 'karpenter-eu.io/cloud': 'scaleway' },
      allocatable: { cpu: 8000, memory: 8 * GiBytes, pods: 110 },
      pods: [],
    };
    const ovhOnly = (name: string) => {
      const p = spread(name, zone);
      return { ...p, spec: { ...p.spec!, nodeSelector: { 'karpenter-eu.io/cloud': 'ovhcloud' } } };
    };
    const pods = Array.from({ length: 6 }, (_, i) => ovhOnly(`w${i}`));
    const r = solve({ pods, existingNodes: [other], nodePools: [nodePool('default', ovhTypes)] });
    // Three claims of two pods, as without the foreign node (not six single-pod claims).
    expect(r.newNodeClaims.map((c) => `${c.zone}:${c.pods.length}`).sort()).toEqual(['z-a:2', 'z-b:2', 'z-c:2']);
    // In-flight claims in the three zones take the pods: nothing new is planned on the next pass.
    const inFlight: ExistingNode[] = ['z-a', 'z-b', 'z-c'].map((z) => ({
      name: `claim-${z}`,
      labels: { [zone]: z, 'karpenter-eu.io/cloud': 'ovhcloud' },
      allocatable: { cpu: 1900, memory: 4 * GiBytes, pods: 110 },
      pods: [],
      inFlight: true,
    }));
    const next = solve({ pods, existingNodes: [other, ...inFlight], nodePools: [nodePool('default', ovhTypes)] });
    expect(next.newNodeClaims).toEqual([]);
    expect(next.existingNodeAssignments.map((a) => a.pods.length)).toEqual([2, 2, 2]);
  });

  it('counts every zone when the spread sets nodeAffinityPolicy Ignore', () => {
    const other: ExistingNode = {
      name: 'far',
      labels: { [zone]: 'z-far', team: 'other' },
      allocatable: { cpu: 0, memory: 0, pods: 0 },
      pods: [],
    };
    const ignoring = (name: string) => {
      const p = spread(name, zone);
      const c = p.spec!.topologySpreadConstraints![0]!;
      return {
        ...p,
        spec: {
          ...p.spec!,
          nodeSelector: { 'karpenter-eu.io/instance-family': 's' },
          topologySpreadConstraints: [{ ...c, nodeAffinityPolicy: 'Ignore' }],
        },
      };
    };
    const r = solve({
      pods: Array.from({ length: 4 }, (_, i) => ignoring(`w${i}`)),
      existingNodes: [other],
      nodePools: [nodePool('default', smallTypes())],
    });
    // z-far (empty, unusable) keeps the minimum at 0: at most one pod per usable zone, the rest cannot be placed.
    expect(r.newNodeClaims.reduce((n, c) => n + c.pods.length, 0)).toBe(3);
    expect(r.unschedulable).toHaveLength(1);
  });

  it('spreads over hostnames (one matching pod per node at maxSkew 1)', () => {
    const r = solve({
      pods: Array.from({ length: 3 }, (_, i) => spread(`w${i}`, hostname)),
      nodePools: [nodePool('default', smallTypes())],
    });
    expect(r.newNodeClaims.map((c) => c.pods.length)).toEqual([1, 1, 1]);
  });

  it('follows zone pod affinity', () => {
    const aff = (name: string) =>
      pod(
        name,
        '1500m',
        '100Mi',
        {
          affinity: {
            podAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: zone, labelSelector: { matchLabels: { app: 'db' } } }],
            },
          },
        },
        { app: 'db' },
      );
    const r = solve({ pods: [aff('a'), aff('b'), aff('c')], nodePools: [nodePool('default', [instanceType('s-2', 2, 4, 0.05)])] });
    expect(new Set(r.newNodeClaims.map((c) => c.zone)).size).toBe(1);
    expect(r.newNodeClaims).toHaveLength(3);
  });

  it('keeps an incoming pod away from a pod whose anti-affinity selects it', () => {
    const guard = pod('guard', '100m', '100Mi', {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: hostname, labelSelector: { matchLabels: { role: 'noisy' } } }],
        },
      },
    });
    const node: ExistingNode = { name: 'n', labels: {}, allocatable: { cpu: 8000, memory: 8 * GiBytes, pods: 110 }, pods: [guard] };
    const r = solve({
      pods: [pod('noisy', '100m', '100Mi', {}, { role: 'noisy' }), pod('calm', '100m', '100Mi')],
      existingNodes: [node],
      nodePools: [nodePool('default', smallTypes())],
    });
    expect(r.existingNodeAssignments).toEqual([{ node: 'n', pods: ['default/calm'] }]);
    expect(r.newNodeClaims.map((c) => c.pods)).toEqual([['default/noisy']]);
  });

  it('relaxes ScheduleAnyway spreads when they cannot hold', () => {
    const types = [instanceType('s-2', 2, 4, 0.05, { zones: ['z-a'] })];
    const r = solve({
      pods: [spread('a', zone, 'ScheduleAnyway'), spread('b', zone, 'ScheduleAnyway'), spread('c', zone, 'ScheduleAnyway')],
      nodePools: [nodePool('default', types)],
    });
    expect(r.unschedulable).toEqual([]);
  });

  it('reports malformed pods per pod and plans the rest', () => {
    const bad = pod('bad', 'lots', '1Gi');
    const r = solve({ pods: [bad, pod('ok', '1', '1Gi')], nodePools: [nodePool('default', smallTypes())] });
    expect(r.unschedulable).toEqual([{ pod: 'default/bad', reason: expect.stringMatching(/compiling pod default\/bad: .*cpu/) }]);
    expect(r.newNodeClaims[0]?.pods).toEqual(['default/ok']);
  });
});

describe('DaemonSet overhead on in-flight capacity', () => {
  const daemonSet = pod('agent', '500m', '256Mi');
  const boundAgent: V1Pod = {
    ...pod('agent-x1', '500m', '256Mi'),
    metadata: {
      name: 'agent-x1',
      namespace: 'default',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'ds-1', controller: true }],
    },
  };
  const joined: ExistingNode = {
    name: 'node-1',
    labels: {},
    allocatable: { cpu: 2000, memory: 4 * GiBytes, pods: 110 },
    pods: [boundAgent],
    inFlight: true,
  };

  it('reserves a DaemonSet pod once: not again when it is already bound to the joining node', () => {
    const r = solve({
      pods: [pod('web', '1500m', '1Gi')],
      existingNodes: [joined],
      nodePools: [nodePool('default', smallTypes())],
      daemonSets: [daemonSet],
    });
    expect(r.newNodeClaims).toEqual([]);
    expect(r.existingNodeAssignments).toEqual([{ node: 'node-1', pods: ['default/web'] }]);
  });

  it('still reserves the DaemonSet pods not bound yet', () => {
    const empty: ExistingNode = { ...joined, pods: [] };
    const r = solve({
      pods: [pod('web', '1600m', '1Gi')],
      existingNodes: [empty],
      nodePools: [nodePool('default', smallTypes())],
      daemonSets: [daemonSet],
    });
    expect(r.newNodeClaims).toHaveLength(1);
  });
});

describe('solve: initialized nodes before in-flight claims', () => {
  // The order is solve()'s own: it decides which existing slot a pod tries first, whatever the caller passes.
  it('fills an initialized node before a replacement claim, so the pod the claim was launched for still fits it', () => {
    const initialized: ExistingNode = {
      name: 'node-z',
      labels: { [zone]: 'z-a' },
      allocatable: { cpu: 1900, memory: 4 * GiBytes, pods: 110 },
      pods: [],
    };
    // Launched for `pinned`, which may only run in z-b; its name sorts before the initialized node's.
    const replacement: ExistingNode = {
      name: 'default-abcde',
      labels: { [zone]: 'z-b' },
      allocatable: { cpu: 1900, memory: 4 * GiBytes, pods: 110 },
      pods: [],
      inFlight: true,
    };
    const displaced = pod('displaced', '1500m', '1Gi');
    const pinned = pod('pinned', '1', '1Gi', { nodeSelector: { [zone]: 'z-b' } });
    const r = solve({
      pods: [displaced, pinned],
      existingNodes: [replacement, initialized],
      nodePools: [nodePool('default', smallTypes())],
    });
    expect(r.newNodeClaims, 'nothing launched: both pods fit what exists').toEqual([]);
    expect(r.existingNodeAssignments).toEqual([
      { node: 'node-z', pods: ['default/displaced'] },
      { node: 'default-abcde', pods: ['default/pinned'] },
    ]);
  });
});
