import { describe, expect, it } from 'vitest';
import { bundledInstanceTypes } from '../../../../src/cli/commands/plan.js';
import { schedulingInputFromManifests } from '../../../../src/domain/scheduling/manifest-input.js';
import { solve } from '../../../../src/domain/scheduling/index.js';
import { readManifestPaths } from '../../../../src/util/manifest-files.js';

function planFor(workload: string) {
  const manifests = readManifestPaths(['manifests/examples/ovhcloud', `manifests/examples/workloads/${workload}`]);
  const { input, errors } = schedulingInputFromManifests(manifests.objects, bundledInstanceTypes);
  expect(errors).toEqual([]);
  return solve(input);
}

describe('plans for the OVHcloud demo workloads (EU-WEST-PAR, bundled catalog)', () => {
  it('puts the small inflate deployment on one b3-8', () => {
    const plan = planFor('inflate.yaml');
    expect(plan.unschedulable).toEqual([]);
    expect(plan.newNodeClaims.map((c) => [c.nodePool, c.instanceType, c.pods.length])).toEqual([['default', 'b3-8', 3]]);
  });

  it('moves the large deployment to b3-32', () => {
    const plan = planFor('inflate-large.yaml');
    expect(plan.newNodeClaims.map((c) => c.instanceType)).toEqual(['b3-32']);
    expect(plan.newNodeClaims[0]?.pods).toEqual(['default/inflate-large-0', 'default/inflate-large-1']);
  });

  it('spreads the zone-spread deployment over the three EU-WEST-PAR zones', () => {
    const plan = planFor('zone-spread.yaml');
    const perZone: Record<string, number> = {};
    for (const c of plan.newNodeClaims) perZone[c.zone] = (perZone[c.zone] ?? 0) + c.pods.length;
    expect(perZone).toEqual({ 'eu-west-par-a': 2, 'eu-west-par-b': 2, 'eu-west-par-c': 2 });
    expect(plan.newNodeClaims.every((c) => c.instanceType === 'b3-8')).toBe(true);
  });

  it('puts the GPU pod on an L4 flavor of the gpu NodePool only', () => {
    const plan = planFor('gpu-pod.yaml');
    expect(plan.newNodeClaims).toHaveLength(1);
    const claim = plan.newNodeClaims[0];
    expect(claim?.nodePool).toBe('gpu');
    expect(claim?.instanceType).toMatch(/^l4-/);
    expect(claim?.instanceTypeOptions.every((o) => o.name.startsWith('l4-'))).toBe(true);
  });
});
