import { describe, expect, it } from 'vitest';
import { computeSingleNodeConsolidation, findCandidates, simulateWithout } from '../../../../src/domain/disruption/index.js';
import { clusterNode, disruptionInput, inFlightClaim, pods, types } from './fixtures.js';

const [, s4, s8] = types() as [ReturnType<typeof types>[number], ReturnType<typeof types>[number], ReturnType<typeof types>[number]];

describe('simulateWithout: what a plan may count on (upstream SimulateScheduling)', () => {
  it('refuses a plan that moves a candidate’s pods onto a NodeClaim not initialized yet', () => {
    const input = disruptionInput([clusterNode('big', s8, pods('a', 1, '1')), inFlightClaim('launching', s4)]);
    const [candidate] = findCandidates(input).candidates;
    const sim = simulateWithout([candidate!], input);
    expect(sim.result.existingNodeAssignments).toEqual([{ node: 'launching', pods: ['default/a-0'] }]);
    expect(sim.allScheduled).toBe(false);
    expect(sim.blocked).toEqual({ 'default/a-0': 'would schedule to launching, which is not initialized yet' });
    // Not a delete on the strength of a node that may never come up.
    expect(computeSingleNodeConsolidation(input)?.decision).not.toBe('delete');
  });

  it('lets pending pods and pods of nodes already being deleted go to a NodeClaim not initialized yet', () => {
    const deleting = clusterNode('going', s4, pods('d', 1, '1'), { markedForDeletion: true });
    const input = disruptionInput([clusterNode('big', s8, []), deleting, inFlightClaim('launching', s4)], undefined, {
      pendingPods: pods('p', 1, '1'),
    });
    const candidate = findCandidates(input).candidates.find((c) => c.name === 'big')!;
    const sim = simulateWithout([candidate], input);
    expect(sim.result.existingNodeAssignments).toEqual([{ node: 'launching', pods: ['default/d-0', 'default/p-0'] }]);
    expect(sim.allScheduled).toBe(true);
  });

  it('does not let a pending pod that fits nowhere block consolidation (it was pending before and stays so)', () => {
    const nodes = [clusterNode('a', s4, pods('a', 1, '1')), clusterNode('b', s4, pods('b', 1, '1'))];
    const input = disruptionInput(nodes, undefined, { pendingPods: pods('huge', 1, '64') });
    const cmd = computeSingleNodeConsolidation(input);
    expect(cmd?.decision).toBe('delete');
    const sim = simulateWithout(findCandidates(input).candidates.slice(0, 1), input);
    expect(sim.result.unschedulable.map((u) => u.pod)).toEqual(['default/huge-0']);
    expect(sim.allScheduled).toBe(true);
  });

  it('still refuses a plan in which a candidate’s own pod fits nowhere', () => {
    const input = disruptionInput([clusterNode('big', s8, pods('wide', 1, '64'))]);
    const sim = simulateWithout(findCandidates(input).candidates, input);
    expect(sim.allScheduled).toBe(false);
    expect(Object.keys(sim.blocked)).toEqual(['default/wide-0']);
  });
});
