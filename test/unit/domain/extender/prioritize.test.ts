import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  combineScore,
  ExtenderNodeColumns,
  StateFactors,
  MaxExtenderPriority,
  nodeScores,
  packing,
  podCost,
  podDemand,
  type PodDemand,
  share,
  utilisation,
  prioritize,
  priceScore,
  UnknownCost,
  UnknownNodeScore,
  UnknownPriceScore,
  type ExtenderArgs,
  type ExtenderNode,
  type ExtenderNodeState,
} from '../../../../src/domain/extender/index.js';
import { node, nodeObject, pod } from './fixtures.js';

const GiB = 2 ** 30;

function args(names: string[], p = pod({ cpu: '1', memory: '2Gi' })): ExtenderArgs {
  return { Pod: p, Nodes: null, NodeNames: names };
}

function scores(view: Map<string, ExtenderNode>, names: string[], p = pod({ cpu: '1', memory: '2Gi' })): Record<string, number> {
  return Object.fromEntries(prioritize(args(names, p), view).map((h) => [h.Host, h.Score]));
}

describe('score components', () => {
  it.each([
    ['empty node', {}, 0.25],
    ['half-used node', { cpu: 2000, memory: 4 * GiB }, 0.75],
    ['node the pod fills', { cpu: 3000, memory: 6 * GiB }, 1],
    ['node the pod would overfill (capped at 1)', { cpu: 3500, memory: 7 * GiB }, 1],
  ])('packing on a %s', (_label, requested: { cpu?: number; memory?: number }, expected) => {
    const cpuUse = utilisation(requested.cpu ?? 0, 1000, 4000);
    const memoryUse = utilisation(requested.memory ?? 0, 2 * GiB, 8 * GiB);
    expect(packing(cpuUse, memoryUse, 4000, 8 * GiB)).toBeCloseTo(expected);
  });

  it.each([
    ['cpu only', 4000, 0, 0.5],
    ['memory only', 0, 8 * GiB, 0.25],
    ['neither', 0, 0, 0],
  ])('packing on a node with %s', (_label, cpu, memory, expected) => {
    expect(packing(utilisation(1000, 1000, cpu), utilisation(0, 2 * GiB, memory), cpu, memory)).toBeCloseTo(expected);
  });

  it.each([
    [0.1, { cpu: 1000 }, 0.025],
    [0.1, { cpu: 1000, memory: 4 * GiB }, 0.05],
    [0.1, {}, 0],
    [Number.NaN, { cpu: 1000 }, UnknownCost],
    [-1, { cpu: 1000 }, UnknownCost],
    [Number.POSITIVE_INFINITY, { cpu: 1000 }, UnknownCost],
  ])('pod cost at %s EUR/h for %o is %s', (price, requests: { cpu?: number; memory?: number }, expected) => {
    expect(podCost(price, share(requests.cpu ?? 0, 4000), share(requests.memory ?? 0, 8 * GiB))).toBeCloseTo(expected);
  });

  it.each([
    [0, 4000, 0],
    [1000, 4000, 0.25],
    [8000, 4000, 1],
    [1000, 0, 1],
  ])('share of %s on %s is %s (a node lacking the resource is taken whole)', (request, allocatable, expected) => {
    expect(share(request, allocatable)).toBe(expected);
  });

  it.each([
    [0.05, 0.05, 1],
    [0.1, 0.05, 0.5],
    [UnknownCost, 0.05, UnknownPriceScore],
    [0.05, UnknownCost, UnknownPriceScore],
    [0, 0, 1],
  ])('price score of cost %s with cheapest %s', (cost, cheapest, expected) => {
    expect(priceScore(cost, cheapest)).toBeCloseTo(expected);
  });

  it.each([
    ['ok', 1, 1, 10],
    ['ok', 0, 0, 0],
    ['consolidation-candidate', 1, 1, 3],
    ['drifted', 1, 1, 3],
    ['disrupting', 1, 1, 0],
    ['terminating', 1, 1, 0],
    ['ok', 0.5, 0.5, 5],
  ] as const)('combined score of a %s node (packing %s, price %s) is %s', (state, packed, price, expected) => {
    expect(combineScore(StateFactors[state], packed, price)).toBe(expected);
  });
});

/**
 * The formula written plainly over ExtenderNode objects (how the extender computed it before columns): the
 * oracle nodeScores must agree with on any nodes, NaN-making quantities and unknown prices included.
 */
function referenceScores(nodes: readonly (ExtenderNode | undefined)[], pod: PodDemand): number[] {
  const amount = (list: Readonly<Record<string, number>>, name: string): number => list[name] ?? 0;
  const fits = (n: ExtenderNode): boolean =>
    [['cpu', pod.cpu] as const, ['memory', pod.memory] as const, ...pod.others].every(
      ([name, want]) => !(want > 0 && want + amount(n.requested, name) > amount(n.allocatable, name)),
    );
  const use = (n: ExtenderNode, name: string, want: number): number =>
    Math.min(1, (amount(n.requested, name) + want) / amount(n.allocatable, name));
  const packed = (n: ExtenderNode): number => {
    if (!fits(n)) return 0;
    const cpu = amount(n.allocatable, 'cpu');
    const memory = amount(n.allocatable, 'memory');
    if (cpu > 0 && memory > 0) return (use(n, 'cpu', pod.cpu) + use(n, 'memory', pod.memory)) / 2;
    if (cpu > 0) return use(n, 'cpu', pod.cpu);
    return memory > 0 ? use(n, 'memory', pod.memory) : 0;
  };
  const part = (want: number, of: number): number => (want <= 0 ? 0 : of > 0 ? Math.min(1, want / of) : 1);
  const cost = (n: ExtenderNode): number | undefined =>
    n.pricePerHour === undefined || !Number.isFinite(n.pricePerHour) || n.pricePerHour < 0
      ? undefined
      : n.pricePerHour * Math.max(part(pod.cpu, amount(n.allocatable, 'cpu')), part(pod.memory, amount(n.allocatable, 'memory')));
  const costs = nodes.map((n) => (n ? cost(n) : undefined));
  let cheapest: number | undefined;
  for (const c of costs) if (c !== undefined && (cheapest === undefined || c < cheapest)) cheapest = c;
  return nodes.map((n, i) => {
    if (!n) return UnknownNodeScore;
    const c = costs[i];
    const price = c === undefined || cheapest === undefined ? UnknownPriceScore : c <= 0 ? 1 : Math.min(1, cheapest / c);
    const raw = StateFactors[n.state] * (0.6 * packed(n) + 0.4 * price);
    return Number.isFinite(raw) ? Math.max(0, Math.min(10, Math.round(10 * raw))) : 0;
  });
}

describe('nodeScores', () => {
  const quantity = fc.oneof(
    fc.constantFrom(0, 1, 500, 4000, 8 * GiB, 1e308 * 10),
    fc.integer({ min: 0, max: 64_000 }),
    fc.double({ min: 0, max: 1e12, noNaN: true }),
  );
  const resources = fc.record({ cpu: quantity, memory: quantity, 'nvidia.com/gpu': fc.integer({ min: 0, max: 4 }) }, { requiredKeys: [] });
  const extenderNode = fc.record({
    labels: fc.constant({}),
    taints: fc.constant([]),
    allocatable: resources,
    requested: resources,
    pricePerHour: fc.option(
      fc.oneof(fc.double({ min: 0, max: 10, noNaN: true }), fc.constantFrom(-1, Number.NaN, Number.POSITIVE_INFINITY, 0)),
      { nil: undefined },
    ),
    state: fc.constantFrom<ExtenderNodeState>('ok', 'disrupting', 'terminating', 'consolidation-candidate', 'drifted'),
  });

  it('agrees with the formula written over objects, for any nodes and pod (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(extenderNode, { nil: undefined }), { maxLength: 30 }), resources, (nodes, requests) => {
        const pod = podDemand(requests);
        expect(Array.from(nodeScores(ExtenderNodeColumns.of(nodes), pod, UnknownNodeScore))).toEqual(referenceScores(nodes, pod));
      }),
      { numRuns: 500 },
    );
  });

  it('scores a node the pod would overflow (a stale view) for its price only', () => {
    const full = node({ requested: { cpu: 3500, memory: 0 } });
    const pod = podDemand({ cpu: 1000, memory: 2 * GiB });
    // Packing 0, price score 1 (the only node): round(10 × 0.4).
    expect(Array.from(nodeScores(ExtenderNodeColumns.of([full]), pod, UnknownNodeScore))).toEqual([4]);
  });
});

describe('prioritize', () => {
  it('prefers the busier node of two equally priced ones', () => {
    const view = new Map([
      ['busy', node({ requested: { cpu: 2000, memory: 4 * GiB } })],
      ['idle', node()],
    ]);
    const s = scores(view, ['busy', 'idle']);
    expect(s.busy).toBeGreaterThan(s.idle as number);
  });

  it('prefers the node where the pod costs less', () => {
    const view = new Map([
      ['cheap', node({ pricePerHour: 0.05 })],
      ['dear', node({ pricePerHour: 0.2 })],
    ]);
    const s = scores(view, ['cheap', 'dear']);
    expect(s.cheap).toBeGreaterThan(s.dear as number);
  });

  it('avoids consolidation candidates and drifted nodes', () => {
    const view = new Map([
      ['ok', node()],
      ['candidate', node({ state: 'consolidation-candidate' })],
      ['drifted', node({ state: 'drifted' })],
    ]);
    const s = scores(view, ['ok', 'candidate', 'drifted']);
    expect(s.ok).toBeGreaterThan(s.candidate as number);
    expect(s.ok).toBeGreaterThan(s.drifted as number);
  });

  it('gives unknown nodes the midpoint and keeps the input order', () => {
    const list = prioritize(args(['ghost', 'known']), new Map([['known', node()]]));
    expect(list.map((h) => h.Host)).toEqual(['ghost', 'known']);
    expect(list[0]?.Score).toBe(UnknownNodeScore);
  });

  it('scores a pod without requests by packing alone', () => {
    const view = new Map([
      ['busy', node({ requested: { cpu: 3000, memory: 6 * GiB }, pricePerHour: 0.5 })],
      ['idle', node({ pricePerHour: 0.01 })],
    ]);
    const s = scores(view, ['busy', 'idle'], pod());
    expect(s.busy).toBeGreaterThan(s.idle as number);
  });

  it('reads labels, taints and allocatable from full Node objects', () => {
    const full: ExtenderArgs = {
      Pod: pod({ cpu: '1' }),
      Nodes: {
        items: [
          nodeObject('small', { allocatable: { cpu: '2', memory: '4Gi' } }),
          nodeObject('big', { allocatable: { cpu: '16', memory: '64Gi' } }),
        ],
      },
      NodeNames: null,
    };
    const list = prioritize(full, new Map());
    expect(list.map((h) => h.Host)).toEqual(['small', 'big']);
    expect(list[0]?.Score).toBeGreaterThan(list[1]?.Score as number);
  });
});

describe('prioritize properties', () => {
  const stateArb = fc.constantFrom<ExtenderNodeState>('ok', 'disrupting', 'terminating', 'consolidation-candidate', 'drifted');
  const nodeArb = fc.record({
    state: stateArb,
    pricePerHour: fc.option(fc.double({ min: 0, max: 50, noNaN: true }), { nil: undefined }),
    allocCpu: fc.integer({ min: 0, max: 256_000 }),
    allocMem: fc.integer({ min: 0, max: 2 ** 40 }),
    usedCpu: fc.integer({ min: 0, max: 300_000 }),
    usedMem: fc.integer({ min: 0, max: 2 ** 41 }),
  });
  const podArb = fc.record({ cpu: fc.integer({ min: 0, max: 64_000 }), mem: fc.integer({ min: 0, max: 2 ** 36 }) });

  it('returns one integer score in 0..10 per input node, in order, deterministically', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 5 }), fc.option(nodeArb, { nil: undefined })), { maxLength: 25 }),
        podArb,
        (entries, p) => {
          const view = new Map<string, ExtenderNode>();
          for (const [name, n] of entries) {
            if (n)
              view.set(
                name,
                node({
                  state: n.state,
                  pricePerHour: n.pricePerHour,
                  allocatable: { cpu: n.allocCpu, memory: n.allocMem },
                  requested: { cpu: n.usedCpu, memory: n.usedMem },
                }),
              );
          }
          const names = entries.map(([name]) => name);
          const podSpec = pod({ cpu: `${p.cpu}m`, memory: `${p.mem}` });
          const list = prioritize(args(names, podSpec), view);
          expect(list.map((h) => h.Host)).toEqual(names);
          for (const h of list) {
            expect(Number.isInteger(h.Score)).toBe(true);
            expect(h.Score).toBeGreaterThanOrEqual(0);
            expect(h.Score).toBeLessThanOrEqual(MaxExtenderPriority);
          }
          expect(prioritize(args(names, podSpec), view)).toEqual(list);
        },
      ),
    );
  });
});
