import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  combineScore,
  ExtenderNodeColumns,
  StateFactors,
  MaxExtenderPriority,
  packingAfterPlacement,
  podCostOnNode,
  podDemand,
  prioritize,
  priceScore,
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
    ['node the pod overflows (stale view)', { cpu: 3500, memory: 0 }, 0],
  ])('packing on a %s', (_label, requested, expected) => {
    expect(packingAfterPlacement(ExtenderNodeColumns.of([node({ requested })]).columns, 0, podDemand({ cpu: 1000, memory: 2 * GiB }))).toBeCloseTo(expected);
  });

  it.each([
    [0.1, { cpu: 1000 }, 0.025],
    [0.1, { cpu: 1000, memory: 4 * GiB }, 0.05],
    [0.1, {}, 0],
    [undefined, { cpu: 1000 }, undefined],
  ])('pod cost at %s EUR/h for %o is %s', (price, requests, expected) => {
    const cost = podCostOnNode(ExtenderNodeColumns.of([node({ pricePerHour: price })]).columns, 0, podDemand(requests));
    if (expected === undefined) expect(cost).toBeUndefined();
    else expect(cost).toBeCloseTo(expected);
  });

  it.each([
    [0.05, 0.05, 1],
    [0.1, 0.05, 0.5],
    [undefined, 0.05, UnknownPriceScore],
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
  ] as const)('combined score of a %s node (packing %s, price %s) is %s', (state, packing, price, expected) => {
    expect(combineScore(StateFactors[state], packing, price)).toBe(expected);
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
    const full: ExtenderArgs = { Pod: pod({ cpu: '1' }), Nodes: { items: [nodeObject('small', { allocatable: { cpu: '2', memory: '4Gi' } }), nodeObject('big', { allocatable: { cpu: '16', memory: '64Gi' } })] }, NodeNames: null };
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
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 5 }), fc.option(nodeArb, { nil: undefined })), { maxLength: 25 }), podArb, (entries, p) => {
        const view = new Map<string, ExtenderNode>();
        for (const [name, n] of entries) {
          if (n) view.set(name, node({ state: n.state, pricePerHour: n.pricePerHour, allocatable: { cpu: n.allocCpu, memory: n.allocMem }, requested: { cpu: n.usedCpu, memory: n.usedMem } }));
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
      }),
    );
  });
});
