import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { optimumPrice } from '../../../../bench/scheduling-optimum.js';
import { podRequests } from '../../../../src/domain/pods/index.js';
import { solve } from '../../../../src/domain/scheduling/index.js';
import { instanceType, nodePool, pod } from './helpers.js';

// Prices that make the greedy passes miss: two halves are cheaper than one double, but not always.
const types = [
  instanceType('a-1', 1, 2, 0.03),
  instanceType('a-2', 2, 4, 0.05),
  instanceType('a-4', 4, 8, 0.11),
  instanceType('a-8', 8, 16, 0.19),
];
const oracle = (pods: ReturnType<typeof pod>[]) =>
  optimumPrice(
    pods.map((p) => ({ cpu: podRequests(p).cpu ?? 0, memory: podRequests(p).memory ?? 0 })),
    types,
  );

describe('exact repacking of small groups of new NodeClaims', () => {
  it('reaches the exact optimum on small plain batches (property, against brute force over set partitions)', () => {
    const cpus = ['100m', '250m', '500m', '900m', '1500m', '3'];
    const mems = [128, 256, 512, 1024, 2048, 4096];
    fc.assert(
      fc.property(
        fc.array(fc.record({ cpu: fc.constantFrom(...cpus), mem: fc.constantFrom(...mems) }), { minLength: 1, maxLength: 9 }),
        (specs) => {
          const pods = specs.map((s, i) => pod(`p${i}`, s.cpu, `${s.mem}Mi`));
          const result = solve({ pods, nodePools: [nodePool('default', types)] });
          expect(result.unschedulable).toEqual([]);
          expect(result.totalPricePerHour).toBeCloseTo(oracle(pods), 6);
          // Still a valid plan: every pod once, on a claim whose chosen type holds it.
          expect(result.newNodeClaims.flatMap((c) => c.pods).sort()).toEqual(pods.map((p) => `default/${p.metadata?.name}`).sort());
          const ffd = solve({ pods, nodePools: [nodePool('default', types)], options: { optimize: false } });
          expect(result.totalPricePerHour).toBeLessThanOrEqual(ffd.totalPricePerHour + 1e-9);
        },
      ),
      { numRuns: 150, seed: 11 },
    );
  });

  it('reaches the optimum where one big node is dearer than two smaller ones, with distinct hostnames and valid claims', () => {
    // 3 × 1.5 CPU: a-8 holds all three (0.19) but a-2 + a-4 (1.5 | 3 CPU) costs 0.16.
    const pods = [pod('x', '1500m', '1Gi'), pod('y', '1500m', '1Gi'), pod('z', '1500m', '1Gi')];
    const result = solve({ pods, nodePools: [nodePool('default', types)] });
    expect(result.totalPricePerHour).toBeCloseTo(oracle(pods), 6);
    expect(new Set(result.newNodeClaims.map((c) => c.hostname)).size).toBe(result.newNodeClaims.length);
    for (const c of result.newNodeClaims) expect(c.instanceTypeOptions[0]?.name).toBe(c.instanceType);
  });

  it('leaves a batch with topology constraints to the greedy passes', () => {
    const spread = {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule' as const,
          labelSelector: { matchLabels: { app: 's' } },
        },
      ],
    };
    const pods = [
      pod('s0', '1500m', '1Gi', spread, { app: 's' }),
      pod('s1', '1500m', '1Gi', spread, { app: 's' }),
      pod('s2', '1500m', '1Gi', spread, { app: 's' }),
    ];
    const result = solve({ pods, nodePools: [nodePool('default', types)] });
    // One node per zone, as the spread demands: never merged into fewer by the repacking.
    expect(new Set(result.newNodeClaims.map((c) => c.zone)).size).toBe(3);
  });

  it('respects NodePool limits: a cheaper partition needing more nodes than allowed is not taken', () => {
    const pods = [pod('x', '1500m', '1Gi'), pod('y', '1500m', '1Gi'), pod('z', '1500m', '1Gi')];
    const limited = solve({ pods, nodePools: [nodePool('default', types, { limits: { nodes: 1 } })] });
    expect(limited.newNodeClaims.length).toBeLessThanOrEqual(1);
  });
});
