import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { budgetMapping, decide, findCandidates, simulateWithout } from '../../../../src/domain/disruption/index.js';
import { podsSchedulingRequests } from '../../../../src/domain/pods/index.js';
import { parseResourceList } from '../../../../src/domain/quantity/index.js';
import { apiNodePool, clusterNode, disruptionInput, pods, types } from './fixtures.js';

const budgetArb = fc.oneof(fc.constantFrom('0', '1', '2', '5'), fc.constantFrom('10%', '34%', '100%'));
const nodeArb = fc.record({
  type: fc.integer({ min: 0, max: 3 }),
  podCount: fc.integer({ min: 0, max: 6 }),
  milli: fc.constantFrom(100, 250, 500, 1000),
  drifted: fc.boolean(),
});
const clusterArb = fc.record({
  nodes: fc.array(nodeArb, { minLength: 1, maxLength: 8 }),
  budget: budgetArb,
  policy: fc.constantFrom('WhenEmpty' as const, 'WhenEmptyOrUnderutilized' as const),
});

interface Cluster {
  nodes: { type: number; podCount: number; milli: number; drifted: boolean }[];
  budget: string;
  policy: 'WhenEmpty' | 'WhenEmptyOrUnderutilized';
}

function build(c: Cluster) {
  const all = types();
  const nodes = c.nodes.map((n, i) =>
    clusterNode(
      `n${i}`,
      all[n.type] as never,
      pods(`p${i}`, n.podCount, `${n.milli}m`),
      n.drifted ? { cloudDriftReason: 'ImageDrifted' } : {},
    ),
  );
  return disruptionInput(nodes, [apiNodePool('default', { budgets: [{ nodes: c.budget }], consolidationPolicy: c.policy })]);
}

describe('disruption decisions (properties)', () => {
  it('never exceed the budget of the command reason', () => {
    fc.assert(
      fc.property(clusterArb, (c) => {
        const input = build(c);
        const d = decide(input);
        if (!d) return;
        expect(d.command.candidates.length).toBeLessThanOrEqual(budgetMapping(input, d.command.reason).allowed.get('default') ?? 0);
      }),
      { numRuns: 60 },
    );
  });

  it("a delete command's pods fit on the remaining nodes per the simulation (and by plain capacity)", () => {
    fc.assert(
      fc.property(clusterArb, (c) => {
        const input = build(c);
        const d = decide(input);
        if (!d || d.command.decision !== 'delete') return;
        const chosen = findCandidates(input).candidates.filter((x) => d.command.candidates.includes(x.nodeClaimName));
        const sim = simulateWithout(chosen, input);
        expect(sim.result.unschedulable).toEqual([]);
        expect(sim.result.newNodeClaims).toEqual([]);
        const moved = podsSchedulingRequests(chosen.flatMap((x) => x.reschedulablePods)).cpu ?? 0;
        const free = input.nodes
          .filter((n) => !d.command.candidateNodes.includes(n.name))
          // The generator may overcommit a node (pods bound beyond allocatable): its free capacity is 0, not negative.
          .reduce(
            (sum, n) =>
              sum + Math.max(0, (parseResourceList(n.node?.status?.allocatable).cpu ?? 0) - (podsSchedulingRequests(n.pods).cpu ?? 0)),
            0,
          );
        expect(moved).toBeLessThanOrEqual(free);
      }),
      { numRuns: 60 },
    );
  });

  it('consolidation replacements are strictly cheaper and single', () => {
    fc.assert(
      fc.property(clusterArb, (c) => {
        const d = decide(build(c));
        if (!d || d.command.reason !== 'Underutilized' || d.command.decision !== 'replace') return;
        expect(d.command.replacements).toHaveLength(1);
        expect(d.command.pricePerHourAfter).toBeLessThan(d.command.pricePerHourBefore);
        for (const o of d.command.replacements[0]?.instanceTypeOptions ?? [])
          expect(o.pricePerHour).toBeLessThan(d.command.pricePerHourBefore);
      }),
      { numRuns: 60 },
    );
  });

  it('are deterministic and WhenEmpty pools only ever get Empty or Drifted commands', () => {
    fc.assert(
      fc.property(clusterArb, (c) => {
        const a = decide(build(c));
        expect(decide(build(c))).toEqual(a);
        if (c.policy === 'WhenEmpty' && a) expect(['Empty', 'Drifted']).toContain(a.command.reason);
      }),
      { numRuns: 40 },
    );
  });
});
