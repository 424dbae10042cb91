import { describe, expect, it } from 'vitest';
import {
  exceededLimits,
  nodeFits,
  remainingLimits,
  resourcesFit,
  usageAsResourceList,
  usageByNodePool,
} from '../../../../src/domain/nodepool/index.js';

const GiB = 2 ** 30;

describe('NodePool limits: what a NodePool may still add, and whether an addition fits', () => {
  it.each([
    { limits: { cpu: 8000 }, usage: { resources: { cpu: 4000 }, nodes: 1 }, add: { cpu: 4000 }, exceeded: [] },
    { limits: { cpu: 8000 }, usage: { resources: { cpu: 4001 }, nodes: 1 }, add: { cpu: 4000 }, exceeded: ['cpu'] },
    {
      limits: { cpu: 8000, memory: 16 * GiB },
      usage: { resources: { memory: 12 * GiB }, nodes: 1 },
      add: { cpu: 2000, memory: 8 * GiB },
      exceeded: ['memory'],
    },
    { limits: { nodes: 2 }, usage: { resources: {}, nodes: 2 }, add: { cpu: 1000 }, exceeded: ['nodes'] },
    {
      limits: { 'nvidia.com/gpu': 4 },
      usage: { resources: { 'nvidia.com/gpu': 6 }, nodes: 3 },
      add: { cpu: 1000 },
      exceeded: ['nvidia.com/gpu'],
    },
    { limits: {}, usage: { resources: { cpu: 1e9 }, nodes: 1000 }, add: { cpu: 1e9 }, exceeded: [] },
  ])('limits $limits, usage $usage, adding one node of $add → $exceeded', ({ limits, usage, add, exceeded }) => {
    const remaining = remainingLimits(
      limits as Record<string, number>,
      usageAsResourceList(usage as { resources: Record<string, number>; nodes: number }),
    );
    expect(exceededLimits(remaining, add as Record<string, number>)).toEqual(exceeded);
    // The scheduler's per-candidate form agrees on the resources; `nodes` it checks when a claim opens.
    expect(resourcesFit(remaining, add as Record<string, number>, {})).toBe(
      (exceeded as string[]).filter((n) => n !== 'nodes').length === 0,
    );
    expect(nodeFits(remaining)).toBe(!(exceeded as string[]).includes('nodes'));
  });

  it('counts capacity a claim gives back when it changes its instance type', () => {
    const remaining = remainingLimits({ cpu: 8000 }, { cpu: 6000 });
    expect(resourcesFit(remaining, { cpu: 4000 }, {})).toBe(false);
    expect(resourcesFit(remaining, { cpu: 4000 }, { cpu: 2000 })).toBe(true);
    expect(exceededLimits(remaining, { cpu: 4000 }, 0, { cpu: 2000 })).toEqual([]);
  });

  it('sums usage per NodePool, one node each, nodes of no NodePool left out', () => {
    expect(
      usageByNodePool([
        { nodePool: 'a', capacity: { cpu: 2000 } },
        { nodePool: 'a', capacity: { cpu: 4000, memory: GiB } },
        { nodePool: 'b', capacity: {} },
        { capacity: { cpu: 64_000 } },
      ]),
    ).toEqual({ a: { resources: { cpu: 6000, memory: GiB }, nodes: 2 }, b: { resources: {}, nodes: 1 } });
  });
});
