import { describe, expect, it } from 'vitest';
import type { InstanceType } from '../../../../src/domain/instancetypes/types.js';
import {
  adjustedPrice,
  applyNodeOverlays,
  type NodeOverlayLike,
  nodeOverlayConditions,
  overlayTargets,
  priceAdjustmentProblem,
  priceChangeOf,
  resolveOverlays,
} from '../../../../src/domain/nodeoverlay/index.js';

function type(name: string, family: string, price: number, gpus = 0): InstanceType {
  return {
    name,
    cloud: 'scaleway',
    region: 'fr-par',
    labels: { 'karpenter-eu.io/instance-family': family },
    capacity: { cpu: 8000, memory: 32 * 2 ** 30, pods: 110, ...(gpus ? { 'nvidia.com/gpu': gpus } : {}) },
    allocatable: { cpu: 7900, memory: 30 * 2 ** 30, pods: 110, ...(gpus ? { 'nvidia.com/gpu': gpus } : {}) },
    offerings: ['fr-par-1', 'fr-par-2'].map((zone) => ({ zone, capacityType: 'on-demand' as const, pricePerHour: price, available: true })),
  };
}

const types = [type('PRO2-S', 'PRO2', 0.1), type('POP2-8C', 'POP2', 0.12), type('L4-1-24G', 'l4', 0.75, 1)];
const pool = { name: 'default', labels: { team: 'ml' } };

function overlay(name: string, spec: NodeOverlayLike['spec']): NodeOverlayLike {
  return { metadata: { name }, spec };
}
const family = (f: string) => [{ key: 'karpenter-eu.io/instance-family', operator: 'In' as const, values: [f] }];
const prices = (out: InstanceType[], name: string) => out.find((t) => t.name === name)?.offerings.map((o) => o.pricePerHour);

describe('price changes (upstream AdjustedPrice)', () => {
  it.each([
    ['+25%', 0.1, 0.125],
    ['-10%', 0.1, 0.09],
    ['-100%', 0.1, 0],
    ['+0.05', 0.1, 0.15],
    ['-0.5', 0.1, 0],
  ])('%s of %d is %d (never below zero)', (change, base, expected) => {
    const parsed = priceChangeOf({ priceAdjustment: change });
    expect(parsed).toBeDefined();
    expect(adjustedPrice(base, parsed as NonNullable<typeof parsed>)).toBeCloseTo(expected, 12);
  });

  it('replaces the price with spec.price', () => {
    expect(adjustedPrice(0.1, priceChangeOf({ price: '0.02' }) as NonNullable<ReturnType<typeof priceChangeOf>>)).toBe(0.02);
  });

  it.each(['25%', '-101%', '+', 'ten', '+10%%', '-150%'])('refuses %s, naming the forms accepted', (value) => {
    expect(priceAdjustmentProblem(value)).toMatch(/is not a price adjustment: .*'\+0\.05'.*'\+25%'.*'-10%'/);
  });
});

describe('applyNodeOverlays', () => {
  it('reprices every offering of the selected family and leaves the others as they are', () => {
    const out = applyNodeOverlays(types, pool, [overlay('pro2-dearer', { requirements: family('PRO2'), priceAdjustment: '+25%' })]);
    expect(prices(out, 'PRO2-S')).toEqual([0.125, 0.125]);
    expect(out[1]).toBe(types[1]);
    expect(types[0]?.offerings[0]?.pricePerHour).toBe(0.1);
  });

  it('selects on zone, NodePool name and template labels too', () => {
    const out = applyNodeOverlays(types, pool, [
      overlay('zone-1', { requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['fr-par-1'] }], price: '0.01' }),
      overlay('other-team', { weight: 5, requirements: [{ key: 'team', operator: 'In', values: ['web'] }], price: '9' }),
    ]);
    expect(prices(out, 'POP2-8C')).toEqual([0.01, 0.12]);
    const inPool = applyNodeOverlays(types, { name: 'gpu' }, [
      overlay('gpu-pool', { requirements: [{ key: 'karpenter.sh/nodepool', operator: 'In', values: ['gpu'] }], priceAdjustment: '-50%' }),
    ]);
    expect(prices(inPool, 'L4-1-24G')).toEqual([0.375, 0.375]);
  });

  it('lets the higher weight set the price, whatever the names', () => {
    const out = applyNodeOverlays(types, pool, [
      overlay('a-heavy', { weight: 10, requirements: family('PRO2'), price: '0.5' }),
      overlay('z-light', { weight: 1, requirements: [], priceAdjustment: '+100%' }),
    ]);
    expect(prices(out, 'PRO2-S')).toEqual([0.5, 0.5]);
    expect(prices(out, 'POP2-8C')).toEqual([0.24, 0.24]);
  });

  it('adds extended resources to capacity and allocatable, merging overlays, the heavier one winning per resource', () => {
    const out = applyNodeOverlays(types, pool, [
      overlay('time-slicing', { weight: 10, requirements: family('l4'), capacity: { 'nvidia.com/gpu': 4 } }),
      overlay('fuse', { weight: 1, requirements: [], capacity: { 'smarter-devices/fuse': 1, 'nvidia.com/gpu': 2 } }),
    ]);
    const l4 = out.find((t) => t.name === 'L4-1-24G');
    expect(l4?.capacity['nvidia.com/gpu']).toBe(4);
    expect(l4?.allocatable['nvidia.com/gpu']).toBe(4);
    expect(l4?.allocatable['smarter-devices/fuse']).toBe(1);
    expect(l4?.allocatable.cpu).toBe(7900);
    expect(out.find((t) => t.name === 'PRO2-S')?.allocatable['nvidia.com/gpu']).toBe(2);
  });

  it('does not apply the second of two equal-weight overlays pricing one offering, and says which and where', () => {
    const overlays = [
      overlay('b-discount', { weight: 3, requirements: family('PRO2'), priceAdjustment: '-10%' }),
      overlay('a-markup', { weight: 3, requirements: [], priceAdjustment: '+10%' }),
    ];
    const resolution = resolveOverlays(overlays, overlayTargets(types, pool));
    // Equal weights: the name later in the alphabet is taken first (upstream's OrderByWeight).
    expect(resolution.conflicts).toEqual([
      { overlay: 'a-markup', with: 'b-discount', weight: 3, field: 'price', zone: 'fr-par-1', instanceType: 'PRO2-S' },
    ]);
    const out = applyNodeOverlays(types, pool, overlays);
    expect(prices(out, 'PRO2-S')).toEqual([0.09, 0.09]);
    expect(prices(out, 'POP2-8C')).toEqual([0.12, 0.12]);
    const conditions = nodeOverlayConditions('a-markup', undefined, resolution, Date.UTC(2026, 0, 1));
    expect(conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['ValidationSucceeded', 'False', 'Conflict'],
      ['Ready', 'False', 'Conflict'],
    ]);
    expect(conditions[0]?.message).toBe(
      'NodeOverlay a-markup conflicts with NodeOverlay b-discount: at the same weight (3) they both set the price of PRO2-S in fr-par-1 (spec.price/spec.priceAdjustment); give one of them a higher spec.weight to make it win, or narrow spec.requirements so they select different instance types',
    );
    expect(nodeOverlayConditions('b-discount', undefined, resolution, 0).map((c) => c.status)).toEqual(['True', 'True']);
  });

  it('lets equal-weight overlays coexist on different families or different resources', () => {
    const resolution = resolveOverlays(
      [
        overlay('pro2', { requirements: family('PRO2'), priceAdjustment: '-10%', capacity: { 'example.com/a': 1 } }),
        overlay('pop2', { requirements: family('POP2'), priceAdjustment: '+10%' }),
        overlay('any', { requirements: [], capacity: { 'example.com/b': 1 } }),
      ],
      overlayTargets(types, pool),
    );
    expect(resolution.conflicts).toEqual([]);
    expect(resolution.applied.map((o) => o.name)).toEqual(['pro2', 'pop2', 'any']);
  });

  it('finds equal-weight overlays setting one resource of one type in conflict', () => {
    const resolution = resolveOverlays(
      [
        overlay('slices', { requirements: family('l4'), capacity: { 'nvidia.com/gpu': 4 } }),
        overlay('mig', { requirements: [], capacity: { 'nvidia.com/gpu': 7 } }),
      ],
      overlayTargets(types, pool),
    );
    expect(resolution.conflicts).toEqual([
      { overlay: 'mig', with: 'slices', weight: 0, field: 'capacity', resource: 'nvidia.com/gpu', instanceType: 'L4-1-24G' },
    ]);
  });
});
